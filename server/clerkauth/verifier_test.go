package clerkauth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v3"

	"patrimonio/core"
	"patrimonio/server/clerkauth"
)

// The Clerk instance of the tests: its Frontend API host is encoded in the publishable key, and
// tokens are issued by https://<that host>.
const (
	frontendAPI   = "clerk.patrimonio.test"
	issuer        = "https://" + frontendAPI
	appOrigin     = "https://patrimonio.example"
	devOrigin     = "http://localhost:5173"
	testSecretKey = "sk_test_patrimonio"
)

var publishableKey = "pk_test_" + base64.StdEncoding.EncodeToString([]byte(frontendAPI+"$"))

// signingKey is an RSA key of the test "Clerk instance", with its key id.
type signingKey struct {
	kid string
	key *rsa.PrivateKey
}

var (
	keysOnce sync.Once
	keyA     signingKey // the instance's key
	keyB     signingKey // another key (rotation, forgeries)
)

func testKeys(t *testing.T) (signingKey, signingKey) {
	t.Helper()
	keysOnce.Do(func() {
		for _, k := range []*signingKey{&keyA, &keyB} {
			priv, err := rsa.GenerateKey(rand.Reader, 2048)
			if err != nil {
				panic(err)
			}
			k.key = priv
		}
		keyA.kid, keyB.kid = "ins_key_a", "ins_key_b"
	})
	return keyA, keyB
}

func publicPEM(t *testing.T, k *rsa.PrivateKey) string {
	t.Helper()
	der, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}

// clock is the verifier's time.
var now = time.Date(2030, 5, 1, 12, 0, 0, 0, time.UTC)

func fixedNow() time.Time { return now }

// claims are the claims of a good session token at `now`.
func claims() map[string]any {
	return map[string]any{
		"iss":   issuer,
		"sub":   "user_2abc",
		"sid":   "sess_2abc",
		"azp":   appOrigin,
		"iat":   now.Add(-10 * time.Second).Unix(),
		"nbf":   now.Add(-20 * time.Second).Unix(),
		"exp":   now.Add(50 * time.Second).Unix(),
		"v":     2,
		"fva":   []int{3, -1},
		"email": "ana@example.com",
	}
}

// sign makes a compact RS256 JWS of claims with k, with k's kid in the header.
func sign(t *testing.T, k signingKey, c map[string]any) string {
	t.Helper()
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: k.key, KeyID: k.kid}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		t.Fatal(err)
	}
	payload, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	obj, err := signer.Sign(payload)
	if err != nil {
		t.Fatal(err)
	}
	token, err := obj.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return token
}

func b64(v any) string {
	b, _ := json.Marshal(v)
	return base64.RawURLEncoding.EncodeToString(b)
}

// jwksServer serves the public keys of keys as a JWKS, at /v1/jwks (the Backend API, which wants
// the secret key) and /.well-known/jwks.json (the Frontend API, public), counting the fetches.
type jwksServer struct {
	*httptest.Server
	mu      sync.Mutex
	keys    []signingKey
	fetches atomic.Int32
}

func newJWKSServer(t *testing.T, keys ...signingKey) *jwksServer {
	t.Helper()
	s := &jwksServer{keys: keys}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/jwks":
			if r.Header.Get("Authorization") != "Bearer "+testSecretKey {
				http.Error(w, `{"errors":[{"code":"authorization_invalid","message":"unauthorized"}]}`, http.StatusUnauthorized)
				return
			}
		case "/.well-known/jwks.json":
		default:
			http.NotFound(w, r)
			return
		}
		s.fetches.Add(1)
		s.mu.Lock()
		set := jose.JSONWebKeySet{}
		for _, k := range s.keys {
			set.Keys = append(set.Keys, jose.JSONWebKey{Key: &k.key.PublicKey, KeyID: k.kid, Algorithm: "RS256", Use: "sig"})
		}
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(set)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *jwksServer) setKeys(keys ...signingKey) {
	s.mu.Lock()
	s.keys = keys
	s.mu.Unlock()
}

