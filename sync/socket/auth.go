package socket

import (
	"context"
	"net/http"
)

// Principal is the signed-in user behind a socket.
type Principal struct {
	UserID    string
	SessionID string
	// Check re-validates the session while the socket is open (every SessionCheckInterval): nil
	// while it holds, an error with code EUNAUTHORIZED once it has ended (signed out, expired, the
	// user removed). Any other error (the database does not answer) leaves the socket open. A nil
	// Check is never called.
	Check func(ctx context.Context) error
}

// Authenticator tells who opens a socket, from the handshake request (its session cookie or
// bearer token). It returns an error (any) when nobody is signed in: the socket is then opened
// only to be closed with code 4401, so that a browser, which cannot read the status of a refused
// handshake, learns why. The app adapts the HTTP layer's authenticator to it (server/app, SyncAuthenticator).
type Authenticator interface {
	Authenticate(r *http.Request) (Principal, error)
}

// AuthenticatorFunc adapts a function to Authenticator.
type AuthenticatorFunc func(r *http.Request) (Principal, error)

// Authenticate calls f.
func (f AuthenticatorFunc) Authenticate(r *http.Request) (Principal, error) { return f(r) }
