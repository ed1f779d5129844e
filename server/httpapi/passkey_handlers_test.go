package httpapi_test

// Passkeys end to end over HTTP: the real router (httpapi.New) on an httptest server, the real
// account and passkey services on a real database (SQLite and Postgres), and a software
// authenticator (passkeytest) that builds clientDataJSON, authenticator data, "none" attestation
// objects and ES256 signatures by hand.

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"patrimonio/core"
	"patrimonio/internal/pgtest"
	"patrimonio/internal/testkit"
	"patrimonio/server/account"
	"patrimonio/server/config"
	"patrimonio/server/httpapi"
	"patrimonio/server/passkey"
	"patrimonio/server/passkey/passkeytest"
	"patrimonio/server/store"
)

// newTestClock is the tests' clock, standing at their start time.
func newTestClock() *testkit.Clock {
	return testkit.NewClock(time.Date(2030, 5, 1, 12, 0, 0, 0, time.UTC))
}

const publicURL = "https://patrimonio.example"

type passkeyServer struct {
	url   string
	db    *store.DB
	clock *testkit.Clock
}

// startPasskeyServer serves the real router with accounts and passkeys on db.
func startPasskeyServer(t *testing.T, cfg config.Config) *passkeyServer {
	t.Helper()
	cfg.PublicURL = publicURL
	cfg.WebDir = t.TempDir()
	cfg.DevOutbox = t.TempDir()
	db, err := store.Open(context.Background(), cfg.Dialect(), cfg.DatabaseSource())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	clock := newTestClock()
	acfg := account.DefaultConfig()
	acfg.Password = account.PasswordParams{Memory: 64, Time: 1, Threads: 1}
	mailer, err := account.NewMailer("", "", cfg.DevOutbox, nil)
	if err != nil {
		t.Fatal(err)
	}
	passkeys, err := passkey.New(db, passkey.Options{PublicURL: publicURL})
	if err != nil {
		t.Fatal(err)
	}
	passkeys.Now = clock.Now
	accounts, err := account.New(db, acfg, account.Options{Mailer: mailer, Now: clock.Now,
		Hooks: account.Hooks{HasPasskey: passkeys.Has}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(httpapi.New(cfg, httpapi.Deps{DB: db, Accounts: accounts, Passkeys: passkeys}))
	t.Cleanup(srv.Close)
	return &passkeyServer{url: srv.URL, db: db, clock: clock}
}

// browser is a minimal browser: it keeps cookies and sends the Origin header of the app.
type browser struct {
	t       *testing.T
	base    string
	origin  string
	cookies map[string]string
}

func newBrowser(t *testing.T, s *passkeyServer) *browser {
	return &browser{t: t, base: s.url, origin: publicURL, cookies: map[string]string{}}
}

type answer struct {
	status  int
	body    []byte
	cookies []*http.Cookie
	header  http.Header
}

func (a answer) json(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(a.body, v); err != nil {
		t.Fatalf("answer %d is not the expected JSON: %v\n%s", a.status, err, a.body)
	}
}

func (a answer) errorCode(t *testing.T) string {
	t.Helper()
	var e struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	a.json(t, &e)
	if e.Error.Message == "" {
		t.Fatalf("error answer without a message: %s", a.body)
	}
	return e.Error.Code
}

func (b *browser) do(method, path string, body any) answer {
	b.t.Helper()
	var r io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			b.t.Fatal(err)
		}
		r = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, b.base+path, r)
	if err != nil {
		b.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if method != http.MethodGet {
		req.Header.Set("Origin", b.origin)
	}
	for name, value := range b.cookies {
		req.AddCookie(&http.Cookie{Name: name, Value: value})
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		b.t.Fatal(err)
	}
	for _, c := range resp.Cookies() {
		if c.MaxAge < 0 || c.Value == "" {
			delete(b.cookies, c.Name)
		} else {
			b.cookies[c.Name] = c.Value
		}
	}
	return answer{status: resp.StatusCode, body: out, cookies: resp.Cookies(), header: resp.Header}
}

func (b *browser) signUp(email string) {
	b.t.Helper()
	a := b.do(http.MethodPost, "/api/v1/auth/signup", map[string]string{"email": email, "password": "una contraseña larga 42"})
	if a.status != http.StatusAccepted {
		b.t.Fatalf("sign-up: %d %s", a.status, a.body)
	}
	// The e-mailed code signs the new user in.
	mails := b.do(http.MethodGet, "/api/v1/dev/outbox?to="+email, nil)
	var list []account.OutboxMail
	if err := json.Unmarshal(mails.body, &list); err != nil || len(list) == 0 {
		b.t.Fatalf("outbox: %d %s", mails.status, mails.body)
	}
	v := b.do(http.MethodPost, "/api/v1/auth/signup/verify", map[string]string{"email": email, "code": list[len(list)-1].Code})
	if v.status != http.StatusOK {
		b.t.Fatalf("sign-up verify: %d %s", v.status, v.body)
	}
}

// registerPasskey runs register/begin and register/finish with the authenticator.
func (b *browser) registerPasskey(auth *passkeytest.Authenticator, name string) answer {
	b.t.Helper()
	begin := b.do(http.MethodPost, "/api/v1/auth/passkeys/register/begin", nil)
	if begin.status != http.StatusOK {
		return begin
	}
	cred, _, err := auth.Create(begin.body, passkeytest.Tamper{})
	if err != nil {
		b.t.Fatal(err)
	}
	return b.do(http.MethodPost, "/api/v1/auth/passkeys/register/finish", map[string]any{"credential": json.RawMessage(cred), "name": name})
}

func onBothDatabases(t *testing.T, test func(t *testing.T, s *passkeyServer)) {
	t.Run("on SQLite", func(t *testing.T) {
		test(t, startPasskeyServer(t, config.Config{SQLitePath: filepath.Join(t.TempDir(), "p.db")}))
	})
	t.Run("on Postgres", func(t *testing.T) {
		test(t, startPasskeyServer(t, config.Config{DatabaseURL: pgtest.URL(t)}))
	})
}

func isBase64URL(s string) bool {
	_, err := base64.RawURLEncoding.DecodeString(s)
	return err == nil && s != "" && !strings.ContainsAny(s, "+/=")
}

func TestPasskeyRegistrationThenSignInOverHTTP(t *testing.T) {
	onBothDatabases(t, func(t *testing.T, s *passkeyServer) {
		ana := newBrowser(t, s)
		ana.signUp("ana@example.com")
		auth := passkeytest.New(publicURL)

		// The creation options are PublicKeyCredentialCreationOptionsJSON, at the top level.
		begin := ana.do(http.MethodPost, "/api/v1/auth/passkeys/register/begin", nil)
		if begin.status != http.StatusOK {
			t.Fatalf("register/begin: %d %s", begin.status, begin.body)
		}
		var opts struct {
			RP        struct{ ID, Name string } `json:"rp"`
			User      struct{ ID, Name, DisplayName string }
			Challenge string `json:"challenge"`
			Params    []struct {
				Type string `json:"type"`
				Alg  int    `json:"alg"`
			} `json:"pubKeyCredParams"`
			Timeout   int `json:"timeout"`
			Selection struct {
				ResidentKey      string `json:"residentKey"`
				UserVerification string `json:"userVerification"`
			} `json:"authenticatorSelection"`
			Attestation string `json:"attestation"`
		}
		begin.json(t, &opts)
		if opts.RP.ID != "patrimonio.example" || opts.RP.Name != "Patrimonio" || !isBase64URL(opts.Challenge) ||
			!isBase64URL(opts.User.ID) || opts.User.Name != "ana@example.com" || opts.Selection.ResidentKey != "required" ||
			opts.Selection.UserVerification != "required" || opts.Timeout != 300000 || opts.Attestation != "none" {
			t.Fatalf("creation options: %s", begin.body)
		}
		cred, _, err := auth.Create(begin.body, passkeytest.Tamper{})
		if err != nil {
			t.Fatal(err)
		}
		finish := ana.do(http.MethodPost, "/api/v1/auth/passkeys/register/finish", map[string]any{"credential": json.RawMessage(cred), "name": "Portátil"})
		if finish.status != http.StatusCreated {
			t.Fatalf("register/finish: %d %s", finish.status, finish.body)
		}
		var created struct {
			Passkey struct {
				ID         string     `json:"id"`
				Name       string     `json:"name"`
				CreatedAt  time.Time  `json:"createdAt"`
				LastUsedAt *time.Time `json:"lastUsedAt"`
			} `json:"passkey"`
		}
		finish.json(t, &created)
		if created.Passkey.Name != "Portátil" || created.Passkey.LastUsedAt != nil || !created.Passkey.CreatedAt.Equal(s.clock.Now()) {
			t.Fatalf("created passkey: %s", finish.body)
		}

		// Sign out, then sign in with the passkey, no e-mail typed.
		if a := ana.do(http.MethodPost, "/api/v1/auth/signout", nil); a.status != http.StatusNoContent {
			t.Fatalf("sign-out: %d", a.status)
		}
		if a := ana.do(http.MethodGet, "/api/v1/me", nil); a.status != http.StatusNoContent {
			t.Fatalf("/me after sign-out: %d", a.status)
		}
		s.clock.Advance(time.Minute)
		loginBegin := ana.do(http.MethodPost, "/api/v1/auth/passkeys/login/begin", nil)
		if loginBegin.status != http.StatusOK {
			t.Fatalf("login/begin: %d %s", loginBegin.status, loginBegin.body)
		}
		var req map[string]any
		loginBegin.json(t, &req)
		if _, ok := req["allowCredentials"]; ok || req["rpId"] != "patrimonio.example" || req["userVerification"] != "required" ||
			!isBase64URL(req["challenge"].(string)) {
			t.Fatalf("request options: %s", loginBegin.body)
		}
		assertion, err := auth.Get(loginBegin.body, passkeytest.Tamper{})
		if err != nil {
			t.Fatal(err)
		}
		login := ana.do(http.MethodPost, "/api/v1/auth/passkeys/login/finish", map[string]any{"credential": json.RawMessage(assertion)})
		if login.status != http.StatusOK {
			t.Fatalf("login/finish: %d %s", login.status, login.body)
		}
		var signedIn struct {
			User        struct{ Email string } `json:"user"`
			MFARequired bool                   `json:"mfaRequired"`
		}
		login.json(t, &signedIn)
		if signedIn.User.Email != "ana@example.com" || signedIn.MFARequired {
			t.Fatalf("login answer: %s", login.body)
		}
		var session *http.Cookie
		for _, c := range login.cookies {
			// The public URL is https: the cookie has the __Host- prefix (issue 11).
			if c.Name == httpapi.SecureSessionCookie {
				session = c
			}
		}
		if session == nil || !session.HttpOnly || !session.Secure || session.SameSite != http.SameSiteLaxMode || session.Path != "/" || session.Domain != "" {
			t.Fatalf("session cookie: %+v", session)
		}
		me := ana.do(http.MethodGet, "/api/v1/me", nil)
		if me.status != http.StatusOK || !strings.Contains(string(me.body), `"ana@example.com"`) {
			t.Fatalf("/me after passkey sign-in: %d %s", me.status, me.body)
		}

		list := ana.do(http.MethodGet, "/api/v1/auth/passkeys", nil)
		var passkeys []map[string]any
		list.json(t, &passkeys)
		if list.status != http.StatusOK || len(passkeys) != 1 || passkeys[0]["id"] != created.Passkey.ID ||
			passkeys[0]["name"] != "Portátil" || passkeys[0]["lastUsedAt"] == nil || len(passkeys[0]) != 4 {
			t.Fatalf("list: %d %s", list.status, list.body)
		}
	})
}

func TestPasskeySignInRefusals(t *testing.T) {
	onBothDatabases(t, func(t *testing.T, s *passkeyServer) {
		ana := newBrowser(t, s)
		ana.signUp("ana@example.com")
		auth := passkeytest.New(publicURL)
		if a := ana.registerPasskey(auth, ""); a.status != http.StatusCreated {
			t.Fatalf("register: %d %s", a.status, a.body)
		}
		unknown := &passkeytest.Credential{ID: []byte("a credential this server never saw"), UserHandle: auth.Credentials[0].UserHandle}

		cases := []struct {
			name   string
			tamper passkeytest.Tamper
		}{
			{"an assertion collected at another origin is refused", passkeytest.Tamper{Origin: "https://patrimonio.example.evil.test"}},
			{"an assertion for another RP ID is refused", passkeytest.Tamper{RPID: "evil.test"}},
			{"an assertion with a bad signature is refused", passkeytest.Tamper{BadSignature: true}},
			{"an assertion by an unknown credential is refused", passkeytest.Tamper{Credential: unknown}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				eve := newBrowser(t, s)
				begin := eve.do(http.MethodPost, "/api/v1/auth/passkeys/login/begin", nil)
				assertion, err := auth.Get(begin.body, tc.tamper)
				if err != nil {
					t.Fatal(err)
				}
				a := eve.do(http.MethodPost, "/api/v1/auth/passkeys/login/finish", map[string]any{"credential": json.RawMessage(assertion)})
				if a.status != http.StatusUnauthorized || a.errorCode(t) != core.EUNAUTHORIZED {
					t.Fatalf("got %d %s", a.status, a.body)
				}
				if _, ok := eve.cookies[httpapi.SecureSessionCookie]; ok {
					t.Fatal("a refused sign-in set a session cookie")
				}
			})
		}

		t.Run("a sign-in answer replayed is refused (the challenge is used once)", func(t *testing.T) {
			b := newBrowser(t, s)
			begin := b.do(http.MethodPost, "/api/v1/auth/passkeys/login/begin", nil)
			assertion, err := auth.Get(begin.body, passkeytest.Tamper{})
			if err != nil {
				t.Fatal(err)
			}
			body := map[string]any{"credential": json.RawMessage(assertion)}
			if a := b.do(http.MethodPost, "/api/v1/auth/passkeys/login/finish", body); a.status != http.StatusOK {
				t.Fatalf("first use: %d %s", a.status, a.body)
			}
			eve := newBrowser(t, s)
			a := eve.do(http.MethodPost, "/api/v1/auth/passkeys/login/finish", body)
			if a.status != http.StatusUnauthorized || a.errorCode(t) != core.EUNAUTHORIZED {
				t.Fatalf("replay: %d %s", a.status, a.body)
			}
		})

		t.Run("a sign-in posted from another site is refused before any check", func(t *testing.T) {
			eve := newBrowser(t, s)
			begin := eve.do(http.MethodPost, "/api/v1/auth/passkeys/login/begin", nil)
			assertion, err := auth.Get(begin.body, passkeytest.Tamper{})
			if err != nil {
				t.Fatal(err)
			}
			eve.origin = "https://evil.test"
			a := eve.do(http.MethodPost, "/api/v1/auth/passkeys/login/finish", map[string]any{"credential": json.RawMessage(assertion)})
			if a.status != http.StatusForbidden {
				t.Fatalf("cross-site finish: %d %s", a.status, a.body)
			}
		})

		t.Run("finish without a credential is a bad request", func(t *testing.T) {
			a := newBrowser(t, s).do(http.MethodPost, "/api/v1/auth/passkeys/login/finish", map[string]any{})
			if a.status != http.StatusBadRequest {
				t.Fatalf("got %d %s", a.status, a.body)
			}
		})
	})
}

