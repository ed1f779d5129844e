package account_test

// Issue 11: the security holes of the outside review, closed (service level; the HTTP answers are
// in server/httpapi/security_handlers_test.go).

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"patrimonio/core"
	"patrimonio/server/account"
)

// ended records what the service told OnSessionEnded and OnUserEnded.
type ended struct {
	mu       sync.Mutex
	sessions []string
	users    []string
}

func (e *env) watchEnded(t *testing.T) *ended {
	t.Helper()
	rec := &ended{}
	e.withHooks(t, account.Hooks{
		OnSessionEnded: func(id string) { rec.mu.Lock(); rec.sessions = append(rec.sessions, id); rec.mu.Unlock() },
		OnUserEnded:    func(id string) { rec.mu.Lock(); rec.users = append(rec.users, id); rec.mu.Unlock() },
	})
	return rec
}

func (r *ended) has(sessionID string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Contains(r.sessions, sessionID)
}

// signInAgain is another device of the user, signed in with the password.
func (e *env) signInAgain(t *testing.T, email, ip string) string {
	t.Helper()
	res, err := e.svc.Sessions.SignIn(e.ctx, email, goodPassword, account.SessionMeta{UserAgent: "other device", IP: ip})
	if err != nil {
		t.Fatal(err)
	}
	return res.Token
}

func (e *env) alive(token string) bool {
	_, _, err := e.svc.Sessions.Authenticate(e.ctx, token)
	return err == nil
}

// Point 1.
func TestAConfiguredAdminAddressIsAdminOnlyOnceVerified(t *testing.T) {
	dialectsWith(t, func(c *account.Config) { c.AdminEmails = []string{"boss@example.com"} }, func(t *testing.T, e *env) {
		if _, err := e.svc.Signup.Register(e.ctx, "boss@example.com", goodPassword, meta); err != nil {
			t.Fatal(err)
		}
		squatter, err := e.svc.Users.UserByEmail(e.ctx, "boss@example.com")
		if err != nil {
			t.Fatal(err)
		}
		if squatter.IsAdmin {
			t.Fatal("an unverified configured address is an admin")
		}
		// Signing in with the password (not the mailbox) does not make it one either.
		res, err := e.svc.Sessions.SignIn(e.ctx, "boss@example.com", goodPassword, meta)
		if err != nil {
			t.Fatal(err)
		}
		if res.User.IsAdmin {
			t.Fatal("signing in made an unverified configured address an admin")
		}
		var stored bool
		if err := e.db.QueryRow(e.ctx, `SELECT is_admin FROM users WHERE id = ?`, squatter.ID).Scan(&stored); err != nil || stored {
			t.Fatalf("stored is_admin = %v (%v)", stored, err)
		}
		u, _, err := e.svc.Signup.VerifyRegistration(e.ctx, "boss@example.com", e.lastCode(t, "boss@example.com", "verify_email"), meta)
		if err != nil {
			t.Fatal(err)
		}
		if !u.IsAdmin {
			t.Fatal("the verified configured address is not an admin")
		}
	})
}

