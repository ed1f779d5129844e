package config

import (
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"net/mail"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"patrimonio/core"
)

// The environment variables of the local accounts provider (issue 4). PATRIMONIO_SMTP_URL and
// PATRIMONIO_SECRET_KEY have no flag: a secret on the command line would show in the process list.
const (
	// EnvSecretKey is the key that encrypts secrets at rest (TOTP secrets): 32 random bytes in
	// base64. Required with store.Postgres; with store.SQLite, a key file next to the database is made on first
	// start when it is unset.
	EnvSecretKey = "PATRIMONIO_SECRET_KEY"
	// EnvSecretKeyFile is where the key file is (made on first start with store.SQLite when missing),
	// instead of next to the database: keep the key and the data apart.
	EnvSecretKeyFile  = "PATRIMONIO_SECRET_KEY_FILE"
	EnvAdminEmails    = "PATRIMONIO_ADMIN_EMAILS"
	EnvSMTPURL        = "PATRIMONIO_SMTP_URL"
	EnvMailFrom       = "PATRIMONIO_MAIL_FROM"
	EnvDevOutbox      = "PATRIMONIO_DEV_OUTBOX"
	EnvAllowedOrigins = "PATRIMONIO_ALLOWED_ORIGINS"
	EnvTrustedProxies = "PATRIMONIO_TRUSTED_PROXIES"
	// EnvSignUpsPerIP bounds the sign-ups and sign-up code resends per client IP (an IPv6 /64) in
	// 15 minutes; unset: account.DefaultConfig's 20. Tests and benchmarks that sign many accounts up
	// from one address raise it.
	EnvSignUpsPerIP = "PATRIMONIO_SIGNUPS_PER_IP"
)

// AccountsConfig is the part of Config that accounts read (embedded in Config). Its lists are kept as normalised,
// comma-separated text so that Config stays comparable; the methods below split them.
type AccountsConfig struct {
	// AdminEmails are the app admins' addresses, lower case, comma separated.
	AdminEmails string
	// SMTPURL is smtp://user:pass@host:587 or smtps://user:pass@host:465; "" logs mails instead.
	SMTPURL string
	// MailFrom is the From address of mails, e.g. "Patrimonio <no-reply@example.com>".
	MailFrom string
	// DevOutbox is a directory where mails are also written as JSON files (development only:
	// GET /api/v1/dev/outbox shows them to anyone).
	DevOutbox string
	// AllowedOrigins are extra origins (besides PublicURL) allowed to send state-changing
	// requests, e.g. the Vite dev server; comma separated, normalised like ParseOrigin.
	AllowedOrigins string
	// TrustedProxies are the CIDR ranges of reverse proxies whose X-Forwarded-For is believed when
	// finding the client's IP (for throttling); comma separated.
	TrustedProxies string
	// SecretKey is PATRIMONIO_SECRET_KEY in standard base64 (32 bytes once decoded), or "" when
	// unset. It is a secret: never log it (SecretKeyBytes decodes it).
	SecretKey string
	// SecretKeyFile is the path of the key file (PATRIMONIO_SECRET_KEY_FILE), "" for the default:
	// secret.key next to the store.SQLite database. Ignored when SecretKey is set.
	SecretKeyFile string
	// SignUpsPerIP is the most sign-ups and sign-up code resends one client IP may ask for in the
	// throttle window (account.Config.SignUpRequestsIP); 0 when unset (the accounts' default).
	SignUpsPerIP int
}

// SecretKeyLen is the length of the secret key in bytes (AES-256).
const SecretKeyLen = 32

// SecretKeyBytes is the decoded SecretKey, nil when it is unset.
func (c Config) SecretKeyBytes() []byte {
	if c.SecretKey == "" {
		return nil
	}
	b, err := base64.StdEncoding.DecodeString(c.SecretKey)
	if err != nil {
		return nil // LoadConfig stores only valid keys
	}
	return b
}

// ParseSecretKey decodes a secret key given in base64 (standard or URL alphabet, with or without
// padding, as `openssl rand -base64 32` prints it). The error never repeats the value.
func ParseSecretKey(v string) ([]byte, error) {
	v = strings.TrimSpace(v)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(v); err == nil {
			if len(b) != SecretKeyLen {
				return nil, fmt.Errorf("must be %d random bytes in base64 (e.g. the output of `openssl rand -base64 32`), but it decodes to %d bytes", SecretKeyLen, len(b))
			}
			return b, nil
		}
	}
	return nil, fmt.Errorf("is not base64; it must be %d random bytes in base64 (e.g. the output of `openssl rand -base64 32`)", SecretKeyLen)
}

// AdminEmailList splits AdminEmails.
func (c Config) AdminEmailList() []string { return splitList(c.AdminEmails) }

// AllowedOriginList is PublicURL followed by the AllowedOrigins.
func (c Config) AllowedOriginList() []string {
	return append([]string{c.PublicURL}, splitList(c.AllowedOrigins)...)
}

