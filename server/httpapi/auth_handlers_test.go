package httpapi

// The local provider's endpoints (auth_handlers.go, users_handlers.go, session.go) through the real
// router over a real store, on SQLite and on Postgres, with an injected clock, the real dev outbox
// for e-mailed codes, and every answer checked against the OpenAPI document.

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"patrimonio/internal/pgtest"
	"patrimonio/server/account"
	"patrimonio/server/config"
	"patrimonio/server/store"
)

// authClock is the injected time of the accounts service.
type authClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *authClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *authClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// authServer is the real router with the accounts service over a real database.
type authServer struct {
	t        *testing.T
	cfg      config.Config
	db       *store.DB
	accounts *account.Services
	clock    *authClock
	api      *api
}

// authDialects runs f on SQLite and on Postgres.
func authDialects(t *testing.T, f func(t *testing.T, s *authServer), change ...func(*config.Config)) {
	t.Helper()
	t.Parallel()
	for _, d := range []store.Dialect{store.SQLite, store.Postgres} {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			f(t, startAuthServer(t, d, change...))
		})
	}
}

func startAuthServer(t *testing.T, d store.Dialect, change ...func(*config.Config)) *authServer {
	t.Helper()
	cfg := config.Config{Addr: "localhost:8080", PublicURL: "http://localhost:8080", WebDir: t.TempDir()}
	if d == store.Postgres {
		cfg.DatabaseURL = pgtest.URL(t)
	} else {
		cfg.SQLitePath = filepath.Join(t.TempDir(), "patrimonio.db")
	}
	cfg.DevOutbox = filepath.Join(t.TempDir(), "outbox")
	for _, c := range change {
		c(&cfg)
	}
	db, err := store.Open(context.Background(), cfg.Dialect(), cfg.DatabaseSource())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	acfg := account.DefaultConfig()
	acfg.Password = account.PasswordParams{Memory: 64, Time: 1, Threads: 1}
	acfg.AdminEmails = cfg.AdminEmailList()
	acfg.SecretKey = testSecretKey(t)
	clock := &authClock{t: time.Date(2025, 3, 10, 10, 0, 0, 0, time.UTC)}
	accounts, err := account.New(db, acfg, account.Options{Mailer: &account.LogMailer{OutboxDir: cfg.DevOutbox},
		Logger: slog.New(slog.DiscardHandler), Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	return &authServer{t: t, cfg: cfg, db: db, accounts: accounts, clock: clock,
		api: newAPI(cfg, Deps{DB: db, Accounts: accounts})}
}

// testSecretKey is a random secret key (PATRIMONIO_SECRET_KEY) for a test's accounts service.
func testSecretKey(t *testing.T) []byte {
	t.Helper()
	key := make([]byte, config.SecretKeyLen)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	return key
}

// authClient is a browser tab: it keeps the session cookie the server sets, sends the app's own
// Origin and Sec-Fetch-Site on every request, and an Accept-Language.
type authClient struct {
	s      *authServer
	token  string
	lang   string
	ip     string
	origin string
}

func (s *authServer) client() *authClient {
	return &authClient{s: s, lang: "es", ip: "192.0.2.1", origin: s.cfg.PublicURL}
}

// call sends body (a string is sent as it is, anything else as JSON) and extra headers in pairs.
func (c *authClient) call(method, path string, body any, headers ...string) *httptest.ResponseRecorder {
	c.s.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			c.s.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, path, rd)
	req.RemoteAddr = c.ip + ":50000"
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.origin != "" {
		req.Header.Set("Origin", c.origin)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
	req.Header.Set("Accept-Language", c.lang)
	if c.token != "" {
		req.AddCookie(&http.Cookie{Name: SessionCookie, Value: c.token})
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] == "" {
			req.Header.Del(headers[i])
		} else {
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	rec := httptest.NewRecorder()
	c.s.api.mux.ServeHTTP(rec, req)
	for _, ck := range rec.Result().Cookies() {
		if ck.Name == SessionCookie {
			if ck.MaxAge < 0 {
				c.token = ""
			} else {
				c.token = ck.Value
			}
		}
	}
	return rec
}

// expect checks the status and the OpenAPI description of the answer, and decodes it into out.
func (c *authClient) expect(rec *httptest.ResponseRecorder, method, route string, status int, out any) {
	c.s.t.Helper()
	if rec.Code != status {
		c.s.t.Fatalf("%s %s: status %d, want %d; body %s", method, route, rec.Code, status, rec.Body)
	}
	conformsToOpenAPI(c.s.t, method, route, rec)
	if out != nil {
		if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil {
			c.s.t.Fatal(err)
		}
	}
}

// do is call followed by expect, for a route without parameters.
func (c *authClient) do(method, path string, body any, status int, out any) *httptest.ResponseRecorder {
	c.s.t.Helper()
	rec := c.call(method, path, body)
	c.expect(rec, method, path, status, out)
	return rec
}

// failure checks an error answer's status, code and message.
func failure(t *testing.T, rec *httptest.ResponseRecorder, status int, code, message string) {
	t.Helper()
	if rec.Code != status {
		t.Fatalf("status %d, want %d; body %s", rec.Code, status, rec.Body)
	}
	e := errorOf(t, rec)
	if e.Code != code || (message != "" && e.Message != message) {
		t.Fatalf("error %+v, want code %q message %q", e, code, message)
	}
}

// signUp signs up with the password and the e-mailed code, like the PWA: the client is then
// signed in with a verified address, at the security_totp step.
func (c *authClient) signUp(email string) {
	c.s.t.Helper()
	var res signUpJSON
	c.do("POST", "/api/v1/auth/signup", map[string]string{"email": email, "password": password}, 202, &res)
	c.do("POST", "/api/v1/auth/signup/verify", map[string]string{"email": res.Email, "code": c.outboxCode(res.Email, "verify_email")}, 200, nil)
}

// signUpUnverified signs up and then in with the password, without the e-mailed code: the client is
// signed in with an unverified address, at the verify_email step.
func (c *authClient) signUpUnverified(email string) {
	c.s.t.Helper()
	c.do("POST", "/api/v1/auth/signup", map[string]string{"email": email, "password": password}, 202, nil)
	c.do("POST", "/api/v1/auth/signin", map[string]string{"email": email, "password": password}, 200, nil)
}

// outboxCode reads the newest code of the purpose to the address from GET /api/v1/dev/outbox, like
// the end-to-end tests do.
func (c *authClient) outboxCode(email, purpose string) string {
	c.s.t.Helper()
	var mails []account.OutboxMail
	c.expect(c.call("GET", "/api/v1/dev/outbox?to="+email, nil), "GET", "/api/v1/dev/outbox", 200, &mails)
	for i := len(mails) - 1; i >= 0; i-- {
		if mails[i].Purpose == purpose {
			return mails[i].Code
		}
	}
	c.s.t.Fatalf("no %s mail to %s in %+v", purpose, email, mails)
	return ""
}

func totpNow(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	raw, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(secret)
	if err != nil {
		t.Fatal(err)
	}
	return account.TOTPCode(raw, account.TOTPStep(at))
}

type meAnswer struct {
	User            userJSON         `json:"user"`
	Workspaces      []membershipJSON `json:"workspaces"`
	Onboarding      onboardingJSON   `json:"onboarding"`
	ReverifiedUntil *time.Time       `json:"reverifiedUntil"`
	Provider        string           `json:"provider"`
}

const password = "lentejas con chorizo 42"

func TestTheWholeLocalAccountJourneyOverHTTP(t *testing.T) {
	authDialects(t, func(t *testing.T, s *authServer) {
		c := s.client()
		var cfg authConfigJSON
		c.do("GET", "/api/v1/auth/config", nil, 200, &cfg)
		// No passkey service in this fixture: passkeys are off.
		if cfg != (authConfigJSON{Provider: "local", Passkeys: false, EmailDelivery: "log"}) {
			t.Fatalf("config %+v", cfg)
		}

		// Sign up: 202 and no cookie; the e-mailed code signs in (the cookie), the address is
		// verified, onboarding at security_totp, the personal workspace.
		var signedUp signUpJSON
		rec := c.do("POST", "/api/v1/auth/signup", map[string]string{"email": "Ana@Example.com", "password": password}, 202, &signedUp)
		if len(rec.Result().Cookies()) != 0 || signedUp != (signUpJSON{Email: "ana@example.com", ResendAfterSeconds: 60}) {
			t.Fatalf("sign-up answer %s with cookies %v", rec.Body, rec.Result().Cookies())
		}
		failure(t, c.call("POST", "/api/v1/auth/signup/verify", map[string]string{"email": "ana@example.com", "code": "12345"}), 400, "invalid", "Datos no válidos: code: El código debe tener 6 dígitos.")
		code := c.outboxCode("ana@example.com", "verify_email")
		rec = c.do("POST", "/api/v1/auth/signup/verify", map[string]string{"email": "ana@example.com", "code": code}, 200, nil)
		ck := rec.Result().Cookies()
		if len(ck) != 1 || ck[0].Name != "patrimonio_session" || !ck[0].HttpOnly || !ck[0].Secure ||
			ck[0].SameSite != http.SameSiteLaxMode || ck[0].Path != "/" || ck[0].Domain != "" || ck[0].MaxAge != 30*24*3600 {
			t.Fatalf("session cookie %+v", ck)
		}
		var me meAnswer
		c.do("GET", "/api/v1/me", nil, 200, &me)
		if me.User.Email != "ana@example.com" || !me.User.EmailVerified || me.Onboarding != (onboardingJSON{"security_totp", false}) ||
			len(me.Workspaces) != 1 || me.Workspaces[0].Kind != "personal" || me.Workspaces[0].Role != "owner" ||
			me.ReverifiedUntil == nil || me.Provider != "local" || !me.User.HasPassword || me.User.FirstName != nil {
			t.Fatalf("me after sign-up %+v", me)
		}

		// TOTP: set up, compute the code from the manual secret, enable, complete the step.
		var setup totpSetupJSON
		c.do("POST", "/api/v1/auth/totp/setup", nil, 200, &setup)
		var enabled struct{ RecoveryCodes []string }
		c.do("POST", "/api/v1/auth/totp/enable", map[string]string{"code": totpNow(t, setup.Secret, s.clock.Now())}, 200, &enabled)
		if len(enabled.RecoveryCodes) != 10 {
			t.Fatalf("recovery codes %v", enabled.RecoveryCodes)
		}
		var adv struct{ Onboarding onboardingJSON }
		c.do("POST", "/api/v1/onboarding/advance", map[string]string{"step": "security_totp", "action": "complete"}, 200, &adv)
		c.do("POST", "/api/v1/onboarding/advance", map[string]string{"step": "security_passkey", "action": "skip"}, 200, &adv)
		if adv.Onboarding.Step != "personal_info" {
			t.Fatalf("onboarding %+v", adv)
		}

		// The empty personal-info form gets the spec's Spanish messages, field by field.
		rec = c.call("PATCH", "/api/v1/users/", map[string]string{"first_name": "", "last_name": "", "birthday": "", "gender": "", "country": "", "state": ""})
		c.expect(rec, "PATCH", "/api/v1/users/", 400, nil)
		var invalid struct {
			Error struct {
				Code    string
				Message string
				Fields  []struct{ Path, Message string }
			}
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &invalid); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, f := range invalid.Error.Fields {
			got[f.Path] = f.Message
		}
		want := map[string]string{"first_name": "El primer nombre es requerido", "last_name": "El apellido es requerido",
			"birthday": "La fecha de nacimiento es requerida", "gender": "El sexo es requerido",
			"country": "El país es requerido", "state": "La provincia es requerida"}
		if invalid.Error.Code != "invalid" || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("empty form answer %s", rec.Body)
		}
		c.do("POST", "/api/v1/onboarding/advance", map[string]string{"step": "personal_info", "action": "complete"}, 400, nil)
		var updated userEnvelope
		c.do("PATCH", "/api/v1/users/", map[string]string{"first_name": "Ana", "last_name": "García", "birthday": "1980-02-29",
			"gender": "female", "country": "ES", "state": "Madrid"}, 200, &updated)
		if *updated.User.LastName != "García" || *updated.User.Birthday != "1980-02-29" {
			t.Fatalf("updated %+v", updated.User)
		}
		c.do("POST", "/api/v1/onboarding/advance", map[string]string{"step": "personal_info", "action": "complete"}, 200, &adv)
		if adv.Onboarding != (onboardingJSON{"done", true}) {
			t.Fatalf("onboarding %+v", adv)
		}

		// Sign out: 204, Clear-Site-Data, the cookie deleted, and the old token is dead.
		old := c.token
		rec = c.do("POST", "/api/v1/auth/signout", nil, 204, nil)
		if rec.Header().Get("Clear-Site-Data") != `"cache", "cookies", "storage"` {
			t.Fatalf("Clear-Site-Data %q", rec.Header().Get("Clear-Site-Data"))
		}
		if c.token != "" {
			t.Fatal("the session cookie was not deleted")
		}
		c.token = old
		failure(t, c.call("GET", "/api/v1/workspaces", nil), 401, "unauthorized", "Inicia sesión para continuar.")
		c.token = old
		c.do("GET", "/api/v1/me", nil, 204, nil) // "who am I?" with a dead session: nobody

		// Sign in again: TOTP is on, so the session waits for the second factor.
		s.clock.Advance(time.Minute)
		var signin signInJSON
		c.do("POST", "/api/v1/auth/signin", map[string]string{"email": "ana@example.com", "password": password}, 200, &signin)
		if !signin.MFARequired || signin.User != nil {
			t.Fatalf("sign-in with TOTP on %+v", signin)
		}
		failure(t, c.call("GET", "/api/v1/workspaces", nil), 401, "unauthorized", "Introduce el código de tu segundo factor para terminar de iniciar sesión.")
		c.do("GET", "/api/v1/me", nil, 204, nil) // not signed in until the second factor
		pending := c.token
		failure(t, c.call("POST", "/api/v1/auth/signin/totp", map[string]string{"code": "12345"}), 400, "invalid", "")
		c.do("POST", "/api/v1/auth/signin/totp", map[string]string{"recoveryCode": enabled.RecoveryCodes[3]}, 200, &signin)
		if signin.MFARequired || signin.User == nil || signin.User.Email != "ana@example.com" || c.token == pending {
			t.Fatalf("after the second factor %+v", signin)
		}
		c.do("GET", "/api/v1/me", nil, 200, &me)
		if me.Onboarding.Step != "done" || !me.User.TOTPEnabled || *me.User.FirstName != "Ana" {
			t.Fatalf("me %+v", me)
		}
		// The pending session is gone.
		c2 := s.client()
		c2.token = pending
		failure(t, c2.call("POST", "/api/v1/auth/signin/totp", map[string]string{"code": "123456"}), 401, "unauthorized", "")
	})
}

func TestSignInAnswersTheSameForAnUnknownAddressAndAWrongPassword(t *testing.T) {
	authDialects(t, func(t *testing.T, s *authServer) {
		c := s.client()
		c.signUp("ana@example.com")
		var bodies []string
		for _, email := range []string{"ana@example.com", "nobody@example.com"} {
			fresh := s.client()
			for _, lang := range []string{"es", "en"} {
				fresh.lang = lang
				rec := fresh.call("POST", "/api/v1/auth/signin", map[string]string{"email": email, "password": "not my password"})
				fresh.expect(rec, "POST", "/api/v1/auth/signin", 401, nil)
				if len(rec.Result().Cookies()) != 0 {
					t.Fatal("a failed sign-in set a cookie")
				}
				bodies = append(bodies, lang+" "+rec.Body.String())
			}
		}
		if bodies[0] != bodies[2] || bodies[1] != bodies[3] {
			t.Fatalf("answers differ:\n%s", strings.Join(bodies, "\n"))
		}
		if !strings.Contains(bodies[0], "El correo electrónico o la contraseña no son correctos.") ||
			!strings.Contains(bodies[1], "The e-mail address or the password is wrong.") {
			t.Fatalf("answers:\n%s", strings.Join(bodies, "\n"))
		}
	})
}

func TestRepeatedFailedSignInsGet429WithRetryAfter(t *testing.T) {
	authDialects(t, func(t *testing.T, s *authServer) {
		s.client().signUp("ana@example.com")
		c := s.client()
		for range 5 {
			c.do("POST", "/api/v1/auth/signin", map[string]string{"email": "ana@example.com", "password": "wrong wrong wrong"}, 401, nil)
		}
		s.clock.Advance(5 * time.Minute)
		c.lang = "en"
		rec := c.call("POST", "/api/v1/auth/signin", map[string]string{"email": "ana@example.com", "password": password})
		c.expect(rec, "POST", "/api/v1/auth/signin", 429, nil)
		failure(t, rec, 429, "too_many_requests", "Too many failed attempts. Try again in 10 minutes.")
		if got := rec.Header().Get("Retry-After"); got != "600" {
			t.Fatalf("Retry-After %q, want 600", got)
		}
		s.clock.Advance(10 * time.Minute)
		c.do("POST", "/api/v1/auth/signin", map[string]string{"email": "ana@example.com", "password": password}, 200, nil)
	})
}

func TestExpiredAndForgedSessionCookiesAreRefused(t *testing.T) {
	authDialects(t, func(t *testing.T, s *authServer) {
		c := s.client()
		c.signUp("ana@example.com")
		c.do("GET", "/api/v1/me", nil, 200, nil)

		forged := s.client()
		forged.token = strings.Repeat("A", 43)
		rec := forged.call("GET", "/api/v1/workspaces", nil)
		failure(t, rec, 401, "unauthorized", "Inicia sesión para continuar.")
		if forged.token != "" {
			t.Fatal("the forged cookie was not deleted")
		}
		garbage := s.client()
		garbage.token = "not-a-token"
		failure(t, garbage.call("GET", "/api/v1/workspaces", nil), 401, "unauthorized", "")

		// Idle for 7 days: gone.
		s.clock.Advance(7 * 24 * time.Hour)
		failure(t, c.call("GET", "/api/v1/workspaces", nil), 401, "unauthorized", "")

		// Active every day: alive until the absolute limit of 30 days.
		d := s.client()
		d.do("POST", "/api/v1/auth/signin", map[string]string{"email": "ana@example.com", "password": password}, 200, nil)
		for range 29 {
			s.clock.Advance(24 * time.Hour)
			d.do("GET", "/api/v1/me", nil, 200, nil)
		}
		s.clock.Advance(24 * time.Hour)
		failure(t, d.call("GET", "/api/v1/workspaces", nil), 401, "unauthorized", "")
	})
}

func TestCrossSiteStateChangingRequestsAreRefused(t *testing.T) {
	authDialects(t, func(t *testing.T, s *authServer) {
		c := s.client()
		c.signUpUnverified("ana@example.com")
		body := map[string]string{"step": "security_totp", "action": "skip"}
		for _, tt := range []struct {
			name    string
			headers []string
		}{
			{"an Origin of another site", []string{"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"}},
			{"Sec-Fetch-Site cross-site without Origin", []string{"Origin", "", "Sec-Fetch-Site", "cross-site"}},
			{"Sec-Fetch-Site same-site without Origin", []string{"Origin", "", "Sec-Fetch-Site", "same-site"}},
			{"the Origin null", []string{"Origin", "null", "Sec-Fetch-Site", ""}},
			{"the public URL's host on another port", []string{"Origin", "http://localhost:9999"}},
			{"the public URL's host over https", []string{"Origin", "https://localhost:8080"}},
			{"a session cookie and no Origin or Sec-Fetch-Site", []string{"Origin", "", "Sec-Fetch-Site", ""}},
		} {
			t.Run(tt.name+" is refused", func(t *testing.T) {
				rec := c.call("POST", "/api/v1/onboarding/advance", body, tt.headers...)
				failure(t, rec, 403, "forbidden", "Solicitud rechazada: procede de otro sitio web.")
				rec = c.call("POST", "/api/v1/auth/signin", map[string]string{"email": "ana@example.com", "password": password}, tt.headers...)
				failure(t, rec, 403, "forbidden", "")
			})
		}
		// Nothing changed: the step is still the first one.
		var me meAnswer
		c.do("GET", "/api/v1/me", nil, 200, &me)
		if me.Onboarding.Step != "verify_email" {
			t.Fatalf("a refused request changed the onboarding: %+v", me.Onboarding)
		}
		// Safe methods are not checked; requests with no cookie and no browser headers (curl,
		// other servers) pass on to the handler.
		c.expect(c.call("GET", "/api/v1/me", nil, "Origin", "https://evil.example"), "GET", "/api/v1/me", 200, nil)
		anon := s.client()
		anon.origin = ""
		anon.expect(anon.call("POST", "/api/v1/auth/signin", map[string]string{"email": "ana@example.com", "password": "wrong wrong wrong"}), "POST", "/api/v1/auth/signin", 401, nil)
		// Sec-Fetch-Site same-origin without Origin passes.
		c.expect(c.call("POST", "/api/v1/auth/email/resend", nil, "Origin", ""), "POST", "/api/v1/auth/email/resend", 429, nil)
	})
}

func TestAnExtraAllowedOriginMaySendRequests(t *testing.T) {
	s := startAuthServer(t, store.SQLite, func(c *config.Config) { c.AllowedOrigins = "http://localhost:5173" })
	c := s.client()
	c.origin = "http://localhost:5173"
	c.signUp("ana@example.com")
	c.origin = "http://localhost:5174"
	failure(t, c.call("POST", "/api/v1/auth/signout", nil), 403, "forbidden", "")
}

func TestSensitiveActionsNeedARecentProofOverHTTP(t *testing.T) {
	authDialects(t, func(t *testing.T, s *authServer) {
		c := s.client()
		c.signUp("ana@example.com")
		var setup totpSetupJSON
		c.do("POST", "/api/v1/auth/totp/setup", nil, 200, &setup)
		c.do("POST", "/api/v1/auth/totp/enable", map[string]string{"code": totpNow(t, setup.Secret, s.clock.Now())}, 200, nil)

		// Fresh after sign-up; expired ten minutes later.
		s.clock.Advance(10 * time.Minute)
		var me meAnswer
		c.do("GET", "/api/v1/me", nil, 200, &me)
		if me.ReverifiedUntil != nil {
			t.Fatalf("reverifiedUntil %v after the window", me.ReverifiedUntil)
		}
		c.lang = "en"
		rec := c.call("DELETE", "/api/v1/auth/totp", nil)
		c.expect(rec, "DELETE", "/api/v1/auth/totp", 403, nil)
		failure(t, rec, 403, "reverification_required", "Confirm your identity to continue.")
		failure(t, c.call("POST", "/api/v1/auth/totp/setup", nil), 403, "reverification_required", "")

		// Wrong proofs are 400 (the session stays), never 401.
		failure(t, c.call("POST", "/api/v1/auth/reverify", map[string]string{"method": "password", "password": "wrong wrong"}), 400, "invalid", "The password is wrong.")
		failure(t, c.call("POST", "/api/v1/auth/reverify", map[string]string{"method": "sms", "code": "123456"}), 400, "invalid", "Invalid data: method: The verification method must be password, totp or email.")
		failure(t, c.call("POST", "/api/v1/auth/reverify", map[string]string{"method": "email", "code": "123456"}), 400, "invalid", "There is no pending code. Ask for a new one.")

		// An e-mailed code proves it.
		c.do("POST", "/api/v1/auth/reverify/email", nil, 204, nil)
		failure(t, c.call("POST", "/api/v1/auth/reverify/email", nil), 429, "too_many_requests", "")
		var rv struct{ ReverifiedUntil time.Time }
		c.do("POST", "/api/v1/auth/reverify", map[string]string{"method": "email", "code": c.outboxCode("ana@example.com", "reverify")}, 200, &rv)
		if !rv.ReverifiedUntil.Equal(s.clock.Now().Add(10 * time.Minute)) {
			t.Fatalf("reverifiedUntil %v", rv.ReverifiedUntil)
		}
		c.do("GET", "/api/v1/me", nil, 200, &me)
		if me.ReverifiedUntil == nil || !me.ReverifiedUntil.Equal(rv.ReverifiedUntil) {
			t.Fatalf("me.reverifiedUntil %v", me.ReverifiedUntil)
		}
		// ...but not with the second factor, which turning TOTP off needs (issue 11).
		failure(t, c.call("DELETE", "/api/v1/auth/totp", nil), 403, "reverification_required",
			"Confirm your identity with your second factor (the authenticator code or a passkey) to continue.")
		c.do("POST", "/api/v1/auth/reverify", map[string]string{"method": "totp", "code": totpNow(t, setup.Secret, s.clock.Now())}, 200, nil)
		c.do("DELETE", "/api/v1/auth/totp", nil, 204, nil)
		c.do("GET", "/api/v1/me", nil, 200, &me)
		if me.User.TOTPEnabled {
			t.Fatal("TOTP is still on")
		}
	})
}

// Turning TOTP on for the first time needs a recent proof too: whoever holds an old session (a
// stolen cookie, a borrowed device) could otherwise enable an authenticator of their own, end the
// owner's other sessions and keep the recovery codes; a password reset never skips TOTP, so the owner
// would be locked out. A fresh sign-in (onboarding) is a proof.
func TestTurningTOTPOnNeedsARecentProofOverHTTP(t *testing.T) {
	authDialects(t, func(t *testing.T, s *authServer) {
		old := s.client()
		old.signUp("ana@example.com") // onboarding: the session is fresh, setup works
		var setup totpSetupJSON
		old.do("POST", "/api/v1/auth/totp/setup", nil, 200, &setup)
		owner := s.client()
		owner.do("POST", "/api/v1/auth/signin", map[string]string{"email": "ana@example.com", "password": password}, 200, nil)

		s.clock.Advance(11 * time.Minute) // neither session holds a recent proof now
		for _, call := range []struct {
			path string
			body any
		}{
			{"/api/v1/auth/totp/setup", nil},
			{"/api/v1/auth/totp/enable", map[string]string{"code": totpNow(t, setup.Secret, s.clock.Now())}},
		} {
			rec := old.call("POST", call.path, call.body)
			old.expect(rec, "POST", call.path, 403, nil)
			failure(t, rec, 403, "reverification_required", "Confirma tu identidad para continuar.")
		}
		var me meAnswer
		owner.do("GET", "/api/v1/me", nil, 200, &me)
		if me.User.TOTPEnabled {
			t.Fatal("TOTP was turned on")
		}
		// With a proof, the same session turns it on.
		old.do("POST", "/api/v1/auth/reverify", map[string]string{"method": "password", "password": password}, 200, nil)
		old.do("POST", "/api/v1/auth/totp/setup", nil, 200, &setup)
		old.do("POST", "/api/v1/auth/totp/enable", map[string]string{"code": totpNow(t, setup.Secret, s.clock.Now())}, 200, nil)
	})
}

func TestAParallelReplayOfATOTPCodeOverHTTPSucceedsOnce(t *testing.T) {
	authDialects(t, func(t *testing.T, s *authServer) {
		c := s.client()
		c.signUp("ana@example.com")
		var setup totpSetupJSON
		c.do("POST", "/api/v1/auth/totp/setup", nil, 200, &setup)
		c.do("POST", "/api/v1/auth/totp/enable", map[string]string{"code": totpNow(t, setup.Secret, s.clock.Now())}, 200, nil)
		s.clock.Advance(30 * time.Second)
		code := totpNow(t, setup.Secret, s.clock.Now())

		// Four tabs of one session send the same code at once (four: under the limit of failures,
		// so that throttling cannot refuse them before the code is checked).
		const n = 4
		statuses := make([]int, n)
		var wg sync.WaitGroup
		for i := range n {
			tab := &authClient{s: s, token: c.token, lang: "es", ip: fmt.Sprintf("198.51.100.%d", i+1), origin: s.cfg.PublicURL}
			wg.Add(1)
			go func() {
				defer wg.Done()
				req := httptest.NewRequest("POST", "/api/v1/auth/reverify", strings.NewReader(`{"method":"totp","code":"`+code+`"}`))
				req.RemoteAddr = tab.ip + ":1"
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Origin", tab.origin)
				req.AddCookie(&http.Cookie{Name: SessionCookie, Value: tab.token})
				rec := httptest.NewRecorder()
				s.api.mux.ServeHTTP(rec, req)
				statuses[i] = rec.Code
			}()
		}
		wg.Wait()
		ok := 0
		for _, st := range statuses {
			switch st {
			case 200:
				ok++
			case 400, 429:
			default:
				t.Fatalf("statuses %v", statuses)
			}
		}
		if ok != 1 {
			t.Fatalf("statuses %v: %d successes, want exactly 1", statuses, ok)
		}
		// And sequentially afterwards, still refused.
		failure(t, c.call("POST", "/api/v1/auth/reverify", map[string]string{"method": "totp", "code": code}), 400, "invalid",
			"El código del autenticador no es correcto o ya se ha usado.")
	})
}

func TestEmailCodeRefusalsOverHTTP(t *testing.T) {
	authDialects(t, func(t *testing.T, s *authServer) {
		c := s.client()
		c.signUpUnverified("ana@example.com")
		code := c.outboxCode("ana@example.com", "verify_email")
		wrong := "000000"
		if code == wrong {
			wrong = "000001"
		}
		failure(t, c.call("POST", "/api/v1/auth/email/verify", map[string]string{"code": wrong}), 400, "invalid", "El código no es correcto.")
		rec := c.call("POST", "/api/v1/auth/email/resend", nil)
		c.expect(rec, "POST", "/api/v1/auth/email/resend", 429, nil)
		if rec.Header().Get("Retry-After") != "60" {
			t.Fatalf("Retry-After %q", rec.Header().Get("Retry-After"))
		}
		s.clock.Advance(15 * time.Minute)
		failure(t, c.call("POST", "/api/v1/auth/email/verify", map[string]string{"code": code}), 400, "invalid", "El código ha caducado. Pide uno nuevo.")
		c.do("POST", "/api/v1/auth/email/resend", nil, 204, nil)
		c.do("POST", "/api/v1/auth/email/verify", map[string]string{"code": c.outboxCode("ana@example.com", "verify_email")}, 200, nil)
		failure(t, c.call("POST", "/api/v1/auth/email/verify", map[string]string{"code": code}), 409, "conflict", "Tu correo electrónico ya está verificado.")
	})
}

func TestBadRequestBodiesAreRefusedInTheRequestsLanguage(t *testing.T) {
	s := startAuthServer(t, store.SQLite)
	c := s.client()
	for _, tt := range []struct {
		name, body, contentType, lang, want string
	}{
		{"malformed JSON", `{"email": "ana@example.com",}`, "application/json", "es", "El cuerpo de la solicitud no es JSON válido (en el byte 29)."},
		{"malformed JSON", `{"email": "ana@example.com",}`, "application/json", "en", "The request body is not valid JSON (at byte 29)."},
		{"a cut-off body", `{"email": "ana@example.com",`, "application/json", "es", "El cuerpo de la solicitud no es JSON válido: termina antes de tiempo."},
		// The shared schema (validate.go) names the field at fault and says what is wrong with it.
		{"an unknown field", `{"email":"a@example.com","password":"x","remember":true}`, "application/json", "es", `Datos no válidos: remember: Campo no permitido.`},
		{"an unknown field", `{"email":"a@example.com","password":"x","remember":true}`, "application/json", "en", `Invalid data: remember: Unknown field.`},
		{"a number for a string", `{"email":42,"password":"x"}`, "application/json", "es", `Datos no válidos: email: Debe ser un texto.`},
		{"a number for a string", `{"email":42,"password":"x"}`, "application/json", "en", `Invalid data: email: Expected text.`},
		{"an empty body", ``, "application/json", "en", "The request body is empty; JSON was expected."},
		{"two values", `{"email":"a@example.com"} {}`, "application/json", "es", "El cuerpo de la solicitud debe contener un único valor JSON."},
		{"form data", `email=a@example.com`, "application/x-www-form-urlencoded", "es", "El cuerpo de la solicitud debe ser JSON (Content-Type: application/json)."},
	} {
		t.Run(tt.name+" in "+tt.lang, func(t *testing.T) {
			c.lang = tt.lang
			rec := c.call("POST", "/api/v1/auth/signin", tt.body, "Content-Type", tt.contentType)
			c.expect(rec, "POST", "/api/v1/auth/signin", 400, nil)
			failure(t, rec, 400, "invalid", tt.want)
		})
	}
	c.lang = "en"
	rec := c.call("POST", "/api/v1/auth/signup", `{"email":"a@example.com","password":"`+strings.Repeat("x", 2<<20)+`"}`)
	failure(t, rec, 413, "too_large", "The request body is larger than the limit of 1024 KiB.")
	c.lang = "es"
	rec = c.call("POST", "/api/v1/auth/signup", `{"email":"a@example.com","password":"`+strings.Repeat("x", 2<<20)+`"}`)
	failure(t, rec, 413, "too_large", "El cuerpo de la solicitud supera el límite de 1024 KiB.")
}

func TestUnicodeNamesRoundTripByteForByte(t *testing.T) {
	authDialects(t, func(t *testing.T, s *authServer) {
		c := s.client()
		c.signUp("ana@example.com")
		sent := map[string]string{
			"first_name": "Jose\u0301 María 😀", // decomposed é, kept as sent
			"last_name":  "Ñúñez-Łukasiewicz 李 محمد \u200f",
			"birthday":   "1999-12-31",
			"gender":     "other",
			"country":    "MX",
			"state":      "Estado de México <&> \"quoted\"",
		}
		c.do("PATCH", "/api/v1/users/", sent, 200, nil)
		rec := c.do("GET", "/api/v1/me", nil, 200, nil)
		var raw struct {
			User map[string]json.RawMessage `json:"user"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &raw); err != nil {
			t.Fatal(err)
		}
		for field, jsonName := range map[string]string{"first_name": "firstName", "last_name": "lastName", "state": "state"} {
			var got string
			if err := json.Unmarshal(raw.User[jsonName], &got); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal([]byte(got), []byte(sent[field])) {
				t.Errorf("%s came back as %+q, sent %+q", field, got, sent[field])
			}
		}
	})
}

func TestUserRoutesNeedASession(t *testing.T) {
	s := startAuthServer(t, store.SQLite)
	c := s.client()
	for _, r := range []struct{ method, path string }{
		{"PATCH", "/api/v1/users/"}, {"POST", "/api/v1/onboarding/advance"},
		{"POST", "/api/v1/auth/email/verify"}, {"POST", "/api/v1/auth/email/resend"}, {"POST", "/api/v1/auth/totp/setup"},
		{"POST", "/api/v1/auth/totp/enable"}, {"DELETE", "/api/v1/auth/totp"}, {"POST", "/api/v1/auth/reverify"},
		{"POST", "/api/v1/auth/reverify/email"}, {"POST", "/api/v1/users/email"}, {"POST", "/api/v1/users/email/verify"},
		{"DELETE", "/api/v1/users/"},
	} {
		for _, lang := range []string{"es", "en"} {
			c.lang = lang
			want := map[string]string{"es": "Inicia sesión para continuar.", "en": "Sign in to continue."}[lang]
			rec := c.call(r.method, r.path, map[string]string{})
			c.expect(rec, r.method, r.path, 401, nil)
			failure(t, rec, 401, "unauthorized", want)
		}
	}
	failure(t, c.call("POST", "/api/v1/auth/signin/totp", map[string]string{"code": "123456"}), 401, "unauthorized",
		"There is no sign-in waiting for a second factor.")
	// "Who am I?" without a session is an answer, not an error: 204 with no body.
	if rec := c.do("GET", "/api/v1/me", nil, 204, nil); rec.Body.Len() != 0 {
		t.Fatalf("/me without a session has a body: %q", rec.Body.String())
	}
	// Signing out without a session still answers 204 and clears the site.
	rec := c.do("POST", "/api/v1/auth/signout", nil, 204, nil)
	if rec.Header().Get("Clear-Site-Data") == "" {
		t.Fatal("no Clear-Site-Data")
	}
}

func TestTheDevOutboxIsOnlyRoutedWhenConfigured(t *testing.T) {
	s := startAuthServer(t, store.SQLite, func(c *config.Config) { c.DevOutbox = "" })
	c := s.client()
	failure(t, c.call("GET", "/api/v1/dev/outbox", nil), 404, "not_found", "")
	with := startAuthServer(t, store.SQLite)
	var mails []account.OutboxMail
	wc := with.client()
	wc.expect(wc.call("GET", "/api/v1/dev/outbox?to=ana@example.com", nil), "GET", "/api/v1/dev/outbox", 200, &mails)
	if len(mails) != 0 {
		t.Fatalf("mails %+v", mails)
	}
	// Without to it never lists every user's codes (issue 11).
	with.client().signUp("ana@example.com")
	rec := with.client().call("GET", "/api/v1/dev/outbox", nil)
	failure(t, rec, 400, "invalid", "Indica el buzón que quieres leer con ?to=dirección.")
	if strings.Contains(rec.Body.String(), "ana@example.com") {
		t.Fatal("the refusal shows mails")
	}
}

func TestAuthConfigNamesSMTPWhenConfiguredAndTheLocalEndpointsCloseUnderClerk(t *testing.T) {
	s := startAuthServer(t, store.SQLite, func(c *config.Config) {
		c.SMTPURL, c.MailFrom = "smtp://mail.example.com:587", "no-reply@example.com"
	})
	var cfg authConfigJSON
	s.client().do("GET", "/api/v1/auth/config", nil, 200, &cfg)
	if cfg.EmailDelivery != "smtp" {
		t.Fatalf("config %+v", cfg)
	}
	clerk := startAuthServer(t, store.SQLite)
	clerk.api = newAPI(clerk.cfg, Deps{DB: clerk.db, Accounts: clerk.accounts, AuthProvider: ProviderClerk, ClerkPublishableKey: "pk_test_x"})
	c := clerk.client()
	c.do("GET", "/api/v1/auth/config", nil, 200, &cfg)
	if cfg.Provider != "clerk" || cfg.ClerkPublishableKey != "pk_test_x" {
		t.Fatalf("config %+v", cfg)
	}
	failure(t, c.call("POST", "/api/v1/auth/signup", map[string]string{"email": "ana@example.com", "password": password}), 403, "forbidden",
		"El inicio de sesión con correo y contraseña está desactivado en este servidor.")
	failure(t, c.call("POST", "/api/v1/auth/signin", map[string]string{"email": "ana@example.com", "password": password}), 403, "forbidden", "")
}

func TestTheClientIPComesFromTrustedProxiesOnly(t *testing.T) {
	a := newAPI(config.Config{PublicURL: "http://localhost:8080", AccountsConfig: config.AccountsConfig{TrustedProxies: "10.0.0.0/8,::1/128"}}, Deps{})
	for _, tt := range []struct {
		name, remote, xff, want string
	}{
		{"a direct client is its peer address", "203.0.113.5:4000", "198.51.100.1", "203.0.113.5"},
		{"behind a trusted proxy the last untrusted hop counts", "10.1.2.3:4000", "198.51.100.1, 203.0.113.9, 10.9.9.9", "203.0.113.9"},
		{"a trusted proxy without the header is the client", "10.1.2.3:4000", "", "10.1.2.3"},
		{"a forged header after a trusted hop does not hide the real client", "[::1]:4000", "1.1.1.1, 192.0.2.44", "192.0.2.44"},
		{"an IPv4-mapped peer is shown as IPv4", "[::ffff:203.0.113.7]:4000", "", "203.0.113.7"},
		{"garbage in the header stops the walk", "10.1.2.3:4000", "198.51.100.1, nonsense", "10.1.2.3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tt.remote
			if tt.xff != "" {
				r.Header.Set("X-Forwarded-For", tt.xff)
			}
			if got := a.clientIP(r); got != tt.want {
				t.Fatalf("clientIP = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestOnboardingAdvanceRefusesAStaleStep(t *testing.T) {
	authDialects(t, func(t *testing.T, s *authServer) {
		c := s.client()
		c.signUpUnverified("ana@example.com")
		rec := c.call("POST", "/api/v1/onboarding/advance", map[string]string{"step": "personal_info", "action": "complete"})
		c.expect(rec, "POST", "/api/v1/onboarding/advance", 409, nil)
		failure(t, rec, 409, "conflict", "Ese paso no es el actual; el paso actual es verify_email.")
		failure(t, c.call("POST", "/api/v1/onboarding/advance", map[string]string{"step": "verify_email", "action": "jump"}), 400, "invalid", "La acción debe ser complete o skip.")
	})
}
