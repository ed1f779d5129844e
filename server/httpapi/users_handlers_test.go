package httpapi

// Changing the e-mail address and deleting the account over HTTP: the real router, the accounts
// service on SQLite and Postgres, codes read from the dev outbox, every answer checked against the
// OpenAPI document.

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"patrimonio/server/account"
)

// outboxMails lists the mails to the address with the purpose, through GET /api/v1/dev/outbox.
func (c *authClient) outboxMails(email, purpose string) []account.OutboxMail {
	c.s.t.Helper()
	var mails, out []account.OutboxMail
	c.expect(c.call("GET", "/api/v1/dev/outbox?to="+email, nil), "GET", "/api/v1/dev/outbox", 200, &mails)
	for _, m := range mails {
		if m.Purpose == purpose {
			out = append(out, m)
		}
	}
	return out
}

func TestChangingTheEmailOverHTTP(t *testing.T) {
	authDialects(t, func(t *testing.T, s *authServer) {
		s.client().signUp("bob@example.com")
		c := s.client()
		c.signUp("ana@example.com")
		phone := s.client()
		phone.do("POST", "/api/v1/auth/signin", map[string]string{"email": "ana@example.com", "password": password}, 200, nil)

		// Ten minutes later the proof of signing up has expired: 403 until re-verified.
		s.clock.Advance(10 * time.Minute)
		rec := c.call("POST", "/api/v1/users/email", map[string]string{"email": "nueva@example.com"})
		c.expect(rec, "POST", "/api/v1/users/email", 403, nil)
		failure(t, rec, 403, "reverification_required", "Confirma tu identidad para continuar.")
		c.do("POST", "/api/v1/auth/reverify", map[string]string{"method": "password", "password": password}, 200, nil)

		rec = c.call("POST", "/api/v1/users/email", map[string]string{"email": "pepe"})
		c.expect(rec, "POST", "/api/v1/users/email", 400, nil)
		// The body is checked against the shared schema first (validate.go).
		failure(t, rec, 400, "invalid", "Datos no válidos: email: Correo electrónico no válido.")

		var pending struct {
			PendingEmail string    `json:"pendingEmail"`
			ExpiresAt    time.Time `json:"expiresAt"`
		}
		c.do("POST", "/api/v1/users/email", map[string]string{"email": "Nueva@Example.com"}, 202, &pending)
		if pending.PendingEmail != "nueva@example.com" || !pending.ExpiresAt.Equal(s.clock.Now().Add(15*time.Minute)) {
			t.Fatalf("pending change %+v", pending)
		}
		// Asking again at once: 429 with the wait.
		rec = c.call("POST", "/api/v1/users/email", map[string]string{"email": "otra@example.com"})
		c.expect(rec, "POST", "/api/v1/users/email", 429, nil)
		if rec.Header().Get("Retry-After") != "60" {
			t.Fatalf("Retry-After %q", rec.Header().Get("Retry-After"))
		}

		code := c.outboxCode("nueva@example.com", "change_email")
		rec = c.call("POST", "/api/v1/users/email/verify", map[string]string{"code": otherSixDigits(code)})
		c.expect(rec, "POST", "/api/v1/users/email/verify", 400, nil)
		failure(t, rec, 400, "invalid", "El código no es correcto.")
		var changed userEnvelope
		c.do("POST", "/api/v1/users/email/verify", map[string]string{"code": code}, 200, &changed)
		if changed.User.Email != "nueva@example.com" || !changed.User.EmailVerified {
			t.Fatalf("after the change %+v", changed.User)
		}
		// This tab goes on; the phone's session has ended.
		var me meAnswer
		c.do("GET", "/api/v1/me", nil, 200, &me)
		if me.User.Email != "nueva@example.com" {
			t.Fatalf("me %+v", me.User)
		}
		failure(t, phone.call("GET", "/api/v1/workspaces", nil), 401, "unauthorized", "")
		if notices := c.outboxMails("ana@example.com", "email_changed"); len(notices) != 1 || !strings.Contains(notices[0].Text, "n***@example.com") {
			t.Fatalf("notices to the old address %+v", notices)
		}

		// Bob's address: asked like any other, refused when the code comes back, in English too.
		s.clock.Advance(time.Minute)
		c.do("POST", "/api/v1/users/email", map[string]string{"email": "bob@example.com"}, 202, nil)
		c.lang = "en"
		rec = c.call("POST", "/api/v1/users/email/verify", map[string]string{"code": c.outboxCode("bob@example.com", "change_email")})
		c.expect(rec, "POST", "/api/v1/users/email/verify", 409, nil)
		failure(t, rec, 409, "conflict", "That e-mail address cannot be used. Choose another one.")
		c.do("GET", "/api/v1/me", nil, 200, &me)
		if me.User.Email != "nueva@example.com" {
			t.Fatalf("a refused change changed the address to %s", me.User.Email)
		}
	})
}

