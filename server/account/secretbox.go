package account

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// TOTP secrets must stay readable to check codes, so unlike passwords and codes they cannot be
// hashed: they are encrypted at rest with AES-256-GCM under the server's secret key
// (PATRIMONIO_SECRET_KEY; for SQLite without it, a key file next to the database), with the
// owner's user id in the associated data, so that a sealed secret copied into another user's row
// does not open. A copy of the database alone (a backup, a dump) does not reveal them.
//
// Stored form: sealedPrefix + base64url (no padding) of nonce ‖ ciphertext ‖ tag. Base32 secrets
// (the form before encryption) never contain ':', so the two cannot be confused; a plaintext one
// found in the table is sealed on the spot (SealPlaintextSecrets at start, and on every read).

const sealedPrefix = "enc1:"

// secretKeyVariable names the setting of the key in messages for the operator. The account
// package does not read the configuration (server/config does, and server/app passes the key).
const secretKeyVariable = "PATRIMONIO_SECRET_KEY"

// secretKeyLen is the length of an AES-256 key.
const secretKeyLen = 32

// ErrNoSecretKey is returned by anything that needs the secret key when the service has none
// (Config.SecretKey unset): secrets are then neither stored nor read, never kept in plaintext.
var ErrNoSecretKey = errors.New("account: no secret key configured (" + secretKeyVariable + "); TOTP secrets cannot be stored or read")

// ErrWrongSecretKey is returned when a sealed value does not open: the key is not the one it was
// sealed with, or the stored value was changed.
var ErrWrongSecretKey = errors.New("account: a stored secret cannot be decrypted: " + secretKeyVariable +
	" is not the key it was encrypted with, or the database was altered")

// secretBox seals and opens small secrets with AES-256-GCM and a random 96-bit nonce per seal.
type secretBox struct {
	aead cipher.AEAD
}

