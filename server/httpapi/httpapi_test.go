package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"patrimonio/core"
	"patrimonio/internal/pgtest"
	"patrimonio/internal/testkit"
	"patrimonio/server/billing/stripemock"
	"patrimonio/server/config"
	"patrimonio/server/store"
	schema "patrimonio/shared-schema"
)

// TestMain stops what the tests started: the throwaway Postgres and stripe-mock (billing).
func TestMain(m *testing.M) {
	code := pgtest.Run(m)
	stripemock.Stop()
	os.Exit(code)
}

type fixture struct {
	cfg  config.Config
	db   *store.DB
	logs *testkit.Buffer
	api  *api
}

// newFixture builds the real handler over a real SQLite store and a fake built PWA.
func newFixture(t *testing.T, change ...func(*config.Config)) *fixture {
	t.Helper()
	cfg := config.Config{
		Addr:       "localhost:8080",
		SQLitePath: filepath.Join(t.TempDir(), "patrimonio.db"),
		PublicURL:  "http://localhost:8080",
		WebDir:     fakeBuild(t),
	}
	for _, c := range change {
		c(&cfg)
	}
	db, err := store.Open(context.Background(), cfg.Dialect(), cfg.DatabaseSource())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	logs := &testkit.Buffer{}
	logger := slog.New(core.NewLogHandler(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	return &fixture{cfg: cfg, db: db, logs: logs, api: newAPI(cfg, Deps{DB: db, Logger: logger})}
}

// fakeBuild writes a directory shaped like the Vite + vite-plugin-pwa build.
func fakeBuild(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"index.html":             `<!doctype html><html><head><script type="module" src="/_app/index-B7xK2q.js"></script></head><body><div id="root"></div></body></html>`,
		"_app/index-B7xK2q.js":   `console.log("app")`,
		"_app/index-C9d1Ea.css":  `body{margin:0}`,
		"manifest.webmanifest":   `{"name":"Patrimonio"}`,
		"sw.js":                  `self.addEventListener("install",()=>{})`,
		"registerSW.js":          `navigator.serviceWorker.register("/sw.js")`,
		"theme-init.js":          `document.documentElement.classList.toggle("dark", false)`,
		"workbox-5c3a9d1e.js":    `/* workbox */`,
		"icons/pwa-192x192.png":  "\x89PNG\r\n\x1a\nfake",
		"robots.txt":             "User-agent: *\n",
		".env":                   "SECRET=leaked",
		"_app/.hidden-B7xK2q.js": "hidden",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func (f *fixture) do(t *testing.T, method, target string, body io.Reader, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	return serve(f.api.mux, method, target, body, header...)
}

func serve(h http.Handler, method, target string, body io.Reader, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, body)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// jsonError decodes the error body and fails the test when the answer is not one.
func jsonError(t *testing.T, rec *httptest.ResponseRecorder) errorDetail {
	t.Helper()
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("Content-Type = %q, want JSON; body %q", ct, rec.Body.String())
	}
	var body errorBody
	dec := json.NewDecoder(rec.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		t.Fatalf("error body is not {\"error\":{code,message}}: %v", err)
	}
	if body.Error.Code == "" || body.Error.Message == "" {
		t.Fatalf("error body lacks code or message: %+v", body)
	}
	return body.Error
}

func TestSecurityHeadersAreOnEveryAnswer(t *testing.T) {
	f := newFixture(t)
	wantCSP := "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
		"font-src 'self' data:; connect-src 'self' ws://localhost:8080; worker-src 'self'; manifest-src 'self'; " +
		"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
	for _, tc := range []struct{ method, target string }{
		{"GET", "/api/v1/health"},
		{"GET", "/api/v1/nope"},
		{"POST", "/api/v1/health"},
		{"GET", "/"},
		{"GET", "/wealth/assets"},
		{"GET", "/_app/index-B7xK2q.js"},
		{"GET", "/_app/gone-123.js"},
	} {
		t.Run(tc.method+" "+tc.target, func(t *testing.T) {
			rec := f.do(t, tc.method, tc.target, nil)
			h := rec.Header()
			want := map[string]string{
				"Content-Security-Policy": wantCSP,
				"X-Content-Type-Options":  "nosniff",
				"Referrer-Policy":         "strict-origin-when-cross-origin",
				"X-Frame-Options":         "DENY",
				"Permissions-Policy":      permissionsPolicy,
			}
			for k, v := range want {
				if got := h.Get(k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
			if got := h.Get("Strict-Transport-Security"); got != "" {
				t.Errorf("HSTS %q sent for an http public URL", got)
			}
		})
	}
}

func TestAnHTTPSPublicURLAddsHSTSAndASecureSocketOrigin(t *testing.T) {
	f := newFixture(t, func(c *config.Config) { c.PublicURL = "https://wealth.example.com" })
	rec := f.do(t, "GET", "/api/v1/health", nil)
	if got := rec.Header().Get("Strict-Transport-Security"); !strings.HasPrefix(got, "max-age=") {
		t.Errorf("Strict-Transport-Security = %q", got)
	}
	if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self' wss://wealth.example.com;") {
		t.Errorf("CSP %q lacks the wss origin", csp)
	}
	if csp := rec.Header().Get("Content-Security-Policy"); strings.Contains(csp, "script-src 'self' 'unsafe-inline'") {
		t.Errorf("CSP %q allows inline script", csp)
	}
}

func TestUnknownAPIPathsAnswerJSON404(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct{ method, target string }{
		{"GET", "/api/v1/nope"},
		{"GET", "/api/v1/health/extra"},
		{"GET", "/api/v1"},
		{"GET", "/api/v1/"},
		{"GET", "/api"},
		{"GET", "/api/v2/health"},
		{"POST", "/api/v1/nope"},
		{"DELETE", "/api/anything"},
	} {
		t.Run(tc.method+" "+tc.target+" is a JSON 404", func(t *testing.T) {
			rec := f.do(t, tc.method, tc.target, nil)
			if rec.Code != http.StatusNotFound {
				t.Fatalf("status = %d, want 404; body %q", rec.Code, rec.Body.String())
			}
			if e := jsonError(t, rec); e.Code != core.ENOTFOUND {
				t.Errorf("code = %q", e.Code)
			}
			if cc := rec.Header().Get("Cache-Control"); cc != "no-store" {
				t.Errorf("Cache-Control = %q, want no-store", cc)
			}
		})
	}
}

func TestAWrongMethodAnswersJSON405WithAllow(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct{ name, method, target, wantAllow string }{
		{"posting to the health endpoint", "POST", "/api/v1/health", "GET"},
		{"deleting the health endpoint", "DELETE", "/api/v1/health", "GET"},
		{"posting to a client route", "POST", "/wealth/assets", "GET, HEAD"},
	} {
		t.Run(tc.name+" is a JSON 405", func(t *testing.T) {
			rec := f.do(t, tc.method, tc.target, nil)
			if rec.Code != http.StatusMethodNotAllowed {
				t.Fatalf("status = %d, want 405", rec.Code)
			}
			if got := rec.Header().Get("Allow"); got != tc.wantAllow {
				t.Errorf("Allow = %q, want %q", got, tc.wantAllow)
			}
			if e := jsonError(t, rec); e.Code != core.EMETHOD {
				t.Errorf("code = %q", e.Code)
			}
		})
	}
}

func TestHealth(t *testing.T) {
	// The versions the sync socket checks in a hello (sync/socket), so that a device it refuses can
	// tell which side is behind.
	syncVersions := fmt.Sprintf(`"sync":{"protocolVersion":%d,"schemaVersion":%d}`, schema.ProtocolVersion, schema.SchemaVersion)
	configs := map[string]func(t *testing.T) config.Config{
		"sqlite":   func(t *testing.T) config.Config { return config.Config{SQLitePath: filepath.Join(t.TempDir(), "h.db")} },
		"postgres": func(t *testing.T) config.Config { return config.Config{DatabaseURL: pgtest.URL(t)} },
	}
	for dialect, config := range configs {
		t.Run("on "+dialect+" it is ok while the database answers and degraded once it does not", func(t *testing.T) {
			cfg := config(t)
			cfg.PublicURL, cfg.WebDir = "http://localhost:8080", t.TempDir()
			db, err := store.Open(context.Background(), cfg.Dialect(), cfg.DatabaseSource())
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			h := New(cfg, Deps{DB: db})

			for _, step := range []struct {
				wantStatus    int
				wantBody      string
				closeDBBefore bool
			}{
				{http.StatusOK, `{"status":"ok","version":"` + core.Version + `","database":{"dialect":"` + dialect + `","reachable":true},` + syncVersions + `}`, false},
				{http.StatusServiceUnavailable, `{"status":"degraded","version":"` + core.Version + `","database":{"dialect":"` + dialect + `","reachable":false},` + syncVersions + `}`, true},
			} {
				if step.closeDBBefore {
					db.Close()
				}
				rec := serve(h, "GET", "/api/v1/health", nil)
				if rec.Code != step.wantStatus || strings.TrimSpace(rec.Body.String()) != step.wantBody {
					t.Errorf("got %d %s\nwant %d %s", rec.Code, rec.Body.String(), step.wantStatus, step.wantBody)
				}
				if ct := rec.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
					t.Errorf("Content-Type = %q", ct)
				}
			}
		})
	}
}

// echoHandler is a test-only endpoint that decodes with decodeJSON and answers what it read.
func (f *fixture) echoHandler() http.Handler {
	type input struct {
		Name   string   `json:"name"`
		Amount int64    `json:"amount"`
		Tags   []string `json:"tags"`
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in input
		if err := decodeJSON(w, r, &in); err != nil {
			f.api.writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, in)
	})
	var wrapped http.Handler = noStore(f.api.language(limitBody(maxJSONBody)(h)))
	mw := f.api.middleware()
	for i := len(mw) - 1; i >= 0; i-- {
		wrapped = mw[i](wrapped)
	}
	return wrapped
}

// chunked hides the length of a body so that only reading it can find it too large.
type chunked struct{ io.Reader }

func TestDecodeJSON(t *testing.T) {
	f := newFixture(t)
	h := f.echoHandler()
	big := `{"name":"` + strings.Repeat("a", maxJSONBody) + `"}`
	tests := []struct {
		name        string
		body        func() io.Reader
		contentType string
		wantStatus  int
		wantCode    string
		// The refusal's message, in English and in Spanish (Accept-Language en, es).
		wantEN, wantES string
		wantBody       string
	}{
		{name: "a valid body is decoded", body: text(`{"name":"Casa","amount":250000,"tags":["a"]}`), wantStatus: 200, wantBody: `{"name":"Casa","amount":250000,"tags":["a"]}`},
		{name: "a charset parameter is accepted", body: text(`{"name":"x"}`), contentType: "application/json; charset=utf-8", wantStatus: 200, wantBody: `{"name":"x","amount":0,"tags":null}`},
		{name: "malformed JSON is a 400 that says where", body: text(`{"name": "x",}`), wantStatus: 400, wantCode: core.EINVALID,
			wantEN: "The request body is not valid JSON (at byte 14).", wantES: "El cuerpo de la solicitud no es JSON válido (en el byte 14)."},
		{name: "a cut-off body is a 400", body: text(`{"name": "x"`), wantStatus: 400, wantCode: core.EINVALID,
			wantEN: "The request body is not valid JSON: it ends too early.", wantES: "El cuerpo de la solicitud no es JSON válido: termina antes de tiempo."},
		{name: "an empty body is a 400", body: text(``), wantStatus: 400, wantCode: core.EINVALID,
			wantEN: "The request body is empty; JSON was expected.", wantES: "El cuerpo de la solicitud está vacío; se esperaba JSON."},
		{name: "an unknown field is a 400 that names it", body: text(`{"name":"x","owner":"me"}`), wantStatus: 400, wantCode: core.EINVALID,
			wantEN: `The field "owner" is not allowed.`, wantES: `El campo "owner" no está permitido.`},
		{name: "a wrong type is a 400 that names the field", body: text(`{"amount":"lots"}`), wantStatus: 400, wantCode: core.EINVALID,
			wantEN: `The field "amount" must be a whole number.`, wantES: `El campo "amount" debe ser un número entero.`},
		{name: "a body of the wrong shape is a 400", body: text(`["a"]`), wantStatus: 400, wantCode: core.EINVALID,
			wantEN: "The request body must be an object.", wantES: "El cuerpo de la solicitud debe ser un objeto."},
		{name: "two JSON values are a 400", body: text(`{"name":"a"} {"name":"b"}`), wantStatus: 400, wantCode: core.EINVALID,
			wantEN: "The request body must hold a single JSON value.", wantES: "El cuerpo de la solicitud debe contener un único valor JSON."},
		{name: "another content type is a 400", body: text(`name=x`), contentType: "application/x-www-form-urlencoded", wantStatus: 400, wantCode: core.EINVALID,
			wantEN: "The request body must be JSON (Content-Type: application/json).", wantES: "El cuerpo de la solicitud debe ser JSON (Content-Type: application/json)."},
		{name: "a declared length over 1 MiB is a 413", body: text(big), wantStatus: 413, wantCode: core.ETOOLARGE,
			wantEN: "The request body is larger than the limit of 1024 KiB.", wantES: "El cuerpo de la solicitud supera el límite de 1024 KiB."},
		{name: "a streamed body over 1 MiB is a 413", body: func() io.Reader { return chunked{strings.NewReader(big)} }, wantStatus: 413, wantCode: core.ETOOLARGE,
			wantEN: "The request body is larger than the limit of 1024 KiB.", wantES: "El cuerpo de la solicitud supera el límite de 1024 KiB."},
	}
	for _, tt := range tests {
		for _, lang := range []string{"en", "es"} {
			t.Run(tt.name+" in "+lang, func(t *testing.T) {
				ct := tt.contentType
				if ct == "" {
					ct = "application/json"
				}
				rec := serve(h, "POST", "/echo", tt.body(), "Content-Type", ct, "Accept-Language", lang)
				if rec.Code != tt.wantStatus {
					t.Fatalf("status = %d, want %d; body %s", rec.Code, tt.wantStatus, rec.Body.String())
				}
				if tt.wantBody != "" {
					if got := strings.TrimSpace(rec.Body.String()); got != tt.wantBody {
						t.Errorf("body = %s, want %s", got, tt.wantBody)
					}
					return
				}
				want := map[string]string{"en": tt.wantEN, "es": tt.wantES}[lang]
				if e := jsonError(t, rec); e.Code != tt.wantCode || e.Message != want {
					t.Errorf("got %+v, want code %s and the message %q", e, tt.wantCode, want)
				}
			})
		}
	}
	if strings.Contains(f.logs.String(), `"level":"ERROR"`) {
		t.Errorf("client mistakes were logged as errors:\n%s", f.logs.String())
	}
}

// text returns a function that gives a fresh reader of s each time (a table row runs twice).
func text(s string) func() io.Reader { return func() io.Reader { return strings.NewReader(s) } }

// The texts' parity (both languages, the same arguments) is checked for the whole catalogue in
// core; here, that the HTTP layer's texts come in the request's language, Spanish by default.
func TestEveryRequestTextHasSpanishAndEnglishWithTheSameArguments(t *testing.T) {
	ctx := core.WithLanguage(context.Background(), "en")
	if got := core.Text(ctx, "http.request.tooLarge", 1); got != "The request body is larger than the limit of 1 KiB." {
		t.Errorf("requestText in English = %q", got)
	}
	if got := core.Text(context.Background(), "http.request.tooLarge", 1); got != "El cuerpo de la solicitud supera el límite de 1 KiB." {
		t.Errorf("requestText by default = %q", got)
	}
}

func TestAPanicBecomesA500JSONAndALoggedStack(t *testing.T) {
	f := newFixture(t)
	var h http.Handler = http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic("the ledger is on fire")
	})
	mw := f.api.middleware()
	for i := len(mw) - 1; i >= 0; i-- {
		h = mw[i](h)
	}
	rec := serve(h, "GET", "/boom", nil, RequestIDHeader, "boom-1")

	if rec.Code != http.StatusInternalServerError {
		t.Fatalf("status = %d, want 500", rec.Code)
	}
	e := jsonError(t, rec)
	if e.Code != core.EINTERNAL || e.Message != "Internal error." {
		t.Errorf("got %+v", e)
	}
	if strings.Contains(rec.Body.String(), "fire") {
		t.Error("the panic value leaked to the client")
	}
	if rec.Header().Get("X-Content-Type-Options") != "nosniff" {
		t.Error("the 500 lacks the security headers")
	}
	logs := f.logs.String()
	for _, want := range []string{"the ledger is on fire", "goroutine", `"request_id":"boom-1"`, `"status":500`} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %q:\n%s", want, logs)
		}
	}
}

