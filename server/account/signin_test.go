package account_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"patrimonio/core"
	"patrimonio/server/account"
	"patrimonio/server/authz"
)

func TestSignUpCreatesTheUserThePersonalWorkspaceASessionAndAVerificationCode(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, token := e.signUp(t, "  Ana.Garcia@Example.COM ")
		if u.Email != "ana.garcia@example.com" {
			t.Errorf("email = %q, want it trimmed and lower case", u.Email)
		}
		if u.EmailVerified() || !u.HasPassword || u.IsAdmin || u.TOTPEnabled {
			t.Errorf("new user = %+v", u)
		}
		if u.OnboardingStep != account.StepVerifyEmail {
			t.Errorf("onboarding step = %q, want verify_email", u.OnboardingStep)
		}
		ws, err := e.svc.Users.Workspaces(e.ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(ws) != 1 || ws[0].Kind != authz.Personal || ws[0].Role != authz.Owner || ws[0].Name != "Personal" {
			t.Fatalf("workspaces = %+v, want one personal workspace owned by the user", ws)
		}
		sess, got := e.authenticate(t, token)
		if got.ID != u.ID || sess.MFAPending || sess.ReverifiedAt.IsZero() {
			t.Fatalf("session = %+v for %s", sess, got.ID)
		}
		if code := e.lastCode(t, u.Email, "verify_email"); len(code) != 6 {
			t.Fatalf("code %q", code)
		}
		var stored string
		if err := e.db.QueryRow(e.ctx, `SELECT password_hash FROM users WHERE id = ?`, u.ID).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(stored, "$argon2id$") || strings.Contains(stored, goodPassword) {
			t.Fatalf("stored password %q", stored)
		}
		var tokens int
		if err := e.db.QueryRow(e.ctx, `SELECT COUNT(*) FROM sessions WHERE id = ?`, token).Scan(&tokens); err != nil {
			t.Fatal(err)
		}
		if tokens != 0 {
			t.Fatal("the session token itself is stored")
		}
	})
}

func TestSignUpRefusesBadInput(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		e.signUp(t, "taken@example.com")
		tests := []struct {
			name, email, password, lang string
			wantCode, wantMessage       string
		}{
			{"a taken address in another case is a conflict", "TAKEN@example.com", goodPassword, "es", core.ECONFLICT, "Ya existe una cuenta con este correo electrónico."},
			{"an address without domain dot is invalid", "ana@localhost", goodPassword, "es", core.EINVALID, "Introduce una dirección de correo electrónico válida."},
			{"an address with a display name is invalid", "Ana <ana@example.com>", goodPassword, "en", core.EINVALID, "Enter a valid e-mail address."},
			{"an empty address is invalid", "", goodPassword, "es", core.EINVALID, "Introduce una dirección de correo electrónico válida."},
			{"a 9-character password is too short", "new1@example.com", "Xk29#pLmq", "es", core.EINVALID, "La contraseña es demasiado corta: debe tener al menos 10 caracteres."},
			{"a too short password is explained in English", "new2@example.com", "Xk29#pLmq", "en", core.EINVALID, "The password is too short: it must have at least 10 characters."},
			{"a common password is compromised", "new3@example.com", "P@ssw0rd2024", "es", core.EINVALID, "Esta contraseña es demasiado común y aparece en filtraciones de contraseñas; elige otra."},
			{"a common password is compromised in English", "new4@example.com", "qwertyuiop123", "en", core.EINVALID, "This password is too common and appears in password leaks; choose another one."},
			{"a 257-character password is too long", "new5@example.com", strings.Repeat("ñ", 257), "es", core.EINVALID, "La contraseña es demasiado larga: puede tener como máximo 256 caracteres."},
			{"an empty password is refused", "new6@example.com", "", "en", core.EINVALID, "Enter a password."},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				ctx := core.WithLanguage(e.ctx, tt.lang)
				_, _, err := e.svc.Signup.SignUp(ctx, tt.email, tt.password, meta)
				wantCode(t, err, tt.wantCode)
				if got := core.ErrorMessage(err); got != tt.wantMessage {
					t.Fatalf("message = %q, want %q", got, tt.wantMessage)
				}
			})
		}
		// Exactly ten characters (counted as characters, not bytes) is enough.
		if _, _, err := e.svc.Signup.SignUp(e.ctx, "ten@example.com", "ñandú-ßé9Z", meta); err != nil {
			t.Fatalf("a 10-character password was refused: %v", err)
		}
	})
}

