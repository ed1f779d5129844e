// Package httpapi is Patrimonio's HTTP layer: the chi router with its one route table (routes.go),
// the middleware every request passes through, the JSON helpers, the /api/v1 handlers (one file
// per resource) and the built PWA served from disk. Handlers decode, validate, call a service and
// answer with a response helper; they hold no SQL.
package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"net/netip"
	"time"

	"github.com/go-chi/chi/v5"

	"patrimonio/server/account"
	"patrimonio/server/admin"
	"patrimonio/server/billing"
	"patrimonio/server/config"
	"patrimonio/server/enums"
	"patrimonio/server/fx"
	"patrimonio/server/passkey"
	"patrimonio/server/store"
	"patrimonio/server/workspace"
)

// Database is what the HTTP layer needs to know about the database: which one it is and whether
// it answers. *store.DB satisfies it.
type Database interface {
	Dialect() store.Dialect
	Ping(ctx context.Context) error
}

// Deps are the services the handlers call. Later issues add theirs (accounts, sync, billing).
type Deps struct {
	DB     Database
	Logger *slog.Logger

	// Accounts are the local provider's and users' services (session.go, auth_handlers.go,
	// security_handlers.go, users_handlers.go), each handler using the one it needs.
	Accounts *account.Services
	// Authenticator finds the signed-in user of a request; nil means the session cookie of
	// Accounts (CookieAuthenticator). The Clerk provider sets its own.
	Authenticator Authenticator
	// AuthProvider is "local" (the default when empty) or "clerk"; ClerkPublishableKey is shown
	// by /auth/config when it is clerk.
	AuthProvider        string
	ClerkPublishableKey string

	// Workspaces serves /workspaces and /invitations (workspace_handlers.go); Admin the admin
	// area (admin_handlers.go).
	Workspaces *workspace.Service
	Admin      *admin.Service
	// Enums serves /enums and /admin/enums (enums_handlers.go).
	Enums *enums.Service
	// FX serves /fx-rates (fx_handlers.go); nil answers 404 there.
	FX *fx.Service
	// Billing serves /stripe (billing_handlers.go); nil or without a Stripe key, billing is off.
	Billing *billing.Service

	// Passkeys serves /auth/passkeys (passkey_handlers.go); nil when the server has none (the
	// public URL is an IP address). ClerkFrontendAPI is the Clerk instance's Frontend API host,
	// allowed by the Content-Security-Policy when the provider is clerk (clerk.go).
	Passkeys         *passkey.Service
	ClerkFrontendAPI string

	// Sync serves the sync WebSocket at /api/v1/sync (the sync engine; it authenticates the
	// session itself, see sync/PROTOCOL.md). Nil answers 404 there.
	Sync http.Handler
}

// api holds what the handlers share. It is built once by New.
type api struct {
	cfg    config.Config
	db     Database
	logger *slog.Logger
	mux    *chi.Mux

	// pingTimeout bounds the database check of the health endpoint, so that an unreachable
	// database answers "degraded" instead of hanging the probe.
	pingTimeout time.Duration
	// Security headers, computed once from the configuration.
	csp  string
	hsts string

	// Accounts (session.go): the services, who signs in, and the same-origin rule's inputs.
	accounts            *account.Services
	authn               Authenticator
	authProvider        string
	clerkPublishableKey string
	allowedOrigins      []string
	trustedProxies      []netip.Prefix
	// cookieName is the session cookie's name (SessionCookieName).
	cookieName string

	workspaces *workspace.Service
	admin      *admin.Service
	enums      *enums.Service
	fx         *fx.Service
	billing    *billing.Service

	passkeys *passkey.Service

	sync http.Handler
}

// New returns the handler of the whole server: /api/v1 and the PWA.
func New(cfg config.Config, deps Deps) http.Handler {
	return newAPI(cfg, deps).mux
}

func newAPI(cfg config.Config, deps Deps) *api {
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
	a.accounts, a.authn = deps.Accounts, deps.Authenticator
	a.cookieName = SessionCookieName(cfg)
	if a.authn == nil && deps.Accounts != nil {
		a.authn = CookieAuthenticator{Sessions: deps.Accounts.Sessions, Name: a.cookieName}
	}
	a.authProvider, a.clerkPublishableKey = deps.AuthProvider, deps.ClerkPublishableKey
	if a.authProvider == "" {
		a.authProvider = ProviderLocal
	}
	a.allowedOrigins, a.trustedProxies = cfg.AllowedOriginList(), cfg.TrustedProxyPrefixes()
	a.workspaces, a.admin = deps.Workspaces, deps.Admin
	a.enums = deps.Enums
	a.fx = deps.FX
	a.billing = deps.Billing
	a.passkeys = deps.Passkeys
	if a.sync = deps.Sync; a.sync == nil {
		a.sync = http.HandlerFunc(a.notFound)
	}
	if a.authProvider == ProviderClerk {
		a.csp = clerkContentSecurityPolicy(a.csp, deps.ClerkFrontendAPI)
	}
	a.mux = a.routes()
	return a
}
