package sync

import (
	"context"
	"net/http"

	"patrimonio/core"
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
// handshake, learns why. The HTTP layer adapts the account service's session middleware to it.
type Authenticator interface {
	Authenticate(r *http.Request) (Principal, error)
}

// AuthenticatorFunc adapts a function to Authenticator.
type AuthenticatorFunc func(r *http.Request) (Principal, error)

// Authenticate calls f.
func (f AuthenticatorFunc) Authenticate(r *http.Request) (Principal, error) { return f(r) }

// HTTPSession is what the HTTP layer's session middleware knows about a request's sender.
type HTTPSession struct {
	UserID    string
	SessionID string
	// MFAPending: the password was right but the second factor is still due; such a session may
	// not sync.
	MFAPending bool
}

// SessionAuthenticator adapts the HTTP layer's authenticator (cookie session or Clerk token) to
// the socket. authenticate returns the zero HTTPSession when the request carries no credentials
// and an error with code EUNAUTHORIZED for credentials that are not valid. With revalidate, the
// socket's session is re-checked by authenticating a copy of the handshake's headers again
// (server-side sessions: a sign-out or expiry closes the socket); without it (short-lived tokens
// such as Clerk's, which the socket cannot refresh), only the memberships are re-checked.
func SessionAuthenticator(authenticate func(r *http.Request) (HTTPSession, error), revalidate bool) Authenticator {
	return AuthenticatorFunc(func(r *http.Request) (Principal, error) {
		s, err := authenticate(r)
		if err != nil {
			return Principal{}, err
		}
		if s.UserID == "" || s.MFAPending {
			return Principal{}, errSessionEnded
		}
		p := Principal{UserID: s.UserID, SessionID: s.SessionID}
		if revalidate {
			header := r.Header.Clone()
			target, remote := r.URL.String(), r.RemoteAddr
			p.Check = func(ctx context.Context) error {
				again, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
				if err != nil {
					return err
				}
				again.Header, again.RemoteAddr = header.Clone(), remote
				now, err := authenticate(again)
				if err != nil {
					return err
				}
				if now.UserID != s.UserID || now.MFAPending {
					return errSessionEnded
				}
				return nil
			}
		}
		return p, nil
	})
}

var errSessionEnded = core.Errorf(core.EUNAUTHORIZED, "The session has ended.")
