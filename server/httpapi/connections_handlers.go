package httpapi

// Bank and broker connections (issue 15, server/connect): the providers and whether each is
// configured, institutions by country, starting a link (or a renewal), completing it when the
// institution sends the user back, choosing which accounts become assets, and refreshing
// balances within the provider's limits. Who may do what is decided by the service (authz:
// connection.read for members, connection.manage for owners and editors).

import (
	"net/http"
	"net/url"

	"github.com/go-chi/chi/v5"

	"patrimonio/server/connect"
)

// providersJSON answers GET /connections/providers. importPath is where a statement can be
// imported instead (on the device, offline too).
type providersJSON struct {
	Providers  []connect.ProviderInfo `json:"providers"`
	ImportPath string                 `json:"importPath"`
}

// GET /api/v1/connections/providers → the providers, configured or not.
func (a *api) connectionProviders(w http.ResponseWriter, r *http.Request) {
	if a.connections == nil {
		a.notFound(w, r)
		return
	}
	writeJSON(w, http.StatusOK, providersJSON{Providers: a.connections.Providers(), ImportPath: "/import"})
}

// GET /api/v1/connections/institutions?provider=&country= → {institutions}.
func (a *api) connectionInstitutions(w http.ResponseWriter, r *http.Request) {
	if a.connections == nil {
		a.notFound(w, r)
		return
	}
	q := r.URL.Query()
	list, err := a.connections.Institutions(r.Context(), q.Get("provider"), q.Get("country"))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if list == nil {
		list = []connect.Institution{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"institutions": list})
}

// GET /api/v1/workspaces/{id}/connections → {connections} (every member).
func (a *api) listConnections(w http.ResponseWriter, r *http.Request) {
	if a.connections == nil {
		a.notFound(w, r)
		return
	}
	list, err := a.connections.List(r.Context(), callerID(r), chi.URLParam(r, "id"))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"connections": list})
}

// POST /api/v1/connections {workspaceId, provider, institutionId, country?, language?} →
// 201 {connectionId, redirectUrl}: send the user to redirectUrl.
func (a *api) startConnection(w http.ResponseWriter, r *http.Request) {
	if a.connections == nil {
		a.notFound(w, r)
		return
	}
	var req struct {
		WorkspaceID   string `json:"workspaceId"`
		Provider      string `json:"provider"`
		InstitutionID string `json:"institutionId"`
		Country       string `json:"country"`
		Language      string `json:"language"`
	}
	if err := decodeValid(w, r, "connectionStartRequest", &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	started, err := a.connections.Start(r.Context(), callerID(r), connect.StartRequest{WorkspaceID: req.WorkspaceID, Provider: req.Provider,
		InstitutionID: req.InstitutionID, Country: req.Country, Language: req.Language})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, started)
}

// POST /api/v1/connections/{id}/renew {language?} → 201 {connectionId, redirectUrl}.
func (a *api) renewConnection(w http.ResponseWriter, r *http.Request) {
	if a.connections == nil {
		a.notFound(w, r)
		return
	}
	var req struct {
		Language string `json:"language"`
	}
	if err := decodeValid(w, r, "connectionRenewRequest", &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	id := chi.URLParam(r, "id")
	c, err := a.connections.Get(r.Context(), callerID(r), id)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	started, err := a.connections.Start(r.Context(), callerID(r), connect.StartRequest{WorkspaceID: c.WorkspaceID, RenewConnectionID: id, Language: req.Language})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, started)
}

// POST /api/v1/connections/complete {state, params} → the connection with the accounts found.
func (a *api) completeConnection(w http.ResponseWriter, r *http.Request) {
	if a.connections == nil {
		a.notFound(w, r)
		return
	}
	var req struct {
		State  string            `json:"state"`
		Params map[string]string `json:"params"`
	}
	if err := decodeValid(w, r, "connectionCompleteRequest", &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	params := url.Values{}
	for k, v := range req.Params {
		params.Set(k, v)
	}
	c, err := a.connections.Complete(r.Context(), callerID(r), req.State, params)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, c)
}

// GET /api/v1/connections/{id} → the connection.
func (a *api) getConnection(w http.ResponseWriter, r *http.Request) {
	if a.connections == nil {
		a.notFound(w, r)
		return
	}
	c, err := a.connections.Get(r.Context(), callerID(r), chi.URLParam(r, "id"))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, c)
}

// POST /api/v1/connections/{id}/assets {accounts: [{accountId, assetClass}]} → the connection,
// the chosen accounts now assets (synced records) with their first balance.
func (a *api) adoptConnectionAccounts(w http.ResponseWriter, r *http.Request) {
	if a.connections == nil {
		a.notFound(w, r)
		return
	}
	var req struct {
		Accounts []connect.Choice `json:"accounts"`
	}
	if err := decodeValid(w, r, "connectionAdoptRequest", &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	c, err := a.connections.Adopt(r.Context(), callerID(r), chi.URLParam(r, "id"), req.Accounts)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, c)
}

// POST /api/v1/connections/{id}/refresh → {refreshed, limited, connection}.
func (a *api) refreshConnection(w http.ResponseWriter, r *http.Request) {
	if a.connections == nil {
		a.notFound(w, r)
		return
	}
	res, err := a.connections.Refresh(r.Context(), callerID(r), chi.URLParam(r, "id"))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// DELETE /api/v1/connections/{id} → 204 (the assets and their valuations stay).
func (a *api) deleteConnection(w http.ResponseWriter, r *http.Request) {
	if a.connections == nil {
		a.notFound(w, r)
		return
	}
	if err := a.connections.Delete(r.Context(), callerID(r), chi.URLParam(r, "id")); err != nil {
		a.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
