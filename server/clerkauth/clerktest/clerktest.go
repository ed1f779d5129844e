// Package clerktest is a stand-in Clerk instance for tests: an RSA signing key, the publishable
// key that names the instance, and session tokens signed like Clerk's (RS256, kid header, iss of
// the Frontend API, sid, azp, fva, v=2).
package clerktest

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"time"

	"github.com/go-jose/go-jose/v3"
)

// Instance is a Clerk instance.
type Instance struct {
	FrontendAPI    string // e.g. clerk.patrimonio.test
	PublishableKey string // pk_test_ + base64(FrontendAPI + "$")
	Key            *rsa.PrivateKey
	KeyID          string
}

// New makes an instance with a fresh 2048-bit key.
func New(frontendAPI string) (*Instance, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	return &Instance{
		FrontendAPI:    frontendAPI,
		PublishableKey: "pk_test_" + base64.StdEncoding.EncodeToString([]byte(frontendAPI+"$")),
		Key:            key,
		KeyID:          "ins_test",
	}, nil
}

// Issuer is the iss of the instance's tokens.
func (i *Instance) Issuer() string { return "https://" + i.FrontendAPI }

// PublicKeyPEM is the instance's public key as CLERK_JWT_KEY holds it.
func (i *Instance) PublicKeyPEM() string {
	der, err := x509.MarshalPKIXPublicKey(&i.Key.PublicKey)
	if err != nil {
		panic(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}

// JWKS is the instance's key set as its JWKS endpoint serves it.
func (i *Instance) JWKS() ([]byte, error) {
	return json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
		{Key: &i.Key.PublicKey, KeyID: i.KeyID, Algorithm: "RS256", Use: "sig"},
	}})
}

// Claims are the claims of a fresh session token of user sub in session sid, used from origin azp,
// valid for a minute from now, with a first factor verified a minute ago.
func (i *Instance) Claims(sub, sid, azp string, now time.Time) map[string]any {
	return map[string]any{
		"iss": i.Issuer(), "sub": sub, "sid": sid, "azp": azp,
		"iat": now.Unix(), "nbf": now.Add(-10 * time.Second).Unix(), "exp": now.Add(time.Minute).Unix(),
		"v": 2, "fva": []int{1, -1},
	}
}

// Token signs claims as the instance (RS256, with its kid).
func (i *Instance) Token(claims map[string]any) (string, error) {
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: i.Key, KeyID: i.KeyID}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return "", err
	}
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	obj, err := signer.Sign(payload)
	if err != nil {
		return "", err
	}
	return obj.CompactSerialize()
}