func TestRequestIDs(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name     string
		incoming string
		keep     bool
	}{
		{"a well-formed incoming id is kept", "edge-7f3a.42", true},
		{"a missing id is generated", "", false},
		{"an id with odd characters is replaced", "x\" injected=1", false},
		{"an overlong id is replaced", strings.Repeat("a", 200), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := f.do(t, "GET", "/api/v1/health?token=secret", nil, RequestIDHeader, tt.incoming)
			got := rec.Header().Get(RequestIDHeader)
			if tt.keep && got != tt.incoming {
				t.Errorf("id = %q, want %q", got, tt.incoming)
			}
			if !tt.keep && (got == tt.incoming || !validRequestID.MatchString(got)) {
				t.Errorf("id = %q, want a new well-formed id", got)
			}
			var line map[string]any
			for _, l := range strings.Split(strings.TrimSpace(f.logs.String()), "\n") {
				if strings.Contains(l, `"request_id":"`+got+`"`) && strings.Contains(l, `"msg":"http request"`) {
					if err := json.Unmarshal([]byte(l), &line); err != nil {
						t.Fatal(err)
					}
				}
			}
			if line == nil {
				t.Fatalf("no access log line with request_id %s:\n%s", got, f.logs.String())
			}
			if line["method"] != "GET" || line["path"] != "/api/v1/health" || line["status"] != float64(200) {
				t.Errorf("access log line = %v", line)
			}
		})
	}
	if strings.Contains(f.logs.String(), "secret") {
		t.Error("the query string was logged")
	}
}

