// Package stripemock gives tests a running stripe-mock (github.com/stripe/stripe-mock): Stripe's
// official mock of its API, which answers every call with fixture data and validates the
// parameters against Stripe's OpenAPI description. Like the throwaway Postgres of pgtest, the
// first call of URL starts one on free loopback ports and Main stops it when the tests end.
//
//	func TestMain(m *testing.M) { stripemock.Main(m) }
//
//	func TestSomething(t *testing.T) { url := stripemock.URL(t); ... }
//
// The binary is found in PATH, then in $(go env GOPATH)/bin. A machine without it fails the test
// with what to run: .ci/run installs it (the pinned Version).
package stripemock

import (
	"bufio"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Version is the stripe-mock that .ci/run installs.
const Version = "v0.203.0"

// TestKey is a well-formed Stripe test key; stripe-mock accepts any.
const TestKey = "sk_test_patrimonio"

var (
	once     sync.Once
	url      string
	startErr error
	cmd      *exec.Cmd
)

// Binary returns the path of stripe-mock, or an error saying how to install it.
func Binary() (string, error) {
	if p, err := exec.LookPath("stripe-mock"); err == nil {
		return p, nil
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
			gopath = strings.TrimSpace(string(out))
		}
	}
	for _, dir := range filepath.SplitList(gopath) {
		p := filepath.Join(dir, "bin", "stripe-mock")
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	return "", fmt.Errorf("stripe-mock is not installed: run .ci/run (it installs it), or `go install github.com/stripe/stripe-mock@%s`", Version)
}

// URL returns the base URL (http://127.0.0.1:port) of the shared stripe-mock, starting it on the
// first call. It fails the test when stripe-mock is missing or does not start.
func URL(t testing.TB) string {
	t.Helper()
	once.Do(func() { url, startErr = start() })
	if startErr != nil {
		t.Fatal(startErr)
	}
	return url
}

func start() (string, error) {
	bin, err := Binary()
	if err != nil {
		return "", err
	}
	c := exec.Command(bin, "-http-addr", "127.0.0.1:0", "-https-addr", "127.0.0.1:0")
	out, err := c.StdoutPipe()
	if err != nil {
		return "", err
	}
	c.Stderr = c.Stdout
	if err := c.Start(); err != nil {
		return "", fmt.Errorf("start stripe-mock: %w", err)
	}
	cmd = c
	found := make(chan string, 1)
	var head strings.Builder
	go func() {
		sc := bufio.NewScanner(out)
		sent := false
		for sc.Scan() { // read on to the end, so stripe-mock never blocks on a full pipe
			line := sc.Text()
			if !sent {
				head.WriteString(line + "\n")
			}
			if addr, ok := strings.CutPrefix(line, "Listening for HTTP at address: "); ok && !sent {
				found <- strings.TrimSpace(addr)
				sent = true
			}
		}
		if !sent {
			close(found)
		}
	}()
	select {
	case addr, ok := <-found:
		if !ok {
			return "", fmt.Errorf("stripe-mock exited before listening:\n%s", head.String())
		}
		base := "http://" + addr
		if err := waitReady(base); err != nil {
			return "", err
		}
		return base, nil
	case <-time.After(60 * time.Second):
		_ = c.Process.Kill()
		return "", fmt.Errorf("stripe-mock did not start listening within a minute")
	}
}

// waitReady waits until stripe-mock answers an API call.
func waitReady(base string) error {
	for i := 0; i < 200; i++ {
		req, _ := http.NewRequest(http.MethodGet, base+"/v1/products", nil)
		req.Header.Set("Authorization", "Bearer "+TestKey)
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("stripe-mock at %s does not answer", base)
}

// Main runs the tests and stops stripe-mock afterwards.
func Main(m *testing.M) {
	code := m.Run()
	Stop()
	os.Exit(code)
}

// Stop stops the shared stripe-mock if it was started.
func Stop() {
	if cmd != nil && cmd.Process != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
}