func TestSignInAnswersAlikeForAWrongPasswordAnUnknownAddressAndAPasswordlessAccount(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, _ := e.signUp(t, "ana@example.com")
		if _, err := e.svc.Users.EnsureUser(e.ctx, "user_clerk1", "clerk.only@example.com"); err != nil {
			t.Fatal(err)
		}
		var answers []string
		for _, try := range []struct{ email, password string }{
			{"ana@example.com", "not the password at all"},
			{"nobody@example.com", "not the password at all"},
			{"clerk.only@example.com", "not the password at all"},
			{"nobody@example.com", goodPassword},
		} {
			_, err := e.svc.Sessions.SignIn(e.ctx, try.email, try.password, account.SessionMeta{IP: "198.51.100." + string(rune('1'+len(answers)))})
			answers = append(answers, core.ErrorCode(err)+" "+core.ErrorMessage(err))
		}
		for _, a := range answers {
			if a != "unauthorized El correo electrónico o la contraseña no son correctos." {
				t.Fatalf("answers differ or are not the expected one: %q", answers)
			}
		}
		res, err := e.svc.Sessions.SignIn(e.ctx, "ANA@example.com", goodPassword, meta)
		if err != nil {
			t.Fatal(err)
		}
		if res.User.ID != u.ID || res.MFARequired || res.Token == "" {
			t.Fatalf("result = %+v", res)
		}
	})
}

func TestEverySignInGetsANewSessionToken(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		_, first := e.signUp(t, "ana@example.com")
		seen := map[string]bool{first: true}
		for range 3 {
			res, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", goodPassword, meta)
			if err != nil {
				t.Fatal(err)
			}
			if seen[res.Token] {
				t.Fatal("a sign-in reused a session token")
			}
			seen[res.Token] = true
			e.authenticate(t, res.Token)
		}
	})
}

func TestFailedSignInsAreThrottledPerAccountAndClientAcrossInstancesAndForgottenAfterTheWindow(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		e.signUp(t, "ana@example.com")
		other := e.service(t, nil) // a second server instance on the same database
		stranger := account.SessionMeta{IP: "203.0.113.7"}
		for i := range 5 {
			svc := e.svc
			if i%2 == 1 {
				svc = other
			}
			_, err := svc.Sessions.SignIn(e.ctx, "ana@example.com", "wrong password "+string(rune('a'+i)), stranger)
			wantCode(t, err, core.EUNAUTHORIZED)
		}
		e.clock.Advance(time.Minute)
		// The stranger's sixth try is refused even with the right password, by either instance.
		for _, svc := range []*account.Services{e.svc, other} {
			_, err := svc.Sessions.SignIn(e.ctx, "ana@example.com", goodPassword, stranger)
			wantCode(t, err, core.ETOOMANY)
			var retry *core.Error
			if !errors.As(err, &retry) || retry.RetryAfter <= 0 {
				t.Fatalf("%v does not say when to retry", err)
			}
			if retry.RetryAfter != 14*time.Minute {
				t.Fatalf("retry after %v, want 14m (the first failure leaves the 15-minute window)", retry.RetryAfter)
			}
			if msg := core.ErrorMessage(err); msg != "Demasiados intentos fallidos. Vuelve a intentarlo dentro de 14 minutos." {
				t.Fatalf("message %q", msg)
			}
		}
		// The owner, on another IP, is not locked out by the stranger.
		if _, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", goodPassword, account.SessionMeta{IP: "198.51.100.20"}); err != nil {
			t.Fatalf("a stranger's failures locked the owner out: %v", err)
		}
		// An unknown address is throttled the same way (no enumeration through 429s).
		for range 5 {
			_, err := e.svc.Sessions.SignIn(e.ctx, "ghost@example.com", "wrong password", account.SessionMeta{IP: "203.0.113.50"})
			wantCode(t, err, core.EUNAUTHORIZED)
		}
		_, err := e.svc.Sessions.SignIn(e.ctx, "ghost@example.com", "wrong password", account.SessionMeta{IP: "203.0.113.50"})
		wantCode(t, err, core.ETOOMANY)

		e.clock.Advance(14 * time.Minute)
		if _, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", goodPassword, stranger); err != nil {
			t.Fatalf("after the window the right password is refused: %v", err)
		}
	})
}

func TestASuccessfulSignInClearsTheAccountsFailures(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		e.signUp(t, "ana@example.com")
		for range 4 {
			_, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", "wrong password", meta)
			wantCode(t, err, core.EUNAUTHORIZED)
		}
		if _, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", goodPassword, meta); err != nil {
			t.Fatal(err)
		}
		for range 5 {
			_, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", "wrong password", account.SessionMeta{IP: "192.0.2.77"})
			wantCode(t, err, core.EUNAUTHORIZED)
		}
	})
}

