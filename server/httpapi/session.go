package httpapi

// Sessions on the HTTP side: the session cookie, the Authenticator seam (the local provider's
// cookie, or Clerk's tokens), requireUser, the same-origin check of state-changing requests
// (CSRF), the language of messages, and the client IP used for throttling.

import (
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"time"

	"patrimonio/core"
	"patrimonio/server/account"
	"patrimonio/server/config"
	schema "patrimonio/shared-schema"
)

// SessionCookie is the cookie of the local provider's session token. When the public URL is
// https its name has the __Host- prefix (SecureSessionCookie): browsers then keep it only when it
// is Secure, for the whole site and host-only, so that no subdomain or plain-http page can set it.
const SessionCookie = "patrimonio_session"

// SecureSessionCookie is SessionCookie's name on https.
const SecureSessionCookie = "__Host-" + SessionCookie

// SessionCookieName is the session cookie's name for the configuration.
func SessionCookieName(cfg config.Config) string {
	if cfg.PublicURLSecure() {
		return SecureSessionCookie
	}
	return SessionCookie
}

// Authenticator finds who sent a request. It returns (nil, nil, nil) when the request carries no
// credentials, an EUNAUTHORIZED error when it carries credentials that are not valid (unknown,
// expired, forged), and another error when it cannot tell (database down). The local provider's is
// CookieAuthenticator; the Clerk provider plugs in its own through Deps.Authenticator.
type Authenticator interface {
	Authenticate(r *http.Request) (*account.User, *account.Session, error)
}

// CookieAuthenticator authenticates the session cookie named Name (SessionCookieName; empty is
// SessionCookie).
type CookieAuthenticator struct {
	Sessions *account.Sessions
	Name     string
}

// Authenticate implements Authenticator.
func (c CookieAuthenticator) Authenticate(r *http.Request) (*account.User, *account.Session, error) {
	name := c.Name
	if name == "" {
		name = SessionCookie
	}
	ck, err := r.Cookie(name)
	if err != nil || ck.Value == "" {
		return nil, nil, nil
	}
	sess, u, err := c.Sessions.Authenticate(r.Context(), ck.Value)
	if err != nil {
		return nil, nil, err
	}
	return u, sess, nil
}

// setSessionCookie sends the session token: HttpOnly, Secure (browsers accept Secure cookies from
// http://localhost too), SameSite=Lax, host-only, for the whole site.
func (a *api) setSessionCookie(w http.ResponseWriter, token string, maxAge time.Duration) {
	http.SetCookie(w, &http.Cookie{
		Name:     a.cookieName,
		Value:    token,
		Path:     "/",
		MaxAge:   int(maxAge / time.Second),
		HttpOnly: true,
		Secure:   true,
		SameSite: http.SameSiteLaxMode,
	})
}

func (a *api) clearSessionCookie(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{
		Name:     a.cookieName,
		Value:    "",
		Path:     "/",
		MaxAge:   -1, // Max-Age=0: delete now
		HttpOnly: true,
		Secure:   true,
		SameSite: http.SameSiteLaxMode,
	})
}

// language puts the language of messages, from Accept-Language (Spanish by default), into the
// request context (core.LanguageFrom reads it).
func (a *api) language(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		lang := schema.Language(r.Header.Get("Accept-Language"))
		next.ServeHTTP(w, r.WithContext(core.WithLanguage(r.Context(), lang)))
	})
}

// sameOrigin refuses cross-site state-changing requests (CSRF). For POST, PUT, PATCH and DELETE:
//   - with an Origin header, it must be the public URL's origin or one of
//     PATRIMONIO_ALLOWED_ORIGINS ("null" never is);
//   - without Origin, Sec-Fetch-Site must be same-origin or none;
//   - with neither (not a current browser: curl, webhooks, other servers), the request must not
//     carry any cookie, so that it cannot ride on a session.
//
// A refusal is 403 with code forbidden.
func (a *api) sameOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			next.ServeHTTP(w, r)
			return
		}
		ok := false
		if origin := r.Header.Get("Origin"); origin != "" {
			ok = slices.Contains(a.allowedOrigins, strings.ToLower(origin))
		} else if site := r.Header.Get("Sec-Fetch-Site"); site != "" {
			ok = site == "same-origin" || site == "none"
		} else {
			ok = len(r.Cookies()) == 0
		}
		if !ok {
			a.writeError(w, r, core.Refuse(r.Context(), core.EFORBIDDEN, "account.csrf.crossSite"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// authenticate asks the Authenticator who sent the request. Invalid credentials count as none (and
// a stale session cookie is deleted); a failure to tell is a 500.
func (a *api) authenticate(w http.ResponseWriter, r *http.Request) (*account.User, *account.Session, bool) {
	if a.authn == nil {
		return nil, nil, true
	}
	u, sess, err := a.authn.Authenticate(r)
	if err != nil {
		if core.ErrorCode(err) != core.EUNAUTHORIZED {
			a.writeError(w, r, err)
			return nil, nil, false
		}
		if _, cerr := r.Cookie(a.cookieName); cerr == nil {
			a.clearSessionCookie(w)
		}
		return nil, nil, true
	}
	return u, sess, true
}

// requireUser lets through requests of a signed-in user with a complete session (second factor
// done), with account.AuthFrom(ctx) set; others get 401.
func (a *api) requireUser(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, sess, ok := a.authenticate(w, r)
		if !ok {
			return
		}
		if u == nil {
			a.writeError(w, r, core.Refuse(r.Context(), core.EUNAUTHORIZED, "account.session.required"))
			return
		}
		if sess != nil && sess.MFAPending {
			a.writeError(w, r, core.Refuse(r.Context(), core.EUNAUTHORIZED, "account.session.mfaPending"))
			return
		}
		next.ServeHTTP(w, r.WithContext(account.WithAuth(r.Context(), u, sess)))
	})
}

// requirePendingMFA lets through only sessions waiting for their second factor.
func (a *api) requirePendingMFA(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, sess, ok := a.authenticate(w, r)
		if !ok {
			return
		}
		if u == nil || sess == nil || !sess.MFAPending {
			a.writeError(w, r, core.Refuse(r.Context(), core.EUNAUTHORIZED, "account.session.noMFA"))
			return
		}
		next.ServeHTTP(w, r.WithContext(account.WithAuth(r.Context(), u, sess)))
	})
}

// sessionMeta describes the requesting device for a new session.
func (a *api) sessionMeta(r *http.Request) account.SessionMeta {
	return account.SessionMeta{UserAgent: r.UserAgent(), IP: a.clientIP(r)}
}

// clientIP is the address of the client: the connection's peer, or, when the peer is a trusted
// proxy (PATRIMONIO_TRUSTED_PROXIES), the right-most X-Forwarded-For address that is not one.
func (a *api) clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	peer = peer.Unmap()
	if !a.trustedProxy(peer) {
		return peer.String()
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		hop, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break
		}
		hop = hop.Unmap()
		if !a.trustedProxy(hop) {
			return hop.String()
		}
	}
	return peer.String()
}

func (a *api) trustedProxy(addr netip.Addr) bool {
	for _, p := range a.trustedProxies {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}