// modes are the three ways of getting the instance's key.
func modes(t *testing.T) map[string]func(t *testing.T) (clerkauth.Config, *jwksServer) {
	a, _ := testKeys(t)
	base := clerkauth.Config{PublishableKey: publishableKey, AllowedOrigins: []string{appOrigin, devOrigin}, Now: fixedNow}
	return map[string]func(t *testing.T) (clerkauth.Config, *jwksServer){
		"networkless with the PEM key": func(t *testing.T) (clerkauth.Config, *jwksServer) {
			cfg := base
			cfg.JWTKey = publicPEM(t, a.key)
			return cfg, nil
		},
		"with the JWKS of the Backend API and the secret key": func(t *testing.T) (clerkauth.Config, *jwksServer) {
			srv := newJWKSServer(t, a)
			cfg := base
			cfg.SecretKey = testSecretKey
			cfg.APIURL = srv.URL + "/v1"
			return cfg, srv
		},
		"with a JWKS URL": func(t *testing.T) (clerkauth.Config, *jwksServer) {
			srv := newJWKSServer(t, a)
			cfg := base
			cfg.JWKSURL = srv.URL + "/.well-known/jwks.json"
			return cfg, srv
		},
	}
}

func TestVerifyingSessionTokens(t *testing.T) {
	a, b := testKeys(t)
	type tc struct {
		name   string
		token  func(t *testing.T) string
		reason string // "" means accepted
	}
	with := func(change func(c map[string]any)) func(t *testing.T) string {
		return func(t *testing.T) string {
			c := claims()
			change(c)
			return sign(t, a, c)
		}
	}
	cases := []tc{
		{"a good token is accepted", with(func(map[string]any) {}), ""},
		{"a token for the dev origin is accepted", with(func(c map[string]any) { c["azp"] = devOrigin }), ""},
		{"a token expired 3 s ago is accepted within the leeway", with(func(c map[string]any) { c["exp"] = now.Add(-3 * time.Second).Unix() }), ""},
		{"a token valid in 3 s is accepted within the leeway", with(func(c map[string]any) { c["nbf"] = now.Add(3 * time.Second).Unix() }), ""},
		{"an expired token is refused", with(func(c map[string]any) { c["exp"] = now.Add(-10 * time.Second).Unix() }), "(exp)"},
		{"a token not valid yet is refused", with(func(c map[string]any) { c["nbf"] = now.Add(10 * time.Second).Unix() }), "(nbf)"},
		{"a token issued in the future is refused", with(func(c map[string]any) { c["iat"] = now.Add(time.Minute).Unix() }), "(iat)"},
		{"a token without exp is refused", with(func(c map[string]any) { delete(c, "exp") }), "no exp"},
		{"a token without sub is refused", with(func(c map[string]any) { delete(c, "sub") }), "no sub"},
		{"a token for another origin is refused", with(func(c map[string]any) { c["azp"] = "https://evil.example" }), "authorized party"},
		{"a token without azp is refused", with(func(c map[string]any) { delete(c, "azp") }), "authorized party"},
		{"a token of another issuer is refused", with(func(c map[string]any) { c["iss"] = "https://clerk.evil.example" }), "issuer"},
		{"a token with alg none is refused", func(t *testing.T) string {
			return b64(map[string]string{"alg": "none", "kid": a.kid, "typ": "JWT"}) + "." + b64(claims()) + "."
		}, `"none" is not RS256`},
		{"a token signed with HS256 and the public key as secret is refused", func(t *testing.T) string {
			key := []byte(publicPEM(t, a.key))
			signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.HS256, Key: jose.JSONWebKey{Key: key, KeyID: a.kid}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			payload, _ := json.Marshal(claims())
			obj, err := signer.Sign(payload)
			if err != nil {
				t.Fatal(err)
			}
			s, _ := obj.CompactSerialize()
			return s
		}, `"HS256" is not RS256`},
		{"a tampered payload is refused", func(t *testing.T) string {
			parts := strings.Split(sign(t, a, claims()), ".")
			c := claims()
			c["sub"] = "user_someone_else"
			return parts[0] + "." + b64(c) + "." + parts[2]
		}, "cryptographic primitive"},
		{"a token signed by another key under the instance's key id is refused", func(t *testing.T) string {
			return sign(t, signingKey{kid: a.kid, key: b.key}, claims())
		}, "cryptographic primitive"},
		{"a token that is not a JWS is refused", func(*testing.T) string { return "not.a-token" }, "not a compact JWS"},
		{"an empty token is refused", func(*testing.T) string { return "" }, "empty token"},
	}
	for mode, setup := range modes(t) {
		t.Run(mode, func(t *testing.T) {
			cfg, _ := setup(t)
			v, err := clerkauth.NewVerifier(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					got, err := v.Verify(context.Background(), tc.token(t))
					if tc.reason == "" {
						if err != nil {
							t.Fatalf("refused: %v", err)
						}
						if got.UserID != "user_2abc" || got.SessionID != "sess_2abc" || got.Email != "ana@example.com" ||
							got.FirstFactorAge != 3*time.Minute {
							t.Fatalf("claims: %+v", got)
						}
						return
					}
					if err == nil {
						t.Fatalf("accepted, want refused for %q", tc.reason)
					}
					if code := core.ErrorCode(err); code != core.EUNAUTHORIZED {
						t.Fatalf("code %q: %v", code, err)
					}
					if !strings.Contains(err.Error(), tc.reason) {
						t.Fatalf("refused for another reason than %q: %v", tc.reason, err)
					}
				})
			}
		})
	}
}

