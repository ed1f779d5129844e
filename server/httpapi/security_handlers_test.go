package httpapi

// Issue 11 over HTTP (security_handlers.go, input.go, the cookie), on SQLite and on Postgres, with
// every answer checked against the OpenAPI document.

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"patrimonio/server/account"
	"patrimonio/server/config"
)

// Point 5: a taken address gets the same answer as a free one, and no session either way.
func TestSignUpAnswersTheSameForATakenAddressOverHTTP(t *testing.T) {
	authDialects(t, func(t *testing.T, s *authServer) {
		s.client().signUp("ana@example.com")
		free := s.client().do("POST", "/api/v1/auth/signup", map[string]string{"email": "bea@example.com", "password": password}, 202, nil)
		taken := s.client().do("POST", "/api/v1/auth/signup", map[string]string{"email": "ana@example.com", "password": password}, 202, nil)
		if strings.Replace(free.Body.String(), "bea@", "ana@", 1) != taken.Body.String() {
			t.Fatalf("bodies differ: %s / %s", free.Body, taken.Body)
		}
		if len(free.Result().Cookies()) != 0 || len(taken.Result().Cookies()) != 0 {
			t.Fatal("a sign-up set a cookie")
		}
		var mails []account.OutboxMail
		c := s.client()
		c.expect(c.call("GET", "/api/v1/dev/outbox?to=ana@example.com", nil), "GET", "/api/v1/dev/outbox", 200, &mails)
		if mails[len(mails)-1].Purpose != "signup_exists" && mails[0].Purpose != "signup_exists" {
			t.Fatalf("the owner was not told: %+v", mails)
		}
	})
}

// Before its address is verified an account gets no authenticator app (nor a passkey:
// passkey_handlers_test.go): whoever signed up may not own the address, and the factor would
// outlive the owner's sign-up. 403 forbidden, in the request's language.
func TestAnAuthenticatorNeedsAVerifiedAddressOverHTTP(t *testing.T) {
	authDialects(t, func(t *testing.T, s *authServer) {
		c := s.client()
		c.signUpUnverified("ana@example.com")
		rec := c.call("POST", "/api/v1/auth/totp/setup", nil)
		c.expect(rec, "POST", "/api/v1/auth/totp/setup", 403, nil)
		failure(t, rec, 403, "forbidden", "Verifica primero tu correo electrónico con el código que te hemos enviado.")
		rec = c.call("POST", "/api/v1/auth/totp/enable", map[string]string{"code": "123456"})
		c.expect(rec, "POST", "/api/v1/auth/totp/enable", 403, nil)
		c.lang = "en"
		failure(t, c.call("POST", "/api/v1/auth/totp/setup", nil), 403, "forbidden", "Verify your e-mail address first, with the code we e-mailed you.")
		// Verified, the same session sets one up.
		c.do("POST", "/api/v1/auth/email/verify", map[string]string{"code": c.outboxCode("ana@example.com", "verify_email")}, 200, nil)
		c.do("POST", "/api/v1/auth/totp/setup", nil, 200, nil)
	})
}

