// Package clerkauth is the Clerk provider of Patrimonio's sign-in: it verifies Clerk session tokens
// (the `__session` cookie or an `Authorization: Bearer` header) with clerk-sdk-go, either networkless
// with the instance's PEM public key or with the keys of a JWKS endpoint, and provisions a local user
// on the first verified request. The rest of the server sees an ordinary signed-in user through the
// account.Authenticator seam.
package clerkauth

import (
	"context"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/clerk/clerk-sdk-go/v2"
	"github.com/clerk/clerk-sdk-go/v2/jwks"
	clerkjwt "github.com/clerk/clerk-sdk-go/v2/jwt"

	"patrimonio/core"
)

// Defaults of the verifier.
const (
	// DefaultAPIURL is Clerk's Backend API; its /jwks endpoint serves the instance's keys to a
	// caller holding the secret key.
	DefaultAPIURL = clerk.APIURL
	// DefaultLeeway is the clock skew tolerated on exp, nbf and iat.
	DefaultLeeway = 5 * time.Second
	// keysTTL is how long fetched JWKS keys are trusted before they are fetched again.
	keysTTL = time.Hour
	// minRefetch is the shortest time between two fetches caused by an unknown key id, so that
	// tokens with made-up key ids cannot make the server hammer the JWKS endpoint.
	minRefetch = 30 * time.Second
	// maxTokenLen bounds the token we are willing to parse (Clerk's are well under 2 KiB).
	maxTokenLen = 8 << 10
)

// Config configures a Verifier. PublishableKey and one of JWTKey, JWKSURL or SecretKey are required.
type Config struct {
	// PublishableKey is CLERK_PUBLISHABLE_KEY (pk_test_… or pk_live_…). The instance's Frontend API
	// host is encoded in it; tokens must be issued by https://<that host>.
	PublishableKey string
	// JWTKey is CLERK_JWT_KEY, the instance's RSA public key in PEM. When set, verification needs
	// no network at all.
	JWTKey string
	// JWKSURL is CLERK_JWKS_URL, a JWKS document (e.g. https://<frontend-api>/.well-known/jwks.json).
	JWKSURL string
	// SecretKey is CLERK_SECRET_KEY. Without JWTKey and JWKSURL, the keys are fetched from the
	// Backend API's /jwks with it; it is also what lets the server fetch a new user's e-mail address.
	SecretKey string
	// APIURL is the Backend API base URL (DefaultAPIURL when empty). Tests point it at httptest.
	APIURL string
	// AllowedOrigins are the origins a token's azp (authorized party) may name: the public URL and
	// PATRIMONIO_ALLOWED_ORIGINS.
	AllowedOrigins []string
	// Leeway is the tolerated clock skew (DefaultLeeway when zero).
	Leeway time.Duration
	// HTTPClient makes the JWKS and Backend API calls (a client with a 5 s timeout when nil).
	HTTPClient *http.Client
	// Now tells the time (time.Now when nil).
	Now func() time.Time
}

// Claims are the verified facts of a Clerk session token that Patrimonio uses.
type Claims struct {
	UserID    string // sub: the Clerk user id (user_…)
	SessionID string // sid: the Clerk session id (sess_…)
	// Email is the "email" custom claim, present when the Clerk instance's session token is
	// customised with {"email": "{{user.primary_email_address}}"}; "" otherwise.
	Email           string
	AuthorizedParty string    // azp
	IssuedAt        time.Time // iat
	ExpiresAt       time.Time // exp
	// FirstFactorAge is how long ago the user last proved a first factor to Clerk (fva[0]), or -1
	// when Clerk did not say.
	FirstFactorAge time.Duration
}

// Verifier verifies Clerk session tokens. It is safe for concurrent use.
type Verifier struct {
	issuer  string
	origins []string
	leeway  time.Duration
	now     func() time.Time

	pemKey *clerk.JSONWebKey // set in PEM mode
	keys   *keyCache         // set in JWKS mode
}

