package clerkauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/clerk/clerk-sdk-go/v2"
	"github.com/clerk/clerk-sdk-go/v2/user"
	"golang.org/x/sync/singleflight"

	"patrimonio/core"
	"patrimonio/server/account"
)

// Accounts is what the Clerk provider needs of the users' service: *account.Users.
type Accounts interface {
	// EnsureUser returns the user of a Clerk identity, creating it (or linking the user with the
	// same address) on first sight. An existing identity needs no address; a new one without a
	// valid address is EINVALID.
	EnsureUser(ctx context.Context, externalID, email string) (*account.User, error)
}

// Authenticator is the Clerk provider's account.Authenticator (the httpapi.Authenticator seam): it
// verifies the request's session token and provisions the user on the first verified request.
type Authenticator struct {
	verifier *Verifier
	accounts Accounts
	users    *user.Client // nil without a secret key
	now      func() time.Time
	first    singleflight.Group
}

// NewAuthenticator returns the Clerk provider. cfg is the verifier's configuration; with a secret
// key, the e-mail address of a new user is read from the Backend API.
func NewAuthenticator(cfg Config, accounts Accounts) (*Authenticator, error) {
	v, err := NewVerifier(cfg)
	if err != nil {
		return nil, err
	}
	a := &Authenticator{verifier: v, accounts: accounts, now: v.now}
	if cfg.SecretKey != "" {
		apiURL := cfg.APIURL
		if apiURL == "" {
			apiURL = DefaultAPIURL
		}
		httpClient := cfg.HTTPClient
		if httpClient == nil {
			httpClient = &http.Client{Timeout: 5 * time.Second}
		}
		a.users = user.NewClient(&clerk.ClientConfig{BackendConfig: clerk.BackendConfig{
			HTTPClient: httpClient, URL: clerk.String(apiURL), Key: clerk.String(cfg.SecretKey),
		}})
	}
	return a, nil
}

// Verifier is the token verifier of the provider.
func (a *Authenticator) Verifier() *Verifier { return a.verifier }

// Authenticate finds the signed-in user of a request: (nil, nil, nil) without a token, an
// EUNAUTHORIZED error for a token that does not verify, the user and a session built from the
// token's claims otherwise.
//
// The Clerk session has no row in the sessions table: its ID is "clerk:" and Clerk's session id,
// it expires with the token, and ReverifiedAt is when the user last proved a first factor to Clerk
// (the token's fva claim), so the 10-minute re-verification rule reads Clerk's own record.
func (a *Authenticator) Authenticate(r *http.Request) (*account.User, *account.Session, error) {
	token := TokenFromRequest(r)
	if token == "" {
		return nil, nil, nil
	}
	ctx := r.Context()
	claims, err := a.verifier.Verify(ctx, token)
	if err != nil {
		return nil, nil, err
	}
	u, err := a.provision(ctx, claims)
	if err != nil {
		return nil, nil, err
	}
	if u.Disabled() { // an admin disabled the account: Clerk's session counts for nothing here
		return nil, nil, core.Refuse(ctx, core.EUNAUTHORIZED, "account.disabled")
	}
	now := a.now().UTC()
	sess := &account.Session{
		ID:         "clerk:" + claims.SessionID,
		UserID:     u.ID,
		CreatedAt:  claims.IssuedAt,
		LastSeenAt: now,
		ExpiresAt:  claims.ExpiresAt,
		UserAgent:  r.UserAgent(),
	}
	if claims.FirstFactorAge >= 0 {
		sess.ReverifiedAt = now.Add(-claims.FirstFactorAge)
	}
	return u, sess, nil
}

// provision returns the local user of a verified Clerk identity. The address of a new user comes
// from the Backend API when a secret key is configured (only a verified primary address is taken),
// else from the token's "email" claim. Concurrent first requests of one identity share one
// provisioning here, and account.EnsureUser settles races between server instances.
func (a *Authenticator) provision(ctx context.Context, claims *Claims) (*account.User, error) {
	u, err := a.accounts.EnsureUser(ctx, claims.UserID, "")
	if err == nil {
		return u, nil
	}
	if core.ErrorCode(err) != core.EINVALID {
		return nil, err
	}
	// Not known yet: find the address and create the user, once for concurrent requests.
	v, err, _ := a.first.Do(claims.UserID, func() (any, error) {
		email, err := a.email(ctx, claims)
		if err != nil {
			return nil, err
		}
		return a.accounts.EnsureUser(ctx, claims.UserID, email)
	})
	if err != nil {
		return nil, err
	}
	return v.(*account.User), nil
}

// email finds the address of a Clerk user that signs in for the first time.
func (a *Authenticator) email(ctx context.Context, claims *Claims) (string, error) {
	if a.users == nil {
		if claims.Email == "" {
			return "", fmt.Errorf("clerk user %s has no email claim and no CLERK_SECRET_KEY is set to look it up: %w",
				claims.UserID, core.Refuse(ctx, core.EFORBIDDEN, "clerk.noEmail"))
		}
		return claims.Email, nil
	}
	cu, err := a.users.Get(ctx, claims.UserID)
	if err != nil {
		var apiErr *clerk.APIErrorResponse
		if errors.As(err, &apiErr) && apiErr.HTTPStatusCode == http.StatusNotFound {
			return "", fmt.Errorf("clerk user %s not found: %w", claims.UserID,
				core.Refuse(ctx, core.EUNAUTHORIZED, "clerk.noUser"))
		}
		return "", fmt.Errorf("fetch clerk user %s: %w", claims.UserID,
			core.Refuse(ctx, core.EUNAVAILABLE, "clerk.unavailable"))
	}
	if cu.PrimaryEmailAddressID != nil {
		for _, e := range cu.EmailAddresses {
			if e != nil && e.ID == *cu.PrimaryEmailAddressID && e.Verification != nil && e.Verification.Status == "verified" {
				return e.EmailAddress, nil
			}
		}
	}
	return "", fmt.Errorf("clerk user %s has no verified primary e-mail address: %w", claims.UserID,
		core.Refuse(ctx, core.EFORBIDDEN, "clerk.noEmail"))
}
