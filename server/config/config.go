// Package config reads the server's configuration once at start, from the environment and the
// command line, into one Config value that server/app (where the server is wired) hands out in
// pieces: the store gets a dialect and a URL, each service the settings it needs. Nothing reads the
// environment after that. Only server/app, server/httpapi, the commands and the sync/sim harness
// import this package.
package config

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"strconv"
	"strings"

	"patrimonio/core"
	"patrimonio/server/store"
)

// Defaults of the configuration.
const (
	DefaultAddr       = "localhost:8080"
	DefaultSQLitePath = "data/patrimonio.db"
	DefaultWebDir     = "pwa/dist"
)

// LogFormat selects the slog handler.
type LogFormat string

// The log formats.
const (
	LogText LogFormat = "text"
	LogJSON LogFormat = "json"
)

// Config is the whole server configuration. It is built once at start (LoadConfig) and passed to
// whoever needs it; nothing reads the environment after that.
type Config struct {
	// Addr is the TCP address to listen on, host:port. Port 0 picks a free port.
	Addr string
	// DatabaseURL is a postgres:// URL when the database is store.Postgres, and "" for store.SQLite.
	DatabaseURL string
	// SQLitePath is the store.SQLite database file when DatabaseURL is "".
	SQLitePath string
	// PublicURL is the origin users reach, e.g. "https://patrimonio.example.com": scheme, host and
	// a port only when it is not the scheme's default; no path, no trailing slash.
	PublicURL string
	// PublicURLFromAddr is true when PublicURL was not configured but derived from Addr; the app
	// then derives it again from the address it actually listens on (which matters for port 0).
	PublicURLFromAddr bool
	LogLevel          slog.Level
	LogFormat         LogFormat
	// WebDir is the directory of the built PWA (index.html, assets/, sw.js, ...).
	WebDir string
	// AccountsConfig: admins, mail delivery, allowed origins, trusted proxies (config_accounts.go).
	AccountsConfig
	// AuthConfig: the auth provider, local or clerk, and Clerk's keys (config_auth.go).
	AuthConfig
	// FXConfig: where exchange rates come from (config_fx.go).
	FXConfig
	// BillingConfig: Stripe's keys and plans; no key means billing is off (config_billing.go).
	BillingConfig
}

// store.Dialect says which database the configuration selects.
func (c Config) Dialect() store.Dialect {
	if c.DatabaseURL != "" {
		return store.Postgres
	}
	return store.SQLite
}

// DatabaseSource is where store.Open finds the database of Dialect: the Postgres URL, or the
// SQLite file path.
func (c Config) DatabaseSource() string {
	if c.DatabaseURL != "" {
		return c.DatabaseURL
	}
	return c.SQLitePath
}

// DatabaseDescription describes the database for logs, without any password.
func (c Config) DatabaseDescription() string {
	if c.DatabaseURL == "" {
		return "sqlite:" + c.SQLitePath
	}
	u, err := url.Parse(c.DatabaseURL)
	if err != nil {
		return "postgres (unparsable URL)"
	}
	return u.Redacted()
}

// PublicURLSecure says whether users reach the server over https.
func (c Config) PublicURLSecure() bool {
	return strings.HasPrefix(c.PublicURL, "https://")
}

// WebSocketOrigin is the ws:// or wss:// form of PublicURL.
func (c Config) WebSocketOrigin() string {
	if rest, ok := strings.CutPrefix(c.PublicURL, "https://"); ok {
		return "wss://" + rest
	}
	return "ws://" + strings.TrimPrefix(c.PublicURL, "http://")
}

// The environment variables LoadConfig reads.
const (
	EnvAddr        = "PATRIMONIO_ADDR"
	EnvDatabaseURL = "DATABASE_URL"
	EnvPublicURL   = "PATRIMONIO_PUBLIC_URL"
	EnvLogLevel    = "PATRIMONIO_LOG_LEVEL"
	EnvLogFormat   = "PATRIMONIO_LOG_FORMAT"
	EnvWebDir      = "PATRIMONIO_WEB_DIR"
)

// rawConfig holds the configuration as text, before validation. Environment variables fill it
// first, then command-line flags override what they name.
type rawConfig struct {
	addr, databaseURL, publicURL, logLevel, logFormat, webDir string
	accounts                                                  rawAccountsConfig
	auth                                                      rawAuthConfig
	fx                                                        rawFXConfig
	billing                                                   rawBillingConfig
}

func newFlagSet(raw *rawConfig) *flag.FlagSet {
	fs := flag.NewFlagSet("patrimonio", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&raw.addr, "addr", raw.addr, "address to listen on, host:port ("+EnvAddr+")")
	fs.StringVar(&raw.databaseURL, "database-url", raw.databaseURL,
		"postgres:// URL, or sqlite:PATH; empty means store.SQLite at "+DefaultSQLitePath+" ("+EnvDatabaseURL+")")
	fs.StringVar(&raw.publicURL, "public-url", raw.publicURL, "origin users reach, e.g. https://example.com ("+EnvPublicURL+")")
	fs.StringVar(&raw.logLevel, "log-level", raw.logLevel, "debug, info, warn or error ("+EnvLogLevel+")")
	fs.StringVar(&raw.logFormat, "log-format", raw.logFormat, "text or json ("+EnvLogFormat+")")
	fs.StringVar(&raw.webDir, "web-dir", raw.webDir, "directory of the built PWA ("+EnvWebDir+")")
	addAccountsFlags(fs, &raw.accounts)
	addAuthFlags(fs, &raw.auth)
	addFXFlags(fs, &raw.fx)
	addBillingFlags(fs, &raw.billing)
	return fs
}

