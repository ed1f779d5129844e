package account_test

import (
	"crypto/rand"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"patrimonio/core"
	"patrimonio/server/account"
)

func TestSessionsRefuseForgedMalformedAndSignedOutTokens(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		_, token := e.signUp(t, "ana@example.com")
		forged := make([]byte, 32)
		_, _ = rand.Read(forged)
		for name, tok := range map[string]string{
			"an empty token":                  "",
			"a random well-formed token":      base64.RawURLEncoding.EncodeToString(forged),
			"the session id instead of token": account.SessionID(token),
			"a token with a changed letter":   token[:10] + string(rune(token[10]^1)) + token[11:],
			"a token with padding":            token + "=",
			"a truncated token":               token[:42],
		} {
			t.Run(name+" is refused", func(t *testing.T) {
				_, _, err := e.svc.Sessions.Authenticate(e.ctx, tok)
				wantCode(t, err, core.EUNAUTHORIZED)
			})
		}
		e.authenticate(t, token)
		var ended []string
		e.withHooks(t, account.Hooks{OnSessionEnded: func(id string) { ended = append(ended, id) }})
		if err := e.svc.Sessions.SignOut(e.ctx, token); err != nil {
			t.Fatal(err)
		}
		// Live connections of the session (the sync socket) are told at once.
		if len(ended) != 1 || ended[0] != account.SessionID(token) {
			t.Fatalf("sessions reported ended: %v, want [%s]", ended, account.SessionID(token))
		}
		_, _, err := e.svc.Sessions.Authenticate(e.ctx, token)
		wantCode(t, err, core.EUNAUTHORIZED)
		if err := e.svc.Sessions.SignOut(e.ctx, token); err != nil {
			t.Fatalf("signing out twice: %v", err)
		}
	})
}

func TestSessionsExpireWhenIdleAndAtTheirAbsoluteLimit(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		_, idle := e.signUp(t, "idle@example.com")
		_, active := e.signUp(t, "active@example.com")

		// Active every 6 days: the idle limit (7 days) slides; the absolute one (30 days) does not.
		for day := 6; day <= 24; day += 6 {
			e.clock.Advance(6 * 24 * time.Hour)
			e.authenticate(t, active)
		}
		_, _, err := e.svc.Sessions.Authenticate(e.ctx, idle)
		wantCode(t, err, core.EUNAUTHORIZED)
		var n int
		if err := e.db.QueryRow(e.ctx, `SELECT COUNT(*) FROM sessions WHERE id = ?`, account.SessionID(idle)).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Fatal("the idle-expired session was not deleted")
		}

		e.clock.Advance(6*24*time.Hour - time.Second) // 30 days minus a second after sign-up
		e.authenticate(t, active)
		e.clock.Advance(time.Second)
		_, _, err = e.svc.Sessions.Authenticate(e.ctx, active)
		wantCode(t, err, core.EUNAUTHORIZED)
	})
}

func TestTheIdleLimitIsExactAndLastSeenMovesAtMostOnceAMinute(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		_, token := e.signUp(t, "ana@example.com")
		start := e.clock.Now()
		e.clock.Advance(30 * time.Second)
		s, _ := e.authenticate(t, token)
		if !s.LastSeenAt.Equal(start) {
			t.Fatalf("last seen moved after 30 s: %v", s.LastSeenAt)
		}
		e.clock.Advance(30 * time.Second)
		s, _ = e.authenticate(t, token)
		if !s.LastSeenAt.Equal(start.Add(time.Minute)) {
			t.Fatalf("last seen = %v, want %v", s.LastSeenAt, start.Add(time.Minute))
		}
		e.clock.Advance(7*24*time.Hour - time.Microsecond)
		e.authenticate(t, token)
		e.clock.Advance(7 * 24 * time.Hour)
		_, _, err := e.svc.Sessions.Authenticate(e.ctx, token)
		wantCode(t, err, core.EUNAUTHORIZED)
	})
}

func TestRecentProofLastsTenMinutesAfterSignInOrReverification(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, token := e.signUp(t, "ana@example.com")
		sess, _ := e.authenticate(t, token)
		if err := e.svc.Reverify.RequireRecentProof(e.ctx, sess); err != nil {
			t.Fatalf("right after sign-up: %v", err)
		}
		if got, want := e.svc.Reverify.ReverifiedUntil(sess), e.clock.Now().Add(10*time.Minute); !got.Equal(want) {
			t.Fatalf("ReverifiedUntil = %v, want %v", got, want)
		}
		e.clock.Advance(10 * time.Minute)
		sess, _ = e.authenticate(t, token)
		err := e.svc.Reverify.RequireRecentProof(en(e.ctx), sess)
		wantCode(t, err, core.EREVERIFY)
		if core.ErrorMessage(err) != "Confirm your identity to continue." {
			t.Fatalf("message %q", core.ErrorMessage(err))
		}
		if !e.svc.Reverify.ReverifiedUntil(sess).IsZero() {
			t.Fatal("ReverifiedUntil is set after the window")
		}

		_, err = e.svc.Reverify.Reverify(e.ctx, u, sess, account.MethodPassword, "wrong password", meta.IP)
		wantCode(t, err, core.EINVALID)
		if core.ErrorMessage(err) != "La contraseña no es correcta." {
			t.Fatalf("message %q", core.ErrorMessage(err))
		}
		until, err := e.svc.Reverify.Reverify(e.ctx, u, sess, account.MethodPassword, goodPassword, meta.IP)
		if err != nil {
			t.Fatal(err)
		}
		if !until.Equal(e.clock.Now().Add(10 * time.Minute)) {
			t.Fatalf("until = %v", until)
		}
		sess, _ = e.authenticate(t, token)
		if err := e.svc.Reverify.RequireRecentProof(e.ctx, sess); err != nil {
			t.Fatalf("after reverifying: %v", err)
		}
		e.clock.Advance(10*time.Minute - time.Microsecond)
		sess, _ = e.authenticate(t, token)
		if err := e.svc.Reverify.RequireRecentProof(e.ctx, sess); err != nil {
			t.Fatalf("just inside the window: %v", err)
		}
	})
}