// Point 2.
func TestRemovingOrReplacingTOTPNeedsAProofWithTheSecondFactor(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, token := e.signUpVerified(t, "ana@example.com")
		secret, _ := e.enableTOTP(t, token)
		sess, u := e.authenticate(t, token)
		// The session was signed in (a fresh proof) before TOTP existed: not enough.
		if sess.ReverifiedAt.IsZero() {
			t.Fatal("the sign-up session holds no proof")
		}
		wantCode(t, e.svc.SecondFactors.DisableTOTP(e.ctx, u, sess), core.EREVERIFY)
		_, err := e.svc.SecondFactors.SetupTOTP(e.ctx, u, sess)
		wantCode(t, err, core.EREVERIFY)
		// A password is not enough, nor an e-mailed code.
		if _, err := e.svc.Reverify.Reverify(e.ctx, u, sess, account.MethodPassword, goodPassword, meta.IP); err != nil {
			t.Fatal(err)
		}
		sess, u = e.authenticate(t, token)
		wantCode(t, e.svc.SecondFactors.DisableTOTP(e.ctx, u, sess), core.EREVERIFY)
		if err := e.svc.Reverify.SendReverifyCode(e.ctx, u); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Reverify.Reverify(e.ctx, u, sess, account.MethodEmail, e.lastCode(t, u.Email, "reverify"), meta.IP); err != nil {
			t.Fatal(err)
		}
		sess, u = e.authenticate(t, token)
		err = e.svc.SecondFactors.DisableTOTP(e.ctx, u, sess)
		wantCode(t, err, core.EREVERIFY)
		if !strings.Contains(core.ErrorMessage(err), "segundo factor") {
			t.Fatalf("message %q does not ask for the second factor", core.ErrorMessage(err))
		}
		// The authenticator code is.
		if _, err := e.svc.Reverify.Reverify(e.ctx, u, sess, account.MethodTOTP, totpOf(t, secret, e.clock.Now()), meta.IP); err != nil {
			t.Fatal(err)
		}
		sess, u = e.authenticate(t, token)
		if err := e.svc.SecondFactors.DisableTOTP(e.ctx, u, sess); err != nil {
			t.Fatal(err)
		}
		// A sign-in completed with the second factor is a proof with it too.
		secret2, _ := e.enableTOTP(t, token)
		res, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", goodPassword, meta)
		if err != nil {
			t.Fatal(err)
		}
		pending, _ := e.authenticate(t, res.Token)
		_, full, err := e.svc.Sessions.SignInSecondFactor(e.ctx, pending, totpOf(t, secret2, e.clock.Now()), "", meta)
		if err != nil {
			t.Fatal(err)
		}
		fs, fu := e.authenticate(t, full)
		if !fs.ReverifiedMFA {
			t.Fatal("a sign-in with the second factor is not a proof with it")
		}
		if err := e.svc.SecondFactors.DisableTOTP(e.ctx, fu, fs); err != nil {
			t.Fatal(err)
		}
	})
}

// The new-user bug: reloading the authenticator step after it was confirmed must not replace it.
func TestReloadingTheAuthenticatorStepDoesNotReplaceAnEnabledAuthenticator(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		_, token := e.signUpVerified(t, "ana@example.com")
		secret, _ := e.enableTOTP(t, token)
		sess, u := e.authenticate(t, token)
		_, err := e.svc.SecondFactors.SetupTOTP(e.ctx, u, sess) // the reload
		wantCode(t, err, core.EREVERIFY)
		_, err = e.svc.SecondFactors.EnableTOTP(e.ctx, u, sess, totpOf(t, secret, e.clock.Now()))
		wantCode(t, err, core.EREVERIFY)
		// The first authenticator still signs in.
		res, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", goodPassword, meta)
		if err != nil {
			t.Fatal(err)
		}
		pending, _ := e.authenticate(t, res.Token)
		if _, _, err := e.svc.Sessions.SignInSecondFactor(e.ctx, pending, totpOf(t, secret, e.clock.Now()), "", meta); err != nil {
			t.Fatalf("the first authenticator no longer signs in: %v", err)
		}
	})
}

// Point 3.
func TestSecurityEventsEndTheOtherSessionsAndTheirConnectionsAtOnce(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		rec := e.watchEnded(t)
		u, token := e.signUp(t, "ana@example.com")
		u = e.verify(t, u)
		other := e.signInAgain(t, "ana@example.com", "198.51.100.2")
		otherID := account.SessionID(other)

		// Turning TOTP on.
		secret, _ := e.enableTOTP(t, token)
		if e.alive(other) || !rec.has(otherID) {
			t.Fatalf("after turning TOTP on the other session is alive=%v, ended=%v", e.alive(other), rec.sessions)
		}
		if !e.alive(token) {
			t.Fatal("turning TOTP on ended the session that did it")
		}

		// Changing the e-mail address.
		res, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", goodPassword, meta)
		if err != nil {
			t.Fatal(err)
		}
		pending, _ := e.authenticate(t, res.Token)
		_, second, err := e.svc.Sessions.SignInSecondFactor(e.ctx, pending, totpOf(t, secret, e.clock.Now()), "", meta)
		if err != nil {
			t.Fatal(err)
		}
		sess, u := e.authenticate(t, token)
		if _, err := e.svc.Profile.RequestEmailChange(e.ctx, u, sess, "ana.new@example.com"); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Profile.ConfirmEmailChange(e.ctx, u, sess, e.lastCode(t, "ana.new@example.com", "change_email"), meta.IP); err != nil {
			t.Fatal(err)
		}
		if e.alive(second) || !rec.has(account.SessionID(second)) {
			t.Fatal("changing the e-mail address did not end the other session and its connections")
		}

		// Deleting the account.
		sess, u = e.authenticate(t, token)
		if err := e.svc.Profile.DeleteAccount(e.ctx, u, sess); err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(rec.users, u.ID) {
			t.Fatalf("deleting the account did not end the user's connections: %v", rec.users)
		}
	})
}