// NewVerifier checks the configuration and returns a Verifier. It makes no network call.
func NewVerifier(cfg Config) (*Verifier, error) {
	frontendAPI, err := FrontendAPI(cfg.PublishableKey)
	if err != nil {
		return nil, fmt.Errorf("clerk: %w", err)
	}
	v := &Verifier{
		issuer: "https://" + frontendAPI,
		leeway: cfg.Leeway,
		now:    cfg.Now,
	}
	if v.leeway == 0 {
		v.leeway = DefaultLeeway
	}
	if v.now == nil {
		v.now = time.Now
	}
	for _, o := range cfg.AllowedOrigins {
		origin, err := core.ParseOrigin(o)
		if err != nil {
			return nil, fmt.Errorf("clerk: allowed origin: %w", err)
		}
		v.origins = append(v.origins, origin)
	}
	if len(v.origins) == 0 {
		return nil, errors.New("clerk: no allowed origins for the azp claim")
	}
	httpClient := cfg.HTTPClient
	if httpClient == nil {
		httpClient = &http.Client{Timeout: 5 * time.Second}
	}
	switch {
	case strings.TrimSpace(cfg.JWTKey) != "":
		if v.pemKey, err = ParsePEMKey(cfg.JWTKey); err != nil {
			return nil, fmt.Errorf("clerk: CLERK_JWT_KEY: %w", err)
		}
	case cfg.JWKSURL != "":
		v.keys = newKeyCache(&jwks.Client{Backend: &urlBackend{url: cfg.JWKSURL, client: httpClient}}, v.now)
	case cfg.SecretKey != "":
		apiURL := cfg.APIURL
		if apiURL == "" {
			apiURL = DefaultAPIURL
		}
		v.keys = newKeyCache(jwks.NewClient(&clerk.ClientConfig{BackendConfig: clerk.BackendConfig{
			HTTPClient: httpClient, URL: clerk.String(apiURL), Key: clerk.String(cfg.SecretKey),
		}}), v.now)
	default:
		return nil, errors.New("clerk: one of CLERK_JWT_KEY, CLERK_JWKS_URL or CLERK_SECRET_KEY is needed to verify session tokens")
	}
	return v, nil
}

// Issuer is the iss every accepted token carries: https:// and the Frontend API host of the
// publishable key.
func (v *Verifier) Issuer() string { return v.issuer }

// invalid is the error of every refused token: unauthorised for the client (in the language of
// ctx), with the reason for logs and tests.
func invalid(ctx context.Context, reason string, args ...any) error {
	return fmt.Errorf("clerk session token refused: %s: %w", fmt.Sprintf(reason, args...),
		core.Refuse(ctx, core.EUNAUTHORIZED, "clerk.invalid"))
}

// tokenHeader is the JOSE header of a compact JWS, read before verification to refuse anything but
// RS256 early (Clerk signs with RS256 only).
type tokenHeader struct {
	Alg string `json:"alg"`
	Kid string `json:"kid"`
}

func readHeader(token string) (tokenHeader, error) {
	var h tokenHeader
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return h, errors.New("not a compact JWS")
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[0])
	if err != nil {
		return h, errors.New("header is not base64url")
	}
	if err := json.Unmarshal(raw, &h); err != nil {
		return h, errors.New("header is not JSON")
	}
	return h, nil
}

// extraClaims reads the optional "email" custom claim, and "fva" again to tell an absent claim
// from [0, 0].
type extraClaims struct {
	Email string    `json:"email"`
	FVA   *[2]int64 `json:"fva"`
}

// clock adapts Verifier.now to clerk.Clock.
type clock func() time.Time

func (c clock) Now() time.Time { return c() }

// Verify checks a session token: RS256 signature by the instance's key, issuer, exp/nbf/iat with
// the leeway, and azp among the allowed origins. Every failure is an EUNAUTHORIZED *core.Error
// (wrapped with the reason).
func (v *Verifier) Verify(ctx context.Context, token string) (*Claims, error) {
	if token == "" {
		return nil, invalid(ctx, "empty token")
	}
	if len(token) > maxTokenLen {
		return nil, invalid(ctx, "token longer than %d bytes", maxTokenLen)
	}
	h, err := readHeader(token)
	if err != nil {
		return nil, invalid(ctx, "%v", err)
	}
	if h.Alg != "RS256" {
		return nil, invalid(ctx, "algorithm %q is not RS256", h.Alg)
	}
	key := v.pemKey
	if key == nil {
		if key, err = v.keys.get(ctx, h.Kid); err != nil {
			return nil, invalid(ctx, "%v", err)
		}
	}
	issuer := v.issuer
	claims, err := clerkjwt.Verify(ctx, &clerkjwt.VerifyParams{
		Token:                   token,
		JWK:                     key,
		Clock:                   clock(v.now),
		Leeway:                  v.leeway,
		ProxyURL:                &issuer, // makes the SDK require iss == issuer exactly
		CustomClaimsConstructor: func(context.Context) any { return &extraClaims{} },
		AuthorizedPartyHandler: func(azp string) bool {
			return slices.Contains(v.origins, azp)
		},
	})
	if err != nil {
		return nil, invalid(ctx, "%v", err)
	}
	if claims.Subject == "" {
		return nil, invalid(ctx, "no sub claim")
	}
	if claims.Expiry == nil {
		return nil, invalid(ctx, "no exp claim")
	}
	out := &Claims{
		UserID:          claims.Subject,
		SessionID:       claims.SessionID,
		AuthorizedParty: claims.AuthorizedParty,
		ExpiresAt:       time.Unix(*claims.Expiry, 0).UTC(),
		FirstFactorAge:  -1,
	}
	if claims.IssuedAt != nil {
		out.IssuedAt = time.Unix(*claims.IssuedAt, 0).UTC()
	}
	if c, ok := claims.Custom.(*extraClaims); ok {
		out.Email = strings.TrimSpace(c.Email)
		if c.FVA != nil && c.FVA[0] >= 0 {
			out.FirstFactorAge = time.Duration(c.FVA[0]) * time.Minute
		}
	}
	return out, nil
}