func TestPasskeyRegistrationRefusals(t *testing.T) {
	onBothDatabases(t, func(t *testing.T, s *passkeyServer) {
		t.Run("registering needs a signed-in user", func(t *testing.T) {
			a := newBrowser(t, s).do(http.MethodPost, "/api/v1/auth/passkeys/register/begin", nil)
			if a.status != http.StatusUnauthorized {
				t.Fatalf("got %d %s", a.status, a.body)
			}
		})

		ana := newBrowser(t, s)
		ana.signUp("ana@example.com")
		for _, tc := range []struct {
			name   string
			tamper passkeytest.Tamper
		}{
			{"a registration collected at another origin is refused", passkeytest.Tamper{Origin: "http://patrimonio.example"}},
			{"a registration for another RP ID is refused", passkeytest.Tamper{RPID: "example"}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				begin := ana.do(http.MethodPost, "/api/v1/auth/passkeys/register/begin", nil)
				cred, _, err := passkeytest.New(publicURL).Create(begin.body, tc.tamper)
				if err != nil {
					t.Fatal(err)
				}
				a := ana.do(http.MethodPost, "/api/v1/auth/passkeys/register/finish", map[string]any{"credential": json.RawMessage(cred)})
				if a.status != http.StatusBadRequest || a.errorCode(t) != core.EINVALID {
					t.Fatalf("got %d %s", a.status, a.body)
				}
			})
		}
		t.Run("a registration answer replayed is refused (the challenge is used once)", func(t *testing.T) {
			begin := ana.do(http.MethodPost, "/api/v1/auth/passkeys/register/begin", nil)
			cred, _, err := passkeytest.New(publicURL).Create(begin.body, passkeytest.Tamper{})
			if err != nil {
				t.Fatal(err)
			}
			body := map[string]any{"credential": json.RawMessage(cred)}
			if a := ana.do(http.MethodPost, "/api/v1/auth/passkeys/register/finish", body); a.status != http.StatusCreated {
				t.Fatalf("first use: %d %s", a.status, a.body)
			}
			a := ana.do(http.MethodPost, "/api/v1/auth/passkeys/register/finish", body)
			if a.status != http.StatusBadRequest {
				t.Fatalf("replay: %d %s", a.status, a.body)
			}
		})
		t.Run("another user cannot finish a registration begun by bea", func(t *testing.T) {
			// bea has no passkey yet (ana now has one, and adding another needs her second factor).
			bea := newBrowser(t, s)
			bea.signUp("bea@example.com")
			begin := bea.do(http.MethodPost, "/api/v1/auth/passkeys/register/begin", nil)
			cred, _, err := passkeytest.New(publicURL).Create(begin.body, passkeytest.Tamper{})
			if err != nil {
				t.Fatal(err)
			}
			eve := newBrowser(t, s)
			eve.signUp("eve@example.com")
			a := eve.do(http.MethodPost, "/api/v1/auth/passkeys/register/finish", map[string]any{"credential": json.RawMessage(cred)})
			if a.status != http.StatusBadRequest {
				t.Fatalf("got %d %s", a.status, a.body)
			}
		})
	})
}

