package config_test

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"patrimonio/server/config"
)

func TestConnectionsConfig(t *testing.T) {
	cfg, err := config.Load(envFrom(nil), nil)
	if err != nil || cfg.EnableBankingEnabled() || cfg.SnapTradeEnabled() || cfg.ConnectionsDescription() != "off" {
		t.Fatalf("defaults: %v", err)
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pkcs8, _ := x509.MarshalPKCS8PrivateKey(key)
	pemText := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8}))
	escaped := strings.ReplaceAll(pemText, "\n", `\n`)
	cfg, err = config.Load(envFrom(map[string]string{
		"PATRIMONIO_ENABLEBANKING_APP_ID":   "0e4bd4a3-6a54-4f2b-9f34-2f1f4c0b7a11",
		"PATRIMONIO_ENABLEBANKING_KEY":      escaped,
		"PATRIMONIO_ENABLEBANKING_API_URL":  "http://127.0.0.1:9999/",
		"PATRIMONIO_SNAPTRADE_CLIENT_ID":    "PATRIMONIO",
		"PATRIMONIO_SNAPTRADE_CONSUMER_KEY": "SECRETVALUE",
	}), nil)
	if err != nil || !cfg.EnableBankingEnabled() || !cfg.EnableBankingKey.Equal(key) || cfg.EnableBankingAPIURL != "http://127.0.0.1:9999" ||
		!cfg.SnapTradeEnabled() || cfg.ConnectionsDescription() != "enablebanking,snaptrade" {
		t.Fatalf("set: %v", err)
	}
	// The key from a file, PKCS#1, named by a flag.
	file := filepath.Join(t.TempDir(), "eb.pem")
	if err := os.WriteFile(file, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err = config.Load(envFrom(map[string]string{"PATRIMONIO_ENABLEBANKING_APP_ID": "app"}), []string{"-enablebanking-key-file", file})
	if err != nil || !cfg.EnableBankingKey.Equal(key) {
		t.Fatalf("key file: %v", err)
	}
	for _, bad := range []struct {
		env     map[string]string
		inError string
	}{
		{map[string]string{"PATRIMONIO_ENABLEBANKING_APP_ID": "app"}, "PATRIMONIO_ENABLEBANKING_KEY or PATRIMONIO_ENABLEBANKING_KEY_FILE is required"},
		{map[string]string{"PATRIMONIO_ENABLEBANKING_KEY": escaped}, "PATRIMONIO_ENABLEBANKING_APP_ID is required"},
		{map[string]string{"PATRIMONIO_ENABLEBANKING_APP_ID": "app", "PATRIMONIO_ENABLEBANKING_KEY": "SECRETVALUE"}, "not a PEM block"},
		{map[string]string{"PATRIMONIO_SNAPTRADE_CONSUMER_KEY": "SECRETVALUE"}, "go together"},
		{map[string]string{"PATRIMONIO_SNAPTRADE_API_URL": "ftp://x"}, "PATRIMONIO_SNAPTRADE_API_URL"},
	} {
		_, err := config.Load(envFrom(bad.env), nil)
		if err == nil || !strings.Contains(err.Error(), bad.inError) {
			t.Errorf("%v: got %v, want an error containing %q", bad.env, err, bad.inError)
		}
		if err != nil && strings.Contains(err.Error(), "SECRETVALUE") {
			t.Errorf("the error shows the secret: %v", err)
		}
	}
}
