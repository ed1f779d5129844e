package account_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"patrimonio/core"
	"patrimonio/server/account"
)

// mailsTo lists the outbox mails to an address with the purpose.
func (e *env) mailsTo(t *testing.T, to, purpose string) []account.OutboxMail {
	t.Helper()
	mails, err := account.ReadOutbox(e.outbox, to)
	if err != nil {
		t.Fatal(err)
	}
	var out []account.OutboxMail
	for _, m := range mails {
		if m.Purpose == purpose {
			out = append(out, m)
		}
	}
	return out
}

func TestChangingTheEmailNeedsARecentProof(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		_, token := e.signUp(t, "ana@example.com")
		e.clock.Advance(10 * time.Minute)
		sess, u := e.authenticate(t, token)
		_, err := e.svc.Profile.RequestEmailChange(e.ctx, u, sess, "nueva@example.com")
		wantCode(t, err, core.EREVERIFY)
		if got := e.mailsTo(t, "nueva@example.com", "change_email"); len(got) != 0 {
			t.Fatalf("a code was sent without a proof: %+v", got)
		}
	})
}

func TestChangingTheEmailSwitchesTheAddressAndEndsTheOtherSessions(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		_, token := e.signUp(t, "ana@example.com")
		sess, u := e.authenticate(t, token)
		if _, err := e.svc.Signup.VerifyEmail(e.ctx, u, e.lastCode(t, "ana@example.com", "verify_email"), meta.IP); err != nil {
			t.Fatal(err)
		}
		other := mustSignIn(t, e, "ana@example.com")
		_, u = e.authenticate(t, token)

		change, err := e.svc.Profile.RequestEmailChange(e.ctx, u, sess, "  Nueva.Direccion@Example.COM ")
		if err != nil {
			t.Fatal(err)
		}
		if change.NewEmail != "nueva.direccion@example.com" || !change.ExpiresAt.Equal(e.clock.Now().Add(15*time.Minute)) {
			t.Fatalf("pending change %+v", change)
		}
		// The code goes to the new address only; nothing changes until it comes back.
		mails := e.mailsTo(t, "nueva.direccion@example.com", "change_email")
		if len(mails) != 1 || !strings.Contains(mails[0].Text, mails[0].Code) || !strings.Contains(mails[0].Subject, "cambiar el correo") {
			t.Fatalf("mails to the new address %+v", mails)
		}
		if got := e.mailsTo(t, "ana@example.com", "change_email"); len(got) != 0 {
			t.Fatalf("the code went to the old address too: %+v", got)
		}
		if _, u2 := e.authenticate(t, other); u2.Email != "ana@example.com" {
			t.Fatalf("the address changed before the code: %s", u2.Email)
		}

		e.clock.Advance(time.Minute)
		_, err = e.svc.Profile.ConfirmEmailChange(e.ctx, u, sess, otherCode(mails[0].Code), meta.IP)
		wantCode(t, err, core.EINVALID)
		changed, err := e.svc.Profile.ConfirmEmailChange(e.ctx, u, sess, mails[0].Code, meta.IP)
		if err != nil {
			t.Fatal(err)
		}
		if changed.Email != "nueva.direccion@example.com" || !changed.EmailVerifiedAt.Equal(e.clock.Now()) {
			t.Fatalf("after the change %+v", changed)
		}
		// This session goes on; the other one has ended.
		e.authenticate(t, token)
		_, _, err = e.svc.Sessions.Authenticate(e.ctx, other)
		wantCode(t, err, core.EUNAUTHORIZED)
		// The old address is told, without the new address in full.
		notices := e.mailsTo(t, "ana@example.com", "email_changed")
		if len(notices) != 1 || !strings.Contains(notices[0].Text, "n***@example.com") ||
			strings.Contains(notices[0].Text, "nueva.direccion") || notices[0].Code != "" {
			t.Fatalf("notices to the old address %+v", notices)
		}
		// The new address signs in; the old one no longer does.
		if _, err := e.svc.Sessions.SignIn(e.ctx, "nueva.direccion@example.com", goodPassword, meta); err != nil {
			t.Fatalf("sign-in with the new address: %v", err)
		}
		_, err = e.svc.Sessions.SignIn(e.ctx, "ana@example.com", goodPassword, meta)
		wantCode(t, err, core.EUNAUTHORIZED)
		// The code works once.
		_, err = e.svc.Profile.ConfirmEmailChange(e.ctx, changed, sess, mails[0].Code, meta.IP)
		wantCode(t, err, core.EINVALID)
	})
}

