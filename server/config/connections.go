package config

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
)

// The environment variables of bank and broker connections (issue 15). Each provider is optional:
// without its settings the add-asset flow says it is not configured and offers a statement import.
// Private keys and consumer keys have no flags (a secret on the command line shows in the process
// list) and are never logged.
const (
	// EnvEnableBankingAppID is the application id registered in Enable Banking's control panel
	// (the JWT's kid).
	EnvEnableBankingAppID = "PATRIMONIO_ENABLEBANKING_APP_ID"
	// EnvEnableBankingKey is the application's RSA private key, PEM (\n escapes accepted).
	EnvEnableBankingKey = "PATRIMONIO_ENABLEBANKING_KEY"
	// EnvEnableBankingKeyFile is the path of that key, used when EnvEnableBankingKey is unset.
	EnvEnableBankingKeyFile = "PATRIMONIO_ENABLEBANKING_KEY_FILE"
	// EnvEnableBankingAPIURL is another API base URL (a fake in tests).
	EnvEnableBankingAPIURL = "PATRIMONIO_ENABLEBANKING_API_URL"
	// EnvSnapTradeClientID and EnvSnapTradeConsumerKey are SnapTrade's API credentials.
	EnvSnapTradeClientID    = "PATRIMONIO_SNAPTRADE_CLIENT_ID"
	EnvSnapTradeConsumerKey = "PATRIMONIO_SNAPTRADE_CONSUMER_KEY"
	// EnvSnapTradeAPIURL is another API base URL, with its /api/v1 (a fake in tests).
	EnvSnapTradeAPIURL = "PATRIMONIO_SNAPTRADE_API_URL"
)

// ConnectionsConfig is the part of Config that bank and broker connections read.
type ConnectionsConfig struct {
	EnableBankingAppID  string
	EnableBankingKey    *rsa.PrivateKey
	EnableBankingAPIURL string

	SnapTradeClientID    string
	SnapTradeConsumerKey string
	SnapTradeAPIURL      string
}

// EnableBankingEnabled says whether Enable Banking is configured.
func (c Config) EnableBankingEnabled() bool {
	return c.EnableBankingAppID != "" && c.EnableBankingKey != nil
}

// SnapTradeEnabled says whether SnapTrade is configured.
func (c Config) SnapTradeEnabled() bool {
	return c.SnapTradeClientID != "" && c.SnapTradeConsumerKey != ""
}

// ConnectionsDescription names the configured providers, without any secret (for the start-up log).
func (c Config) ConnectionsDescription() string {
	var on []string
	if c.EnableBankingEnabled() {
		on = append(on, "enablebanking")
	}
	if c.SnapTradeEnabled() {
		on = append(on, "snaptrade")
	}
	if len(on) == 0 {
		return "off"
	}
	return strings.Join(on, ",")
}

type rawConnectionsConfig struct {
	ebAppID, ebKey, ebKeyFile, ebAPIURL, stClientID, stConsumerKey, stAPIURL string
}

func readConnectionsEnv(getenv func(string) string) rawConnectionsConfig {
	return rawConnectionsConfig{
		ebAppID:       strings.TrimSpace(getenv(EnvEnableBankingAppID)),
		ebKey:         strings.TrimSpace(getenv(EnvEnableBankingKey)),
		ebKeyFile:     strings.TrimSpace(getenv(EnvEnableBankingKeyFile)),
		ebAPIURL:      strings.TrimSpace(getenv(EnvEnableBankingAPIURL)),
		stClientID:    strings.TrimSpace(getenv(EnvSnapTradeClientID)),
		stConsumerKey: strings.TrimSpace(getenv(EnvSnapTradeConsumerKey)),
		stAPIURL:      strings.TrimSpace(getenv(EnvSnapTradeAPIURL)),
	}
}

