package config_test

import (
	"encoding/base64"
	"net/netip"
	"slices"
	"strings"
	"testing"

	"patrimonio/server/config"
)

func TestLoadConfigReadsTheAccountsVariables(t *testing.T) {
	cfg, err := config.Load(envFrom(map[string]string{
		"PATRIMONIO_PUBLIC_URL":      "https://wealth.example.com",
		"PATRIMONIO_ADMIN_EMAILS":    " Boss@Example.com, ops@example.com ,",
		"PATRIMONIO_SMTP_URL":        "smtp://mailer:p%40ss@mail.example.com:587",
		"PATRIMONIO_MAIL_FROM":       "Patrimonio <no-reply@example.com>",
		"PATRIMONIO_DEV_OUTBOX":      "/tmp/outbox",
		"PATRIMONIO_ALLOWED_ORIGINS": "http://LOCALHOST:5173/, http://127.0.0.1:5173",
		"PATRIMONIO_TRUSTED_PROXIES": "10.0.0.0/8, 192.0.2.1, 2001:db8::/32",
		"PATRIMONIO_SIGNUPS_PER_IP":  " 500 ",
	}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.AdminEmailList(); !slices.Equal(got, []string{"boss@example.com", "ops@example.com"}) {
		t.Errorf("admin e-mails %q", got)
	}
	if cfg.SMTPURL != "smtp://mailer:p%40ss@mail.example.com:587" || cfg.MailFrom != "Patrimonio <no-reply@example.com>" || cfg.DevOutbox != "/tmp/outbox" {
		t.Errorf("mail settings %+v", cfg.AccountsConfig)
	}
	if d := cfg.SMTPDescription(); strings.Contains(d, "p%40ss") || strings.Contains(d, "p@ss") || !strings.Contains(d, "mail.example.com") {
		t.Errorf("SMTPDescription %q", d)
	}
	if got := cfg.AllowedOriginList(); !slices.Equal(got, []string{"https://wealth.example.com", "http://localhost:5173", "http://127.0.0.1:5173"}) {
		t.Errorf("allowed origins %q", got)
	}
	want := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.0.2.1/32"), netip.MustParsePrefix("2001:db8::/32")}
	if got := cfg.TrustedProxyPrefixes(); !slices.Equal(got, want) {
		t.Errorf("trusted proxies %v", got)
	}
	if cfg.SignUpsPerIP != 500 {
		t.Errorf("sign-ups per IP %d", cfg.SignUpsPerIP)
	}
	// Flags override the variables, like the others.
	cfg, err = config.Load(envFrom(map[string]string{"PATRIMONIO_ADMIN_EMAILS": "a@example.com"}),
		[]string{"-admin-emails", "b@example.com", "-dev-outbox", "out", "-allowed-origins", "http://localhost:5173", "-signups-per-ip", "7"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.AdminEmails != "b@example.com" || cfg.DevOutbox != "out" || cfg.AllowedOrigins != "http://localhost:5173" || cfg.SignUpsPerIP != 7 {
		t.Errorf("flags: %+v", cfg.AccountsConfig)
	}
}

func TestLoadConfigRejectsBadAccountsValues(t *testing.T) {
	tests := []struct {
		name        string
		env         map[string]string
		wantInError []string
		notInError  string
	}{
		{name: "an admin entry that is not an address is rejected", env: map[string]string{"PATRIMONIO_ADMIN_EMAILS": "ok@example.com, boss"}, wantInError: []string{"PATRIMONIO_ADMIN_EMAILS", "boss"}},
		{name: "an SMTP URL of another scheme is rejected without echoing it", env: map[string]string{"PATRIMONIO_SMTP_URL": "http://u:hunter2@mail.example.com", "PATRIMONIO_MAIL_FROM": "a@example.com"}, wantInError: []string{"PATRIMONIO_SMTP_URL", "smtp://"}, notInError: "hunter2"},
		{name: "an SMTP URL without host is rejected", env: map[string]string{"PATRIMONIO_SMTP_URL": "smtp://u:hunter2@", "PATRIMONIO_MAIL_FROM": "a@example.com"}, wantInError: []string{"PATRIMONIO_SMTP_URL", "no host"}, notInError: "hunter2"},
		{name: "SMTP without a From address is rejected", env: map[string]string{"PATRIMONIO_SMTP_URL": "smtp://mail.example.com"}, wantInError: []string{"PATRIMONIO_MAIL_FROM", "PATRIMONIO_SMTP_URL"}},
		{name: "a From that is not an address is rejected", env: map[string]string{"PATRIMONIO_MAIL_FROM": "Patrimonio"}, wantInError: []string{"PATRIMONIO_MAIL_FROM"}},
		{name: "an allowed origin with a path is rejected", env: map[string]string{"PATRIMONIO_ALLOWED_ORIGINS": "http://localhost:5173/app"}, wantInError: []string{"PATRIMONIO_ALLOWED_ORIGINS", "origin only"}},
		{name: "a trusted proxy that is not an address is rejected", env: map[string]string{"PATRIMONIO_TRUSTED_PROXIES": "proxy.internal"}, wantInError: []string{"PATRIMONIO_TRUSTED_PROXIES", "proxy.internal"}},
		{name: "a sign-up limit that is not a number is rejected", env: map[string]string{"PATRIMONIO_SIGNUPS_PER_IP": "lots"}, wantInError: []string{"PATRIMONIO_SIGNUPS_PER_IP", "lots"}},
		{name: "a sign-up limit of zero is rejected", env: map[string]string{"PATRIMONIO_SIGNUPS_PER_IP": "0"}, wantInError: []string{"PATRIMONIO_SIGNUPS_PER_IP", "at least 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.Load(envFrom(tt.env), nil)
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

func TestTheSMTPURLHasNoFlag(t *testing.T) {
	var b strings.Builder
	config.PrintUsage(&b)
	for _, name := range []string{"-admin-emails", "-mail-from", "-dev-outbox", "-allowed-origins", "-trusted-proxies"} {
		if !strings.Contains(b.String(), name) {
			t.Errorf("usage does not mention %s", name)
		}
	}
	if strings.Contains(b.String(), "-smtp-url") {
		t.Error("the SMTP URL, which holds a password, has a command-line flag")
	}
	if _, err := config.Load(envFrom(nil), []string{"-smtp-url", "smtp://x"}); err == nil {
		t.Error("-smtp-url is accepted")
	}
}

func TestTheSecretKeyIsReadAsBase64Of32BytesAndHasNoFlag(t *testing.T) {
	// 32 bytes 0x00..0x1f, written in each accepted base64 alphabet.
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(i)
	}
	std := base64.StdEncoding.EncodeToString(key)
	for _, tt := range []struct{ name, value string }{
		{"standard base64 with padding, as openssl prints it", std},
		{"standard base64 with a trailing newline", std + "\n"},
		{"standard base64 without padding", base64.RawStdEncoding.EncodeToString(key)},
		{"URL-safe base64", base64.URLEncoding.EncodeToString(key)},
		{"URL-safe base64 without padding", base64.RawURLEncoding.EncodeToString(key)},
	} {
		t.Run(tt.name+" is accepted", func(t *testing.T) {
			cfg, err := config.Load(envFrom(map[string]string{"PATRIMONIO_SECRET_KEY": tt.value}), nil)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.SecretKey != std || !slices.Equal(cfg.SecretKeyBytes(), key) {
				t.Fatalf("SecretKey %q, bytes %v", cfg.SecretKey, cfg.SecretKeyBytes())
			}
		})
	}
	for _, tt := range []struct{ name, value, want string }{
		{"a value that is not base64 is refused without echoing it", "not a key at all!!", "is not base64"},
		{"a key of 16 bytes is refused", base64.StdEncoding.EncodeToString(key[:16]), "decodes to 16 bytes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.Load(envFrom(map[string]string{"PATRIMONIO_SECRET_KEY": tt.value}), nil)
			if err == nil || !strings.Contains(err.Error(), "PATRIMONIO_SECRET_KEY") || !strings.Contains(err.Error(), tt.want) ||
				strings.Contains(err.Error(), tt.value) {
				t.Fatalf("err = %v", err)
			}
		})
	}
	cfg, err := config.Load(envFrom(nil), nil)
	if err != nil || cfg.SecretKey != "" || cfg.SecretKeyBytes() != nil {
		t.Fatalf("without the variable: %q, %v", cfg.SecretKey, err)
	}
	var usage strings.Builder
	config.PrintUsage(&usage)
	if strings.Contains(usage.String(), "secret-key") {
		t.Error("the secret key has a command-line flag")
	}
}
