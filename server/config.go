package server

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
)

// Dialect names a database engine. Its values are also the folder names of the migrations.
type Dialect string

// The two database dialects Patrimonio runs on.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
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
	// DatabaseURL is a postgres:// URL when the database is Postgres, and "" for SQLite.
	DatabaseURL string
	// SQLitePath is the SQLite database file when DatabaseURL is "".
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
	// ConnectionsConfig: bank and broker providers; each is off without its keys
	// (config_connections.go).
	ConnectionsConfig
}

// Dialect says which database the configuration selects.
func (c Config) Dialect() Dialect {
	if c.DatabaseURL != "" {
		return Postgres
	}
	return SQLite
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
	connections                                               rawConnectionsConfig
}

func newFlagSet(raw *rawConfig) *flag.FlagSet {
	fs := flag.NewFlagSet("patrimonio", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&raw.addr, "addr", raw.addr, "address to listen on, host:port ("+EnvAddr+")")
	fs.StringVar(&raw.databaseURL, "database-url", raw.databaseURL,
		"postgres:// URL, or sqlite:PATH; empty means SQLite at "+DefaultSQLitePath+" ("+EnvDatabaseURL+")")
	fs.StringVar(&raw.publicURL, "public-url", raw.publicURL, "origin users reach, e.g. https://example.com ("+EnvPublicURL+")")
	fs.StringVar(&raw.logLevel, "log-level", raw.logLevel, "debug, info, warn or error ("+EnvLogLevel+")")
	fs.StringVar(&raw.logFormat, "log-format", raw.logFormat, "text or json ("+EnvLogFormat+")")
	fs.StringVar(&raw.webDir, "web-dir", raw.webDir, "directory of the built PWA ("+EnvWebDir+")")
	addAccountsFlags(fs, &raw.accounts)
	addAuthFlags(fs, &raw.auth)
	addFXFlags(fs, &raw.fx)
	addBillingFlags(fs, &raw.billing)
	addConnectionsFlags(fs, &raw.connections)
	return fs
}

// PrintConfigUsage writes the flags and the environment variables they mirror.
func PrintConfigUsage(w io.Writer) {
	raw := rawConfig{addr: DefaultAddr, logLevel: "info", logFormat: string(LogText), webDir: DefaultWebDir}
	fs := newFlagSet(&raw)
	fs.SetOutput(w)
	fs.PrintDefaults()
}

// LoadConfig builds the configuration from environment variables (read through getenv) and
// command-line flags (args, without the program name), flags winning. It returns an error that
// names the variable or flag for any bad value; -h or -help gives an error wrapping flag.ErrHelp.
func LoadConfig(getenv func(string) string, args []string) (Config, error) {
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
		connections: readConnectionsEnv(getenv),
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
	} else if cfg.PublicURL, err = ParseOrigin(strings.TrimSpace(raw.publicURL)); err != nil {
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
	if err := applyConnections(&cfg, raw.connections); err != nil {
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

// parseDatabaseURL returns the Postgres URL, or the SQLite path when the value selects SQLite.
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
			return "", "", errors.New("the SQLite path must not contain ? or #")
		}
		return "", path, nil
	}
	scheme, _, _ := strings.Cut(v, "://")
	switch strings.ToLower(scheme) {
	case "postgres", "postgresql":
	default:
		return "", "", errors.New("must be a postgres:// or postgresql:// URL (or sqlite:PATH, or unset for SQLite)")
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

// ParseOrigin checks that s is an http(s) origin (scheme and host, no path beyond "/", no query,
// fragment or user) and returns it in the form browsers send in an Origin header: lower case,
// default port dropped, no trailing slash.
func ParseOrigin(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("%q is not a URL", s)
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return "", fmt.Errorf("%q must start with http:// or https://", s)
	}
	if u.Host == "" || u.Hostname() == "" {
		return "", fmt.Errorf("%q has no host", s)
	}
	if u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return "", fmt.Errorf("%q must be an origin only (scheme://host[:port]), without path, query or user", s)
	}
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return "", fmt.Errorf("%q has an invalid port", s)
		}
	}
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host, nil
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