func TestAnAddressOfAnotherAccountIsRefusedOnlyWhenTheCodeComesBack(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		e.signUp(t, "bob@example.com")
		_, token := e.signUp(t, "ana@example.com")
		sess, u := e.authenticate(t, token)
		other := mustSignIn(t, e, "ana@example.com")

		// Asking for Bob's address answers like asking for a free one: no enumeration.
		change, err := e.svc.Profile.RequestEmailChange(en(e.ctx), u, sess, "BOB@example.com")
		if err != nil || change.NewEmail != "bob@example.com" {
			t.Fatalf("asking for a taken address: %+v, %v", change, err)
		}
		code := e.lastCode(t, "bob@example.com", "change_email")
		_, err = e.svc.Profile.ConfirmEmailChange(en(e.ctx), u, sess, code, meta.IP)
		wantCode(t, err, core.ECONFLICT)
		if msg := core.ErrorMessage(err); msg != "That e-mail address cannot be used. Choose another one." {
			t.Fatalf("message %q", msg)
		}
		// Nothing changed: Ana keeps her address and her other session.
		if _, u2 := e.authenticate(t, other); u2.Email != "ana@example.com" {
			t.Fatalf("Ana's address is now %s", u2.Email)
		}
		if got := e.mailsTo(t, "ana@example.com", "email_changed"); len(got) != 0 {
			t.Fatalf("a change notice was sent for a refused change: %+v", got)
		}
	})
}

func TestEmailChangeRefusals(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		_, token := e.signUp(t, "ana@example.com")
		sess, u := e.authenticate(t, token)
		for _, tt := range []struct {
			name, email, code, message string
		}{
			{"an address that is not one is refused", "ana-at-example.com", core.EINVALID, "Enter a valid e-mail address."},
			{"the current address is refused", "ANA@example.com", core.EINVALID, "That is already your e-mail address."},
		} {
			t.Run(tt.name, func(t *testing.T) {
				_, err := e.svc.Profile.RequestEmailChange(en(e.ctx), u, sess, tt.email)
				wantCode(t, err, tt.code)
				if got := core.ErrorMessage(err); got != tt.message {
					t.Fatalf("message %q, want %q", got, tt.message)
				}
			})
		}
		t.Run("asking again within a minute is refused with the wait", func(t *testing.T) {
			if _, err := e.svc.Profile.RequestEmailChange(e.ctx, u, sess, "uno@example.com"); err != nil {
				t.Fatal(err)
			}
			_, err := e.svc.Profile.RequestEmailChange(e.ctx, u, sess, "dos@example.com")
			var retry *core.Error
			if !errors.As(err, &retry) || retry.RetryAfter <= 0 || core.ErrorCode(err) != core.ETOOMANY {
				t.Fatalf("a second request at once: %v", err)
			}
			// A minute later the new request replaces the first: its code no longer works.
			e.clock.Advance(time.Minute)
			if _, err := e.svc.Profile.RequestEmailChange(e.ctx, u, sess, "dos@example.com"); err != nil {
				t.Fatal(err)
			}
			first := e.lastCode(t, "uno@example.com", "change_email")
			second := e.lastCode(t, "dos@example.com", "change_email")
			if first != second {
				_, err = e.svc.Profile.ConfirmEmailChange(e.ctx, u, sess, first, meta.IP)
				wantCode(t, err, core.EINVALID)
			}
			changed, err := e.svc.Profile.ConfirmEmailChange(e.ctx, u, sess, second, meta.IP)
			if err != nil || changed.Email != "dos@example.com" {
				t.Fatalf("confirming the second request: %+v, %v", changed, err)
			}
		})
		t.Run("a code that has expired is refused", func(t *testing.T) {
			_, token := e.signUp(t, "cid@example.com")
			sess, u := e.authenticate(t, token)
			if _, err := e.svc.Profile.RequestEmailChange(e.ctx, u, sess, "cid2@example.com"); err != nil {
				t.Fatal(err)
			}
			e.clock.Advance(15 * time.Minute)
			_, err := e.svc.Profile.ConfirmEmailChange(e.ctx, u, sess, e.lastCode(t, "cid2@example.com", "change_email"), meta.IP)
			wantCode(t, err, core.EINVALID)
		})
		t.Run("without a pending change there is no code to confirm", func(t *testing.T) {
			_, token := e.signUp(t, "dan@example.com")
			sess, u := e.authenticate(t, token)
			_, err := e.svc.Profile.ConfirmEmailChange(en(e.ctx), u, sess, "123456", meta.IP)
			if core.ErrorMessage(err) != "There is no pending code. Ask for a new one." {
				t.Fatalf("confirming nothing: %v", err)
			}
		})
	})
}

