package httpapi_test

// The Clerk provider over HTTP: the real router with clerkauth's Authenticator, the real account
// service on SQLite, and tokens signed by a stand-in Clerk instance (clerktest).

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"patrimonio/server/account"
	"patrimonio/server/clerkauth"
	"patrimonio/server/clerkauth/clerktest"
	"patrimonio/server/config"
	"patrimonio/server/httpapi"
	"patrimonio/server/store"
)

func TestTheClerkProviderOverHTTP(t *testing.T) {
	now := time.Date(2030, 5, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	inst, err := clerktest.New("clerk.patrimonio.test")
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Config{SQLitePath: filepath.Join(t.TempDir(), "c.db"), PublicURL: publicURL, WebDir: t.TempDir()}
	cfg.AuthProvider = config.AuthClerk
	db, err := store.Open(context.Background(), cfg.Dialect(), cfg.DatabaseSource())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	acfg := account.DefaultConfig()
	acfg.Password = account.PasswordParams{Memory: 64, Time: 1, Threads: 1}
	mailer, err := account.NewMailer("", "", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	accounts, err := account.New(db, acfg, account.Options{Mailer: mailer, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	authn, err := clerkauth.NewAuthenticator(clerkauth.Config{
		PublishableKey: inst.PublishableKey, JWTKey: inst.PublicKeyPEM(),
		AllowedOrigins: cfg.AllowedOriginList(), Now: clock,
	}, accounts.Users)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(httpapi.New(cfg, httpapi.Deps{DB: db, Accounts: accounts, Authenticator: authn,
		AuthProvider: httpapi.ProviderClerk, ClerkPublishableKey: inst.PublishableKey, ClerkFrontendAPI: inst.FrontendAPI}))
	t.Cleanup(srv.Close)

	token := func(change func(map[string]any)) string {
		c := inst.Claims("user_2ana", "sess_2ana", publicURL, now)
		c["email"] = "Ana@Example.com"
		if change != nil {
			change(c)
		}
		tok, err := inst.Token(c)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	call := func(method, path string, header ...string) (int, http.Header, string) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", publicURL)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, string(body)
	}

	t.Run("auth config names Clerk and its publishable key, without passkeys", func(t *testing.T) {
		status, _, body := call(http.MethodGet, "/api/v1/auth/config")
		var got map[string]any
		if err := json.Unmarshal([]byte(body), &got); err != nil || status != http.StatusOK {
			t.Fatalf("%d %s", status, body)
		}
		if got["provider"] != "clerk" || got["clerkPublishableKey"] != inst.PublishableKey || got["passkeys"] != false {
			t.Fatalf("config %s", body)
		}
	})
	t.Run("a bearer token signs the user in, provisioned on first sight", func(t *testing.T) {
		status, _, body := call(http.MethodGet, "/api/v1/me", "Authorization", "Bearer "+token(nil))
		if status != http.StatusOK || !strings.Contains(body, `"email":"ana@example.com"`) || !strings.Contains(body, `"provider":"clerk"`) {
			t.Fatalf("%d %s", status, body)
		}
	})
	t.Run("the __session cookie signs the user in too", func(t *testing.T) {
		status, _, body := call(http.MethodGet, "/api/v1/me", "Cookie", "__session="+token(nil))
		if status != http.StatusOK || !strings.Contains(body, `"email":"ana@example.com"`) {
			t.Fatalf("%d %s", status, body)
		}
		var n int
		if err := db.QueryRow(context.Background(), `SELECT COUNT(*) FROM users`).Scan(&n); err != nil || n != 1 {
			t.Fatalf("%d users (%v), want 1", n, err)
		}
	})
	for _, tc := range []struct {
		name   string
		change func(map[string]any)
	}{
		{"an expired token is unauthorized", func(c map[string]any) { c["exp"] = now.Add(-time.Minute).Unix() }},
		{"a token for another origin is unauthorized", func(c map[string]any) { c["azp"] = "https://evil.test" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, _, body := call(http.MethodGet, "/api/v1/workspaces", "Authorization", "Bearer "+token(tc.change))
			if status != http.StatusUnauthorized {
				t.Fatalf("%d %s", status, body)
			}
		})
	}
	t.Run("the local sign-in endpoints refuse", func(t *testing.T) {
		for _, path := range []string{"/api/v1/auth/signin", "/api/v1/auth/signup"} {
			if status, _, body := call(http.MethodPost, path); status != http.StatusForbidden {
				t.Fatalf("%s: %d %s", path, status, body)
			}
		}
		for _, path := range []string{"/api/v1/auth/passkeys/login/begin", "/api/v1/auth/passkeys/login/finish"} {
			if status, _, body := call(http.MethodPost, path); status != http.StatusNotFound {
				t.Fatalf("%s: %d %s", path, status, body)
			}
		}
		if status, _, body := call(http.MethodPost, "/api/v1/auth/passkeys/register/begin", "Authorization", "Bearer "+token(nil)); status != http.StatusNotFound {
			t.Fatalf("register/begin: %d %s", status, body)
		}
	})
	t.Run("the Content-Security-Policy lets Clerk's components load", func(t *testing.T) {
		_, h, _ := call(http.MethodGet, "/api/v1/health")
		csp := h.Get("Content-Security-Policy")
		for _, want := range []string{
			"script-src 'self' 'wasm-unsafe-eval' https://clerk.patrimonio.test https://challenges.cloudflare.com",
			"connect-src 'self' wss://patrimonio.example https://clerk.patrimonio.test",
			"img-src 'self' data: blob: https://img.clerk.com",
			"worker-src 'self' blob:",
			"frame-src 'self' https://challenges.cloudflare.com",
			"frame-ancestors 'none'",
		} {
			if !strings.Contains(csp, want) {
				t.Errorf("CSP %q lacks %q", csp, want)
			}
		}
	})
}
