package app

import (
	"fmt"
	"log/slog"

	"patrimonio/server/account"
	"patrimonio/server/clerkauth"
	"patrimonio/server/config"
	"patrimonio/server/httpapi"
	"patrimonio/server/passkey"
	"patrimonio/server/store"
)

// newPasskeys returns the local provider's passkeys, or nil when the public URL's host cannot be a
// WebAuthn relying party (which is logged). cfg.PublicURL must be final (after listening).
func newPasskeys(cfg config.Config, db *store.DB, logger *slog.Logger) *passkey.Service {
	passkeys, err := passkey.New(db, passkey.Options{PublicURL: cfg.PublicURL, AllowedOrigins: cfg.AllowedOriginList()})
	if err != nil {
		logger.Warn("passkeys are off", "err", err)
		return nil
	}
	return passkeys
}

// wireAuth adds the auth provider's parts to deps: for Clerk, its token verification, which
// provisions users through accounts.Users (the local provider's passkeys are built before the
// account services, newPasskeys).
func wireAuth(cfg config.Config, accounts *account.Services, logger *slog.Logger, deps *httpapi.Deps) error {
	deps.AuthProvider = cfg.Provider()
	if cfg.Provider() != config.AuthClerk {
		return nil
	}
	frontendAPI, err := clerkauth.FrontendAPI(cfg.ClerkPublishableKey)
	if err != nil {
		return fmt.Errorf("%s: %w", config.EnvClerkPublishableKey, err)
	}
	authn, err := clerkauth.NewAuthenticator(clerkauth.Config{
		PublishableKey: cfg.ClerkPublishableKey,
		JWTKey:         cfg.ClerkJWTKey,
		JWKSURL:        cfg.ClerkJWKSURL,
		SecretKey:      cfg.ClerkSecretKey,
		APIURL:         cfg.ClerkAPIURL,
		AllowedOrigins: cfg.AllowedOriginList(),
	}, accounts.Users)
	if err != nil {
		return err
	}
	deps.Authenticator = authn
	deps.ClerkPublishableKey = cfg.ClerkPublishableKey
	deps.ClerkFrontendAPI = frontendAPI
	mode := "networkless (CLERK_JWT_KEY)"
	switch {
	case cfg.ClerkJWTKey != "":
	case cfg.ClerkJWKSURL != "":
		mode = "JWKS (CLERK_JWKS_URL)"
	default:
		mode = "JWKS of the Backend API (CLERK_SECRET_KEY)"
	}
	logger.Info("auth provider: clerk", "issuer", authn.Verifier().Issuer(), "verification", mode)
	return nil
}