func TestChangingAnUnverifiedAddressVerifiesTheNewOneAndMovesOnboardingOn(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		_, token := e.signUp(t, "typo@exmaple.com")
		sess, u := e.authenticate(t, token)
		if _, err := e.svc.Profile.RequestEmailChange(e.ctx, u, sess, "ana@example.com"); err != nil {
			t.Fatal(err)
		}
		changed, err := e.svc.Profile.ConfirmEmailChange(e.ctx, u, sess, e.lastCode(t, "ana@example.com", "change_email"), meta.IP)
		if err != nil {
			t.Fatal(err)
		}
		if !changed.EmailVerified() || changed.OnboardingStep != account.StepSecurityTOTP {
			t.Fatalf("after the change %+v", changed)
		}
		// The verification code sent to the mistyped address is gone.
		_, err = e.svc.Signup.VerifyEmail(e.ctx, changed, e.lastCode(t, "typo@exmaple.com", "verify_email"), meta.IP)
		wantCode(t, err, core.ECONFLICT)
		var n int
		if err := e.db.QueryRow(e.ctx, `SELECT COUNT(*) FROM email_codes WHERE user_id = ?`, u.ID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 1 { // the used change_email code only
			t.Fatalf("%d e-mail codes left", n)
		}
	})
}

func TestAClerkUserChangesTheirEmailAtClerk(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, err := e.svc.Users.EnsureUser(e.ctx, "user_2abc", "ana@example.com")
		if err != nil {
			t.Fatal(err)
		}
		token, err := e.svc.Sessions.StartSession(e.ctx, u.ID, meta)
		if err != nil {
			t.Fatal(err)
		}
		sess, u := e.authenticate(t, token)
		_, err = e.svc.Profile.RequestEmailChange(e.ctx, u, sess, "nueva@example.com")
		wantCode(t, err, core.EFORBIDDEN)
		_, err = e.svc.Profile.ConfirmEmailChange(e.ctx, u, sess, "123456", meta.IP)
		wantCode(t, err, core.EFORBIDDEN)
	})
}

// mustSignIn signs in with the test password and returns the new session's token.
func mustSignIn(t *testing.T, e *env, email string) string {
	t.Helper()
	res, err := e.svc.Sessions.SignIn(e.ctx, email, goodPassword, meta)
	if err != nil {
		t.Fatal(err)
	}
	return res.Token
}