func TestTheSessionsListAndSigningOutOtherDevices(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		rec := e.watchEnded(t)
		u, token := e.signUp(t, "ana@example.com")
		e.clock.Advance(2 * time.Minute)
		phone := e.signInAgain(t, "ana@example.com", "198.51.100.3")
		e.clock.Advance(2 * time.Minute)
		tablet := e.signInAgain(t, "ana@example.com", "198.51.100.4")
		sess, _ := e.authenticate(t, token)
		list, err := e.svc.Sessions.Sessions(e.ctx, u, sess)
		if err != nil {
			t.Fatal(err)
		}
		// The most recently used first: the tablet, this device (just used), the phone.
		if len(list) != 3 || list[0].IP != "198.51.100.4" || list[0].UserAgent != "other device" || list[0].Current ||
			!list[1].Current || list[2].IP != "198.51.100.3" {
			t.Fatalf("sessions %+v", list)
		}
		for _, s := range list {
			if s.ID == account.SessionID(token) || len(s.ID) != 36 {
				t.Fatalf("session handle %q (the stored id must not be shown)", s.ID)
			}
		}
		// End one by its handle; another user's handle is not found.
		if err := e.svc.Sessions.EndSession(e.ctx, u, list[0].ID); err != nil {
			t.Fatal(err)
		}
		if e.alive(tablet) || !rec.has(account.SessionID(tablet)) {
			t.Fatal("the tablet is still signed in")
		}
		bob, _ := e.signUp(t, "bob@example.com")
		wantCode(t, e.svc.Sessions.EndSession(e.ctx, bob, list[2].ID), core.ENOTFOUND)
		// Sign out the other devices.
		n, err := e.svc.Sessions.EndOtherSessions(e.ctx, u, sess)
		if err != nil || n != 1 {
			t.Fatalf("EndOtherSessions = %d, %v", n, err)
		}
		if e.alive(phone) || !e.alive(token) || !rec.has(account.SessionID(phone)) {
			t.Fatal("signing out other devices did not end exactly the others")
		}
	})
}

// Point 4: change.
func TestChangingThePasswordNeedsTheCurrentOneAndEndsTheOtherSessions(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		rec := e.watchEnded(t)
		u, token := e.signUp(t, "ana@example.com")
		other := e.signInAgain(t, "ana@example.com", "198.51.100.5")
		sess, _ := e.authenticate(t, token)
		const newPassword = "garbanzos con espinacas 7"
		wantCode(t, e.svc.Profile.ChangePassword(e.ctx, u, sess, "not my password", newPassword, meta.IP), core.EINVALID)
		wantCode(t, e.svc.Profile.ChangePassword(e.ctx, u, sess, goodPassword, "ana@example.com", meta.IP), core.EINVALID)
		// Without a recent proof: re-verification first.
		e.clock.Advance(11 * time.Minute)
		sess, u = e.authenticate(t, token)
		wantCode(t, e.svc.Profile.ChangePassword(e.ctx, u, sess, goodPassword, newPassword, meta.IP), core.EREVERIFY)
		if _, err := e.svc.Reverify.Reverify(e.ctx, u, sess, account.MethodPassword, goodPassword, meta.IP); err != nil {
			t.Fatal(err)
		}
		sess, u = e.authenticate(t, token)
		if err := e.svc.Profile.ChangePassword(e.ctx, u, sess, goodPassword, newPassword, meta.IP); err != nil {
			t.Fatal(err)
		}
		if e.alive(other) || !rec.has(account.SessionID(other)) || !e.alive(token) {
			t.Fatal("the password change did not end exactly the other sessions")
		}
		if _, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", goodPassword, account.SessionMeta{IP: "198.51.100.6"}); core.ErrorCode(err) != core.EUNAUTHORIZED {
			t.Fatalf("the old password still signs in: %v", err)
		}
		if _, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", newPassword, meta); err != nil {
			t.Fatal(err)
		}
		mails, _ := account.ReadOutbox(e.outbox, "ana@example.com")
		mailOf(t, mails, "password_changed")
	})
}