func newSecretBox(key []byte) (*secretBox, error) {
	if len(key) != secretKeyLen {
		return nil, fmt.Errorf("account: the secret key must be %d bytes, got %d", secretKeyLen, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("account: secret key: %w", err)
	}
	aead, err := cipher.NewGCMWithRandomNonce(block)
	if err != nil {
		return nil, fmt.Errorf("account: secret key: %w", err)
	}
	return &secretBox{aead: aead}, nil
}

// isSealed says whether a stored value is in the sealed form.
func isSealed(stored string) bool { return strings.HasPrefix(stored, sealedPrefix) }

func (b *secretBox) seal(plain, ad string) (string, error) {
	if b == nil {
		return "", ErrNoSecretKey
	}
	return sealedPrefix + base64.RawURLEncoding.EncodeToString(b.aead.Seal(nil, nil, []byte(plain), []byte(ad))), nil
}

func (b *secretBox) open(stored, ad string) (string, error) {
	if b == nil {
		return "", ErrNoSecretKey
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(stored, sealedPrefix))
	if err != nil {
		return "", ErrWrongSecretKey
	}
	plain, err := b.aead.Open(nil, nil, raw, []byte(ad))
	if err != nil {
		return "", ErrWrongSecretKey
	}
	return string(plain), nil
}

// totpAD is the associated data of a user's TOTP secrets.
func totpAD(userID string) string { return "patrimonio totp " + userID }

// sealTOTP seals a user's base32 TOTP secret for storage.
func (s *base) sealTOTP(userID, secret string) (string, error) {
	return s.box.seal(secret, totpAD(userID))
}

// openTOTP returns the base32 secret of a stored value, and whether the value was a plaintext one
// that should be sealed now. Without a key even plaintext values are refused (fail closed).
func (s *base) openTOTP(userID, stored string) (secret string, plaintext bool, err error) {
	if s.box == nil {
		return "", false, ErrNoSecretKey
	}
	if !isSealed(stored) {
		return stored, true, nil
	}
	secret, err = s.box.open(stored, totpAD(userID))
	return secret, false, err
}

// Key check: app_meta holds a value sealed with the key the database was first used with, so that
// a server started with another key refuses to start instead of failing at each TOTP sign-in.
const (
	metaSecretKeyCheck = "secret_key_check"
	keyCheckPlaintext  = "patrimonio secret key check"
)

// CheckSecretKey makes sure the configured key is the one this database's secrets are sealed with.
// The first start stores a check value; later starts open it. When it does not open, the start is
// refused (ErrWrongSecretKey) unless no sealed secret exists yet, in which case the check is
// replaced with a warning (nothing would be lost: e.g. a development key file was deleted).
func (s *SecondFactors) CheckSecretKey(ctx context.Context) error {
	if s.box == nil {
		return ErrNoSecretKey
	}
	check, err := s.box.seal(keyCheckPlaintext, metaSecretKeyCheck)
	if err != nil {
		return err
	}
	if _, err := s.db.Exec(ctx, `INSERT INTO app_meta (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING`,
		metaSecretKeyCheck, check, s.now()); err != nil {
		return fmt.Errorf("store the secret key check: %w", err)
	}
	m, err := s.db.Meta(ctx, metaSecretKeyCheck)
	if err != nil {
		return fmt.Errorf("read the secret key check: %w", err)
	}
	if got, err := s.box.open(m.Value, metaSecretKeyCheck); err == nil && got == keyCheckPlaintext {
		return nil
	}
	var sealed int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM totp WHERE secret LIKE ? OR pending_secret LIKE ?`,
		sealedPrefix+"%", sealedPrefix+"%").Scan(&sealed); err != nil {
		return fmt.Errorf("count sealed secrets: %w", err)
	}
	if sealed > 0 {
		return fmt.Errorf("%w (%d stored authenticator secret(s) were sealed with another key; start with the original key)", ErrWrongSecretKey, sealed)
	}
	if err := s.db.SetMeta(ctx, metaSecretKeyCheck, check); err != nil {
		return err
	}
	s.logger.WarnContext(ctx, "the secret key changed; no stored secret used the old one, so the new key is adopted",
		"variable", secretKeyVariable)
	return nil
}

// SealPlaintextSecrets seals the TOTP secrets still stored in plaintext (written before secrets
// were encrypted) and returns how many it sealed. Each row is updated only if it still holds the
// value read, so a concurrent change wins.
func (s *SecondFactors) SealPlaintextSecrets(ctx context.Context) (int, error) {
	if s.box == nil {
		return 0, ErrNoSecretKey
	}
	type row struct{ userID, column, value string }
	var todo []row
	rows, err := s.db.Query(ctx, `SELECT user_id, COALESCE(secret, ''), COALESCE(pending_secret, '') FROM totp`)
	if err != nil {
		return 0, fmt.Errorf("list totp secrets: %w", err)
	}
	for rows.Next() {
		var id, secret, pending string
		if err := rows.Scan(&id, &secret, &pending); err != nil {
			rows.Close()
			return 0, fmt.Errorf("list totp secrets: %w", err)
		}
		if secret != "" && !isSealed(secret) {
			todo = append(todo, row{id, "secret", secret})
		}
		if pending != "" && !isSealed(pending) {
			todo = append(todo, row{id, "pending_secret", pending})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("list totp secrets: %w", err)
	}
	n := 0
	for _, r := range todo {
		sealed, err := s.sealTOTP(r.userID, r.value)
		if err != nil {
			return n, err
		}
		// column is one of two constants above, never input.
		res, err := s.db.Exec(ctx, `UPDATE totp SET `+r.column+` = ? WHERE user_id = ? AND `+r.column+` = ?`, sealed, r.userID, r.value)
		if err != nil {
			return n, fmt.Errorf("seal totp secret: %w", err)
		}
		if k, err := res.RowsAffected(); err == nil {
			n += int(k)
		}
	}
	return n, nil
}
