package config_test

import (
	"errors"
	"flag"
	"log/slog"
	"strings"
	"testing"

	"patrimonio/server/config"
	"patrimonio/server/store"
)

func envFrom(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLoadConfig(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want config.Config
	}{
		{
			name: "an empty environment gives the defaults with SQLite and a public URL from the address",
			want: config.Config{
				Addr: "localhost:8080", SQLitePath: "data/patrimonio.db",
				PublicURL: "http://localhost:8080", PublicURLFromAddr: true,
				LogLevel: slog.LevelInfo, LogFormat: config.LogText, WebDir: "pwa/dist",
			},
		},
		{
			name: "every variable set is used",
			env: map[string]string{
				"PATRIMONIO_ADDR":       "0.0.0.0:9000",
				"DATABASE_URL":          "postgres://app:secret@db.internal:5432/patrimonio?sslmode=require",
				"PATRIMONIO_PUBLIC_URL": "https://Wealth.Example.com/",
				"PATRIMONIO_LOG_LEVEL":  "DEBUG",
				"PATRIMONIO_LOG_FORMAT": "json",
				"PATRIMONIO_WEB_DIR":    "/srv/pwa",
			},
			want: config.Config{
				Addr:        "0.0.0.0:9000",
				DatabaseURL: "postgres://app:secret@db.internal:5432/patrimonio?sslmode=require",
				PublicURL:   "https://wealth.example.com",
				LogLevel:    slog.LevelDebug, LogFormat: config.LogJSON, WebDir: "/srv/pwa",
			},
		},
		{
			name: "flags override the environment",
			env:  map[string]string{"PATRIMONIO_ADDR": "localhost:1", "PATRIMONIO_LOG_LEVEL": "error"},
			args: []string{"-addr", "127.0.0.1:0", "-log-level=warn", "-web-dir", "dist", "-database-url", "sqlite:/tmp/x.db"},
			want: config.Config{
				Addr: "127.0.0.1:0", SQLitePath: "/tmp/x.db",
				PublicURL: "http://127.0.0.1:0", PublicURLFromAddr: true,
				LogLevel: slog.LevelWarn, LogFormat: config.LogText, WebDir: "dist",
			},
		},
		{
			name: "postgresql scheme also selects Postgres",
			env:  map[string]string{"DATABASE_URL": "postgresql://localhost/patrimonio"},
			want: config.Config{
				Addr: "localhost:8080", DatabaseURL: "postgresql://localhost/patrimonio",
				PublicURL: "http://localhost:8080", PublicURLFromAddr: true,
				LogLevel: slog.LevelInfo, LogFormat: config.LogText, WebDir: "pwa/dist",
			},
		},
		{
			name: "a sqlite URL with three slashes is an absolute path",
			env:  map[string]string{"DATABASE_URL": "sqlite:///var/lib/patrimonio/p.db"},
			want: config.Config{
				Addr: "localhost:8080", SQLitePath: "/var/lib/patrimonio/p.db",
				PublicURL: "http://localhost:8080", PublicURLFromAddr: true,
				LogLevel: slog.LevelInfo, LogFormat: config.LogText, WebDir: "pwa/dist",
			},
		},
		{
			name: "an address without host gets localhost in the default public URL",
			env:  map[string]string{"PATRIMONIO_ADDR": ":8081"},
			want: config.Config{
				Addr: ":8081", SQLitePath: "data/patrimonio.db",
				PublicURL: "http://localhost:8081", PublicURLFromAddr: true,
				LogLevel: slog.LevelInfo, LogFormat: config.LogText, WebDir: "pwa/dist",
			},
		},
		{
			name: "the default port of the public URL is dropped like browsers do in Origin",
			env:  map[string]string{"PATRIMONIO_PUBLIC_URL": "https://example.com:443"},
			want: config.Config{
				Addr: "localhost:8080", SQLitePath: "data/patrimonio.db",
				PublicURL: "https://example.com",
				LogLevel:  slog.LevelInfo, LogFormat: config.LogText, WebDir: "pwa/dist",
			},
		},
		{
			name: "an IPv6 public URL keeps its brackets and port",
			env:  map[string]string{"PATRIMONIO_PUBLIC_URL": "http://[::1]:8080"},
			want: config.Config{
				Addr: "localhost:8080", SQLitePath: "data/patrimonio.db",
				PublicURL: "http://[::1]:8080",
				LogLevel:  slog.LevelInfo, LogFormat: config.LogText, WebDir: "pwa/dist",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := config.Load(envFrom(tt.env), tt.args)
			if err != nil {
				t.Fatalf("LoadConfig: %v", err)
			}
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestLoadConfigRejectsBadValues(t *testing.T) {
	tests := []struct {
		name        string
		env         map[string]string
		args        []string
		wantInError []string
		notInError  string
	}{
		{name: "an address without port is rejected", env: map[string]string{"PATRIMONIO_ADDR": "localhost"}, wantInError: []string{"PATRIMONIO_ADDR", "host:port"}},
		{name: "an address with a port out of range is rejected", env: map[string]string{"PATRIMONIO_ADDR": "localhost:70000"}, wantInError: []string{"PATRIMONIO_ADDR", "port"}},
		{name: "a database URL of another engine is rejected without echoing it", env: map[string]string{"DATABASE_URL": "mysql://root:hunter2@db/x"}, wantInError: []string{"DATABASE_URL", "postgres://"}, notInError: "hunter2"},
		{name: "a postgres URL without host is rejected", env: map[string]string{"DATABASE_URL": "postgres:///patrimonio"}, wantInError: []string{"DATABASE_URL", "no host"}},
		{name: "a sqlite URL without path is rejected", env: map[string]string{"DATABASE_URL": "sqlite:"}, wantInError: []string{"DATABASE_URL", "file path"}},
		{name: "a public URL with a path is rejected", env: map[string]string{"PATRIMONIO_PUBLIC_URL": "https://example.com/app"}, wantInError: []string{"PATRIMONIO_PUBLIC_URL", "origin only"}},
		{name: "a public URL with another scheme is rejected", env: map[string]string{"PATRIMONIO_PUBLIC_URL": "ftp://example.com"}, wantInError: []string{"PATRIMONIO_PUBLIC_URL", "http://"}},
		{name: "a public URL without host is rejected", env: map[string]string{"PATRIMONIO_PUBLIC_URL": "https://"}, wantInError: []string{"PATRIMONIO_PUBLIC_URL", "no host"}},
		{name: "a public URL with a query is rejected", env: map[string]string{"PATRIMONIO_PUBLIC_URL": "https://example.com?x=1"}, wantInError: []string{"PATRIMONIO_PUBLIC_URL"}},
		{name: "a public URL with user info is rejected", env: map[string]string{"PATRIMONIO_PUBLIC_URL": "https://me@example.com"}, wantInError: []string{"PATRIMONIO_PUBLIC_URL"}},
		{name: "an unknown log level is rejected", env: map[string]string{"PATRIMONIO_LOG_LEVEL": "verbose"}, wantInError: []string{"PATRIMONIO_LOG_LEVEL", "debug, info, warn, error"}},
		{name: "an unknown log format is rejected", env: map[string]string{"PATRIMONIO_LOG_FORMAT": "xml"}, wantInError: []string{"PATRIMONIO_LOG_FORMAT"}},
		{name: "an unknown flag is rejected", args: []string{"-port", "80"}, wantInError: []string{"command line", "port"}},
		{name: "a stray argument is rejected", args: []string{"serve-now"}, wantInError: []string{"unexpected argument", "serve-now"}},
		{name: "a bad flag value is rejected like a bad variable", args: []string{"-log-level", "loud"}, wantInError: []string{"-log-level"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.Load(envFrom(tt.env), tt.args)
			if err == nil {
				t.Fatal("LoadConfig succeeded, want an error")
			}
			for _, s := range tt.wantInError {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
			if tt.notInError != "" && strings.Contains(err.Error(), tt.notInError) {
				t.Errorf("error %q leaks %q", err, tt.notInError)
			}
		})
	}
}

func TestLoadConfigHelpFlagAsksForUsage(t *testing.T) {
	_, err := config.Load(envFrom(nil), []string{"-h"})
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("err = %v, want flag.ErrHelp", err)
	}
	var b strings.Builder
	config.PrintUsage(&b)
	for _, name := range []string{"-addr", "PATRIMONIO_ADDR", "-database-url", "-public-url", "-log-level", "-web-dir"} {
		if !strings.Contains(b.String(), name) {
			t.Errorf("usage does not mention %s:\n%s", name, b.String())
		}
	}
}

func TestConfigDerivedValues(t *testing.T) {
	tests := []struct {
		name                    string
		cfg                     config.Config
		wantDialect             store.Dialect
		wantDescription, wantWS string
		wantSecure              bool
	}{
		{
			name:            "an https public URL is secure and its socket origin is wss",
			cfg:             config.Config{PublicURL: "https://example.com", DatabaseURL: "postgres://u:pw@h/db"},
			wantDialect:     store.Postgres,
			wantDescription: "postgres://u:xxxxx@h/db",
			wantWS:          "wss://example.com",
			wantSecure:      true,
		},
		{
			name:            "an http public URL is not secure and its socket origin is ws",
			cfg:             config.Config{PublicURL: "http://localhost:8080", SQLitePath: "data/p.db"},
			wantDialect:     store.SQLite,
			wantDescription: "sqlite:data/p.db",
			wantWS:          "ws://localhost:8080",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.cfg.Dialect(); got != tt.wantDialect {
				t.Errorf("Dialect() = %q, want %q", got, tt.wantDialect)
			}
			if got := tt.cfg.DatabaseDescription(); got != tt.wantDescription {
				t.Errorf("DatabaseDescription() = %q, want %q", got, tt.wantDescription)
			}
			if got := tt.cfg.WebSocketOrigin(); got != tt.wantWS {
				t.Errorf("WebSocketOrigin() = %q, want %q", got, tt.wantWS)
			}
			if got := tt.cfg.PublicURLSecure(); got != tt.wantSecure {
				t.Errorf("PublicURLSecure() = %v, want %v", got, tt.wantSecure)
			}
		})
	}
}
