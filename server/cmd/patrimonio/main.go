// Command patrimonio is the Patrimonio server.
//
//	patrimonio [serve] [flags]   serve the API and the PWA (the default)
//	patrimonio admin grant|revoke|enable <email> [flags]   grant or revoke the app admin role, enable an account
//	patrimonio version           print the version
//	patrimonio help              show this help
//
// Configuration comes from environment variables, mirrored by flags; see `patrimonio help`.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"patrimonio/core"
	"patrimonio/server/app"
	"patrimonio/server/config"
)

func main() {
	os.Exit(run(os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

// run dispatches to a subcommand and returns the process exit code.
func run(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(args, getenv, stdout, stderr)
	case "admin":
		return adminCommand(args, getenv, stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, core.Version)
		return 0
	case "help":
		usage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "patrimonio: unknown command %q\n\n", cmd)
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprint(w, `Patrimonio: personal wealth, local-first.

Usage:
  patrimonio [serve] [flags]   serve the API and the web app (the default)
  patrimonio admin grant|revoke|enable <email> [flags]
                               grant or revoke the app admin role, or enable
                               an account an admin disabled
  patrimonio version           print the version
  patrimonio help              show this help

Flags of serve (each mirrors an environment variable):
`)
	config.PrintUsage(w)
}

func serve(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	cfg, err := config.Load(getenv, args)
	if errors.Is(err, flag.ErrHelp) {
		usage(stdout)
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "patrimonio:", err)
		return 2
	}
	logger := newLogger(cfg, stderr)

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	go func() {
		// After the first signal, a second one ends the process at once.
		<-ctx.Done()
		stop()
	}()

	s, err := app.Open(ctx, cfg, logger)
	if err != nil {
		logger.Error("cannot start", "err", err)
		return 1
	}
	s.LoadRates = !cfg.FXUpdatesOff // exchange rates (server/fx): in the background, never blocking
	fmt.Fprintf(stdout, "Patrimonio is running at %s\n", s.URL())
	if err := s.Run(ctx); err != nil {
		logger.Error("stopped with an error", "err", err)
		return 1
	}
	return 0
}

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if cfg.LogFormat == config.LogJSON {
		h = slog.NewJSONHandler(w, opts)
	}
	return slog.New(core.NewLogHandler(h))
}