func TestTheBuiltPWAIsServedWithItsCachePolicy(t *testing.T) {
	f := newFixture(t)
	index := `<div id="root">`
	tests := []struct {
		name, target  string
		wantStatus    int
		wantCache     string
		wantType      string
		wantInBody    string
		wantNotInBody string
	}{
		{name: "the root is index.html, revalidated", target: "/", wantStatus: 200, wantCache: "no-cache", wantType: "text/html; charset=utf-8", wantInBody: index},
		{name: "index.html itself is revalidated", target: "/index.html", wantStatus: 200, wantCache: "no-cache", wantType: "text/html; charset=utf-8", wantInBody: index},
		{name: "a hashed script is immutable", target: "/_app/index-B7xK2q.js", wantStatus: 200, wantCache: "public, max-age=31536000, immutable", wantType: "text/javascript; charset=utf-8", wantInBody: `console.log("app")`},
		{name: "a hashed stylesheet is immutable", target: "/_app/index-C9d1Ea.css", wantStatus: 200, wantCache: "public, max-age=31536000, immutable", wantType: "text/css; charset=utf-8", wantInBody: "margin:0"},
		{name: "the manifest is revalidated and typed as a manifest", target: "/manifest.webmanifest", wantStatus: 200, wantCache: "no-cache", wantType: "application/manifest+json", wantInBody: "Patrimonio"},
		{name: "the service worker is revalidated", target: "/sw.js", wantStatus: 200, wantCache: "no-cache", wantType: "text/javascript; charset=utf-8", wantInBody: "install"},
		{name: "the service worker registration is revalidated", target: "/registerSW.js", wantStatus: 200, wantCache: "no-cache", wantInBody: "register"},
		{name: "the workbox runtime is revalidated", target: "/workbox-5c3a9d1e.js", wantStatus: 200, wantCache: "no-cache", wantInBody: "workbox"},
		{name: "the theme script (not hashed, runs before first paint) is revalidated", target: "/theme-init.js", wantStatus: 200, wantCache: "no-cache", wantType: "text/javascript; charset=utf-8", wantInBody: "dark"},
		{name: "an icon gets a modest cache", target: "/icons/pwa-192x192.png", wantStatus: 200, wantCache: "public, max-age=3600", wantType: "image/png"},
		{name: "robots.txt gets a modest cache", target: "/robots.txt", wantStatus: 200, wantCache: "public, max-age=3600", wantType: "text/plain; charset=utf-8"},
		{name: "a client route deep-links to index.html", target: "/wealth/assets/9f2c", wantStatus: 200, wantCache: "no-cache", wantType: "text/html; charset=utf-8", wantInBody: index},
		{name: "a client route with a query deep-links to index.html", target: "/settings?lng=en", wantStatus: 200, wantCache: "no-cache", wantInBody: index},
		{name: "a missing hashed asset is a plain 404, not the app", target: "/_app/index-OLD123.js", wantStatus: 404, wantType: "text/plain; charset=utf-8", wantNotInBody: index},
		{name: "the hashed files' directory itself is a plain 404", target: "/_app/", wantStatus: 404, wantNotInBody: index},
		{name: "a hidden file is never served", target: "/.env", wantStatus: 200, wantInBody: index, wantNotInBody: "SECRET"},
		{name: "a hidden asset is never served", target: "/_app/.hidden-B7xK2q.js", wantStatus: 404, wantNotInBody: "hidden"},
		{name: "a path climbing out of the web dir stays inside", target: "/../../etc/passwd", wantStatus: 200, wantInBody: index, wantNotInBody: "root:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := f.do(t, "GET", tt.target, nil)
			if rec.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d; body %q", rec.Code, tt.wantStatus, rec.Body.String())
			}
			if tt.wantCache != "" && rec.Header().Get("Cache-Control") != tt.wantCache {
				t.Errorf("Cache-Control = %q, want %q", rec.Header().Get("Cache-Control"), tt.wantCache)
			}
			if tt.wantType != "" && rec.Header().Get("Content-Type") != tt.wantType {
				t.Errorf("Content-Type = %q, want %q", rec.Header().Get("Content-Type"), tt.wantType)
			}
			if tt.wantInBody != "" && !strings.Contains(rec.Body.String(), tt.wantInBody) {
				t.Errorf("body %q lacks %q", rec.Body.String(), tt.wantInBody)
			}
			if tt.wantNotInBody != "" && strings.Contains(rec.Body.String(), tt.wantNotInBody) {
				t.Errorf("body %q has %q", rec.Body.String(), tt.wantNotInBody)
			}
		})
	}
}