func TestJWKSKeysAreCachedAndRotated(t *testing.T) {
	a, b := testKeys(t)
	for mode, setup := range modes(t) {
		if strings.Contains(mode, "PEM") {
			continue
		}
		t.Run(mode, func(t *testing.T) {
			cfg, srv := setup(t)
			clock := now
			cfg.Now = func() time.Time { return clock }
			v, err := clerkauth.NewVerifier(cfg)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			verify := func(k signingKey) error {
				c := claims()
				c["iat"], c["nbf"], c["exp"] = clock.Add(-time.Second).Unix(), clock.Add(-time.Second).Unix(), clock.Add(time.Minute).Unix()
				_, err := v.Verify(ctx, sign(t, k, c))
				return err
			}
			for range 3 {
				if err := verify(a); err != nil {
					t.Fatal(err)
				}
			}
			if n := srv.fetches.Load(); n != 1 {
				t.Fatalf("%d JWKS fetches for three tokens, want 1", n)
			}

			// An unknown key id is refused, and so soon after a fetch the endpoint is not asked
			// again (made-up key ids must not make us hammer it).
			if err := verify(b); err == nil || !strings.Contains(err.Error(), `unknown key id "ins_key_b"`) {
				t.Fatalf("a token of an unknown key: %v", err)
			}
			if err := verify(b); err == nil {
				t.Fatal("a token of an unknown key was accepted")
			}
			if n := srv.fetches.Load(); n != 1 {
				t.Fatalf("%d JWKS fetches after unknown key ids, want still 1", n)
			}

			// Clerk rotates its key: after a while, the new key id is fetched and accepted.
			srv.setKeys(a, b)
			clock = clock.Add(time.Minute)
			if err := verify(b); err != nil {
				t.Fatalf("a token of the rotated key: %v", err)
			}
			if n := srv.fetches.Load(); n != 2 {
				t.Fatalf("%d JWKS fetches after rotation, want 2", n)
			}
			// And an hour later the keys are fetched again.
			clock = clock.Add(61 * time.Minute)
			if err := verify(a); err != nil {
				t.Fatal(err)
			}
			if n := srv.fetches.Load(); n != 3 {
				t.Fatalf("%d JWKS fetches an hour later, want 3", n)
			}
		})
	}
}