// Point 4: reset.
func TestAPasswordResetAnswersTheSameForEveryAddressAndWorksByLinkOrCode(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		rec := e.watchEnded(t)
		_, token := e.signUp(t, "ana@example.com")
		if err := e.svc.Signup.RequestPasswordReset(e.ctx, "nobody@example.com", meta.IP); err != nil {
			t.Fatalf("an unknown address answered %v", err)
		}
		if err := e.svc.Signup.RequestPasswordReset(e.ctx, "ANA@example.com", meta.IP); err != nil {
			t.Fatal(err)
		}
		if mails, _ := account.ReadOutbox(e.outbox, "nobody@example.com"); len(mails) != 0 {
			t.Fatal("an unknown address got a mail")
		}
		mails, _ := account.ReadOutbox(e.outbox, "ana@example.com")
		reset := mailOf(t, mails, "reset_password")
		if reset.Purpose != "reset_password" || len(reset.Code) != 6 || !strings.Contains(reset.Text, reset.Code) ||
			!strings.Contains(reset.Text, reset.Link) || !strings.Contains(reset.Link, "/password/reset?token=") {
			t.Fatalf("reset mail %+v", reset)
		}
		linkToken := reset.Link[strings.Index(reset.Link, "token=")+len("token="):]
		// A second request within a minute sends nothing and answers the same.
		if err := e.svc.Signup.RequestPasswordReset(e.ctx, "ana@example.com", meta.IP); err != nil {
			t.Fatal(err)
		}
		if again, _ := account.ReadOutbox(e.outbox, "ana@example.com"); len(again) != len(mails) {
			t.Fatal("a second reset mail went out within the resend interval")
		}
		// A wrong code, an unknown address, a forged token: the same refusal.
		for _, in := range []account.ResetInput{
			{Email: "ana@example.com", Code: wrongSix(reset.Code), Password: "garbanzos con espinacas 7"},
			{Email: "nobody@example.com", Code: reset.Code, Password: "garbanzos con espinacas 7"},
			{Token: strings.Repeat("A", 43), Password: "garbanzos con espinacas 7"},
		} {
			err := e.svc.Signup.ResetPassword(e.ctx, in, meta.IP)
			wantCode(t, err, core.EINVALID)
			if !strings.Contains(core.ErrorMessage(err), "no es válido o ha caducado") {
				t.Fatalf("refusal %q", core.ErrorMessage(err))
			}
		}
		// The policy refuses a weak password without using the link up.
		wantCode(t, e.svc.Signup.ResetPassword(e.ctx, account.ResetInput{Token: linkToken, Password: "   "}, meta.IP), core.EINVALID)
		if err := e.svc.Signup.ResetPassword(e.ctx, account.ResetInput{Token: linkToken, Password: "garbanzos con espinacas 7"}, meta.IP); err != nil {
			t.Fatal(err)
		}
		if e.alive(token) || !rec.has(account.SessionID(token)) {
			t.Fatal("the reset left a session signed in")
		}
		// Used once.
		wantCode(t, e.svc.Signup.ResetPassword(e.ctx, account.ResetInput{Token: linkToken, Password: "otra contraseña larga 9"}, meta.IP), core.EINVALID)
		if _, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", "garbanzos con espinacas 7", meta); err != nil {
			t.Fatal(err)
		}
		// By code, after the resend interval; the code expires with the link.
		e.clock.Advance(2 * time.Minute)
		if err := e.svc.Signup.RequestPasswordReset(e.ctx, "ana@example.com", meta.IP); err != nil {
			t.Fatal(err)
		}
		code := e.lastCode(t, "ana@example.com", "reset_password")
		if err := e.svc.Signup.ResetPassword(e.ctx, account.ResetInput{Email: "ana@example.com", Code: code, Password: "otra contraseña larga 9"}, meta.IP); err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(2 * time.Minute)
		if err := e.svc.Signup.RequestPasswordReset(e.ctx, "ana@example.com", meta.IP); err != nil {
			t.Fatal(err)
		}
		code = e.lastCode(t, "ana@example.com", "reset_password")
		e.clock.Advance(31 * time.Minute)
		wantCode(t, e.svc.Signup.ResetPassword(e.ctx, account.ResetInput{Email: "ana@example.com", Code: code, Password: "y otra más larga 10"}, meta.IP), core.EINVALID)
	})
}

func wrongSix(code string) string {
	if code == "000000" {
		return "000001"
	}
	return "000000"
}