func TestReverificationByEmailedCodeAndItsRefusals(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, token := e.signUp(t, "ana@example.com")
		e.clock.Advance(11 * time.Minute)
		sess, _ := e.authenticate(t, token)
		for _, tt := range []struct {
			name, method, secret, wantCode string
		}{
			{"an unknown method is invalid", "sms", "123456", core.EINVALID},
			{"an e-mail code before any was sent is invalid", account.MethodEmail, "123456", core.EINVALID},
			{"a TOTP code without TOTP on is invalid", account.MethodTOTP, "123456", core.EINVALID},
			{"a malformed TOTP code is invalid", account.MethodTOTP, "12a456", core.EINVALID},
			{"an empty password is invalid", account.MethodPassword, "", core.EINVALID},
		} {
			t.Run(tt.name, func(t *testing.T) {
				_, err := e.svc.Reverify.Reverify(e.ctx, u, sess, tt.method, tt.secret, meta.IP)
				wantCode(t, err, tt.wantCode)
			})
		}
		if err := e.svc.Reverify.SendReverifyCode(e.ctx, u); err != nil {
			t.Fatal(err)
		}
		code := e.lastCode(t, u.Email, "reverify")
		if _, err := e.svc.Reverify.Reverify(e.ctx, u, sess, account.MethodEmail, code, meta.IP); err != nil {
			t.Fatal(err)
		}
		_, err := e.svc.Reverify.Reverify(e.ctx, u, sess, account.MethodEmail, code, meta.IP)
		wantCode(t, err, core.EINVALID) // used once
	})
}

func TestStartSessionSignsInWithoutPasswordAndCountsAsProof(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, _ := e.signUp(t, "ana@example.com")
		token, err := e.svc.Sessions.StartSession(e.ctx, u.ID, meta)
		if err != nil {
			t.Fatal(err)
		}
		sess, got := e.authenticate(t, token)
		if got.ID != u.ID || sess.MFAPending || e.svc.Reverify.RequireRecentProof(e.ctx, sess) != nil {
			t.Fatalf("session %+v", sess)
		}
		if sess.UserAgent != "test-agent" || sess.IP != "192.0.2.10" {
			t.Fatalf("device = %q %q", sess.UserAgent, sess.IP)
		}
		_, err = e.svc.Sessions.StartSession(e.ctx, "no-such-user", meta)
		wantCode(t, err, core.ENOTFOUND)
	})
}

func TestSweepDeletesExpiredSessionsOldFailuresAndDeadCodes(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		_, old := e.signUp(t, "old@example.com")
		_, err := e.svc.Sessions.SignIn(e.ctx, "old@example.com", "wrong password", meta)
		wantCode(t, err, core.EUNAUTHORIZED)
		e.clock.Advance(8 * 24 * time.Hour)
		_, fresh := e.signUp(t, "fresh@example.com")
		if err := e.svc.Users.Sweep(e.ctx); err != nil {
			t.Fatal(err)
		}
		count := func(q string, args ...any) int {
			t.Helper()
			var n int
			if err := e.db.QueryRow(e.ctx, q, args...).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		if n := count(`SELECT COUNT(*) FROM sessions WHERE id = ?`, account.SessionID(old)); n != 0 {
			t.Error("an idle-expired session survived the sweep")
		}
		if n := count(`SELECT COUNT(*) FROM sessions WHERE id = ?`, account.SessionID(fresh)); n != 1 {
			t.Error("a live session was swept")
		}
		if n := count(`SELECT COUNT(*) FROM auth_throttle`); n != 0 {
			t.Errorf("%d old failures survived the sweep", n)
		}
		if n := count(`SELECT COUNT(*) FROM email_codes`); n != 1 {
			t.Errorf("%d e-mail codes after the sweep, want the fresh user's only", n)
		}
	})
}

func TestASignInRehashesAPasswordHashedWithOtherParameters(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, _ := e.signUp(t, "ana@example.com")
		stronger := e.service(t, func(c *account.Config) { c.Password = account.PasswordParams{Memory: 128, Time: 2, Threads: 1} })
		if _, err := stronger.Sessions.SignIn(e.ctx, "ana@example.com", goodPassword, meta); err != nil {
			t.Fatal(err)
		}
		var hash string
		if err := e.db.QueryRow(e.ctx, `SELECT password_hash FROM users WHERE id = ?`, u.ID).Scan(&hash); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(hash, "$m=128,t=2,p=1$") {
			t.Fatalf("hash %q was not upgraded", hash)
		}
		if _, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", goodPassword, meta); err != nil {
			t.Fatalf("the upgraded hash does not verify: %v", err)
		}
	})
}
