// Package passkeytest is a software WebAuthn authenticator and client for tests: it answers the
// creation and request options a relying party sends (as the JSON a browser's
// PublicKeyCredential.parseCreationOptionsFromJSON reads) with the JSON a browser's
// credential.toJSON() sends back, built by hand: clientDataJSON, authenticator data with its flags and
// signature counter, a "none" attestation object in CBOR, and an ECDSA P-256 (ES256) signature.
//
// Every part can be spoiled on purpose through Tamper, to check that the relying party refuses it.
package passkeytest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
)

// Authenticator flags (WebAuthn §6.1).
const (
	FlagUP = 0x01 // user present
	FlagUV = 0x04 // user verified
	FlagBE = 0x08 // backup eligible
	FlagBS = 0x10 // backup state
	FlagAT = 0x40 // attested credential data included
)

// Credential is a discoverable credential the authenticator holds.
type Credential struct {
	ID         []byte
	UserHandle []byte
	RPID       string
	Key        *ecdsa.PrivateKey
	SignCount  uint32
}

// Authenticator is a platform authenticator holding discoverable credentials, used from one origin.
type Authenticator struct {
	// Origin is the origin the "browser" puts in clientDataJSON.
	Origin string
	// Flags are the UV/BE/BS flags it reports (UP is always set). Default: FlagUV.
	Flags byte
	// AAGUID identifies the authenticator model (all zero by default).
	AAGUID [16]byte
	// Credentials are the credentials created so far, in order.
	Credentials []*Credential
}

// New returns an authenticator used from origin, verifying its user (UV).
func New(origin string) *Authenticator {
	return &Authenticator{Origin: origin, Flags: FlagUV}
}

// Tamper spoils one part of an answer. The zero value spoils nothing.
type Tamper struct {
	Origin       string // a different origin in clientDataJSON
	Type         string // a different clientDataJSON type
	Challenge    string // a different challenge (base64url) in clientDataJSON
	RPID         string // compute the RP ID hash over this RP ID instead
	BadSignature bool   // flip a bit of the signature
	// Credential signs with this credential instead of the one the options lead to (e.g. an
	// unknown one); UserHandle overrides the user handle sent.
	Credential *Credential
	UserHandle []byte
	// SignCount, when non-nil, is sent instead of the incremented counter.
	SignCount *uint32
}

// b64 is the base64url encoding without padding that WebAuthn's JSON forms use.
var b64 = base64.RawURLEncoding