// otherSixDigits is a six-digit code that is not code.
func otherSixDigits(code string) string {
	if code == "000000" {
		return "000001"
	}
	return "000000"
}

// teamWorkspace makes a team workspace with members straight in the database (this fixture has
// no workspace service).
func (s *authServer) teamWorkspace(name string, roles map[string]string) string {
	s.t.Helper()
	id := uuid.NewString()
	if _, err := s.db.Exec(s.t.Context(), `INSERT INTO workspaces (id, name, kind, created_at) VALUES (?, ?, 'team', ?)`, id, name, s.clock.Now()); err != nil {
		s.t.Fatal(err)
	}
	for userID, role := range roles {
		if _, err := s.db.Exec(s.t.Context(), `INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)`,
			id, userID, role, s.clock.Now()); err != nil {
			s.t.Fatal(err)
		}
	}
	return id
}

func TestDeletingTheAccountOverHTTP(t *testing.T) {
	authDialects(t, func(t *testing.T, s *authServer) {
		var bob, ana meAnswer
		b := s.client()
		b.signUp("bob@example.com")
		b.do("GET", "/api/v1/me", nil, 200, &bob)
		c := s.client()
		c.signUp("ana@example.com")
		c.do("GET", "/api/v1/me", nil, 200, &ana)
		family := s.teamWorkspace("Familia", map[string]string{ana.User.ID: "owner", bob.User.ID: "viewer"})

		s.clock.Advance(10 * time.Minute)
		rec := c.call("DELETE", "/api/v1/users/", nil)
		c.expect(rec, "DELETE", "/api/v1/users/", 403, nil)
		failure(t, rec, 403, "reverification_required", "")
		c.do("POST", "/api/v1/auth/reverify", map[string]string{"method": "password", "password": password}, 200, nil)

		// The last owner of a workspace with other members is refused, with the reason.
		rec = c.call("DELETE", "/api/v1/users/", nil)
		c.expect(rec, "DELETE", "/api/v1/users/", 409, nil)
		failure(t, rec, 409, "conflict", "No puedes eliminar tu cuenta: eres el único propietario de «Familia», que tiene otros miembros. "+
			"Haz propietario a otro miembro o elimina ese espacio de trabajo antes.")
		c.do("GET", "/api/v1/me", nil, 200, nil)

		// Cross-site requests cannot delete accounts.
		failure(t, c.call("DELETE", "/api/v1/users/", nil, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"), 403, "forbidden", "")

		if _, err := s.db.Exec(t.Context(), `UPDATE memberships SET role = 'owner' WHERE workspace_id = ? AND user_id = ?`, family, bob.User.ID); err != nil {
			t.Fatal(err)
		}
		old := c.token
		rec = c.do("DELETE", "/api/v1/users/", nil, 204, nil)
		if rec.Header().Get("Clear-Site-Data") != `"cache", "cookies", "storage"` {
			t.Fatalf("Clear-Site-Data %q", rec.Header().Get("Clear-Site-Data"))
		}
		var cleared *http.Cookie
		for _, ck := range rec.Result().Cookies() {
			if ck.Name == SessionCookie {
				cleared = ck
			}
		}
		if cleared == nil || cleared.MaxAge >= 0 || cleared.Value != "" || c.token != "" {
			t.Fatalf("the session cookie was not deleted: %+v", cleared)
		}
		c.token = old
		failure(t, c.call("GET", "/api/v1/workspaces", nil), 401, "unauthorized", "")
		// The account is gone: signing in answers like an unknown address.
		failure(t, s.client().call("POST", "/api/v1/auth/signin", map[string]string{"email": "ana@example.com", "password": password}),
			401, "unauthorized", "El correo electrónico o la contraseña no son correctos.")
		// Bob keeps the family workspace.
		b.do("GET", "/api/v1/me", nil, 200, &bob)
		if len(bob.Workspaces) != 2 {
			t.Fatalf("Bob's workspaces %+v", bob.Workspaces)
		}
	})
}
