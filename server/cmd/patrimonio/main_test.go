package main

// Integration tests of the real binary: built with go build, started on a free port, asked over
// HTTP, stopped with SIGTERM.

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"patrimonio/internal/pgtest"
	"patrimonio/internal/testkit"
)

var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "patrimonio-bin-")
	if err != nil {
		panic(err)
	}
	binDir = dir
	code := pgtest.Run(m)
	os.RemoveAll(dir)
	os.Exit(code)
}

const testVersion = "9.9.9-test"

var (
	buildOnce sync.Once
	buildErr  error
	buildOut  []byte
)

// binary builds the server once per test run (go build -o ...), with a version set through
// -ldflags like a release build.
func binary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(binDir, "patrimonio")
	buildOnce.Do(func() {
		buildOut, buildErr = exec.Command("go", "build", "-ldflags", "-X patrimonio/core.Version="+testVersion,
			"-o", bin, ".").CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("go build: %v\n%s", buildErr, buildOut)
	}
	return bin
}

// cleanEnv is the test's environment without any Patrimonio configuration.
func cleanEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "PATRIMONIO_") || strings.HasPrefix(kv, "DATABASE_URL=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

func TestTheBinaryServesHealthAndStopsCleanlyOnSIGTERM(t *testing.T) {
	databases := map[string]func(t *testing.T) string{
		"sqlite":   func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "data", "patrimonio.db") },
		"postgres": func(t *testing.T) string { return pgtest.URL(t) },
	}
	for dialect, databaseURL := range databases {
		t.Run("on "+dialect, func(t *testing.T) {
			t.Parallel()
			webDir := t.TempDir()
			if err := os.WriteFile(filepath.Join(webDir, "index.html"), []byte("<title>Patrimonio</title>"), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(binary(t))
			cmd.Env = cleanEnv(
				"PATRIMONIO_ADDR=127.0.0.1:0",
				"DATABASE_URL="+databaseURL(t),
				"PATRIMONIO_WEB_DIR="+webDir,
				"PATRIMONIO_LOG_FORMAT=json",
				// Required with Postgres; any 32 bytes in base64 (these are 32 zero bytes).
				"PATRIMONIO_SECRET_KEY=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
			)
			stderr := &testkit.Buffer{}
			cmd.Stderr = stderr
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill() // only matters when the test fails before SIGTERM

			sc := bufio.NewScanner(stdout)
			var url string
			for sc.Scan() {
				if u, ok := strings.CutPrefix(sc.Text(), "Patrimonio is running at "); ok {
					url = u
					break
				}
			}
			if url == "" {
				cmd.Wait()
				t.Fatalf("the server never said where it runs; stderr:\n%s", stderr.String())
			}
			if !strings.HasPrefix(url, "http://127.0.0.1:") || strings.HasSuffix(url, ":0") {
				t.Errorf("announced URL %s lacks the actual port", url)
			}

			resp, err := http.Get(url + "/api/v1/health")
			if err != nil {
				t.Fatal(err)
			}
			var health struct {
				Status   string `json:"status"`
				Version  string `json:"version"`
				Database struct {
					Dialect   string `json:"dialect"`
					Reachable bool   `json:"reachable"`
				} `json:"database"`
			}
			err = json.NewDecoder(resp.Body).Decode(&health)
			resp.Body.Close()
			if err != nil || resp.StatusCode != http.StatusOK {
				t.Fatalf("health: %d, %v", resp.StatusCode, err)
			}
			if health.Status != "ok" || health.Version != testVersion || health.Database.Dialect != dialect || !health.Database.Reachable {
				t.Errorf("health = %+v", health)
			}

			resp, err = http.Get(url + "/some/client/route")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "<title>Patrimonio</title>") {
				t.Errorf("client route: %d %q", resp.StatusCode, body)
			}

			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Wait(); err != nil {
				t.Fatalf("the server exited with %v after SIGTERM, want exit code 0; stderr:\n%s", err, stderr.String())
			}
			logs := stderr.String()
			for _, want := range []string{`"msg":"serving"`, `"msg":"http request"`, `"request_id":`, `"msg":"stopped"`} {
				if !strings.Contains(logs, want) {
					t.Errorf("logs lack %s:\n%s", want, logs)
				}
			}
		})
	}
}

func TestTheBinaryRejectsBadConfigurationWithExitCode2(t *testing.T) {
	cmd := exec.Command(binary(t))
	cmd.Env = cleanEnv("PATRIMONIO_LOG_LEVEL=chatty")
	out, err := cmd.CombinedOutput()
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != 2 {
		t.Fatalf("got %v, want exit code 2", err)
	}
	if !strings.Contains(string(out), "PATRIMONIO_LOG_LEVEL") {
		t.Errorf("output %q does not name the variable", out)
	}
}

func TestTheBinarySubcommands(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantOut  string
	}{
		{"version prints the linked version", []string{"version"}, 0, testVersion + "\n"},
		{"help lists the flags and variables", []string{"help"}, 0, "PATRIMONIO_PUBLIC_URL"},
		{"serve -h shows the same help", []string{"serve", "-h"}, 0, "patrimonio version"},
		{"an unknown command fails with usage", []string{"frobnicate"}, 2, `unknown command "frobnicate"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(binary(t), tt.args...)
			cmd.Env = cleanEnv()
			out, err := cmd.CombinedOutput()
			code := 0
			var exitErr *exec.ExitError
			if errors.As(err, &exitErr) {
				code = exitErr.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tt.wantCode || !strings.Contains(string(out), tt.wantOut) {
				t.Errorf("exit %d, output %q; want exit %d and %q", code, out, tt.wantCode, tt.wantOut)
			}
		})
	}
}