// TokenFromRequest returns the Clerk session token of a request: the bearer token of the
// Authorization header, else the __session cookie, else "".
func TokenFromRequest(r *http.Request) string {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, token, ok := strings.Cut(h, " ")
		if ok && strings.EqualFold(scheme, "Bearer") {
			return strings.TrimSpace(token)
		}
		return ""
	}
	if c, err := r.Cookie("__session"); err == nil {
		return c.Value
	}
	return ""
}

// FrontendAPI decodes the Frontend API host from a publishable key: pk_test_ or pk_live_ followed by
// the base64 of "<host>$".
func FrontendAPI(publishableKey string) (string, error) {
	rest, ok := strings.CutPrefix(publishableKey, "pk_test_")
	if !ok {
		rest, ok = strings.CutPrefix(publishableKey, "pk_live_")
	}
	if !ok || rest == "" {
		return "", errors.New("the publishable key must start with pk_test_ or pk_live_")
	}
	raw, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(rest, "="))
	if err != nil {
		return "", errors.New("the publishable key is not base64 after its prefix")
	}
	host, ok := strings.CutSuffix(string(raw), "$")
	if !ok || host == "" || strings.ContainsAny(host, "/ $") {
		return "", errors.New("the publishable key does not encode a Frontend API host")
	}
	return host, nil
}

// ParsePEMKey reads CLERK_JWT_KEY: an RSA public key in PEM ("-----BEGIN PUBLIC KEY-----"). Literal
// "\n" sequences (a PEM squeezed into one line of an env file) are read as line breaks.
func ParsePEMKey(s string) (*clerk.JSONWebKey, error) {
	s = strings.ReplaceAll(strings.TrimSpace(s), `\n`, "\n")
	block, _ := pem.Decode([]byte(s))
	if block == nil || block.Type != "PUBLIC KEY" {
		return nil, errors.New("not a PEM public key (-----BEGIN PUBLIC KEY-----)")
	}
	pub, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("parse public key: %w", err)
	}
	if _, ok := pub.(*rsa.PublicKey); !ok {
		return nil, errors.New("the public key is not an RSA key")
	}
	return clerk.JSONWebKeyFromPEM(s)
}

// keyCache holds the keys of a JWKS endpoint, fetched through the SDK's JWKS client.
type keyCache struct {
	client *jwks.Client
	now    func() time.Time

	mu        sync.Mutex
	keys      map[string]*clerk.JSONWebKey
	fetchedAt time.Time
}

func newKeyCache(client *jwks.Client, now func() time.Time) *keyCache {
	return &keyCache{client: client, now: now}
}

// get returns the key with the given id, fetching the key set when it is stale or, at most every
// minRefetch, when the id is unknown (keys are rotated).
func (c *keyCache) get(ctx context.Context, kid string) (*clerk.JSONWebKey, error) {
	if kid == "" {
		return nil, errors.New("no kid in the token header")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	stale := c.keys == nil || now.Sub(c.fetchedAt) > keysTTL
	if k, ok := c.keys[kid]; ok && !stale {
		return k, nil
	}
	if !stale && now.Sub(c.fetchedAt) < minRefetch {
		return nil, fmt.Errorf("unknown key id %q", kid)
	}
	set, err := c.client.Get(ctx, &jwks.GetParams{})
	if err != nil {
		return nil, fmt.Errorf("fetch the JWKS: %w", err)
	}
	keys := make(map[string]*clerk.JSONWebKey, len(set.Keys))
	for _, k := range set.Keys {
		if k == nil || k.KeyID == "" {
			continue
		}
		if _, ok := k.Key.(*rsa.PublicKey); !ok {
			continue
		}
		if k.Algorithm == "" {
			k.Algorithm = "RS256" // a JWK may leave alg out; Clerk's keys are RS256
		}
		keys[k.KeyID] = k
	}
	c.keys, c.fetchedAt = keys, now
	if k, ok := keys[kid]; ok {
		return k, nil
	}
	return nil, fmt.Errorf("unknown key id %q", kid)
}

// urlBackend is a clerk.Backend that GETs one fixed URL: it lets the SDK's JWKS client read a JWKS
// document that is not under the Backend API (CLERK_JWKS_URL).
type urlBackend struct {
	url    string
	client *http.Client
}

func (b *urlBackend) Call(ctx context.Context, _ *clerk.APIRequest, setter clerk.ResponseReader) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := b.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", b.url, resp.Status)
	}
	dec := json.NewDecoder(http.MaxBytesReader(nil, resp.Body, 1<<20))
	return dec.Decode(setter)
}