// PrintConfigUsage writes the flags and the environment variables they mirror.
func PrintUsage(w io.Writer) {
	raw := rawConfig{addr: DefaultAddr, logLevel: "info", logFormat: string(LogText), webDir: DefaultWebDir}
	fs := newFlagSet(&raw)
	fs.SetOutput(w)
	fs.PrintDefaults()
}

// LoadConfig builds the configuration from environment variables (read through getenv) and
// command-line flags (args, without the program name), flags winning. It returns an error that
// names the variable or flag for any bad value; -h or -help gives an error wrapping flag.ErrHelp.
func Load(getenv func(string) string, args []string) (Config, error) {
	raw := rawConfig{
		addr:        orDefault(getenv(EnvAddr), DefaultAddr),
		databaseURL: strings.TrimSpace(getenv(EnvDatabaseURL)),
		publicURL:   strings.TrimSpace(getenv(EnvPublicURL)),
		logLevel:    orDefault(getenv(EnvLogLevel), "info"),
		logFormat:   orDefault(getenv(EnvLogFormat), string(LogText)),
		webDir:      orDefault(getenv(EnvWebDir), DefaultWebDir),
		accounts:    readAccountsEnv(getenv),
		auth:        readAuthEnv(getenv),
		fx:          readFXEnv(getenv),
		billing:     readBillingEnv(getenv),
	}
	fs := newFlagSet(&raw)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return Config{}, err
		}
		return Config{}, fmt.Errorf("command line: %w", err)
	}
	if fs.NArg() > 0 {
		return Config{}, fmt.Errorf("command line: unexpected argument %q", fs.Arg(0))
	}

	var cfg Config
	var err error
	if cfg.Addr, err = parseAddr(strings.TrimSpace(raw.addr)); err != nil {
		return Config{}, fmt.Errorf("%s (-addr): %w", EnvAddr, err)
	}
	if cfg.DatabaseURL, cfg.SQLitePath, err = parseDatabaseURL(strings.TrimSpace(raw.databaseURL)); err != nil {
		return Config{}, fmt.Errorf("%s (-database-url): %w", EnvDatabaseURL, err)
	}
	if raw.publicURL == "" {
		cfg.PublicURL = OriginFromAddr(cfg.Addr)
		cfg.PublicURLFromAddr = true
	} else if cfg.PublicURL, err = core.ParseOrigin(strings.TrimSpace(raw.publicURL)); err != nil {
		return Config{}, fmt.Errorf("%s (-public-url): %w", EnvPublicURL, err)
	}
	if cfg.LogLevel, err = parseLogLevel(raw.logLevel); err != nil {
		return Config{}, fmt.Errorf("%s (-log-level): %w", EnvLogLevel, err)
	}
	switch f := LogFormat(strings.ToLower(strings.TrimSpace(raw.logFormat))); f {
	case LogText, LogJSON:
		cfg.LogFormat = f
	default:
		return Config{}, fmt.Errorf("%s (-log-format): %q is not text or json", EnvLogFormat, raw.logFormat)
	}
	if cfg.WebDir = strings.TrimSpace(raw.webDir); cfg.WebDir == "" {
		return Config{}, fmt.Errorf("%s (-web-dir): must not be empty", EnvWebDir)
	}
	if err := applyAccounts(&cfg, raw.accounts); err != nil {
		return Config{}, err
	}
	if err := applyAuth(&cfg, raw.auth); err != nil {
		return Config{}, err
	}
	if err := applyFX(&cfg, raw.fx); err != nil {
		return Config{}, err
	}
	if err := applyBilling(&cfg, raw.billing); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

func orDefault(v, def string) string {
	if v = strings.TrimSpace(v); v == "" {
		return def
	}
	return v
}

func parseAddr(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("%q is not host:port (for example localhost:8080 or :8080)", addr)
	}
	if strings.ContainsAny(host, " /") {
		return "", fmt.Errorf("%q has an invalid host", addr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return "", fmt.Errorf("%q has an invalid port (0 to 65535)", addr)
	}
	return addr, nil
}

// parseDatabaseURL returns the store.Postgres URL, or the store.SQLite path when the value selects store.SQLite.
// The error never repeats the value, which may hold a password.
func parseDatabaseURL(v string) (pgURL, sqlitePath string, err error) {
	if v == "" {
		return "", DefaultSQLitePath, nil
	}
	if rest, ok := strings.CutPrefix(v, "sqlite:"); ok {
		path := strings.TrimPrefix(rest, "//")
		if path == "" {
			return "", "", errors.New("sqlite: needs a file path, e.g. sqlite:data/patrimonio.db")
		}
		if strings.ContainsAny(path, "?#") {
			return "", "", errors.New("the store.SQLite path must not contain ? or #")
		}
		return "", path, nil
	}
	scheme, _, _ := strings.Cut(v, "://")
	switch strings.ToLower(scheme) {
	case "postgres", "postgresql":
	default:
		return "", "", errors.New("must be a postgres:// or postgresql:// URL (or sqlite:PATH, or unset for store.SQLite)")
	}
	u, err := url.Parse(v)
	if err != nil {
		return "", "", errors.New("is not a valid URL")
	}
	if u.Host == "" && u.Query().Get("host") == "" {
		return "", "", errors.New("the postgres URL has no host")
	}
	return v, "", nil
}

// OriginFromAddr is the default public URL of a listening address: http, with "localhost" for
// an empty or unspecified host. The app calls it again once it knows the port it actually got.
func OriginFromAddr(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

func parseLogLevel(s string) (slog.Level, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "debug":
		return slog.LevelDebug, nil
	case "info":
		return slog.LevelInfo, nil
	case "warn":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	}
	return 0, fmt.Errorf("%q is not one of debug, info, warn, error", s)
}
