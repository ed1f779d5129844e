package app_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"patrimonio/core"
	"patrimonio/internal/pgtest"
	"patrimonio/internal/testkit"
	"patrimonio/server/app"
	"patrimonio/server/config"
)

// postgresConfig is testConfig on a throwaway cluster of this test's own (it is stopped and
// started, which a shared one could not be).
func postgresConfig(t *testing.T) (config.Config, *pgtest.Cluster) {
	t.Helper()
	c, err := pgtest.StartCluster()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Stop() })
	cfg := testConfig(t)
	cfg.DatabaseURL = c.URL()
	cfg.SecretKey = base64.StdEncoding.EncodeToString([]byte(strings.Repeat("k", 32)))
	return cfg, c
}

// A request that reads the database (sign-in looks the e-mail up) while Postgres is down is told
// the service is unavailable (503, Retry-After), not "internal error"; once Postgres is back the
// same request works without restarting the server.
func TestRequestsWhileThePostgresIsDownAnswerUnavailableAndWorkWhenItIsBack(t *testing.T) {
	cfg, cluster := postgresConfig(t)
	s, _ := start(t, cfg, nil)
	signIn := func() (int, string, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, "http://"+s.Addr()+"/api/v1/auth/signin",
			strings.NewReader(`{"email":"nadie@example.com","password":"una contraseña larga"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", "http://"+s.Addr())
		req.Header.Set("Accept-Language", "es")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		var e struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		_ = json.Unmarshal(body, &e)
		return resp.StatusCode, e.Error.Code, resp.Header.Get("Retry-After") + "|" + e.Error.Message
	}
	before, _, _ := signIn()
	if before != http.StatusUnauthorized {
		t.Fatalf("sign-in of an unknown user answered %d before the outage, want 401", before)
	}

	if err := cluster.Down(); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		status, code, rest := signIn()
		if status != http.StatusServiceUnavailable || code != core.EUNAVAILABLE || !strings.HasPrefix(rest, "1|El servicio no está disponible") {
			t.Fatalf("with the database down: %d %s %q, want 503 unavailable with Retry-After and a Spanish message", status, code, rest)
		}
	}

	if err := cluster.Up(); err != nil {
		t.Fatal(err)
	}
	var status int
	for range 5 { // pooled connections of before the outage may each be found dead once
		if status, _, _ = signIn(); status == http.StatusUnauthorized {
			break
		}
		if status != http.StatusServiceUnavailable {
			t.Fatalf("after the restart: %d, want 401 (or 503 while a dead connection is dropped)", status)
		}
	}
	if status != http.StatusUnauthorized {
		t.Fatalf("after the restart the request still answers %d", status)
	}
}

// A server started while Postgres is down waits for it (saying so in the log) instead of exiting,
// and serves once it is up; a context that ends stops the wait.
func TestTheServerWaitsForPostgresAtStart(t *testing.T) {
	cfg, cluster := postgresConfig(t)
	if err := cluster.Down(); err != nil {
		t.Fatal(err)
	}
	var logs testkit.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := app.Open(ctx, cfg, logger); err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Fatalf("an ended context while waiting: %v", err)
	}

	opened := make(chan error, 1)
	go func() {
		s, err := app.Open(context.Background(), cfg, logger)
		if err == nil {
			s.Close()
		}
		opened <- err
	}()
	// Up once the server has said it waits.
	for !strings.Contains(logs.String(), "database not reachable; trying again") {
		select {
		case err := <-opened:
			t.Fatalf("Open returned while the database was down: %v", err)
		case <-time.After(50 * time.Millisecond):
		}
	}
	if err := cluster.Up(); err != nil {
		t.Fatal(err)
	}
	if err := <-opened; err != nil {
		t.Fatalf("Open after the database came up: %v", err)
	}
}