func TestFailedSignInsAreThrottledPerIP(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		e.signUp(t, "ana@example.com")
		ip := account.SessionMeta{IP: "2001:db8:1:2::17"}
		for i := range 20 {
			_, err := e.svc.Sessions.SignIn(e.ctx, "victim"+string(rune('a'+i))+"@example.com", "wrong password", ip)
			wantCode(t, err, core.EUNAUTHORIZED)
		}
		// Another address of the same IPv6 /64 is the same client.
		_, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", goodPassword, account.SessionMeta{IP: "2001:db8:1:2::99"})
		wantCode(t, err, core.ETOOMANY)
		// Another /64 is not.
		if _, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", goodPassword, account.SessionMeta{IP: "2001:db8:1:3::17"}); err != nil {
			t.Fatal(err)
		}
	})
}

func TestParallelWrongPasswordsCannotExceedTheLimit(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		e.signUp(t, "ana@example.com")
		const n = 16
		var wg sync.WaitGroup
		codes := make([]string, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", "wrong password", account.SessionMeta{IP: "198.51.100.200"})
				codes[i] = core.ErrorCode(err)
			}()
		}
		wg.Wait()
		counts := map[string]int{}
		for _, c := range codes {
			counts[c]++
		}
		if counts[core.EUNAUTHORIZED] > 5 || counts[core.EUNAUTHORIZED]+counts[core.ETOOMANY] != n {
			t.Fatalf("outcomes %v: more than 5 password checks got through, or another error", counts)
		}
		// A burst may also be refused whole (every reservation sees the others); what matters is
		// that the failures recorded stay within the limit.
		var recorded int
		if err := e.db.QueryRow(e.ctx, `SELECT COUNT(*) FROM auth_throttle`).Scan(&recorded); err != nil {
			t.Fatal(err)
		}
		if recorded != 3*counts[core.EUNAUTHORIZED] {
			t.Fatalf("%d throttle rows for %d failures (per account and client, per IP, per account each)", recorded, counts[core.EUNAUTHORIZED])
		}
	})
}

func TestConfiguredAdminsAreAdminsAndTheFlagIsStoredAtSignIn(t *testing.T) {
	dialectsWith(t, func(c *account.Config) { c.AdminEmails = []string{"Boss@Example.com"} }, func(t *testing.T, e *env) {
		boss, _ := e.signUp(t, "boss@example.com")
		if boss.IsAdmin {
			t.Fatal("a configured admin address is an admin before it is verified")
		}
		boss = e.verify(t, boss)
		if !boss.IsAdmin {
			t.Fatal("a verified configured admin address is not an admin")
		}
		var stored bool
		if err := e.db.QueryRow(e.ctx, `SELECT is_admin FROM users WHERE id = ?`, boss.ID).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if !stored {
			t.Fatal("users.is_admin was not stored at verification")
		}
		ana, _ := e.signUp(t, "ana@example.com")
		if ana.IsAdmin {
			t.Fatal("an ordinary user is an admin")
		}
		u, err := e.svc.Users.SetAdmin(e.ctx, "ANA@example.com", true)
		if err != nil || !u.IsAdmin {
			t.Fatalf("grant: %+v %v", u, err)
		}
		if u, err = e.svc.Users.SetAdmin(e.ctx, "ana@example.com", false); err != nil || u.IsAdmin {
			t.Fatalf("revoke: %+v %v", u, err)
		}
		if u, err = e.svc.Users.SetAdmin(e.ctx, "boss@example.com", false); err != nil || !u.IsAdmin {
			t.Fatalf("a configured admin stops being one when its flag is revoked: %+v %v", u, err)
		}
		_, err = e.svc.Users.SetAdmin(e.ctx, "nobody@example.com", true)
		wantCode(t, err, core.ENOTFOUND)
	})
}

func TestEnsureUserProvisionsLinksAndRefusesAnAddressOfAnotherClerkUser(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, err := e.svc.Users.EnsureUser(e.ctx, "user_1", "New.Person@example.com")
		if err != nil {
			t.Fatal(err)
		}
		if u.Email != "new.person@example.com" || !u.EmailVerified() || u.HasPassword || u.OnboardingStep != account.StepPersonalInfo || u.ClerkUserID != "user_1" {
			t.Fatalf("provisioned user = %+v", u)
		}
		if ws, _ := e.svc.Users.Workspaces(e.ctx, u.ID); len(ws) != 1 {
			t.Fatalf("workspaces = %+v", ws)
		}
		again, err := e.svc.Users.EnsureUser(e.ctx, "user_1", "changed@example.com")
		if err != nil || again.ID != u.ID {
			t.Fatalf("second call: %+v %v", again, err)
		}
		local, _ := e.signUp(t, "local@example.com")
		linked, err := e.svc.Users.EnsureUser(e.ctx, "user_2", "local@example.com")
		if err != nil || linked.ID != local.ID || linked.ClerkUserID != "user_2" || !linked.EmailVerified() {
			t.Fatalf("linking: %+v %v", linked, err)
		}
		_, err = e.svc.Users.EnsureUser(e.ctx, "user_3", "local@example.com")
		wantCode(t, err, core.ECONFLICT)
	})
}