func TestTheBackendAPINeedsTheSecretKey(t *testing.T) {
	a, _ := testKeys(t)
	srv := newJWKSServer(t, a)
	v, err := clerkauth.NewVerifier(clerkauth.Config{
		PublishableKey: publishableKey, AllowedOrigins: []string{appOrigin}, Now: fixedNow,
		SecretKey: "sk_test_wrong", APIURL: srv.URL + "/v1",
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = v.Verify(context.Background(), sign(t, a, claims()))
	if core.ErrorCode(err) != core.EUNAUTHORIZED || !strings.Contains(err.Error(), "fetch the JWKS") {
		t.Fatalf("verify with a wrong secret key: %v", err)
	}
}

func TestReadingTheTokenOfARequest(t *testing.T) {
	for _, tc := range []struct {
		name, auth, cookie, want string
	}{
		{"a bearer token is read", "Bearer abc.def.ghi", "", "abc.def.ghi"},
		{"the bearer scheme is case-insensitive", "bearer abc", "", "abc"},
		{"the __session cookie is read", "", "abc.def.ghi", "abc.def.ghi"},
		{"the header wins over the cookie", "Bearer header", "cookie", "header"},
		{"another scheme gives no token", "Basic dXNlcjpwYXNz", "cookie", ""},
		{"nothing gives no token", "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/api/v1/me", nil)
			if tc.auth != "" {
				r.Header.Set("Authorization", tc.auth)
			}
			if tc.cookie != "" {
				r.AddCookie(&http.Cookie{Name: "__session", Value: tc.cookie})
			}
			if got := clerkauth.TokenFromRequest(r); got != tc.want {
				t.Fatalf("token %q, want %q", got, tc.want)
			}
		})
	}
}

func TestPublishableKeys(t *testing.T) {
	enc := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	for _, tc := range []struct {
		name, key, host string
	}{
		{"a test key gives its Frontend API host", "pk_test_" + enc("clerk.patrimonio.test$"), "clerk.patrimonio.test"},
		{"a live key gives its Frontend API host", "pk_live_" + enc("clerk.patrimonio.example$"), "clerk.patrimonio.example"},
		{"a dev instance key gives its accounts.dev host", "pk_test_" + enc("happy-cat-12.clerk.accounts.dev$"), "happy-cat-12.clerk.accounts.dev"},
		{"a key without the prefix is refused", enc("clerk.patrimonio.test$"), ""},
		{"a key without the trailing $ is refused", "pk_test_" + enc("clerk.patrimonio.test"), ""},
		{"a key that is not base64 is refused", "pk_test_***", ""},
		{"a secret key is refused", "sk_test_abc", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			host, err := clerkauth.FrontendAPI(tc.key)
			if tc.host == "" {
				if err == nil {
					t.Fatalf("accepted as %q", host)
				}
				return
			}
			if err != nil || host != tc.host {
				t.Fatalf("host %q, %v; want %q", host, err, tc.host)
			}
		})
	}
}

func TestVerifierConfiguration(t *testing.T) {
	a, _ := testKeys(t)
	pemKey := publicPEM(t, a.key)
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(&ec.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	ecKey := string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
	for _, tc := range []struct {
		name string
		cfg  clerkauth.Config
		err  string
	}{
		{"a PEM key is enough", clerkauth.Config{PublishableKey: publishableKey, JWTKey: pemKey, AllowedOrigins: []string{appOrigin}}, ""},
		{"a PEM key squeezed on one line with \\n is read", clerkauth.Config{PublishableKey: publishableKey, JWTKey: strings.ReplaceAll(pemKey, "\n", `\n`), AllowedOrigins: []string{appOrigin}}, ""},
		{"a secret key is enough", clerkauth.Config{PublishableKey: publishableKey, SecretKey: testSecretKey, AllowedOrigins: []string{appOrigin}}, ""},
		{"no key at all is refused", clerkauth.Config{PublishableKey: publishableKey, AllowedOrigins: []string{appOrigin}}, "one of CLERK_JWT_KEY"},
		{"a bad publishable key is refused", clerkauth.Config{PublishableKey: "pk_test_x", JWTKey: pemKey, AllowedOrigins: []string{appOrigin}}, "publishable key"},
		{"a PEM that is not a public key is refused", clerkauth.Config{PublishableKey: publishableKey, JWTKey: "hello", AllowedOrigins: []string{appOrigin}}, "CLERK_JWT_KEY"},
		{"an EC public key is refused", clerkauth.Config{PublishableKey: publishableKey, JWTKey: ecKey, AllowedOrigins: []string{appOrigin}}, "not an RSA key"},
		{"no allowed origin is refused", clerkauth.Config{PublishableKey: publishableKey, JWTKey: pemKey}, "no allowed origins"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := clerkauth.NewVerifier(tc.cfg)
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want one saying %q", err, tc.err)
			}
		})
	}
}