func TestHEADOfTheAppAnswersHeadersWithoutBody(t *testing.T) {
	f := newFixture(t)
	rec := f.do(t, "HEAD", "/", nil)
	if rec.Code != 200 || rec.Body.Len() != 0 || rec.Header().Get("Cache-Control") != "no-cache" {
		t.Errorf("got %d, %d body bytes, Cache-Control %q", rec.Code, rec.Body.Len(), rec.Header().Get("Cache-Control"))
	}
}

func TestASymlinkOutOfTheWebDirIsNotFollowed(t *testing.T) {
	f := newFixture(t)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("TOP SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(f.cfg.WebDir, "_app", "leak.txt")); err != nil {
		t.Fatal(err)
	}
	rec := f.do(t, "GET", "/_app/leak.txt", nil)
	if rec.Code != http.StatusNotFound || strings.Contains(rec.Body.String(), "TOP SECRET") {
		t.Errorf("got %d %q, want a 404 without the file", rec.Code, rec.Body.String())
	}
}

func TestWithoutABuiltPWATheAppAnswers503AndTheAPIStillWorks(t *testing.T) {
	for name, dir := range map[string]func(t *testing.T) string{
		"an empty web dir":  func(t *testing.T) string { return t.TempDir() },
		"a missing web dir": func(t *testing.T) string { return filepath.Join(t.TempDir(), "no", "dist") },
	} {
		t.Run(name+" answers 503 that says how to build", func(t *testing.T) {
			f := newFixture(t, func(c *config.Config) { c.WebDir = dir(t) })
			rec := f.do(t, "GET", "/wealth", nil)
			if rec.Code != http.StatusServiceUnavailable {
				t.Fatalf("status = %d, want 503", rec.Code)
			}
			if body := rec.Body.String(); !strings.Contains(body, "not built") || !strings.Contains(body, "make run") {
				t.Errorf("body %q does not explain", body)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "text/plain; charset=utf-8" {
				t.Errorf("Content-Type = %q", ct)
			}
			if rec := f.do(t, "GET", "/api/v1/health", nil); rec.Code != http.StatusOK {
				t.Errorf("health = %d, want 200", rec.Code)
			}
		})
	}
}

func TestEveryErrorCodeHasAStatus(t *testing.T) {
	for _, code := range []string{core.EINVALID, core.ENOTFOUND, core.ECONFLICT, core.EUNAUTHORIZED,
		core.EFORBIDDEN, core.EREVERIFY, core.ETOOLARGE, core.EMETHOD, core.ETOOMANY, core.EUNAVAILABLE, core.EINTERNAL} {
		if _, ok := statusByCode[code]; !ok {
			t.Errorf("code %q has no HTTP status", code)
		}
	}
	if len(statusByCode) != 11 {
		t.Errorf("statusByCode has %d entries, want the 11 codes", len(statusByCode))
	}
}

func TestOnlyInternalErrorsAreLoggedWithDetail(t *testing.T) {
	f := newFixture(t)
	for _, err := range []error{
		core.Errorf(core.ECONFLICT, "Changed meanwhile."),
		io.ErrClosedPipe,
	} {
		rec := httptest.NewRecorder()
		f.api.writeError(rec, httptest.NewRequest("GET", "/x", nil), err)
	}
	logs := f.logs.String()
	if strings.Contains(logs, "Changed meanwhile") {
		t.Errorf("a conflict was logged:\n%s", logs)
	}
	if !strings.Contains(logs, io.ErrClosedPipe.Error()) {
		t.Errorf("the internal error was not logged with its detail:\n%s", logs)
	}
}
