// Package httpapi is Patrimonio's HTTP layer: the chi router with its one route table (routes.go),
// the middleware every request passes through, the JSON helpers, the /api/v1 handlers (one file
// per resource) and the built PWA served from disk. Handlers decode, validate, call a service and
// answer with a response helper; they hold no SQL.
package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"patrimonio/server"
)

// Database is what the HTTP layer needs to know about the database: which one it is and whether
// it answers. *store.DB satisfies it.
type Database interface {
	Dialect() server.Dialect
	Ping(ctx context.Context) error
}

// Deps are the services the handlers call. Later issues add theirs (accounts, sync, billing).
type Deps struct {
	DB     Database
	Logger *slog.Logger
}

// api holds what the handlers share. It is built once by New.
type api struct {
	cfg    server.Config
	db     Database
	logger *slog.Logger
	mux    *chi.Mux

	// pingTimeout bounds the database check of the health endpoint, so that an unreachable
	// database answers "degraded" instead of hanging the probe.
	pingTimeout time.Duration
	// Security headers, computed once from the configuration.
	csp  string
	hsts string
}

// New returns the handler of the whole server: /api/v1 and the PWA.
func New(cfg server.Config, deps Deps) http.Handler {
	return newAPI(cfg, deps).mux
}

func newAPI(cfg server.Config, deps Deps) *api {
	logger := deps.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	a := &api{
		cfg:         cfg,
		db:          deps.DB,
		logger:      logger,
		pingTimeout: 3 * time.Second,
		csp:         contentSecurityPolicy(cfg),
	}
	if cfg.PublicURLSecure() {
		a.hsts = "max-age=31536000"
	}
	a.mux = a.routes()
	return a
}
