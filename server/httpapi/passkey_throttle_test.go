package httpapi_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"patrimonio/server/passkey/passkeytest"
)

// signInWithPasskey runs login/begin and login/finish with the authenticator's passkey.
func (b *browser) signInWithPasskey(auth *passkeytest.Authenticator) answer {
	b.t.Helper()
	begin := b.do(http.MethodPost, "/api/v1/auth/passkeys/login/begin", nil)
	if begin.status != http.StatusOK {
		b.t.Fatalf("login/begin: %d %s", begin.status, begin.body)
	}
	assertion, err := auth.Get(begin.body, passkeytest.Tamper{})
	if err != nil {
		b.t.Fatal(err)
	}
	return b.do(http.MethodPost, "/api/v1/auth/passkeys/login/finish", map[string]any{"credential": json.RawMessage(assertion)})
}

func TestFailedPasskeySignInsAreThrottledPerIPWithThePasswordSignIns(t *testing.T) {
	onBothDatabases(t, func(t *testing.T, s *passkeyServer) {
		ana := newBrowser(t, s)
		ana.signUp("ana@example.com")
		auth := passkeytest.New(publicURL)
		if a := ana.registerPasskey(auth, ""); a.status != http.StatusCreated {
			t.Fatalf("register: %d %s", a.status, a.body)
		}
		// Every request of this test comes from 127.0.0.1: one IP, allowed 20 failures a window.
		eve := newBrowser(t, s)
		forged := map[string]any{"credential": map[string]any{"id": "AAAA", "rawId": "AAAA", "type": "public-key",
			"response": map[string]any{"clientDataJSON": "e30", "authenticatorData": "AAAA", "signature": "AAAA"}}}
		fail := func(i int) {
			t.Helper()
			if a := eve.do(http.MethodPost, "/api/v1/auth/passkeys/login/finish", forged); a.status != http.StatusUnauthorized {
				t.Fatalf("forged assertion %d: %d %s", i, a.status, a.body)
			}
		}
		for i := range 19 {
			fail(i + 1)
		}
		// A passkey sign-in that works does not count as a failure, nor clear the failures.
		if a := ana.signInWithPasskey(auth); a.status != http.StatusOK {
			t.Fatalf("a right passkey after 19 failures: %d %s", a.status, a.body)
		}
		fail(20)

		// The 21st failure of the window is not even checked: 429 with Retry-After.
		a := eve.do(http.MethodPost, "/api/v1/auth/passkeys/login/finish", forged)
		if a.status != http.StatusTooManyRequests || a.errorCode(t) != "too_many_requests" || a.header.Get("Retry-After") != "900" {
			t.Fatalf("past the limit: %d %s (Retry-After %q)", a.status, a.body, a.header.Get("Retry-After"))
		}
		// The IP is throttled for everything that counts against it: a right passkey too...
		if a := ana.signInWithPasskey(auth); a.status != http.StatusTooManyRequests {
			t.Fatalf("a right passkey while the IP is throttled: %d %s", a.status, a.body)
		}
		// ...and password sign-ins, whose failures share the same per-IP count.
		a = ana.do(http.MethodPost, "/api/v1/auth/signin", map[string]string{"email": "ana@example.com", "password": "una contraseña larga 42"})
		if a.status != http.StatusTooManyRequests || a.header.Get("Retry-After") == "" {
			t.Fatalf("a password sign-in from the throttled IP: %d %s", a.status, a.body)
		}
		var e struct{ Error struct{ Message string } }
		a.json(t, &e)
		if e.Error.Message != "Demasiados intentos fallidos. Vuelve a intentarlo dentro de 15 minutos." {
			t.Fatalf("message %q", e.Error.Message)
		}

		// Once the failures leave the window, passkeys sign in again.
		s.clock.Advance(15 * time.Minute)
		if a := ana.signInWithPasskey(auth); a.status != http.StatusOK {
			t.Fatalf("after the window: %d %s", a.status, a.body)
		}
	})
}
