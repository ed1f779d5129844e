package httpapi

import (
	"context"
	"net/http"

	"patrimonio/core"
	"patrimonio/server/store"
	schema "patrimonio/shared-schema"
)

type healthResponse struct {
	Status   string         `json:"status"` // "ok" or "degraded"
	Version  string         `json:"version"`
	Database healthDatabase `json:"database"`
	Sync     healthSync     `json:"sync"`
}

// healthSync is what the sync socket speaks. A device the socket refuses for its version reads it
// here to tell which side is behind: an older app is told to update; a newer one (the server was
// rolled back) keeps its changes and tries again later, instead of being sent an older build.
type healthSync struct {
	ProtocolVersion int `json:"protocolVersion"`
	SchemaVersion   int `json:"schemaVersion"`
}

type healthDatabase struct {
	Dialect   store.Dialect `json:"dialect"`
	Reachable bool          `json:"reachable"`
}

// health answers GET /api/v1/health: 200 "ok" when the database answers, 503 "degraded" when it
// does not. It is meant for load balancers, uptime checks and the end-to-end tests, and tells a
// device the sync socket's versions (healthSync).
func (a *api) health(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), a.pingTimeout)
	defer cancel()
	resp := healthResponse{Status: "ok", Version: core.Version, Database: healthDatabase{Dialect: a.db.Dialect(), Reachable: true},
		Sync: healthSync{ProtocolVersion: schema.ProtocolVersion, SchemaVersion: schema.SchemaVersion}}
	status := http.StatusOK
	if err := a.db.Ping(ctx); err != nil {
		a.logger.WarnContext(r.Context(), "health: database unreachable", "err", err)
		resp.Status, resp.Database.Reachable = "degraded", false
		status = http.StatusServiceUnavailable
	}
	writeJSON(w, status, resp)
}
