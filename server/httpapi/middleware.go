package httpapi

import (
	"net/http"
	"regexp"
	"runtime/debug"
	"time"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/google/uuid"

	"patrimonio/core"
	"patrimonio/server/config"
)

// middleware is the chain every request passes through, outermost first. The access log sits
// outside recover so that a panic is logged with the 500 it turned into.
func (a *api) middleware() []func(http.Handler) http.Handler {
	return []func(http.Handler) http.Handler{a.requestID, a.securityHeaders, a.accessLog, a.recoverer}
}

// RequestIDHeader carries the request id in both directions.
const RequestIDHeader = "X-Request-Id"

var validRequestID = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

// requestID keeps a well-formed X-Request-Id from the client or a proxy, or makes a new one, puts
// it into the request context (where the logger finds it) and sends it back.
func (a *api) requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(RequestIDHeader)
		if !validRequestID.MatchString(id) {
			id = uuid.NewString()
		}
		w.Header().Set(RequestIDHeader, id)
		next.ServeHTTP(w, r.WithContext(core.WithRequestID(r.Context(), id)))
	})
}

// contentSecurityPolicy allows scripts, styles, workers and connections from our own origin only
// (plus the WebSocket form of the public URL); no inline script, no eval, no framing, no plugins.
// 'wasm-unsafe-eval' lets our own WebAssembly compile (the logins vault's Argon2id, hash-wasm); it
// does not allow JavaScript eval.
func contentSecurityPolicy(cfg config.Config) string {
	return "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self' " + cfg.WebSocketOrigin() + "; " +
		"worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'self'; " +
		"form-action 'self'; frame-ancestors 'none'"
}

const permissionsPolicy = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), " +
	"publickey-credentials-get=(self)"

// securityHeaders sets the security headers on every answer, before the handler runs, so that
// errors and panics carry them too.
func (a *api) securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", a.csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Permissions-Policy", permissionsPolicy)
		if a.hsts != "" {
			h.Set("Strict-Transport-Security", a.hsts)
		}
		next.ServeHTTP(w, r)
	})
}

// accessLog logs one line per request. The path is logged without its query, which may hold
// tokens.
func (a *api) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		next.ServeHTTP(ww, r)
		status := ww.Status()
		if status == 0 {
			status = http.StatusOK
		}
		a.logger.InfoContext(r.Context(), "http request",
			"method", r.Method,
			"path", r.URL.Path,
			"status", status,
			"bytes", ww.BytesWritten(),
			"duration_ms", float64(time.Since(start).Microseconds())/1000,
			"remote", r.RemoteAddr,
		)
	})
}

// recoverer turns a panic into a logged stack trace and a 500 JSON answer. http.ErrAbortHandler
// is passed on: it is the way to abort a response on purpose.
func (a *api) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			a.logger.ErrorContext(r.Context(), "panic while serving a request",
				"panic", v, "method", r.Method, "path", r.URL.Path, "stack", string(debug.Stack()))
			writeErrorJSON(w, &core.Error{Code: core.EINTERNAL, Message: core.ErrorMessage(core.Errorf(core.EINTERNAL, "panic"))})
		}()
		next.ServeHTTP(w, r)
	})
}

// noStore keeps API answers, which hold personal data, out of every cache.
func noStore(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}

// maxJSONBody is the largest request body the API accepts.
const maxJSONBody = 1 << 20 // 1 MiB

// limitBody answers 413 at once when the declared length is over the limit, and otherwise makes
// reading past the limit fail (decodeJSON turns that failure into a 413 too). Its message is in
// the request's language when the language middleware ran before it.
func limitBody(limit int64) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.ContentLength > limit {
				// The client may still be sending the body; close the connection after answering
				// rather than reading it all.
				w.Header().Set("Connection", "close")
				writeErrorJSON(w, core.Refuse(r.Context(), core.ETOOLARGE, "http.request.tooLarge", limit>>10))
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, limit)
			next.ServeHTTP(w, r)
		})
	}
}