// Sign-up and its resend mail an address the caller chooses: one client (an IPv4 address, an IPv6
// /64) may ask for account.Config.SignUpRequestsIP of them together per throttle window. Past it
// the answer is 429 with the wait, and nothing is sent.
func TestSignUpsAreLimitedPerClientOverHTTP(t *testing.T) {
	authDialects(t, func(t *testing.T, s *authServer) {
		limit := s.accounts.Config().SignUpRequestsIP
		signUp := func(c *authClient, email string) *httptest.ResponseRecorder {
			t.Helper()
			rec := c.call("POST", "/api/v1/auth/signup", map[string]string{"email": email, "password": password})
			c.expect(rec, "POST", "/api/v1/auth/signup", rec.Code, nil)
			return rec
		}
		c := s.client()
		for i := range limit - 1 {
			if rec := signUp(c, fmt.Sprintf("stranger%d@example.com", i)); rec.Code != 202 {
				t.Fatalf("sign-up %d: %d %s", i, rec.Code, rec.Body)
			}
		}
		c.do("POST", "/api/v1/auth/signup/resend", map[string]string{"email": "stranger0@example.com"}, 202, nil) // the last one allowed
		rec := signUp(c, "one-too-many@example.com")
		failure(t, rec, 429, "too_many_requests", "Demasiados registros desde esta conexión. Vuelve a intentarlo dentro de 15 minutos.")
		if rec.Header().Get("Retry-After") != "900" {
			t.Fatalf("Retry-After %q", rec.Header().Get("Retry-After"))
		}
		rec = c.call("POST", "/api/v1/auth/signup/resend", map[string]string{"email": "stranger1@example.com"})
		c.expect(rec, "POST", "/api/v1/auth/signup/resend", 429, nil)
		var mails []account.OutboxMail
		c.expect(c.call("GET", "/api/v1/dev/outbox?to=one-too-many@example.com", nil), "GET", "/api/v1/dev/outbox", 200, &mails)
		if len(mails) != 0 {
			t.Fatalf("a refused sign-up sent %+v", mails)
		}

		// Another client is not refused; all the addresses of one IPv6 /64 are one client.
		other := s.client()
		other.ip = "192.0.2.2"
		other.do("POST", "/api/v1/auth/signup", map[string]string{"email": "bea@example.com", "password": password}, 202, nil)
		for i := range limit + 1 {
			v6 := s.client()
			v6.ip = fmt.Sprintf("[2001:db8:1:2::%x]", i+1)
			if rec := signUp(v6, fmt.Sprintf("v6-%d@example.com", i)); (i < limit) != (rec.Code == 202) {
				t.Fatalf("sign-up %d from the /64: %d %s", i, rec.Code, rec.Body)
			}
		}

		// Once the window has passed, the first client may sign up again.
		s.clock.Advance(15 * time.Minute)
		c.do("POST", "/api/v1/auth/signup", map[string]string{"email": "later@example.com", "password": password}, 202, nil)
	})
}

// Point 8: on https the session cookie is __Host-patrimonio_session, and it signs the user in.
func TestTheSessionCookieHasTheHostPrefixOnHTTPS(t *testing.T) {
	authDialects(t, func(t *testing.T, s *authServer) {
		c := s.client()
		c.do("POST", "/api/v1/auth/signup", map[string]string{"email": "ana@example.com", "password": password}, 202, nil)
		rec := c.call("POST", "/api/v1/auth/signup/verify", map[string]string{"email": "ana@example.com", "code": c.outboxCode("ana@example.com", "verify_email")})
		c.expect(rec, "POST", "/api/v1/auth/signup/verify", 200, nil)
		ck := rec.Result().Cookies()
		if len(ck) != 1 || ck[0].Name != "__Host-patrimonio_session" || !ck[0].Secure || ck[0].Path != "/" || ck[0].Domain != "" || !ck[0].HttpOnly {
			t.Fatalf("cookie %+v", ck)
		}
		// The client keeps it under its name: the authClient sends patrimonio_session, which an
		// https server does not read.
		req, _ := http.NewRequest("GET", "/api/v1/me", nil)
		req.AddCookie(ck[0])
		if u, _, err := s.api.authn.Authenticate(req); err != nil || u == nil || u.Email != "ana@example.com" {
			t.Fatalf("the __Host- cookie does not authenticate: %v %v", u, err)
		}
		failure(t, c.call("GET", "/api/v1/auth/sessions", nil), 401, "unauthorized", "")
		// Sign-out deletes it under the same name.
		rec = c.call("POST", "/api/v1/auth/signout", nil)
		if out := rec.Result().Cookies(); len(out) != 1 || out[0].Name != "__Host-patrimonio_session" || out[0].MaxAge >= 0 {
			t.Fatalf("sign-out cookie %+v", out)
		}
	}, func(c *config.Config) {
		c.PublicURL = "https://patrimonio.example"
		c.AllowedOrigins = "http://localhost:8080"
	})
}

// Point 9: a NUL byte or a malformed id is a 400 with a clear message, never a 500 (Postgres).
func TestNULBytesAndMalformedIDsAreRefusedBeforeTheDatabase(t *testing.T) {
	authDialects(t, func(t *testing.T, s *authServer) {
		c := s.client()
		c.signUp("ana@example.com")
		for _, body := range []string{
			`{"email":"ana\u0000@example.com","password":"lentejas con chorizo 42"}`,
			`{"email":"ana@example.com","password":"lentejas\u0000con chorizo 42"}`,
		} {
			rec := s.client().call("POST", "/api/v1/auth/signin", body)
			failure(t, rec, 400, "invalid", "El texto enviado contiene caracteres no válidos (por ejemplo, un byte nulo).")
			rec = s.client().call("POST", "/api/v1/auth/password/forgot", strings.Replace(body, `,"password":"lentejas con chorizo 42"`, "", 1))
			if rec.Code != 400 && rec.Code != 202 {
				t.Fatalf("forgot: %d %s", rec.Code, rec.Body)
			}
		}
		for _, path := range []string{"/api/v1/workspaces/not-a-uuid", "/api/v1/workspaces/" + url.PathEscape("0190\x00"), "/api/v1/invitations/x'1/accept"} {
			method := "GET"
			if strings.HasSuffix(path, "accept") {
				method = "POST"
			}
			rec := c.call(method, path, nil)
			if rec.Code != 400 || !strings.Contains(rec.Body.String(), "debe ser un UUID") {
				t.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body)
			}
		}
		rec := c.call("DELETE", "/api/v1/auth/sessions/12345", nil)
		failure(t, rec, 400, "invalid", `El identificador "id" no es válido: debe ser un UUID.`)
		rec = c.call("GET", "/api/v1/dev/outbox?to="+url.QueryEscape("ana\x00@example.com"), nil)
		failure(t, rec, 400, "invalid", "El texto enviado contiene caracteres no válidos (por ejemplo, un byte nulo).")
	})
}

