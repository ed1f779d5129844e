// Package app wires Patrimonio together: configuration → store → HTTP router → listener. The
// command in server/cmd/patrimonio and the tests start the same Server.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"time"

	"patrimonio/core"
	"patrimonio/server/account"
	"patrimonio/server/admin"
	"patrimonio/server/billing"
	"patrimonio/server/config"
	"patrimonio/server/connect"
	"patrimonio/server/enums"
	"patrimonio/server/fx"
	"patrimonio/server/httpapi"
	"patrimonio/server/store"
	"patrimonio/server/workspace"
	psync "patrimonio/sync"
	"patrimonio/sync/socket"
)

// Server is a running Patrimonio: an open database and a listening HTTP server.
type Server struct {
	cfg      config.Config
	logger   *slog.Logger
	db       *store.DB
	listener net.Listener
	http     *http.Server
	sync     *psync.Engine  // the sync engine
	sockets  *socket.Server // its WebSocket endpoint, /api/v1/sync (sync.go)
	fx       *fx.Service    // the exchange rates behind /api/v1/fx-rates
	// connections refreshes linked bank and broker accounts (server/connect)
	connections *connect.Service
	// mail delivers the account services' mails in the background when they go over SMTP; nil
	// otherwise (newAccounts).
	mail *account.BackgroundMailer

	// LoadRates makes Run load exchange rates in the background, at start and every working day
	// (server/fx). The command sets it unless PATRIMONIO_FX_UPDATES=off; tests leave it off.
	LoadRates bool

	// ShutdownTimeout bounds how long Run waits for in-flight requests once its context ends.
	ShutdownTimeout time.Duration
}

