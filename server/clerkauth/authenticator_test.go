package clerkauth_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"patrimonio/core"
	"patrimonio/internal/pgtest"
	"patrimonio/server/account"
	"patrimonio/server/authz"
	"patrimonio/server/clerkauth"
	"patrimonio/server/config"
	"patrimonio/server/store"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// databases runs a test against a fresh SQLite file and a fresh Postgres database.
func databases(t *testing.T, test func(t *testing.T, db *store.DB)) {
	t.Run("on SQLite", func(t *testing.T) {
		test(t, openDB(t, config.Config{SQLitePath: filepath.Join(t.TempDir(), "clerk.db")}))
	})
	t.Run("on Postgres", func(t *testing.T) {
		test(t, openDB(t, config.Config{DatabaseURL: pgtest.URL(t)}))
	})
}

func openDB(t *testing.T, cfg config.Config) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), cfg.Dialect(), cfg.DatabaseSource())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func accounts(t *testing.T, db *store.DB) *account.Services {
	t.Helper()
	cfg := account.DefaultConfig()
	cfg.Password = account.PasswordParams{Memory: 64, Time: 1, Threads: 1}
	mailer, err := account.NewMailer("", "", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := account.New(db, cfg, account.Options{Mailer: mailer, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// backendAPI is a fake Clerk Backend API: /v1/jwks and /v1/users/{id}, counting user fetches.
type backendAPI struct {
	*httptest.Server
	userFetches atomic.Int32
	users       map[string]string // clerk user id → verified primary address ("" = unverified)
}

func newBackendAPI(t *testing.T, users map[string]string) *backendAPI {
	t.Helper()
	a, _ := testKeys(t)
	jwks := newJWKSServer(t, a)
	b := &backendAPI{users: users}
	b.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+testSecretKey {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if r.URL.Path == "/v1/jwks" {
			resp, err := http.Get(jwks.URL + "/.well-known/jwks.json")
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			w.Header().Set("Content-Type", "application/json")
			var set json.RawMessage
			_ = json.NewDecoder(resp.Body).Decode(&set)
			_, _ = w.Write(set)
			return
		}
		id, ok := strings.CutPrefix(r.URL.Path, "/v1/users/")
		email, known := b.users[id]
		if !ok || !known {
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"errors":[{"code":"resource_not_found","message":"not found"}]}`))
			return
		}
		b.userFetches.Add(1)
		status := "verified"
		if email == "" {
			email, status = "unverified@example.com", "unverified"
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"object": "user", "id": id, "primary_email_address_id": "idn_1",
			"email_addresses": []map[string]any{
				{"id": "idn_0", "object": "email_address", "email_address": "old@example.com", "verification": map[string]any{"status": "verified"}},
				{"id": "idn_1", "object": "email_address", "email_address": email, "verification": map[string]any{"status": status}},
			},
		})
	}))
	t.Cleanup(b.Close)
	return b
}

func requestWith(token string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "/api/v1/me", nil)
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	return r
}

func TestTheFirstVerifiedRequestProvisionsTheUserOnce(t *testing.T) {
	a, _ := testKeys(t)
	databases(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		accts := accounts(t, db)
		api := newBackendAPI(t, map[string]string{"user_2abc": "Ana@Example.com"})
		// Two providers over one database stand for two server instances: their first requests
		// race in the database, not only in one process.
		var instances [2]*clerkauth.Authenticator
		for i := range instances {
			authn, err := clerkauth.NewAuthenticator(clerkauth.Config{
				PublishableKey: publishableKey, AllowedOrigins: []string{appOrigin}, Now: fixedNow,
				SecretKey: testSecretKey, APIURL: api.URL + "/v1",
			}, accounts(t, db).Users)
			if err != nil {
				t.Fatal(err)
			}
			instances[i] = authn
		}
		authn := instances[0]
		c := claims()
		delete(c, "email") // the address comes from the Backend API
		token := sign(t, a, c)

		const parallel = 8
		var wg sync.WaitGroup
		ids := make([]string, parallel)
		errs := make([]error, parallel)
		for i := range parallel {
			wg.Go(func() {
				u, _, err := instances[i%2].Authenticate(requestWith(token))
				errs[i] = err
				if u != nil {
					ids[i] = u.ID
				}
			})
		}
		wg.Wait()
		for i := range parallel {
			if errs[i] != nil {
				t.Fatalf("request %d: %v", i, errs[i])
			}
			if ids[i] == "" || ids[i] != ids[0] {
				t.Fatalf("requests saw different users: %v", ids)
			}
		}
		var n int
		if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM users WHERE clerk_user_id = ?`, "user_2abc").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Fatalf("%d users for one Clerk identity, want 1", n)
		}
		u, err := accts.Users.User(ctx, ids[0])
		if err != nil {
			t.Fatal(err)
		}
		if u.Email != "ana@example.com" || !u.EmailVerified() || u.HasPassword || u.OnboardingStep != account.StepPersonalInfo {
			t.Fatalf("provisioned user: %+v", u)
		}
		ws, err := accts.Users.Workspaces(ctx, u.ID)
		if err != nil || len(ws) != 1 || ws[0].Kind != authz.Personal {
			t.Fatalf("workspaces of the new user: %+v, %v", ws, err)
		}

		// Later requests find the user without asking Clerk.
		fetches := api.userFetches.Load()
		if _, _, err := authn.Authenticate(requestWith(token)); err != nil {
			t.Fatal(err)
		}
		if got := api.userFetches.Load(); got != fetches {
			t.Fatalf("the Backend API was asked again for a known user (%d → %d fetches)", fetches, got)
		}
	})
}

func TestTheClerkSessionCarriesTheTokensFacts(t *testing.T) {
	a, _ := testKeys(t)
	db := openDB(t, config.Config{SQLitePath: filepath.Join(t.TempDir(), "clerk.db")})
	accts := accounts(t, db)
	authn, err := clerkauth.NewAuthenticator(clerkauth.Config{
		PublishableKey: publishableKey, AllowedOrigins: []string{appOrigin}, Now: fixedNow,
		JWTKey: publicPEM(t, a.key),
	}, accts.Users)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	t.Run("a request without a token is anonymous", func(t *testing.T) {
		u, s, err := authn.Authenticate(requestWith(""))
		if u != nil || s != nil || err != nil {
			t.Fatalf("got %v, %v, %v", u, s, err)
		}
	})
	t.Run("a bad token is unauthorized", func(t *testing.T) {
		c := claims()
		c["azp"] = "https://evil.example"
		_, _, err := authn.Authenticate(requestWith(sign(t, a, c)))
		if core.ErrorCode(err) != core.EUNAUTHORIZED {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("the email claim provisions without a secret key, and the proof age comes from fva", func(t *testing.T) {
		r := requestWith(sign(t, a, claims()))
		u, s, err := authn.Authenticate(r)
		if err != nil {
			t.Fatal(err)
		}
		if u.Email != "ana@example.com" || u.ClerkUserID != "user_2abc" {
			t.Fatalf("user %+v", u)
		}
		if s.UserID != u.ID || s.ID != "clerk:sess_2abc" || s.MFAPending ||
			!s.ReverifiedAt.Equal(now.Add(-3*time.Minute)) || !s.ExpiresAt.Equal(now.Add(50*time.Second)) {
			t.Fatalf("session %+v", s)
		}
		if err := accts.Reverify.RequireRecentProof(ctx, s); err != nil {
			t.Fatalf("a first factor 3 minutes ago is not a recent proof: %v", err)
		}
	})
	t.Run("an old first factor is not a recent proof", func(t *testing.T) {
		c := claims()
		c["fva"] = []int{42, -1}
		_, s, err := authn.Authenticate(requestWith(sign(t, a, c)))
		if err != nil {
			t.Fatal(err)
		}
		if err := accts.Reverify.RequireRecentProof(ctx, s); core.ErrorCode(err) != core.EREVERIFY {
			t.Fatalf("RequireRecentProof: %v", err)
		}
	})
	t.Run("a new user without the email claim and without a secret key is refused", func(t *testing.T) {
		c := claims()
		c["sub"] = "user_noemail"
		delete(c, "email")
		_, _, err := authn.Authenticate(requestWith(sign(t, a, c)))
		if core.ErrorCode(err) != core.EFORBIDDEN {
			t.Fatalf("got %v", err)
		}
	})
}

func TestProvisioningTakesOnlyAVerifiedPrimaryAddress(t *testing.T) {
	a, _ := testKeys(t)
	db := openDB(t, config.Config{SQLitePath: filepath.Join(t.TempDir(), "clerk.db")})
	api := newBackendAPI(t, map[string]string{"user_unverified": ""})
	authn, err := clerkauth.NewAuthenticator(clerkauth.Config{
		PublishableKey: publishableKey, AllowedOrigins: []string{appOrigin}, Now: fixedNow,
		SecretKey: testSecretKey, APIURL: api.URL + "/v1",
	}, accounts(t, db).Users)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, sub, code string
	}{
		{"an unverified primary address is refused even when the token claims one", "user_unverified", core.EFORBIDDEN},
		{"a Clerk user the Backend API does not know is unauthorized", "user_gone", core.EUNAUTHORIZED},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := claims()
			c["sub"] = tc.sub
			_, _, err := authn.Authenticate(requestWith(sign(t, a, c)))
			if core.ErrorCode(err) != tc.code {
				t.Fatalf("got %v, want %s", err, tc.code)
			}
			var n int
			if err := db.QueryRow(context.Background(), `SELECT COUNT(*) FROM users`).Scan(&n); err != nil || n != 0 {
				t.Fatalf("%d users were created (%v)", n, err)
			}
		})
	}
}
