package httpapi

// Ids and text are checked here, before they reach SQL: Postgres refuses a NUL byte or invalid
// UTF-8 in text (SQLSTATE 22021) and a malformed value where it expects a UUID, which would
// otherwise surface as a 500. The checks answer 400 invalid with a clear message instead:
//   - validInput (middleware): every query value, and every route parameter named id or ending
//     in Id (they are all UUIDs), checked after routing;
//   - checkJSONText (called by decodeJSON): every string and key of a JSON body.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"patrimonio/core"
)

// goodText says whether v may be stored as text: valid UTF-8 without NUL bytes.
func goodText(v string) bool { return utf8.ValidString(v) && !strings.Contains(v, "\x00") }

// isIDParam says whether a route parameter holds a UUID.
func isIDParam(name string) bool { return name == "id" || strings.HasSuffix(name, "Id") }

// validInput refuses (400) requests whose query text or id route parameters would not reach the
// database intact. Route parameters are known once routed: use it on the route groups (it checks
// the query wherever it runs).
func (a *api) validInput(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		for _, values := range r.URL.Query() {
			for _, v := range values {
				if !goodText(v) {
					a.writeError(w, r, core.Refuse(ctx, core.EINVALID, "http.request.badText"))
					return
				}
			}
		}
		if rc := chi.RouteContext(ctx); rc != nil {
			for i, name := range rc.URLParams.Keys {
				if !isIDParam(name) || i >= len(rc.URLParams.Values) {
					continue
				}
				if _, err := uuid.Parse(rc.URLParams.Values[i]); err != nil || len(rc.URLParams.Values[i]) != 36 {
					a.writeError(w, r, core.Refuse(ctx, core.EINVALID, "http.request.badID", strconv.Quote(name)))
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// checkJSONText refuses a JSON document holding a string or key with a NUL byte (written \u0000;
// a raw one is not JSON). encoding/json turns invalid UTF-8 and unpaired surrogates into U+FFFD,
// which the databases take.
func checkJSONText(ctx context.Context, raw []byte) error {
	if !bytes.Contains(raw, []byte(`\u`)) {
		return nil // no escapes: encoding/json has refused control bytes already
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return nil // decodeJSON reports syntax errors
		}
		if s, ok := tok.(string); ok && !goodText(s) {
			return core.Refuse(ctx, core.EINVALID, "http.request.badText")
		}
	}
}

// readPage reads a list's optional ?limit= and ?offset= (whole numbers; the service applies its
// bounds). On a value that is not a number it answers 400 and returns false.
func (a *api) readPage(w http.ResponseWriter, r *http.Request, limit, offset *int) bool {
	q := r.URL.Query()
	for _, p := range []struct {
		name string
		dst  *int
	}{{"limit", limit}, {"offset", offset}} {
		if v := q.Get(p.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				a.writeError(w, r, core.Refuse(r.Context(), core.EINVALID, "http.admin.integer", p.name))
				return false
			}
			*p.dst = n
		}
	}
	return true
}