// Sign-in works before the address is verified, so anyone may sign up with an address they do not
// own and sign in. A passkey they registered then would outlive the owner's sign-up and sign them
// into the owner's verified account (and make them admin if the address is an admin's): it is
// refused until the address is verified.
func TestAPasskeyNeedsAVerifiedAddress(t *testing.T) {
	onBothDatabases(t, func(t *testing.T, s *passkeyServer) {
		const victim = "victim@example.com"
		squatter := newBrowser(t, s)
		if a := squatter.do(http.MethodPost, "/api/v1/auth/signup", map[string]string{"email": victim, "password": "la del intruso 1234"}); a.status != http.StatusAccepted {
			t.Fatalf("squatter sign-up: %d %s", a.status, a.body)
		}
		if a := squatter.do(http.MethodPost, "/api/v1/auth/signin", map[string]string{"email": victim, "password": "la del intruso 1234"}); a.status != http.StatusOK {
			t.Fatalf("squatter sign-in: %d %s", a.status, a.body)
		}
		if a := squatter.registerPasskey(passkeytest.New(publicURL), "intruso"); a.status != http.StatusForbidden || a.errorCode(t) != core.EFORBIDDEN {
			t.Fatalf("register/begin before verifying: %d %s", a.status, a.body)
		}
		finish := squatter.do(http.MethodPost, "/api/v1/auth/passkeys/register/finish", map[string]any{"credential": map[string]string{"id": "x", "type": "public-key"}})
		if finish.status != http.StatusForbidden || finish.errorCode(t) != core.EFORBIDDEN {
			t.Fatalf("register/finish before verifying: %d %s", finish.status, finish.body)
		}
		var list []json.RawMessage
		if squatter.do(http.MethodGet, "/api/v1/auth/passkeys", nil).json(t, &list); len(list) != 0 {
			t.Fatalf("passkeys: %s", list)
		}

		// The owner signs up, verifies with the e-mailed code and adds a passkey during onboarding.
		owner := newBrowser(t, s)
		owner.signUp(victim)
		if a := squatter.do(http.MethodGet, "/api/v1/me", nil); a.status != http.StatusNoContent {
			t.Fatalf("the squatter's session survived: %d", a.status)
		}
		if a := owner.registerPasskey(passkeytest.New(publicURL), "mía"); a.status != http.StatusCreated {
			t.Fatalf("the owner's passkey: %d %s", a.status, a.body)
		}
	})
}

