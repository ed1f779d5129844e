package connect

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Provider credentials are sealed at rest like the TOTP secrets (server/account/secretbox.go):
// AES-256-GCM under the server's secret key (PATRIMONIO_SECRET_KEY), with a random nonce per seal
// and the connection id as associated data, so that sealed credentials copied into another
// connection's row do not open. Stored form: "enc1:" + base64url(nonce ‖ ciphertext ‖ tag).

const sealedPrefix = "enc1:"

// secretKeyVariable names the setting of the key in messages for the operator, and secretKeyLen is
// the length of an AES-256 key (server/config reads and checks the key; a service does not import
// the configuration).
const (
	secretKeyVariable = "PATRIMONIO_SECRET_KEY"
	secretKeyLen      = 32
)

// ErrWrongSecretKey: sealed credentials do not open (another key, or an altered row).
var ErrWrongSecretKey = errors.New("connect: stored credentials cannot be decrypted with " + secretKeyVariable)

type secretBox struct{ aead cipher.AEAD }

func newSecretBox(key []byte) (*secretBox, error) {
	if len(key) != secretKeyLen {
		return nil, fmt.Errorf("connect: the secret key must be %d bytes, got %d", secretKeyLen, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCMWithRandomNonce(block)
	if err != nil {
		return nil, err
	}
	return &secretBox{aead: aead}, nil
}

func (b *secretBox) seal(c Credentials, connectionID string) (string, error) {
	plain, err := json.Marshal(c)
	if err != nil {
		return "", err
	}
	return sealedPrefix + base64.RawURLEncoding.EncodeToString(b.aead.Seal(nil, nil, plain, []byte(connectionID))), nil
}

func (b *secretBox) open(stored, connectionID string) (Credentials, error) {
	var c Credentials
	if !strings.HasPrefix(stored, sealedPrefix) {
		return c, ErrWrongSecretKey
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(stored, sealedPrefix))
	if err != nil {
		return c, ErrWrongSecretKey
	}
	plain, err := b.aead.Open(nil, nil, raw, []byte(connectionID))
	if err != nil {
		return c, ErrWrongSecretKey
	}
	if err := json.Unmarshal(plain, &c); err != nil {
		return c, ErrWrongSecretKey
	}
	return c, nil
}
