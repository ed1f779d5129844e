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

// wireAuth adds the auth provider's parts to deps: passkeys for the local provider (none when the
// public URL's host cannot be a WebAuthn relying party, which is logged), or Clerk's token
// verification. cfg.PublicURL must be final (after listening).
func wireAuth(cfg config.Config, db *store.DB, accounts *account.Service, logger *slog.Logger, deps *httpapi.Deps) error {
	deps.AuthProvider = cfg.Provider()
	switch cfg.Provider() {
	case config.AuthClerk:
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
		}, accounts)
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
	default:
		passkeys, err := passkey.New(db, passkey.Options{PublicURL: cfg.PublicURL, AllowedOrigins: cfg.AllowedOriginList()})
		if err != nil {
			logger.Warn("passkeys are off", "err", err)
			return nil
		}
		accounts.HasPasskey = passkeys.Has
		deps.Passkeys = passkeys
	}
	return nil
}