func TestChangingPasskeysNeedsARecentProof(t *testing.T) {
	onBothDatabases(t, func(t *testing.T, s *passkeyServer) {
		ana := newBrowser(t, s)
		ana.signUp("ana@example.com")
		auth := passkeytest.New(publicURL)

		// Right after sign-up, during onboarding, the new session is proof enough.
		if a := ana.registerPasskey(auth, "Portátil"); a.status != http.StatusCreated {
			t.Fatalf("register during onboarding: %d %s", a.status, a.body)
		}
		var list []struct{ ID string }
		ana.do(http.MethodGet, "/api/v1/auth/passkeys", nil).json(t, &list)

		// Eleven minutes later, adding or removing a passkey asks for a proof first.
		s.clock.Advance(11 * time.Minute)
		if a := ana.do(http.MethodPost, "/api/v1/auth/passkeys/register/begin", nil); a.status != http.StatusForbidden || a.errorCode(t) != core.EREVERIFY {
			t.Fatalf("register without recent proof: %d %s", a.status, a.body)
		}
		if a := ana.do(http.MethodDelete, "/api/v1/auth/passkeys/"+list[0].ID, nil); a.status != http.StatusForbidden || a.errorCode(t) != core.EREVERIFY {
			t.Fatalf("remove without recent proof: %d %s", a.status, a.body)
		}
		if a := ana.do(http.MethodGet, "/api/v1/auth/passkeys", nil); !strings.Contains(string(a.body), list[0].ID) {
			t.Fatalf("the passkey is gone after a refused removal: %s", a.body)
		}

		if a := ana.do(http.MethodPost, "/api/v1/auth/reverify", map[string]string{"method": "password", "password": "una contraseña larga 42"}); a.status != http.StatusOK {
			t.Fatalf("reverify: %d %s", a.status, a.body)
		}
		// A password is not enough to remove a passkey (issue 11): the proof needs a second factor.
		if a := ana.do(http.MethodDelete, "/api/v1/auth/passkeys/"+list[0].ID, nil); a.status != http.StatusForbidden || a.errorCode(t) != core.EREVERIFY {
			t.Fatalf("remove after a password proof: %d %s", a.status, a.body)
		}
		// The passkey itself is one.
		begin := ana.do(http.MethodPost, "/api/v1/auth/reverify/passkey/begin", nil)
		assertion, err := auth.Get(begin.body, passkeytest.Tamper{})
		if err != nil {
			t.Fatal(err)
		}
		if a := ana.do(http.MethodPost, "/api/v1/auth/reverify/passkey/finish", map[string]any{"credential": json.RawMessage(assertion)}); a.status != http.StatusOK {
			t.Fatalf("reverify with the passkey: %d %s", a.status, a.body)
		}
		eve := newBrowser(t, s)
		eve.signUp("eve@example.com")
		if a := eve.do(http.MethodDelete, "/api/v1/auth/passkeys/"+list[0].ID, nil); a.status != http.StatusNotFound {
			t.Fatalf("eve removed ana's passkey: %d %s", a.status, a.body)
		}
		if a := ana.do(http.MethodDelete, "/api/v1/auth/passkeys/"+list[0].ID, nil); a.status != http.StatusNoContent {
			t.Fatalf("remove after reverify: %d %s", a.status, a.body)
		}
		if a := ana.do(http.MethodGet, "/api/v1/auth/passkeys", nil); string(bytes.TrimSpace(a.body)) != "[]" {
			t.Fatalf("list after removal: %s", a.body)
		}

		// The proof lasts ten minutes.
		s.clock.Advance(10 * time.Minute)
		if a := ana.do(http.MethodPost, "/api/v1/auth/passkeys/register/begin", nil); a.status != http.StatusForbidden {
			t.Fatalf("register with an expired proof: %d %s", a.status, a.body)
		}
	})
}