// Open opens the database (applying migrations), listens on cfg.Addr (port 0 picks a free port)
// and prepares the router. It serves nothing until Run.
func Open(ctx context.Context, cfg config.Config, logger *slog.Logger) (*Server, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	key, err := secretKey(cfg, logger) // secretkey.go: before the database, so that a missing key fails fast
	if err != nil {
		return nil, err
	}
	// A database that cannot be reached yet (Postgres starting or restarting) is waited for, saying
	// why, until ctx ends; any other failure stops the start.
	openDB := func(ctx context.Context) (*store.DB, error) {
		return store.Open(ctx, cfg.Dialect(), cfg.DatabaseSource())
	}
	db, err := store.OpenWaiting(ctx, openDB,
		func(err error, next time.Duration) {
			logger.WarnContext(ctx, "database not reachable; trying again", "err", err, "retry_in", next.String())
		})
	if err != nil {
		return nil, err
	}
	if len(db.Applied) > 0 {
		logger.InfoContext(ctx, "database migrated", "dialect", db.Dialect(), "applied", db.Applied)
	}
	installation, err := db.InstallationID(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}

	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", cfg.Addr)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	if cfg.PublicURLFromAddr {
		// Keep the configured host (a browser at localhost sends Origin http://localhost:...),
		// with the port actually obtained.
		host, _, _ := net.SplitHostPort(cfg.Addr)
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		cfg.PublicURL = config.OriginFromAddr(net.JoinHostPort(host, port))
	}

	s := &Server{
		cfg:             cfg,
		logger:          logger,
		db:              db,
		listener:        ln,
		ShutdownTimeout: 30 * time.Second,
	}
	deps := httpapi.Deps{DB: db, Logger: logger,
		Workspaces: workspace.NewService(db),
		Admin:      admin.NewService(db, cfg.AdminEmailList()),
		Enums:      enums.NewService(db),
		FX: fx.NewService(db, fx.Config{ECBDailyURL: cfg.FXECBDailyURL, ECB90DayURL: cfg.FXECB90DayURL,
			ECBHistoryURL: cfg.FXECBHistoryURL, ExtraURL: cfg.FXExtraURL, ExtraCurrencies: cfg.FXExtraCurrencies}, nil, logger),
		// Billing with Stripe; without PATRIMONIO_STRIPE_SECRET_KEY it is off (server/billing).
		Billing: billing.New(db, billing.Config{SecretKey: cfg.StripeSecretKey, WebhookSecrets: cfg.StripeWebhookSecretList(),
			Plans: cfg.StripePlanList(), APIURL: cfg.StripeAPIURL, PublicURL: cfg.PublicURL}, logger),
	}
	s.fx = deps.FX
	// Billing off with subscriptions still billing: an error in the log for the operator.
	if _, err := deps.Billing.WarnIfOffWithLiveSubscriptions(ctx); err != nil {
		logger.WarnContext(ctx, "could not check for subscriptions left billing", "err", err)
	}
	// The account services are built with their hooks. The sync engine authenticates through the
	// sessions, so it is built after them: the hooks that close its sockets are Server methods that
	// reach it once it exists (before anything is served, so before any session can end).
	hooks := account.Hooks{OnSessionEnded: s.sessionEnded, OnUserEnded: s.userEnded}
	if deps.Billing.Enabled() { // deleting an account cancels its Stripe subscriptions first
		hooks.BeforeDelete = deps.Billing.CancelSubscriptions
	}
	if cfg.Provider() != config.AuthClerk { // auth.go: passkeys for the local provider
		if deps.Passkeys = newPasskeys(cfg, db, logger); deps.Passkeys != nil {
			hooks.HasPasskey = deps.Passkeys.Has // a passkey is a second factor and an onboarding step
		}
	}
	accounts, mail, err := newAccounts(ctx, cfg, db, key, logger, hooks)
	if err != nil {
		ln.Close()
		db.Close()
		return nil, err
	}
	deps.Accounts, s.mail = accounts, mail
	if err := deps.Enums.Seed(ctx); err != nil { // the reference lists (server/enums/data)
		ln.Close()
		db.Close()
		return nil, err
	}
	if err := wireAuth(cfg, accounts, logger, &deps); err != nil { // auth.go: Clerk when it is the provider
		ln.Close()
		db.Close()
		return nil, err
	}
	if s.sync, s.sockets, err = newSync(cfg, db, accounts, deps.Authenticator, logger); err != nil {
		ln.Close()
		db.Close()
		return nil, err
	}
	deps.Sync = s.sockets
	deps.Admin.OnUserEnded = s.sockets.EndUser // disabling a user closes their sync sockets at once
	// Bank and broker connections (connections.go) write balances through the sync engine.
	if deps.Connections, err = newConnections(cfg, db, key, s.sync, logger); err != nil {
		ln.Close()
		db.Close()
		return nil, err
	}
	s.connections = deps.Connections
	s.http = &http.Server{
		Handler:           httpapi.New(cfg, deps),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	// Shutdown does not wait for hijacked connections: sync sockets close with "going away".
	s.http.RegisterOnShutdown(s.sockets.GoingAway)
	logger.InfoContext(ctx, "opened", "version", core.Version, "database", cfg.DatabaseDescription(),
		"installation_id", installation, "web_dir", cfg.WebDir, "billing", billingDescription(cfg),
		"connections", cfg.ConnectionsDescription())
	// What start-up allocated and dropped (argon2id's 64 MiB for the dummy password hash, the
	// migrations, the enumeration seed) goes back to the operating system now rather than at the
	// runtime's leisure: a fresh server holds what it uses.
	debug.FreeOSMemory()
	return s, nil
}

// sessionEnded closes the sync sockets of a session the account services ended.
func (s *Server) sessionEnded(sessionID string) {
	if s.sockets != nil {
		s.sockets.EndSession(sessionID)
	}
}

// userEnded closes the sync sockets of a user the account services deleted.
func (s *Server) userEnded(userID string) {
	if s.sockets != nil {
		s.sockets.EndUser(userID)
	}
}

// Addr is the address the server listens on, with the actual port.
func (s *Server) Addr() string { return s.listener.Addr().String() }

// URL is the public URL: the configured one, or the http URL of the listening address.
func (s *Server) URL() string { return s.cfg.PublicURL }

