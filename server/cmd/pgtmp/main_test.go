package main_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5"
)

// The test binary doubles as the command pgtmp runs: with PGTMP_TEST_HELPER set it connects to
// TEST_DATABASE_URL, prints the URL, then either exits with a chosen code or waits for a signal.
func TestMain(m *testing.M) {
	switch os.Getenv("PGTMP_TEST_HELPER") {
	case "":
		os.Exit(m.Run())
	case "connect-and-exit-3":
		helperConnect()
		os.Exit(3)
	case "connect-and-wait":
		helperConnect()
		select {}
	}
}

func helperConnect() {
	url := os.Getenv("TEST_DATABASE_URL")
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(90)
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE helper_was_here (id int)`); err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(91)
	}
	conn.Close(ctx)
	fmt.Println("URL", url)
}

func buildPgtmp(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "pgtmp")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// pgtmpCommand runs pgtmp around this test binary in helper mode, without any TEST_DATABASE_URL
// inherited from the outside, so that pgtmp starts its own cluster.
func pgtmpCommand(bin, mode string) *exec.Cmd {
	cmd := exec.Command(bin, "--", os.Args[0])
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TEST_DATABASE_URL=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "PGTMP_TEST_HELPER="+mode)
	cmd.Stderr = os.Stderr
	return cmd
}

func assertUnreachable(t *testing.T, url string) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err == nil {
		conn.Close(context.Background())
		t.Errorf("the cluster at %s still answers after pgtmp exited", url)
	}
}

func readURL(t *testing.T, sc *bufio.Scanner) string {
	t.Helper()
	for sc.Scan() {
		if url, ok := strings.CutPrefix(sc.Text(), "URL "); ok {
			return url
		}
	}
	t.Fatal("the command never printed its database URL")
	return ""
}

func TestPgtmp(t *testing.T) {
	bin := buildPgtmp(t)

	t.Run("the command gets a working database and its exit code is passed on", func(t *testing.T) {
		cmd := pgtmpCommand(bin, "connect-and-exit-3")
		out, err := cmd.Output()
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) || exitErr.ExitCode() != 3 {
			t.Fatalf("pgtmp ended with %v, want exit code 3", err)
		}
		url := readURL(t, bufio.NewScanner(strings.NewReader(string(out))))
		assertUnreachable(t, url)
	})

	t.Run("SIGTERM reaches the command and the cluster is stopped", func(t *testing.T) {
		cmd := pgtmpCommand(bin, "connect-and-wait")
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		url := readURL(t, bufio.NewScanner(stdout))
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		err = cmd.Wait()
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) || exitErr.ExitCode() != 128+int(syscall.SIGTERM) {
			t.Fatalf("pgtmp ended with %v, want exit code %d", err, 128+int(syscall.SIGTERM))
		}
		assertUnreachable(t, url)
	})

	t.Run("without a command it explains its usage", func(t *testing.T) {
		out, err := exec.Command(bin).CombinedOutput()
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) || exitErr.ExitCode() != 2 || !strings.Contains(string(out), "usage: pgtmp") {
			t.Fatalf("got %v and %q", err, out)
		}
	})
}