func TestPasskeyMessagesFollowTheLanguage(t *testing.T) {
	s := startPasskeyServer(t, config.Config{SQLitePath: filepath.Join(t.TempDir(), "p.db")})
	for _, tc := range []struct{ lang, want string }{
		{"es-ES,es;q=0.9", "ha caducado o ya se ha usado"},
		{"en-GB,en;q=0.8", "has expired or was already used"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			auth := passkeytest.New(publicURL)
			auth.Credentials = append(auth.Credentials, &passkeytest.Credential{ID: []byte("0123456789abcdef"), RPID: "patrimonio.example", UserHandle: []byte("h")})
			assertion, err := auth.Get([]byte(`{"challenge":"bm8gc3VjaCBjaGFsbGVuZ2UgZXZlcg","rpId":"patrimonio.example"}`), passkeytest.Tamper{})
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := json.Marshal(map[string]any{"credential": json.RawMessage(assertion)})
			req, _ := http.NewRequest(http.MethodPost, s.url+"/api/v1/auth/passkeys/login/finish", bytes.NewReader(raw))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Origin", publicURL)
			req.Header.Set("Accept-Language", tc.lang)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(string(body), tc.want) {
				t.Fatalf("got %d %s", resp.StatusCode, body)
			}
		})
	}
}