// Point 5.
func TestSignUpAnswersTheSameForATakenAddressAndTellsItsOwner(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		free, err := e.svc.Signup.Register(e.ctx, "Ana@Example.com", goodPassword, meta)
		if err != nil {
			t.Fatal(err)
		}
		u, token, err := e.svc.Signup.VerifyRegistration(e.ctx, "ana@example.com", e.lastCode(t, "ana@example.com", "verify_email"), meta)
		if err != nil {
			t.Fatal(err)
		}
		if !u.EmailVerified() || u.OnboardingStep != account.StepSecurityTOTP || !e.alive(token) {
			t.Fatalf("after verifying: %+v", u)
		}
		taken, err := e.svc.Signup.Register(e.ctx, "ana@example.com", "another long password 5", meta)
		if err != nil {
			t.Fatalf("a taken address answered %v", err)
		}
		if *taken != *free {
			t.Fatalf("answers differ: %+v and %+v", free, taken)
		}
		mails, _ := account.ReadOutbox(e.outbox, "ana@example.com")
		if notice := mailOf(t, mails, "signup_exists"); notice.Code != "" || !strings.Contains(notice.Text, "/password/forgot") {
			t.Fatalf("the owner got %+v", notice)
		}
		// The password did not change, and a second try within the window sends no second notice.
		if _, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", goodPassword, meta); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Signup.Register(e.ctx, "ana@example.com", "another long password 5", meta); err != nil {
			t.Fatal(err)
		}
		if again, _ := account.ReadOutbox(e.outbox, "ana@example.com"); len(again) != len(mails) {
			t.Fatal("the owner's mailbox gets a notice per try")
		}
		// Codes for a verified or unknown address are refused like wrong ones.
		for _, email := range []string{"ana@example.com", "nobody@example.com"} {
			_, _, err := e.svc.Signup.VerifyRegistration(e.ctx, email, "123456", meta)
			wantCode(t, err, core.EINVALID)
			if core.ErrorMessage(err) != "El código no es correcto." {
				t.Fatalf("%s: %q", email, core.ErrorMessage(err))
			}
		}
	})
}

func TestSigningUpAgainWithAnUnverifiedAddressEndsTheSquattersSessions(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		_, squatter := e.signUp(t, "ana@example.com") // never verified
		if _, err := e.svc.Signup.Register(e.ctx, "ana@example.com", "la de verdad es esta 8", meta); err != nil {
			t.Fatal(err)
		}
		if e.alive(squatter) {
			t.Fatal("the squatter's session survived a new sign-up of the address")
		}
		e.clock.Advance(2 * time.Minute)
		if _, err := e.svc.Signup.ResendRegistrationCode(e.ctx, "ana@example.com", meta.IP); err != nil {
			t.Fatal(err)
		}
		if _, _, err := e.svc.Signup.VerifyRegistration(e.ctx, "ana@example.com", e.lastCode(t, "ana@example.com", "verify_email"), meta); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", "la de verdad es esta 8", meta); err != nil {
			t.Fatal(err)
		}
	})
}