// Points 3 and 4 over HTTP: the sessions list, signing out other devices, changing the password.
func TestSessionsAndPasswordChangeOverHTTP(t *testing.T) {
	authDialects(t, func(t *testing.T, s *authServer) {
		c := s.client()
		c.signUp("ana@example.com")
		phone := s.client()
		phone.ip = "198.51.100.9"
		phone.do("POST", "/api/v1/auth/signin", map[string]string{"email": "ana@example.com", "password": password}, 200, nil)
		var list []sessionJSON
		c.do("GET", "/api/v1/auth/sessions", nil, 200, &list)
		if len(list) != 2 {
			t.Fatalf("sessions %+v", list)
		}
		var other sessionJSON
		for _, s := range list {
			if !s.Current {
				other = s
			}
		}
		if other.IP != "198.51.100.9" {
			t.Fatalf("sessions %+v", list)
		}
		c.expect(c.call("DELETE", "/api/v1/auth/sessions/"+other.ID, nil), "DELETE", "/api/v1/auth/sessions/{id}", 204, nil)
		failure(t, phone.call("GET", "/api/v1/auth/sessions", nil), 401, "unauthorized", "")
		failure(t, c.call("DELETE", "/api/v1/auth/sessions/"+other.ID, nil), 404, "not_found", "")

		phone.do("POST", "/api/v1/auth/signin", map[string]string{"email": "ana@example.com", "password": password}, 200, nil)
		var ended struct{ Ended int }
		c.do("POST", "/api/v1/auth/sessions/signout-others", nil, 200, &ended)
		if ended.Ended != 1 {
			t.Fatalf("ended %d", ended.Ended)
		}
		failure(t, phone.call("GET", "/api/v1/auth/sessions", nil), 401, "unauthorized", "")

		phone.do("POST", "/api/v1/auth/signin", map[string]string{"email": "ana@example.com", "password": password}, 200, nil)
		const next = "garbanzos con espinacas 7"
		failure(t, c.call("POST", "/api/v1/auth/password", map[string]string{"currentPassword": "wrong wrong", "newPassword": next}),
			400, "invalid", "La contraseña actual no es correcta.")
		failure(t, c.call("POST", "/api/v1/auth/password", map[string]string{"currentPassword": password, "newPassword": "   \t       "}),
			400, "invalid", "La contraseña no puede estar formada solo por espacios.")
		s.clock.Advance(11 * time.Minute)
		failure(t, c.call("POST", "/api/v1/auth/password", map[string]string{"currentPassword": password, "newPassword": next}),
			403, "reverification_required", "")
		c.do("POST", "/api/v1/auth/reverify", map[string]string{"method": "password", "password": password}, 200, nil)
		c.do("POST", "/api/v1/auth/password", map[string]string{"currentPassword": password, "newPassword": next}, 204, nil)
		failure(t, phone.call("GET", "/api/v1/auth/sessions", nil), 401, "unauthorized", "")
		c.do("GET", "/api/v1/auth/sessions", nil, 200, nil)
		s.client().do("POST", "/api/v1/auth/signin", map[string]string{"email": "ana@example.com", "password": next}, 200, nil)
	})
}

