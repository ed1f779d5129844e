package app

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"

	"patrimonio/server/config"
	"patrimonio/server/store"
)

// SecretKeyFile is the name of the key file kept next to the SQLite database when
// PATRIMONIO_SECRET_KEY is not set.
const SecretKeyFile = "secret.key"

// secretKey returns the key that encrypts secrets at rest (TOTP secrets): PATRIMONIO_SECRET_KEY
// when it is set. Without it:
//   - Postgres refuses to start: a key kept in the database it protects protects nothing, and a
//     file on one machine would not reach the other servers of the same database;
//   - SQLite uses the key file next to the database file (data/secret.key by default), made on
//     first start with mode 0600. It protects copies of the database file (backups, a synced
//     folder) as long as the key file does not travel with them.
//
// PATRIMONIO_SECRET_KEY_FILE names the key file instead (made there on first start with SQLite; with
// Postgres it must exist, since every server of the database needs the same key), so that a copy
// of the data directory does not carry the key.
func secretKey(cfg config.Config, logger *slog.Logger) ([]byte, error) {
	if key := cfg.SecretKeyBytes(); key != nil {
		return key, nil
	}
	if cfg.SecretKeyFile != "" {
		if cfg.Dialect() == store.Postgres {
			b, err := os.ReadFile(cfg.SecretKeyFile)
			if err != nil {
				return nil, fmt.Errorf("%s: read the secret key file: %w", config.EnvSecretKeyFile, err)
			}
			key, err := config.ParseSecretKey(string(b))
			if err != nil {
				return nil, fmt.Errorf("%s: the secret key file %s %w", config.EnvSecretKeyFile, cfg.SecretKeyFile, err)
			}
			return key, nil
		}
		return loadOrCreateKeyFile(cfg.SecretKeyFile, logger)
	}
	if cfg.Dialect() == store.Postgres {
		return nil, fmt.Errorf("%s is required with Postgres: it encrypts secrets at rest (authenticator secrets). "+
			"Make one with `openssl rand -base64 32`, keep it outside the database and its backups, and give every server the same one",
			config.EnvSecretKey)
	}
	return loadOrCreateKeyFile(filepath.Join(filepath.Dir(cfg.SQLitePath), SecretKeyFile), logger)
}

// loadOrCreateKeyFile reads the base64 key in path, or makes a new random one there (mode 0600).
// A file that exists but holds no valid key is an error, never replaced: the secrets sealed with
// it would be lost.
func loadOrCreateKeyFile(path string, logger *slog.Logger) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err == nil {
		key, err := config.ParseSecretKey(string(b))
		if err != nil {
			return nil, fmt.Errorf("secret key file %s %w; restore it, or set %s", path, err, config.EnvSecretKey)
		}
		if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
			logger.Warn("the secret key file can be read by other users; make it private with chmod 600",
				"path", path, "mode", fmt.Sprintf("%#o", fi.Mode().Perm()))
		}
		return key, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read the secret key file: %w", err)
	}

	key := make([]byte, config.SecretKeyLen)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("make a secret key: %w", err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("make a secret key: %w", err)
	}
	// Write a temporary file and link it into place: the key file appears whole or not at all, and
	// of two servers starting at once on the same directory, the second one reads the first's key.
	tmp, err := os.CreateTemp(dir, "."+SecretKeyFile+"-*")
	if err != nil {
		return nil, fmt.Errorf("make a secret key: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("make a secret key: %w", err)
	}
	if _, err := tmp.WriteString(base64.StdEncoding.EncodeToString(key) + "\n"); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("make a secret key: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("make a secret key: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return nil, fmt.Errorf("make a secret key: %w", err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return loadOrCreateKeyFile(path, logger)
		}
		return nil, fmt.Errorf("make a secret key: %w", err)
	}
	logger.Warn("made a new secret key for secrets at rest; keep it with the database but out of its copies, "+
		"since without it authenticator secrets cannot be read (or set "+config.EnvSecretKey+")", "path", path)
	return key, nil
}