// TrustedProxyPrefixes parses TrustedProxies (validated by LoadConfig).
func (c Config) TrustedProxyPrefixes() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range splitList(c.TrustedProxies) {
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// SMTPDescription describes the SMTP server for logs, without the password; "" when unset.
func (c Config) SMTPDescription() string {
	if c.SMTPURL == "" {
		return ""
	}
	u, err := url.Parse(c.SMTPURL)
	if err != nil {
		return "smtp (unparsable URL)"
	}
	return u.Redacted()
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

type rawAccountsConfig struct {
	adminEmails, smtpURL, mailFrom, devOutbox, allowedOrigins, trustedProxies, secretKey, secretKeyFile string
	signUpsPerIP                                                                                        string
}

func readAccountsEnv(getenv func(string) string) rawAccountsConfig {
	return rawAccountsConfig{
		adminEmails:    getenv(EnvAdminEmails),
		smtpURL:        strings.TrimSpace(getenv(EnvSMTPURL)),
		mailFrom:       strings.TrimSpace(getenv(EnvMailFrom)),
		devOutbox:      strings.TrimSpace(getenv(EnvDevOutbox)),
		allowedOrigins: getenv(EnvAllowedOrigins),
		trustedProxies: getenv(EnvTrustedProxies),
		secretKey:      getenv(EnvSecretKey),
		secretKeyFile:  strings.TrimSpace(getenv(EnvSecretKeyFile)),
		signUpsPerIP:   strings.TrimSpace(getenv(EnvSignUpsPerIP)),
	}
}

func addAccountsFlags(fs *flag.FlagSet, raw *rawAccountsConfig) {
	fs.StringVar(&raw.adminEmails, "admin-emails", raw.adminEmails, "comma-separated e-mail addresses of app admins ("+EnvAdminEmails+")")
	fs.StringVar(&raw.mailFrom, "mail-from", raw.mailFrom, "From address of e-mails, required with "+EnvSMTPURL+" ("+EnvMailFrom+")")
	fs.StringVar(&raw.devOutbox, "dev-outbox", raw.devOutbox, "development only: directory where e-mails are written as JSON and listed at /api/v1/dev/outbox ("+EnvDevOutbox+")")
	fs.StringVar(&raw.allowedOrigins, "allowed-origins", raw.allowedOrigins, "extra origins allowed to send requests with the session cookie, comma separated ("+EnvAllowedOrigins+")")
	fs.StringVar(&raw.trustedProxies, "trusted-proxies", raw.trustedProxies, "CIDR ranges of reverse proxies whose X-Forwarded-For is trusted ("+EnvTrustedProxies+")")
	fs.StringVar(&raw.signUpsPerIP, "signups-per-ip", raw.signUpsPerIP, "most sign-ups and sign-up code resends per client IP in 15 minutes; empty for 20 ("+EnvSignUpsPerIP+")")
}

// applyAccounts validates the raw values into cfg.
func applyAccounts(cfg *Config, raw rawAccountsConfig) error {
	var emails []string
	for _, e := range splitList(raw.adminEmails) {
		e = strings.ToLower(e)
		if a, err := mail.ParseAddress(e); err != nil || a.Address != e || a.Name != "" {
			return fmt.Errorf("%s (-admin-emails): %q is not an e-mail address", EnvAdminEmails, e)
		}
		emails = append(emails, e)
	}
	cfg.AdminEmails = strings.Join(emails, ",")

	if raw.smtpURL != "" {
		if err := checkSMTPURL(raw.smtpURL); err != nil {
			return fmt.Errorf("%s: %w", EnvSMTPURL, err)
		}
		if raw.mailFrom == "" {
			return fmt.Errorf("%s (-mail-from): must be set when %s is set", EnvMailFrom, EnvSMTPURL)
		}
	}
	if raw.mailFrom != "" {
		if _, err := mail.ParseAddress(raw.mailFrom); err != nil {
			return fmt.Errorf("%s (-mail-from): %q is not an e-mail address", EnvMailFrom, raw.mailFrom)
		}
	}
	cfg.SMTPURL, cfg.MailFrom, cfg.DevOutbox = raw.smtpURL, raw.mailFrom, raw.devOutbox

	var origins []string
	for _, o := range splitList(raw.allowedOrigins) {
		origin, err := core.ParseOrigin(o)
		if err != nil {
			return fmt.Errorf("%s (-allowed-origins): %w", EnvAllowedOrigins, err)
		}
		origins = append(origins, origin)
	}
	cfg.AllowedOrigins = strings.Join(origins, ",")

	var proxies []string
	for _, p := range splitList(raw.trustedProxies) {
		prefix, err := netip.ParsePrefix(p)
		if err != nil {
			addr, aerr := netip.ParseAddr(p)
			if aerr != nil {
				return fmt.Errorf("%s (-trusted-proxies): %q is not an IP address or CIDR range", EnvTrustedProxies, p)
			}
			prefix = netip.PrefixFrom(addr, addr.BitLen())
		}
		proxies = append(proxies, prefix.Masked().String())
	}
	cfg.TrustedProxies = strings.Join(proxies, ",")

	if strings.TrimSpace(raw.secretKey) != "" {
		key, err := ParseSecretKey(raw.secretKey)
		if err != nil {
			return fmt.Errorf("%s: %w", EnvSecretKey, err)
		}
		cfg.SecretKey = base64.StdEncoding.EncodeToString(key)
	}
	cfg.SecretKeyFile = raw.secretKeyFile

	if v := strings.TrimSpace(raw.signUpsPerIP); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fmt.Errorf("%s (-signups-per-ip): %q is not a whole number of at least 1", EnvSignUpsPerIP, v)
		}
		cfg.SignUpsPerIP = n
	}
	return nil
}

// checkSMTPURL validates the SMTP URL without ever repeating it (it holds a password).
func checkSMTPURL(v string) error {
	u, err := url.Parse(v)
	if err != nil {
		return errors.New("is not a valid URL")
	}
	switch strings.ToLower(u.Scheme) {
	case "smtp", "smtps":
	default:
		return errors.New("must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587")
	}
	if u.Hostname() == "" {
		return errors.New("the SMTP URL has no host")
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return errors.New("the SMTP URL must not have a path or query")
	}
	return nil
}