// Point 4: the reset, the same for known and unknown addresses.
func TestPasswordResetOverHTTP(t *testing.T) {
	authDialects(t, func(t *testing.T, s *authServer) {
		c := s.client()
		c.signUp("ana@example.com")
		known := s.client().do("POST", "/api/v1/auth/password/forgot", map[string]string{"email": "ana@example.com"}, 202, nil)
		unknown := s.client().do("POST", "/api/v1/auth/password/forgot", map[string]string{"email": "nadie@example.com"}, 202, nil)
		if known.Body.String() != unknown.Body.String() {
			t.Fatalf("answers differ: %s / %s", known.Body, unknown.Body)
		}
		code := c.outboxCode("ana@example.com", "reset_password")
		const next = "garbanzos con espinacas 7"
		failure(t, s.client().call("POST", "/api/v1/auth/password/reset", map[string]string{"email": "nadie@example.com", "code": code, "password": next}),
			400, "invalid", "El enlace o el código para restablecer la contraseña no es válido o ha caducado. Pide uno nuevo.")
		s.client().do("POST", "/api/v1/auth/password/reset", map[string]string{"email": "ana@example.com", "code": code, "password": next}, 204, nil)
		failure(t, c.call("GET", "/api/v1/auth/sessions", nil), 401, "unauthorized", "")
		s.client().do("POST", "/api/v1/auth/signin", map[string]string{"email": "ana@example.com", "password": next}, 200, nil)
	})
}

// Point 6 over HTTP: a stranger's failures do not lock the owner out.
func TestAStrangersFailedSignInsDoNotLockTheOwnerOutOverHTTP(t *testing.T) {
	authDialects(t, func(t *testing.T, s *authServer) {
		s.client().signUp("ana@example.com")
		stranger := s.client()
		stranger.ip = "203.0.113.66"
		for range 5 {
			stranger.do("POST", "/api/v1/auth/signin", map[string]string{"email": "ana@example.com", "password": "guess guess guess"}, 401, nil)
		}
		failure(t, stranger.call("POST", "/api/v1/auth/signin", map[string]string{"email": "ana@example.com", "password": password}), 429, "too_many_requests", "")
		s.client().do("POST", "/api/v1/auth/signin", map[string]string{"email": "ana@example.com", "password": password}, 200, nil)
	})
}

// The profile image: over the JSON body limit (1 MiB) but under 10 MB, checked by content.
func TestTheProfileImageOverHTTP(t *testing.T) {
	authDialects(t, func(t *testing.T, s *authServer) {
		c := s.client()
		c.signUp("ana@example.com")
		img := image.NewRGBA(image.Rect(0, 0, 900, 900))
		noise := rand.New(rand.NewPCG(1, 2))
		for i := range img.Pix {
			img.Pix[i] = byte(noise.Uint32()) // noise, so that the PNG stays big
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		if buf.Len() <= 1<<20 {
			t.Fatalf("the test image is %d bytes, not over the JSON limit", buf.Len())
		}
		rec := c.call("PUT", "/api/v1/users/avatar", buf.String(), "Content-Type", "image/jpeg") // the declared type does not matter
		var env userEnvelope
		c.expect(rec, "PUT", "/api/v1/users/avatar", 200, &env)
		if !env.User.HasAvatar {
			t.Fatalf("user %+v", env.User)
		}
		rec = c.call("GET", "/api/v1/users/avatar", nil)
		if rec.Code != 200 || rec.Header().Get("Content-Type") != "image/png" {
			t.Fatalf("GET avatar: %d %s", rec.Code, rec.Header().Get("Content-Type"))
		}
		if cfg, err := png.DecodeConfig(rec.Body); err != nil || cfg.Width != 256 || cfg.Height != 256 {
			t.Fatalf("stored %+v %v", cfg, err)
		}
		failure(t, c.call("PUT", "/api/v1/users/avatar", "not an image, although called foto.png", "Content-Type", "image/png"),
			400, "invalid", "La imagen debe ser JPG, PNG, GIF o WEBP.")
		failure(t, s.client().call("PUT", "/api/v1/users/avatar", buf.String(), "Content-Type", "image/png"), 401, "unauthorized", "")
		c.expect(c.call("DELETE", "/api/v1/users/avatar", nil), "DELETE", "/api/v1/users/avatar", 204, nil)
		failure(t, c.call("GET", "/api/v1/users/avatar", nil), 404, "not_found", "")

		c.expect(c.call("PUT", "/api/v1/users/username", map[string]string{"username": "ana.g"}), "PUT", "/api/v1/users/username", 200, &env)
		if env.User.Username == nil || *env.User.Username != "ana.g" {
			t.Fatalf("username %+v", env.User.Username)
		}
		b := s.client()
		b.signUp("bea@example.com")
		failure(t, b.call("PUT", "/api/v1/users/username", map[string]string{"username": "ANA.G"}), 409, "conflict", "Ese nombre de usuario ya está en uso. Elige otro.")
	})
}
