package app_test

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"patrimonio/internal/testkit"
	"patrimonio/server/account"
	"patrimonio/server/app"
	"patrimonio/server/config"
	"patrimonio/server/store"
)

// keyFile is where a server on cfg's SQLite database keeps its key when none is configured.
func keyFile(cfg config.Config) string {
	return filepath.Join(filepath.Dir(cfg.SQLitePath), app.SecretKeyFile)
}

func TestWithSQLiteAndNoKeyAPrivateKeyFileIsMadeOnceAndKept(t *testing.T) {
	cfg := testConfig(t)
	_, stop := start(t, cfg, nil)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	path := keyFile(cfg)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatalf("no key file next to the database: %v", err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("the key file has mode %#o, want 0600", fi.Mode().Perm())
	}
	first, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if key, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(first))); err != nil || len(key) != 32 {
		t.Fatalf("the key file holds %q (%d bytes, %v)", first, len(key), err)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "."+app.SecretKeyFile+"-*")); len(leftovers) != 0 {
		t.Fatalf("temporary files left: %v", leftovers)
	}

	// The second start reads the same key (the database's key check agrees with it).
	_, stop = start(t, cfg, nil)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	second, _ := os.ReadFile(path)
	if string(first) != string(second) {
		t.Fatal("the key file changed at the second start")
	}
}

func TestAConfiguredKeyIsUsedAndNoKeyFileIsMade(t *testing.T) {
	cfg := testConfig(t)
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	cfg.SecretKey = base64.StdEncoding.EncodeToString(key)
	_, stop := start(t, cfg, nil)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(keyFile(cfg)); !os.IsNotExist(err) {
		t.Fatalf("a key file was made although %s is set: %v", config.EnvSecretKey, err)
	}
}

// PATRIMONIO_SECRET_KEY_FILE keeps the key apart from the data directory (issue 11).
func TestTheKeyFileCanLiveApartFromTheData(t *testing.T) {
	cfg := testConfig(t)
	cfg.SecretKeyFile = filepath.Join(t.TempDir(), "keys", "patrimonio.key")
	_, stop := start(t, cfg, nil)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(keyFile(cfg)); !os.IsNotExist(err) {
		t.Fatalf("a key file was made next to the database: %v", err)
	}
	first, err := os.ReadFile(cfg.SecretKeyFile)
	if err != nil {
		t.Fatalf("no key file where %s says: %v", config.EnvSecretKeyFile, err)
	}
	if fi, _ := os.Stat(cfg.SecretKeyFile); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %#o", fi.Mode().Perm())
	}
	_, stop = start(t, cfg, nil)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if second, _ := os.ReadFile(cfg.SecretKeyFile); string(second) != string(first) {
		t.Fatal("the key file changed at the second start")
	}
	env := map[string]string{config.EnvSecretKeyFile: " /etc/patrimonio/key "}
	loaded, err := config.Load(func(k string) string { return env[k] }, nil)
	if err != nil || loaded.SecretKeyFile != "/etc/patrimonio/key" {
		t.Fatalf("%s read as %q (%v)", config.EnvSecretKeyFile, loaded.SecretKeyFile, err)
	}
}

func TestPostgresRefusesToStartWithoutAKey(t *testing.T) {
	cfg := testConfig(t)
	// Nothing listens there: the refusal comes before any connection.
	cfg.DatabaseURL = "postgres://patrimonio@127.0.0.1:1/patrimonio?sslmode=disable"
	_, err := app.Open(context.Background(), cfg, nil)
	if err == nil || !strings.Contains(err.Error(), "PATRIMONIO_SECRET_KEY is required with Postgres") {
		t.Fatalf("err = %v, want the missing key named", err)
	}
}

func TestABrokenKeyFileIsRefusedAndKept(t *testing.T) {
	cfg := testConfig(t)
	path := keyFile(cfg)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("c2hvcnQ=\n"), 0o600); err != nil { // 5 bytes
		t.Fatal(err)
	}
	_, err := app.Open(context.Background(), cfg, nil)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "decodes to 5 bytes") {
		t.Fatalf("err = %v, want the file and the problem named", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "c2hvcnQ=\n" {
		t.Fatalf("the broken key file was replaced by %q", b)
	}
}

func TestAKeyFileOthersCanReadIsWarnedAbout(t *testing.T) {
	cfg := testConfig(t)
	_, stop := start(t, cfg, nil)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(keyFile(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	logs := &testkit.Buffer{}
	_, stop = start(t, cfg, slog.New(slog.NewTextHandler(logs, nil)))
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "chmod 600") {
		t.Fatalf("no warning about the key file's mode:\n%s", logs)
	}
}

func TestALostKeyFileStopsTheStartOnceSecretsAreSealed(t *testing.T) {
	cfg := testConfig(t)
	_, stop := start(t, cfg, nil)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	// Seal a TOTP secret with the key of the file, as a user setting up an authenticator would.
	raw, err := os.ReadFile(keyFile(cfg))
	if err != nil {
		t.Fatal(err)
	}
	key, err := config.ParseSecretKey(string(raw))
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(context.Background(), cfg.Dialect(), cfg.DatabaseSource())
	if err != nil {
		t.Fatal(err)
	}
	acfg := account.DefaultConfig()
	acfg.Password = account.PasswordParams{Memory: 64, Time: 1, Threads: 1}
	acfg.SecretKey = key
	accounts, err := account.New(db, acfg, account.Options{})
	if err != nil {
		t.Fatal(err)
	}
	u, token, err := accounts.Signup.SignUp(context.Background(), "ana@example.com", "lentejas con chorizo 42", account.SessionMeta{})
	if err != nil {
		t.Fatal(err)
	}
	// Second factors need a verified address (this service has no mailer to send the code).
	if _, err := db.Exec(context.Background(), `UPDATE users SET email_verified_at = ? WHERE id = ?`, time.Now().UTC(), u.ID); err != nil {
		t.Fatal(err)
	}
	sess, u, err := accounts.Sessions.Authenticate(context.Background(), token)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := accounts.SecondFactors.SetupTOTP(context.Background(), u, sess); err != nil {
		t.Fatal(err)
	}
	db.Close()

	// The key file is lost: a new one is made, but the database's secrets do not open with it.
	if err := os.Remove(keyFile(cfg)); err != nil {
		t.Fatal(err)
	}
	_, err = app.Open(context.Background(), cfg, nil)
	if err == nil || !strings.Contains(err.Error(), "PATRIMONIO_SECRET_KEY is not the key") ||
		!strings.Contains(err.Error(), "sealed with another key") {
		t.Fatalf("err = %v, want a refusal naming the key", err)
	}
}
