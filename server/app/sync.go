package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"

	"patrimonio/core"
	"patrimonio/server/account"
	"patrimonio/server/config"
	"patrimonio/server/httpapi"
	"patrimonio/server/store"
	psync "patrimonio/sync"
	"patrimonio/sync/socket"
)

// newSync starts the sync engine and its WebSocket endpoint. The socket authenticates like the
// rest of /api/v1 (authn, or the local session cookie when nil); server-side sessions are
// re-checked while a socket is open, Clerk's short-lived tokens cannot be (the socket keeps the
// handshake's copy).
func newSync(cfg config.Config, db *store.DB, accounts *account.Services, authn httpapi.Authenticator, logger *slog.Logger) (*psync.Engine, *socket.Server, error) {
	if authn == nil {
		authn = httpapi.CookieAuthenticator{Sessions: accounts.Sessions, Name: httpapi.SessionCookieName(cfg)}
	}
	engine, err := psync.New(db, psync.Options{Logger: logger})
	if err != nil {
		return nil, nil, fmt.Errorf("sync: %w", err)
	}
	sockets, err := socket.New(engine, SyncAuthenticator(authn, cfg.Provider() != config.AuthClerk),
		socket.Options{PublicURL: cfg.PublicURL, AllowedOrigins: cfg.AllowedOriginList(), Logger: logger})
	if err != nil {
		engine.Close()
		return nil, nil, fmt.Errorf("sync: %w", err)
	}
	return engine, sockets, nil
}

// closeSync closes the sockets (going away), then the engine (it finishes the queued pushes).
func (s *Server) closeSync() {
	s.sockets.Close()
	s.sync.Close()
}

// SyncAuthenticator adapts the HTTP layer's authenticator (cookie session or Clerk token) to the
// sync socket's handshake. A request without credentials, with credentials that are not valid, or
// of a session whose second factor is still due is nobody signed in (EUNAUTHORIZED: the socket
// closes with 4401); any other error is the server's (the socket closes with 1011). With
// revalidate, the socket's session is re-checked by authenticating a copy of the handshake's
// headers again (server-side sessions: a sign-out or expiry closes the socket); without it
// (short-lived tokens such as Clerk's, which the socket cannot refresh), only the memberships are
// re-checked.
func SyncAuthenticator(authn httpapi.Authenticator, revalidate bool) socket.Authenticator {
	// who is the request's signed-in user and session ("" when none may sync).
	who := func(r *http.Request) (userID, sessionID string, err error) {
		u, sess, err := authn.Authenticate(r)
		if err != nil || u == nil {
			return "", "", err
		}
		if sess != nil {
			if sess.MFAPending {
				return "", "", nil
			}
			sessionID = sess.ID
		}
		return u.ID, sessionID, nil
	}
	return socket.AuthenticatorFunc(func(r *http.Request) (socket.Principal, error) {
		userID, sessionID, err := who(r)
		if err != nil {
			return socket.Principal{}, err
		}
		if userID == "" {
			return socket.Principal{}, errSessionEnded
		}
		p := socket.Principal{UserID: userID, SessionID: sessionID}
		if revalidate {
			header := r.Header.Clone()
			target, remote := r.URL.String(), r.RemoteAddr
			p.Check = func(ctx context.Context) error {
				again, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
				if err != nil {
					return err
				}
				again.Header, again.RemoteAddr = header.Clone(), remote
				now, _, err := who(again)
				if err != nil {
					return err
				}
				if now != userID {
					return errSessionEnded
				}
				return nil
			}
		}
		return p, nil
	})
}

var errSessionEnded = core.Errorf(core.EUNAUTHORIZED, "The session has ended.")
