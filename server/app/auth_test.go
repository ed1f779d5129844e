package app_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"patrimonio/internal/testkit"
	"patrimonio/server/app"
	"patrimonio/server/clerkauth/clerktest"
	"patrimonio/server/config"
)

// authConfig reads /api/v1/auth/config of a running server.
func authConfig(t *testing.T, s *app.Server) map[string]any {
	t.Helper()
	resp, err := http.Get("http://" + s.Addr() + "/api/v1/auth/config")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("auth config: %d %v", resp.StatusCode, err)
	}
	return out
}

func TestPasskeysNeedAHostNameInThePublicURL(t *testing.T) {
	for _, tc := range []struct {
		name, addr string
		passkeys   bool
	}{
		{"a server reached at localhost has passkeys", "localhost:0", true},
		{"a server reached at an IP address has none (browsers refuse WebAuthn there)", "127.0.0.1:0", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t)
			cfg.Addr = tc.addr
			logs := &testkit.Buffer{}
			s, _ := start(t, cfg, slog.New(slog.NewTextHandler(logs, nil)))
			got := authConfig(t, s)
			if got["provider"] != "local" || got["passkeys"] != tc.passkeys {
				t.Fatalf("auth config %v", got)
			}
			if !tc.passkeys && !strings.Contains(logs.String(), "passkeys are off") {
				t.Fatalf("the reason is not logged:\n%s", logs)
			}
		})
	}
}

func TestTheClerkProviderIsWiredFromTheConfiguration(t *testing.T) {
	inst, err := clerktest.New("clerk.patrimonio.test")
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"PATRIMONIO_ADDR":          "127.0.0.1:0",
		"DATABASE_URL":             "sqlite:" + filepath.Join(t.TempDir(), "p.db"),
		"PATRIMONIO_WEB_DIR":       t.TempDir(),
		"PATRIMONIO_AUTH_PROVIDER": "clerk",
		"CLERK_PUBLISHABLE_KEY":    inst.PublishableKey,
		"CLERK_JWT_KEY":            strings.ReplaceAll(inst.PublicKeyPEM(), "\n", `\n`),
	}
	cfg, err := config.Load(func(k string) string { return env[k] }, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := start(t, cfg, nil)
	got := authConfig(t, s)
	if got["provider"] != "clerk" || got["clerkPublishableKey"] != inst.PublishableKey || got["passkeys"] != false {
		t.Fatalf("auth config %v", got)
	}

	t.Run("a bad key stops the server from opening", func(t *testing.T) {
		bad := cfg
		bad.ClerkJWTKey = "-----BEGIN PUBLIC KEY-----\nnot a key\n-----END PUBLIC KEY-----"
		if _, err := app.Open(context.Background(), bad, nil); err == nil || !strings.Contains(err.Error(), "CLERK_JWT_KEY") {
			t.Fatalf("opened with a bad CLERK_JWT_KEY: %v", err)
		}
	})
}
