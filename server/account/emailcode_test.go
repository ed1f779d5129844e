package account_test

import (
	"errors"
	"testing"
	"time"

	"patrimonio/core"
	"patrimonio/server/account"
)

// otherCode is a six-digit code that is not code.
func otherCode(code string) string {
	if code == "000000" {
		return "000001"
	}
	return "000000"
}

func TestVerifyingTheEmailWithItsCodeAdvancesOnboarding(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, _ := e.signUp(t, "ana@example.com")
		code := e.lastCode(t, u.Email, "verify_email")
		got, err := e.svc.Signup.VerifyEmail(e.ctx, u, " "+code+" ", meta.IP)
		if err != nil {
			t.Fatal(err)
		}
		if !got.EmailVerified() || got.OnboardingStep != account.StepSecurityTOTP {
			t.Fatalf("after verifying: verified=%v step=%q", got.EmailVerified(), got.OnboardingStep)
		}
		_, err = e.svc.Signup.VerifyEmail(e.ctx, got, code, meta.IP)
		wantCode(t, err, core.ECONFLICT)
		err = e.svc.Signup.ResendVerification(e.ctx, got)
		wantCode(t, err, core.ECONFLICT)
	})
}

func TestEmailCodesRefuseWrongExpiredAndTooManyAttempts(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		t.Run("a wrong code is refused and the right one still works", func(t *testing.T) {
			u, _ := e.signUp(t, "wrong@example.com")
			code := e.lastCode(t, u.Email, "verify_email")
			_, err := e.svc.Signup.VerifyEmail(en(e.ctx), u, otherCode(code), meta.IP)
			wantCode(t, err, core.EINVALID)
			if core.ErrorMessage(err) != "The code is wrong." {
				t.Fatalf("message %q", core.ErrorMessage(err))
			}
			for _, bad := range []string{"12345", "1234567", "12a456", "", "１２３４５６"} {
				_, err := e.svc.Signup.VerifyEmail(e.ctx, u, bad, meta.IP)
				wantCode(t, err, core.EINVALID)
				if core.ErrorMessage(err) != "El código debe tener 6 dígitos." {
					t.Fatalf("%q: message %q", bad, core.ErrorMessage(err))
				}
			}
			if _, err := e.svc.Signup.VerifyEmail(e.ctx, u, code, meta.IP); err != nil {
				t.Fatal(err)
			}
		})
		t.Run("a code is refused after fifteen minutes", func(t *testing.T) {
			u, _ := e.signUp(t, "late@example.com")
			code := e.lastCode(t, u.Email, "verify_email")
			e.clock.Advance(15 * time.Minute)
			_, err := e.svc.Signup.VerifyEmail(e.ctx, u, code, meta.IP)
			wantCode(t, err, core.EINVALID)
			if core.ErrorMessage(err) != "El código ha caducado. Pide uno nuevo." {
				t.Fatalf("message %q", core.ErrorMessage(err))
			}
		})
		t.Run("after five wrong tries even the right code is refused", func(t *testing.T) {
			u, _ := e.signUp(t, "guess@example.com")
			code := e.lastCode(t, u.Email, "verify_email")
			for i := range 5 {
				// From different IPs, so that only the per-code limit and the user's limit count.
				_, err := e.svc.Signup.VerifyEmail(e.ctx, u, otherCode(code), "192.0.2."+string(rune('a'+i)))
				wantCode(t, err, core.EINVALID)
			}
			_, err := e.svc.Signup.VerifyEmail(e.ctx, u, code, "192.0.2.200")
			if core.ErrorCode(err) != core.EINVALID && core.ErrorCode(err) != core.ETOOMANY {
				t.Fatalf("the right code after five wrong tries: %v", err)
			}
			e.clock.Advance(15 * time.Minute) // past the user's throttle window and the code's life
			if err := e.svc.Signup.ResendVerification(e.ctx, u); err != nil {
				t.Fatal(err)
			}
			if _, err := e.svc.Signup.VerifyEmail(e.ctx, u, e.lastCode(t, u.Email, "verify_email"), meta.IP); err != nil {
				t.Fatalf("a new code after the lock: %v", err)
			}
		})
		t.Run("the per-code limit holds on its own", func(t *testing.T) {
			e2 := newEnvOn(t, e, func(c *account.Config) { c.AccountFailures = 100; c.IPFailures = 100 })
			u, _ := e2.signUp(t, "limit@example.com")
			code := e2.lastCode(t, u.Email, "verify_email")
			for range 5 {
				_, err := e2.svc.Signup.VerifyEmail(e2.ctx, u, otherCode(code), meta.IP)
				wantCode(t, err, core.EINVALID)
			}
			_, err := e2.svc.Signup.VerifyEmail(e2.ctx, u, code, meta.IP)
			wantCode(t, err, core.EINVALID)
			if core.ErrorMessage(err) != "Demasiados intentos con este código. Pide uno nuevo." {
				t.Fatalf("message %q", core.ErrorMessage(err))
			}
		})
	})
}

// newEnvOn is another service with other rules over the database, clock and outbox of e.
func newEnvOn(t *testing.T, e *env, change func(*account.Config)) *env {
	t.Helper()
	e2 := *e
	e2.svc = e.service(t, change)
	return &e2
}

func TestResendingACodeWaitsAMinuteAndReplacesTheOldCode(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, _ := e.signUp(t, "ana@example.com")
		first := e.lastCode(t, u.Email, "verify_email")
		e.clock.Advance(20 * time.Second)
		err := e.svc.Signup.ResendVerification(e.ctx, u)
		wantCode(t, err, core.ETOOMANY)
		var retry *core.Error
		if !errors.As(err, &retry) || retry.RetryAfterSeconds() != 40 {
			t.Fatalf("retry = %+v", retry)
		}
		if core.ErrorMessage(err) != "Espera 40 segundos antes de pedir otro código." {
			t.Fatalf("message %q", core.ErrorMessage(err))
		}
		e.clock.Advance(40 * time.Second)
		if err := e.svc.Signup.ResendVerification(e.ctx, u); err != nil {
			t.Fatal(err)
		}
		second := e.lastCode(t, u.Email, "verify_email")
		if first != second {
			_, err := e.svc.Signup.VerifyEmail(e.ctx, u, first, meta.IP)
			wantCode(t, err, core.EINVALID)
		}
		if _, err := e.svc.Signup.VerifyEmail(e.ctx, u, second, meta.IP); err != nil {
			t.Fatal(err)
		}
	})
}

func TestCodesAreStoredHashed(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, _ := e.signUp(t, "ana@example.com")
		code := e.lastCode(t, u.Email, "verify_email")
		var hash string
		if err := e.db.QueryRow(e.ctx, `SELECT code_hash FROM email_codes WHERE user_id = ?`, u.ID).Scan(&hash); err != nil {
			t.Fatal(err)
		}
		if len(hash) != 64 || hash == code {
			t.Fatalf("stored code %q", hash)
		}
	})
}