func addConnectionsFlags(fs *flag.FlagSet, raw *rawConnectionsConfig) {
	fs.StringVar(&raw.ebAppID, "enablebanking-app-id", raw.ebAppID, "Enable Banking application id ("+EnvEnableBankingAppID+")")
	fs.StringVar(&raw.ebKeyFile, "enablebanking-key-file", raw.ebKeyFile, "path of the Enable Banking application's private key, PEM ("+EnvEnableBankingKeyFile+")")
	fs.StringVar(&raw.ebAPIURL, "enablebanking-api-url", raw.ebAPIURL, "Enable Banking API base URL ("+EnvEnableBankingAPIURL+")")
	fs.StringVar(&raw.stClientID, "snaptrade-client-id", raw.stClientID, "SnapTrade client id ("+EnvSnapTradeClientID+")")
	fs.StringVar(&raw.stAPIURL, "snaptrade-api-url", raw.stAPIURL, "SnapTrade API base URL, with /api/v1 ("+EnvSnapTradeAPIURL+")")
}

// ParseRSAPrivateKey reads an RSA private key in PEM (PKCS#1 or PKCS#8).
func ParseRSAPrivateKey(text string) (*rsa.PrivateKey, error) {
	block, _ := pem.Decode([]byte(strings.ReplaceAll(text, `\n`, "\n")))
	if block == nil {
		return nil, errors.New("not a PEM block")
	}
	if k, err := x509.ParsePKCS1PrivateKey(block.Bytes); err == nil {
		return k, nil
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, errors.New("not an RSA private key (PKCS#1 or PKCS#8)")
	}
	rk, ok := k.(*rsa.PrivateKey)
	if !ok {
		return nil, errors.New("not an RSA private key")
	}
	return rk, nil
}

func checkURL(name, flagName, v string) error {
	if v != "" && !strings.HasPrefix(v, "https://") && !strings.HasPrefix(v, "http://") {
		return fmt.Errorf("%s (-%s): must be an http:// or https:// URL", name, flagName)
	}
	return nil
}

// applyConnections validates the raw values into cfg. Errors name the variable, never its value.
func applyConnections(cfg *Config, raw rawConnectionsConfig) error {
	keyText := raw.ebKey
	if keyText == "" && raw.ebKeyFile != "" {
		b, err := os.ReadFile(raw.ebKeyFile)
		if err != nil {
			return fmt.Errorf("%s (-enablebanking-key-file): %w", EnvEnableBankingKeyFile, err)
		}
		keyText = string(b)
	}
	switch {
	case raw.ebAppID == "" && keyText != "":
		return fmt.Errorf("%s is required with the Enable Banking key", EnvEnableBankingAppID)
	case raw.ebAppID != "" && keyText == "":
		return fmt.Errorf("%s or %s is required with %s", EnvEnableBankingKey, EnvEnableBankingKeyFile, EnvEnableBankingAppID)
	case raw.ebAppID != "":
		key, err := ParseRSAPrivateKey(keyText)
		if err != nil {
			return fmt.Errorf("the Enable Banking key (%s or %s): %w", EnvEnableBankingKey, EnvEnableBankingKeyFile, err)
		}
		cfg.EnableBankingAppID, cfg.EnableBankingKey = raw.ebAppID, key
	}
	if (raw.stClientID == "") != (raw.stConsumerKey == "") {
		return fmt.Errorf("%s and %s go together: set both to turn SnapTrade on, or neither", EnvSnapTradeClientID, EnvSnapTradeConsumerKey)
	}
	cfg.SnapTradeClientID, cfg.SnapTradeConsumerKey = raw.stClientID, raw.stConsumerKey
	if err := checkURL(EnvEnableBankingAPIURL, "enablebanking-api-url", raw.ebAPIURL); err != nil {
		return err
	}
	if err := checkURL(EnvSnapTradeAPIURL, "snaptrade-api-url", raw.stAPIURL); err != nil {
		return err
	}
	cfg.EnableBankingAPIURL = strings.TrimRight(raw.ebAPIURL, "/")
	cfg.SnapTradeAPIURL = strings.TrimRight(raw.stAPIURL, "/")
	return nil
}
