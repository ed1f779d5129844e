// Command pgtmp runs a command next to a throwaway PostgreSQL cluster:
//
//	go run ./server/cmd/pgtmp -- go test ./...
//
// It starts a cluster (the same code the Go tests use, see internal/pgtest), runs the
// command with TEST_DATABASE_URL pointing at it, stops the cluster and exits with the command's
// exit code. SIGINT and SIGTERM are passed on to the command; the cluster is stopped either way.
// When TEST_DATABASE_URL is already set, no cluster is started and the command uses that server.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"patrimonio/internal/pgtest"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		fmt.Fprintln(os.Stderr, "usage: pgtmp [--] command [args...]\n\nRuns command with TEST_DATABASE_URL set to a throwaway PostgreSQL cluster.")
		return 2
	}

	// Catch the signals before starting anything, so that none can end us with a cluster running.
	signals := make(chan os.Signal, 4)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)

	env := os.Environ()
	if os.Getenv(pgtest.EnvURL) == "" {
		cluster, err := pgtest.StartCluster()
		if err != nil {
			fmt.Fprintln(os.Stderr, "pgtmp:", err)
			return 1
		}
		defer func() {
			if err := cluster.Stop(); err != nil {
				fmt.Fprintln(os.Stderr, "pgtmp:", err)
			}
		}()
		env = append(env, pgtest.EnvURL+"="+cluster.URL())
		fmt.Fprintf(os.Stderr, "pgtmp: PostgreSQL ready at %s\n", cluster.URL())
	}

	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "pgtmp:", err)
		return 127
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for {
		select {
		case sig := <-signals:
			// The command usually got it too (same process group); pass it on in case it did not.
			_ = cmd.Process.Signal(sig)
		case err := <-done:
			return exitCode(err)
		}
	}
}

// exitCode is the command's exit code, or 128+signal when a signal ended it, as shells report it.
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return exitErr.ExitCode()
	}
	fmt.Fprintln(os.Stderr, "pgtmp:", err)
	return 1
}