// Sign-in works before the address is verified, so anyone may hold a session of an account made
// with an address they do not own. They may not add a second factor to it: a passkey or an
// authenticator would outlive the owner's sign-up and let them into the owner's account. Any factor
// set up before the address is proven (before this rule) is deleted when it is, or when the
// address is signed up again.
func TestSecondFactorsNeedAVerifiedAddressAndDoNotSurviveItsProof(t *testing.T) {
	// plant stores what a squatter could set up before the rule: a passkey, an authenticator and
	// recovery codes.
	plant := func(t *testing.T, e *env, u *account.User, token string) {
		t.Helper()
		e.addPasskey(t, u.ID, token)
		now := e.clock.Now()
		if _, err := e.db.Exec(e.ctx, `INSERT INTO totp (user_id, secret, enabled, last_used_step, updated_at) VALUES (?, ?, ?, 0, ?)`,
			u.ID, "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", true, now); err != nil {
			t.Fatal(err)
		}
		if _, err := e.db.Exec(e.ctx, `INSERT INTO recovery_codes (user_id, code_hash, created_at) VALUES (?, ?, ?)`, u.ID, "hash", now); err != nil {
			t.Fatal(err)
		}
	}
	factors := func(t *testing.T, e *env, userID string) map[string]int {
		t.Helper()
		out := map[string]int{}
		for _, table := range []string{"passkeys", "totp", "recovery_codes"} {
			out[table] = e.count(t, `SELECT COUNT(*) FROM `+table+` WHERE user_id = ?`, userID)
		}
		return out
	}
	none := map[string]int{"passkeys": 0, "totp": 0, "recovery_codes": 0}
	planted := map[string]int{"passkeys": 1, "totp": 1, "recovery_codes": 1}

	t.Run("none is added before the address is verified", func(t *testing.T) {
		dialects(t, func(t *testing.T, e *env) {
			_, token := e.signUp(t, "ana@example.com") // never verified
			sess, u := e.authenticate(t, token)
			_, err := e.svc.SecondFactors.SetupTOTP(e.ctx, u, sess)
			wantCode(t, err, core.EFORBIDDEN)
			if msg := core.ErrorMessage(err); !strings.Contains(msg, "Verifica primero tu correo") {
				t.Fatalf("the refusal says %q", msg)
			}
			_, err = e.svc.SecondFactors.EnableTOTP(e.ctx, u, sess, "123456")
			wantCode(t, err, core.EFORBIDDEN)
			wantCode(t, e.svc.SecondFactors.RequireVerifiedEmail(e.ctx, u), core.EFORBIDDEN) // passkeys (httpapi)
			if got := factors(t, e, u.ID); !maps.Equal(got, none) {
				t.Fatalf("stored: %v", got)
			}
			if err := e.svc.SecondFactors.RequireVerifiedEmail(e.ctx, e.verify(t, u)); err != nil {
				t.Fatalf("once verified: %v", err)
			}
		})
	})
	for _, tt := range []struct {
		name  string
		prove func(t *testing.T, e *env, u *account.User)
	}{
		{"the owner verifies the sign-up code", func(t *testing.T, e *env, u *account.User) {
			if _, _, err := e.svc.Signup.VerifyRegistration(e.ctx, u.Email, e.lastCode(t, u.Email, "verify_email"), meta); err != nil {
				t.Fatal(err)
			}
		}},
		{"the signed-in user verifies the address", func(t *testing.T, e *env, u *account.User) {
			e.verify(t, u)
		}},
		{"the address is signed up again", func(t *testing.T, e *env, u *account.User) {
			if _, err := e.svc.Signup.Register(e.ctx, u.Email, "la de verdad es esta 8", meta); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run("they are deleted when "+tt.name, func(t *testing.T) {
			dialects(t, func(t *testing.T, e *env) {
				u, token := e.signUp(t, "ana@example.com") // never verified
				plant(t, e, u, token)
				if got := factors(t, e, u.ID); !maps.Equal(got, planted) {
					t.Fatalf("planted: %v", got)
				}
				tt.prove(t, e, u)
				if got := factors(t, e, u.ID); !maps.Equal(got, none) {
					t.Fatalf("after the proof the account keeps %v", got)
				}
				if fresh, err := e.svc.Users.User(e.ctx, u.ID); err != nil || fresh.TOTPEnabled {
					t.Fatalf("after the proof: %+v, %v", fresh, err)
				}
			})
		})
	}
	t.Run("the owner's own factors stay when the verified address is signed up again", func(t *testing.T) {
		dialects(t, func(t *testing.T, e *env) {
			u, token := e.signUpVerified(t, "ana@example.com")
			e.enableTOTP(t, token)
			e.addPasskey(t, u.ID, token)
			if _, err := e.svc.Signup.Register(e.ctx, u.Email, "la de verdad es esta 8", meta); err != nil {
				t.Fatal(err)
			}
			if got := factors(t, e, u.ID); got["passkeys"] != 1 || got["totp"] != 1 || got["recovery_codes"] != 10 {
				t.Fatalf("the owner's factors: %v", got)
			}
		})
	})
}

// Point 6.
func TestAStrangerCannotLockTheOwnerOutAndADistributedGuessStaysSlow(t *testing.T) {
	dialectsWith(t, func(c *account.Config) { c.AccountWideFailures = 8 }, func(t *testing.T, e *env) {
		e.signUp(t, "ana@example.com")
		// A stranger fails from one IP until refused.
		for range 5 {
			_, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", "guess", account.SessionMeta{IP: "203.0.113.1"})
			wantCode(t, err, core.EUNAUTHORIZED)
		}
		_, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", "guess", account.SessionMeta{IP: "203.0.113.1"})
		wantCode(t, err, core.ETOOMANY)
		// The owner is not refused.
		if _, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", goodPassword, meta); err != nil {
			t.Fatalf("the owner is locked out: %v", err)
		}
		// A guess spread over many IPs stops at the account-wide limit...
		for i := range 3 {
			_, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", "guess", account.SessionMeta{IP: "203.0.113." + string(rune('2'+i))})
			wantCode(t, err, core.EUNAUTHORIZED)
		}
		_, err = e.svc.Sessions.SignIn(e.ctx, "ana@example.com", "guess", account.SessionMeta{IP: "203.0.113.9"})
		wantCode(t, err, core.ETOOMANY)
		// ...and the owner still gets in at once with an e-mailed reset, which clears it.
		if err := e.svc.Signup.RequestPasswordReset(e.ctx, "ana@example.com", meta.IP); err != nil {
			t.Fatal(err)
		}
		if err := e.svc.Signup.ResetPassword(e.ctx, account.ResetInput{Email: "ana@example.com", Code: e.lastCode(t, "ana@example.com", "reset_password"),
			Password: "garbanzos con espinacas 7"}, meta.IP); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", "garbanzos con espinacas 7", meta); err != nil {
			t.Fatalf("after a reset the owner is still refused: %v", err)
		}
	})
}

