package config

import (
	"errors"
	"flag"
	"fmt"
	"net/url"
	"strings"
)

// The environment variables that choose the auth provider and configure Clerk (issue 4). The
// secret key and the PEM key have no flags: a secret on the command line shows in the process list,
// and a PEM does not fit there.
const (
	EnvAuthProvider        = "PATRIMONIO_AUTH_PROVIDER"
	EnvClerkPublishableKey = "CLERK_PUBLISHABLE_KEY"
	EnvClerkSecretKey      = "CLERK_SECRET_KEY"
	EnvClerkJWTKey         = "CLERK_JWT_KEY"
	EnvClerkJWKSURL        = "CLERK_JWKS_URL"
	EnvClerkAPIURL         = "CLERK_API_URL"
)

// The auth providers.
const (
	AuthLocal = "local"
	AuthClerk = "clerk"
)

// AuthConfig is the part of Config that chooses who signs users in (embedded in Config).
type AuthConfig struct {
	// AuthProvider is AuthClerk (Clerk's hosted sign-in; the server verifies Clerk session tokens)
	// or "" for the local provider, the default (e-mail and password, TOTP, passkeys, no third
	// party). Read it through Provider.
	AuthProvider string
	// ClerkPublishableKey (pk_test_… or pk_live_…) is given to the PWA for Clerk's components; it
	// also names the instance whose tokens are accepted.
	ClerkPublishableKey string
	// ClerkSecretKey (sk_…) lets the server fetch the instance's keys (JWKS) and a new user's
	// e-mail address from Clerk's Backend API.
	ClerkSecretKey string
	// ClerkJWTKey is the instance's public key in PEM: with it, tokens are verified with no
	// network call.
	ClerkJWTKey string
	// ClerkJWKSURL is a JWKS document of the instance (https://<frontend-api>/.well-known/jwks.json),
	// an alternative to the secret key for fetching the keys.
	ClerkJWKSURL string
	// ClerkAPIURL is the Backend API base URL; "" means https://api.clerk.com/v1.
	ClerkAPIURL string
}

// Provider is the auth provider: AuthLocal or AuthClerk.
func (c Config) Provider() string {
	if c.AuthProvider == "" {
		return AuthLocal
	}
	return c.AuthProvider
}

type rawAuthConfig struct {
	provider, publishableKey, secretKey, jwtKey, jwksURL, apiURL string
}

func readAuthEnv(getenv func(string) string) rawAuthConfig {
	return rawAuthConfig{
		provider:       strings.TrimSpace(getenv(EnvAuthProvider)),
		publishableKey: strings.TrimSpace(getenv(EnvClerkPublishableKey)),
		secretKey:      strings.TrimSpace(getenv(EnvClerkSecretKey)),
		jwtKey:         strings.TrimSpace(getenv(EnvClerkJWTKey)),
		jwksURL:        strings.TrimSpace(getenv(EnvClerkJWKSURL)),
		apiURL:         strings.TrimSpace(getenv(EnvClerkAPIURL)),
	}
}

func addAuthFlags(fs *flag.FlagSet, raw *rawAuthConfig) {
	fs.StringVar(&raw.provider, "auth-provider", raw.provider, "who signs users in: local or clerk ("+EnvAuthProvider+", default local)")
	fs.StringVar(&raw.publishableKey, "clerk-publishable-key", raw.publishableKey, "Clerk publishable key, pk_test_… or pk_live_… ("+EnvClerkPublishableKey+")")
	fs.StringVar(&raw.jwksURL, "clerk-jwks-url", raw.jwksURL, "URL of the Clerk instance's JWKS ("+EnvClerkJWKSURL+")")
}

// applyAuth validates the raw values into cfg. With the clerk provider, the publishable key and one
// way of verifying tokens (CLERK_JWT_KEY, CLERK_JWKS_URL or CLERK_SECRET_KEY) are required; the
// clerkauth package checks the keys in full when the server starts.
func applyAuth(cfg *Config, raw rawAuthConfig) error {
	switch p := strings.ToLower(raw.provider); p {
	case "", AuthLocal:
		cfg.AuthProvider = ""
	case AuthClerk:
		cfg.AuthProvider = AuthClerk
	default:
		return fmt.Errorf("%s (-auth-provider): %q is not local or clerk", EnvAuthProvider, raw.provider)
	}
	if raw.secretKey != "" && !strings.HasPrefix(raw.secretKey, "sk_") {
		return fmt.Errorf("%s: must start with sk_ (sk_test_… or sk_live_…)", EnvClerkSecretKey)
	}
	if raw.jwtKey != "" && !strings.Contains(raw.jwtKey, "-----BEGIN PUBLIC KEY-----") {
		return fmt.Errorf("%s: must be a PEM public key (-----BEGIN PUBLIC KEY----- …)", EnvClerkJWTKey)
	}
	if raw.jwksURL != "" {
		if err := checkHTTPSURL(raw.jwksURL); err != nil {
			return fmt.Errorf("%s (-clerk-jwks-url): %w", EnvClerkJWKSURL, err)
		}
	}
	if raw.apiURL != "" {
		if err := checkHTTPSURL(raw.apiURL); err != nil {
			return fmt.Errorf("%s: %w", EnvClerkAPIURL, err)
		}
	}
	if raw.publishableKey != "" && !strings.HasPrefix(raw.publishableKey, "pk_test_") && !strings.HasPrefix(raw.publishableKey, "pk_live_") {
		return fmt.Errorf("%s (-clerk-publishable-key): must start with pk_test_ or pk_live_", EnvClerkPublishableKey)
	}
	if cfg.Provider() == AuthClerk {
		if raw.publishableKey == "" {
			return fmt.Errorf("%s=clerk needs %s", EnvAuthProvider, EnvClerkPublishableKey)
		}
		if raw.jwtKey == "" && raw.jwksURL == "" && raw.secretKey == "" {
			return fmt.Errorf("%s=clerk needs a way to verify session tokens: %s (networkless), %s or %s",
				EnvAuthProvider, EnvClerkJWTKey, EnvClerkJWKSURL, EnvClerkSecretKey)
		}
	}
	cfg.ClerkPublishableKey, cfg.ClerkSecretKey, cfg.ClerkJWTKey = raw.publishableKey, raw.secretKey, raw.jwtKey
	cfg.ClerkJWKSURL, cfg.ClerkAPIURL = raw.jwksURL, strings.TrimRight(raw.apiURL, "/")
	return nil
}

// checkHTTPSURL accepts https URLs, and http ones for localhost (development and tests).
func checkHTTPSURL(v string) error {
	u, err := url.Parse(v)
	if err != nil || u.Host == "" {
		return errors.New("is not an absolute URL")
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && (u.Hostname() == "localhost" || u.Hostname() == "127.0.0.1" || u.Hostname() == "::1"):
	default:
		return errors.New("must be an https:// URL (http:// only for localhost)")
	}
	if u.User != nil {
		return errors.New("must not hold a user or password")
	}
	return nil
}