type creationOptions struct {
	RP struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"rp"`
	User struct {
		ID          string `json:"id"`
		Name        string `json:"name"`
		DisplayName string `json:"displayName"`
	} `json:"user"`
	Challenge        string `json:"challenge"`
	PubKeyCredParams []struct {
		Type string `json:"type"`
		Alg  int    `json:"alg"`
	} `json:"pubKeyCredParams"`
	ExcludeCredentials []struct {
		ID string `json:"id"`
	} `json:"excludeCredentials"`
}

// Create answers creation options (PublicKeyCredentialCreationOptionsJSON) with a new credential and
// returns the RegistrationResponseJSON.
func (a *Authenticator) Create(optionsJSON []byte, t Tamper) ([]byte, *Credential, error) {
	var o creationOptions
	if err := json.Unmarshal(optionsJSON, &o); err != nil {
		return nil, nil, fmt.Errorf("read creation options: %w", err)
	}
	if o.RP.ID == "" || o.Challenge == "" || o.User.ID == "" {
		return nil, nil, errors.New("creation options lack rp.id, challenge or user.id")
	}
	es256 := false
	for _, p := range o.PubKeyCredParams {
		es256 = es256 || (p.Type == "public-key" && p.Alg == -7)
	}
	if !es256 {
		return nil, nil, errors.New("creation options do not allow ES256")
	}
	userHandle, err := b64.DecodeString(o.User.ID)
	if err != nil {
		return nil, nil, fmt.Errorf("user.id is not base64url: %w", err)
	}
	for _, ex := range o.ExcludeCredentials {
		for _, c := range a.Credentials {
			if ex.ID == b64.EncodeToString(c.ID) {
				return nil, nil, errors.New("InvalidStateError: this authenticator already holds an excluded credential")
			}
		}
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	id := make([]byte, 32)
	_, _ = rand.Read(id)
	cred := &Credential{ID: id, UserHandle: userHandle, RPID: o.RP.ID, Key: key}

	clientData := a.clientData("webauthn.create", o.Challenge, t)
	rpID := o.RP.ID
	if t.RPID != "" {
		rpID = t.RPID
	}
	authData := authenticatorData(rpID, FlagUP|FlagAT|a.Flags, 0)
	authData = append(authData, a.AAGUID[:]...)
	authData = binary.BigEndian.AppendUint16(authData, uint16(len(id)))
	authData = append(authData, id...)
	authData = append(authData, coseKey(&key.PublicKey)...)
	attObj := cborMap(
		cborText("fmt"), cborText("none"),
		cborText("attStmt"), cborMap(),
		cborText("authData"), cborBytes(authData),
	)
	a.Credentials = append(a.Credentials, cred)
	spki, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return nil, nil, err
	}
	// The members of RegistrationResponseJSON, as Chromium's credential.toJSON() writes them.
	out, err := json.Marshal(map[string]any{
		"id":    b64.EncodeToString(id),
		"rawId": b64.EncodeToString(id),
		"type":  "public-key",
		"response": map[string]any{
			"clientDataJSON":     b64.EncodeToString(clientData),
			"attestationObject":  b64.EncodeToString(attObj),
			"authenticatorData":  b64.EncodeToString(authData),
			"publicKey":          b64.EncodeToString(spki),
			"publicKeyAlgorithm": -7,
			"transports":         []string{"internal", "hybrid"},
		},
		"authenticatorAttachment": "platform",
		"clientExtensionResults":  map[string]any{},
	})
	return out, cred, err
}

type requestOptions struct {
	Challenge        string `json:"challenge"`
	RPID             string `json:"rpId"`
	AllowCredentials []struct {
		ID string `json:"id"`
	} `json:"allowCredentials"`
	UserVerification string `json:"userVerification"`
}

// Get answers request options (PublicKeyCredentialRequestOptionsJSON) with an assertion by the
// newest credential of the options' RP ID (a discoverable sign-in: the user picks it), and returns
// the AuthenticationResponseJSON.
func (a *Authenticator) Get(optionsJSON []byte, t Tamper) ([]byte, error) {
	var o requestOptions
	if err := json.Unmarshal(optionsJSON, &o); err != nil {
		return nil, fmt.Errorf("read request options: %w", err)
	}
	if o.RPID == "" || o.Challenge == "" {
		return nil, errors.New("request options lack rpId or challenge")
	}
	cred := t.Credential
	if cred == nil {
		for _, c := range a.Credentials {
			if c.RPID == o.RPID {
				cred = c
			}
		}
	}
	if cred == nil {
		return nil, errors.New("NotAllowedError: no credential for this RP ID")
	}
	if cred.Key == nil {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return nil, err
		}
		cred.Key = key
	}
	cred.SignCount++
	count := cred.SignCount
	if t.SignCount != nil {
		count = *t.SignCount
	}
	rpID := o.RPID
	if t.RPID != "" {
		rpID = t.RPID
	}
	clientData := a.clientData("webauthn.get", o.Challenge, t)
	authData := authenticatorData(rpID, FlagUP|a.Flags, count)
	// ES256: ECDSA over SHA-256(authenticatorData || SHA-256(clientDataJSON)).
	clientHash := sha256.Sum256(clientData)
	digest := sha256.Sum256(append(bytes.Clone(authData), clientHash[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, cred.Key, digest[:])
	if err != nil {
		return nil, err
	}
	if t.BadSignature {
		sig[len(sig)-1] ^= 0x01
	}
	userHandle := cred.UserHandle
	if t.UserHandle != nil {
		userHandle = t.UserHandle
	}
	return json.Marshal(map[string]any{
		"id":    b64.EncodeToString(cred.ID),
		"rawId": b64.EncodeToString(cred.ID),
		"type":  "public-key",
		"response": map[string]any{
			"clientDataJSON":    b64.EncodeToString(clientData),
			"authenticatorData": b64.EncodeToString(authData),
			"signature":         b64.EncodeToString(sig),
			"userHandle":        b64.EncodeToString(userHandle),
		},
		"authenticatorAttachment": "platform",
		"clientExtensionResults":  map[string]any{},
	})
}

// clientData is the CollectedClientData JSON the browser builds.
func (a *Authenticator) clientData(typ, challenge string, t Tamper) []byte {
	origin := a.Origin
	if t.Origin != "" {
		origin = t.Origin
	}
	if t.Type != "" {
		typ = t.Type
	}
	if t.Challenge != "" {
		challenge = t.Challenge
	}
	b, _ := json.Marshal(struct {
		Type        string `json:"type"`
		Challenge   string `json:"challenge"`
		Origin      string `json:"origin"`
		CrossOrigin bool   `json:"crossOrigin"`
	}{typ, challenge, origin, false})
	return b
}

// authenticatorData is rpIdHash (32) | flags (1) | signCount (4, big endian).
func authenticatorData(rpID string, flags byte, signCount uint32) []byte {
	h := sha256.Sum256([]byte(rpID))
	out := append(h[:], flags)
	return binary.BigEndian.AppendUint32(out, signCount)
}

// coseKey is an EC2 P-256 public key for ES256 in COSE_Key form (RFC 9053):
// {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}.
func coseKey(pub *ecdsa.PublicKey) []byte {
	x := make([]byte, 32)
	y := make([]byte, 32)
	pub.X.FillBytes(x)
	pub.Y.FillBytes(y)
	return cborMap(
		cborInt(1), cborInt(2),
		cborInt(3), cborInt(-7),
		cborInt(-1), cborInt(1),
		cborInt(-2), cborBytes(x),
		cborInt(-3), cborBytes(y),
	)
}

// A minimal CBOR encoder (RFC 8949): the few item types the attestation object needs, definite
// lengths, keys in the order given (callers give them in canonical order).

func cborHead(major byte, n uint64) []byte {
	switch {
	case n < 24:
		return []byte{major<<5 | byte(n)}
	case n < 1<<8:
		return []byte{major<<5 | 24, byte(n)}
	case n < 1<<16:
		return binary.BigEndian.AppendUint16([]byte{major<<5 | 25}, uint16(n))
	case n < 1<<32:
		return binary.BigEndian.AppendUint32([]byte{major<<5 | 26}, uint32(n))
	}
	return binary.BigEndian.AppendUint64([]byte{major<<5 | 27}, n)
}

func cborInt(v int64) []byte {
	if v >= 0 {
		return cborHead(0, uint64(v))
	}
	return cborHead(1, uint64(-1-v))
}

func cborBytes(b []byte) []byte { return append(cborHead(2, uint64(len(b))), b...) }

func cborText(s string) []byte { return append(cborHead(3, uint64(len(s))), s...) }

// cborMap encodes alternating keys and values.
func cborMap(kv ...[]byte) []byte {
	out := cborHead(5, uint64(len(kv)/2))
	for _, item := range kv {
		out = append(out, item...)
	}
	return out
}