// Point 7.
func TestPasswordsThatAreTheUsersOwnAddressOrNameOrBlankAreRefused(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		for _, tt := range []struct{ password, message string }{
			{"            ", "La contraseña no puede estar formada solo por espacios."},
			{"ana.garcia@example.com", "La contraseña no puede ser tu correo electrónico ni tu nombre."},
			{"Ana.Garcia@Example.com", "La contraseña no puede ser tu correo electrónico ni tu nombre."},
			{"ANA.GARCIA", "La contraseña no puede ser tu correo electrónico ni tu nombre."},
		} {
			_, err := e.svc.Signup.Register(e.ctx, "ana.garcia@example.com", tt.password, meta)
			wantCode(t, err, core.EINVALID)
			if core.ErrorMessage(err) != tt.message {
				t.Fatalf("%q: %q", tt.password, core.ErrorMessage(err))
			}
		}
		u, token := e.signUp(t, "ana@example.com")
		first, last := "Anastasia", "Villalobos"
		if _, err := e.svc.Profile.UpdateIdentity(e.ctx, u.ID, account.IdentityInput{FirstName: &first, LastName: &last,
			Birthday: ptr("1980-02-29"), Gender: ptr("female"), Country: ptr("ES"), State: ptr("Madrid")}); err != nil {
			t.Fatal(err)
		}
		sess, u := e.authenticate(t, token)
		for _, p := range []string{"anastasia villalobos", "VillalobosAnastasia"} {
			err := e.svc.Profile.ChangePassword(e.ctx, u, sess, goodPassword, p, meta.IP)
			wantCode(t, err, core.EINVALID)
			if core.ErrorMessage(err) != "La contraseña no puede ser tu correo electrónico ni tu nombre." {
				t.Fatalf("%q: %q", p, core.ErrorMessage(err))
			}
		}
	})
}

func ptr(s string) *string { return &s }

// mailOf is the newest mail of the purpose among mails.
func mailOf(t *testing.T, mails []account.OutboxMail, purpose string) account.OutboxMail {
	t.Helper()
	for i := len(mails) - 1; i >= 0; i-- {
		if mails[i].Purpose == purpose {
			return mails[i]
		}
	}
	t.Fatalf("no %s mail among %d", purpose, len(mails))
	return account.OutboxMail{}
}

// The new-user bug: a birthday in the future is refused by the shared schema on the server too.
func TestABirthdayInTheFutureIsRefused(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, _ := e.signUp(t, "ana@example.com")
		_, err := e.svc.Profile.UpdateIdentity(e.ctx, u.ID, account.IdentityInput{FirstName: ptr("Ana"), LastName: ptr("García"),
			Birthday: ptr("2090-01-01"), Gender: ptr("female"), Country: ptr("ES"), State: ptr("Madrid")})
		var ve *core.Error
		if !errors.As(err, &ve) || len(ve.Fields) != 1 || ve.Fields[0].Path != "birthday" ||
			ve.Fields[0].Message != "La fecha de nacimiento no puede estar en el futuro" {
			t.Fatalf("err = %v (%+v)", err, ve)
		}
	})
}
