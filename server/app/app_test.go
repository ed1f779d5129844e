package app_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"patrimonio/internal/testkit"
	"patrimonio/server/app"
	"patrimonio/server/config"
	"patrimonio/server/store"
)

func testConfig(t *testing.T) config.Config {
	t.Helper()
	cfg, err := config.Load(func(k string) string {
		return map[string]string{
			"PATRIMONIO_ADDR":    "127.0.0.1:0",
			"DATABASE_URL":       "sqlite:" + filepath.Join(t.TempDir(), "data", "patrimonio.db"),
			"PATRIMONIO_WEB_DIR": t.TempDir(),
		}[k]
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// start opens and runs a server; the returned function ends its context and returns Run's error.
func start(t *testing.T, cfg config.Config, logger *slog.Logger) (*app.Server, func() error) {
	t.Helper()
	s, err := app.Open(context.Background(), cfg, logger)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	var once sync.Once
	var runErr error
	stop := func() error {
		once.Do(func() { cancel(); runErr = <-done })
		return runErr
	}
	t.Cleanup(func() { stop() })
	return s, stop
}

func TestTheServerServesOnAFreePortAndStopsCleanly(t *testing.T) {
	s, stop := start(t, testConfig(t), nil)

	_, port, _ := net.SplitHostPort(s.Addr())
	if port == "0" || port == "" {
		t.Fatalf("Addr() = %s, want the actual port", s.Addr())
	}
	if want := "http://127.0.0.1:" + port; s.URL() != want {
		t.Errorf("URL() = %s, want %s", s.URL(), want)
	}
	resp, err := http.Get(s.URL() + "/api/v1/health")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"reachable":true`) {
		t.Fatalf("health: %d %s", resp.StatusCode, body)
	}

	if err := stop(); err != nil {
		t.Fatalf("Run returned %v after a clean shutdown", err)
	}
	if _, err := http.Get(s.URL() + "/api/v1/health"); err == nil {
		t.Error("the server still answers after Run returned")
	}
}

func TestAConfiguredPublicURLIsKept(t *testing.T) {
	cfg := testConfig(t)
	cfg.PublicURL, cfg.PublicURLFromAddr = "https://wealth.example.com", false
	s, _ := start(t, cfg, nil)
	if s.URL() != "https://wealth.example.com" {
		t.Errorf("URL() = %s", s.URL())
	}
}

func TestShutdownDrainsInFlightRequests(t *testing.T) {
	cfg := testConfig(t)
	// A file far larger than the socket buffers: its handler stays busy until the client reads.
	const size = 32 << 20
	big := make([]byte, size)
	rand.Read(big)
	if err := os.MkdirAll(filepath.Join(cfg.WebDir, "assets"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg.WebDir, "assets", "big-0a1b2c.bin"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	logs := &testkit.Buffer{}
	s, stop := start(t, cfg, slog.New(slog.NewTextHandler(logs, nil)))

	resp, err := http.Get(s.URL() + "/assets/big-0a1b2c.bin")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	head := make([]byte, 1024)
	if _, err := io.ReadFull(resp.Body, head); err != nil {
		t.Fatal(err)
	}

	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()

	// Shutdown closes the listener first; wait until new connections are refused.
	for {
		conn, err := net.Dial("tcp", s.Addr())
		if err != nil {
			break
		}
		conn.Close()
		time.Sleep(5 * time.Millisecond)
	}
	// The access log line is written when the handler returns, with the bytes it wrote.
	for _, line := range strings.Split(logs.String(), "\n") {
		if strings.Contains(line, "big-0a1b2c.bin") {
			if strings.Contains(line, fmt.Sprintf("bytes=%d ", size)) {
				t.Fatal("the download finished before shutdown began; the test proves nothing")
			}
			t.Fatalf("shutdown cut the in-flight download: %s", line)
		}
	}
	select {
	case err := <-stopped:
		t.Fatalf("Run returned (%v) while a request was still being served", err)
	default:
	}

	rest, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("the in-flight download was cut: %v", err)
	}
	if got := append(head, rest...); !bytes.Equal(got, big) {
		t.Fatalf("the in-flight download got %d bytes, want %d identical ones", len(got), size)
	}
	if err := <-stopped; err != nil {
		t.Fatalf("Run returned %v", err)
	}
}

func TestOpenFailsWhenTheAddressIsTaken(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	cfg := testConfig(t)
	cfg.Addr = taken.Addr().String()
	_, err = app.Open(context.Background(), cfg, nil)
	if err == nil || !strings.Contains(err.Error(), "listen on "+cfg.Addr) {
		t.Fatalf("err = %v, want a listen error naming the address", err)
	}
}

// Billing off (no Stripe key) while the database holds a subscription that still bills: the start-up
// logs an error for the operator (Stripe keeps charging, and nobody can reach the portal).
func TestStartingWithBillingOffWarnsAboutSubscriptionsStillBilling(t *testing.T) {
	cfg := testConfig(t)
	db, err := store.Open(context.Background(), cfg.Dialect(), cfg.DatabaseSource())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO users (id, email, onboarding_step, created_at, updated_at) VALUES ('u1', 'u1@example.com', 'done', ?, ?)`, []any{now, now}},
		{`INSERT INTO billing_subscriptions (id, user_id, customer_id, status, currency, product_id, price_id, created_at, observed_at)
			VALUES ('sub_1', 'u1', 'cus_1', 'active', 'USD', 'prod_1', 'price_1', ?, 1)`, []any{now}},
	} {
		if _, err := db.Exec(context.Background(), q.sql, q.args...); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	logs := &testkit.Buffer{}
	start(t, cfg, slog.New(slog.NewTextHandler(logs, nil)))
	if !strings.Contains(logs.String(), "level=ERROR") || !strings.Contains(logs.String(), "live_subscriptions=1") {
		t.Fatalf("no error about the subscription left billing:\n%s", logs.String())
	}
}