// Run serves until ctx ends, then stops accepting connections, waits for in-flight requests (up to
// ShutdownTimeout) and closes the database. It returns nil after a clean shutdown.
func (s *Server) Run(ctx context.Context) error {
	served := make(chan error, 1)
	go func() { served <- s.http.Serve(s.listener) }()
	if s.LoadRates {
		// Never blocks start-up: a source that cannot be reached is logged and retried.
		go s.fx.Run(ctx)
	}
	go s.connections.Run(ctx) // balances of linked accounts, every six hours within the daily reads
	s.logger.InfoContext(ctx, "serving", "url", s.URL(), "addr", s.Addr())

	select {
	case err := <-served:
		s.closeSync()
		s.db.Close()
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}

	s.logger.Info("shutting down: draining in-flight requests", "timeout", s.ShutdownTimeout)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), s.ShutdownTimeout)
	defer cancel()
	err := s.http.Shutdown(shutdownCtx)
	if err != nil {
		err = fmt.Errorf("shutdown: %w", err)
		s.http.Close()
	}
	if serveErr := <-served; !errors.Is(serveErr, http.ErrServerClosed) && err == nil {
		err = fmt.Errorf("serve: %w", serveErr)
	}
	s.closeSync() // sockets are closed by now; finishes queued pushes before the database closes
	if s.mail != nil {
		// The requests answered meanwhile may have queued mails: they go out within the timeout.
		_ = s.mail.Close(shutdownCtx) // a mail left unsent is logged
	}
	if cerr := s.db.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("close database: %w", cerr)
	}
	if err == nil {
		s.logger.Info("stopped")
	}
	return err
}

// Close releases a Server that was opened but never run.
func (s *Server) Close() error {
	lerr := s.listener.Close()
	s.closeSync()
	if s.mail != nil {
		_ = s.mail.Close(context.Background()) // nothing was served, so nothing is queued
	}
	if err := s.db.Close(); err != nil {
		return err
	}
	return lerr
}

// newAccounts builds the local accounts service with its mailer (SMTP when configured, otherwise
// the log and, in development, the dev outbox) and its secret key, which must be the one the
// database's secrets are sealed with; secrets still stored in plaintext are sealed now. SMTP
// delivers in the background (account.BackgroundMailer, returned to be closed at shutdown): a
// delivery inside the request would make the answers that mail a known address slower than the
// same answers for an unknown one.
func newAccounts(ctx context.Context, cfg config.Config, db *store.DB, key []byte, logger *slog.Logger, hooks account.Hooks) (*account.Services, *account.BackgroundMailer, error) {
	mailer, err := account.NewMailer(cfg.SMTPURL, cfg.MailFrom, cfg.DevOutbox, logger)
	if err != nil {
		return nil, nil, fmt.Errorf("mail: %w", err)
	}
	var background *account.BackgroundMailer
	if cfg.SMTPURL != "" {
		background = account.NewBackgroundMailer(mailer, logger)
		mailer = background
	}
	acfg := account.DefaultConfig()
	acfg.AdminEmails = cfg.AdminEmailList()
	acfg.SecretKey = key
	acfg.PublicURL = cfg.PublicURL
	acfg.Billing = cfg.BillingEnabled() // the onboarding's payment step (completed by server/billing)
	if cfg.SignUpsPerIP > 0 {
		acfg.SignUpRequestsIP = cfg.SignUpsPerIP
	}
	accounts, err := account.New(db, acfg, account.Options{Mailer: mailer, Logger: logger, Hooks: hooks})
	if err != nil {
		return nil, nil, err
	}
	if err := accounts.SecondFactors.CheckSecretKey(ctx); err != nil {
		return nil, nil, err
	}
	if n, err := accounts.SecondFactors.SealPlaintextSecrets(ctx); err != nil {
		return nil, nil, err
	} else if n > 0 {
		logger.InfoContext(ctx, "encrypted the authenticator secrets stored in plaintext", "count", n)
	}
	if cfg.DevOutbox != "" {
		logger.Warn("development outbox on: e-mails are written to "+cfg.DevOutbox+
			" and listed at /api/v1/dev/outbox to anyone; never set "+config.EnvDevOutbox+" in production",
			"dir", cfg.DevOutbox)
	}
	return accounts, background, nil
}

// billingDescription says whether billing is on, and against which API, for the start-up log
// (never the keys).
func billingDescription(cfg config.Config) string {
	switch {
	case !cfg.BillingEnabled():
		return "off"
	case cfg.StripeAPIURL != "":
		return "stripe at " + cfg.StripeAPIURL
	}
	return "stripe"
}
