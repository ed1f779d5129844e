package httpapi

// GET /api/v1/workspaces/{id}/devices: the devices (sync client ids) that wrote to a workspace and
// the member each belongs to, for the conflict notes of the PWA ("changed by Bea on another
// device"). Members only (authz in the workspace service).

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

type deviceJSON struct {
	ClientID  string `json:"clientId"`
	UserID    string `json:"userId"`
	Email     string `json:"email"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
}

// GET /api/v1/workspaces/{id}/devices → {devices: [device]}
func (a *api) workspaceDevices(w http.ResponseWriter, r *http.Request) {
	list, err := a.workspaces.Devices(r.Context(), callerID(r), chi.URLParam(r, "id"))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	out := make([]deviceJSON, 0, len(list))
	for _, d := range list {
		out = append(out, deviceJSON{ClientID: d.ClientID, UserID: d.UserID, Email: d.Email, FirstName: d.FirstName, LastName: d.LastName})
	}
	writeJSON(w, http.StatusOK, map[string][]deviceJSON{"devices": out})
}
