// Command profserver is the Patrimonio server (the same app.Open and Run as
// server/cmd/patrimonio) with Go's profiler on a second, loopback-only address: for
// `syncbench -profile DIR`, which takes CPU, heap and goroutine profiles of the server while it
// measures. Never for production.
//
//	BENCH_PPROF_ADDR=127.0.0.1:6060 profserver   (and the server's usual environment)
//
// BENCH_FREE_OS_MEMORY=1 returns the memory freed during start to the OS right after it (an
// experiment: how much of the RSS is the scratch memory of the password hash made at start).
package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"patrimonio/server/app"
	"patrimonio/server/config"
)

func main() {
	os.Exit(run())
}

func run() int {
	cfg, err := config.Load(os.Getenv, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "profserver:", err)
		return 2
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))

	addr := os.Getenv("BENCH_PPROF_ADDR")
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "profserver:", err)
		return 1
	}
	host, _, _ := net.SplitHostPort(ln.Addr().String())
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		fmt.Fprintln(os.Stderr, "profserver: BENCH_PPROF_ADDR must be a loopback address")
		return 2
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	go func() { _ = http.Serve(ln, mux) }()

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	s, err := app.Open(ctx, cfg, logger)
	if err != nil {
		logger.Error("cannot start", "err", err)
		return 1
	}
	if os.Getenv("BENCH_FREE_OS_MEMORY") != "" {
		// An experiment for the memory figures: give the memory freed during start (the password
		// hash computed at start) back to the OS at once, instead of at the runtime's periodic GC.
		debug.FreeOSMemory()
	}
	if err := s.Run(ctx); err != nil {
		logger.Error("stopped with an error", "err", err)
		return 1
	}
	return 0
}
