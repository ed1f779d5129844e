package account_test

import (
	"encoding/base32"
	"encoding/base64"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"patrimonio/core"
	"patrimonio/server/account"
)

// The SHA-1 test vectors of RFC 6238 appendix B (8 digits there; the last 6 digits here).
func TestTOTPCodesMatchTheRFC6238Vectors(t *testing.T) {
	secret := []byte("12345678901234567890")
	for _, v := range []struct {
		unix int64
		want string
	}{
		{59, "287082"}, {1111111109, "081804"}, {1111111111, "050471"},
		{1234567890, "005924"}, {2000000000, "279037"}, {20000000000, "353130"},
	} {
		if got := account.TOTPCode(secret, account.TOTPStep(time.Unix(v.unix, 0))); got != v.want {
			t.Errorf("T=%d: code %s, want %s", v.unix, got, v.want)
		}
	}
}

// totpOf computes codes like an authenticator app would, from the secret shown to the user.
func totpOf(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	raw, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(secret)
	if err != nil {
		t.Fatal(err)
	}
	return account.TOTPCode(raw, account.TOTPStep(at))
}

// wrongCode is a well-formed code that no step of the ±1 window accepts.
func wrongCode(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	for _, c := range []string{"000000", "111111", "222222", "333333"} {
		if c != totpOf(t, secret, at.Add(-30*time.Second)) && c != totpOf(t, secret, at) && c != totpOf(t, secret, at.Add(30*time.Second)) {
			return c
		}
	}
	t.Fatal("no wrong code found")
	return ""
}

// enableTOTP sets TOTP up for the user and returns the secret and the recovery codes.
func (e *env) enableTOTP(t *testing.T, token string) (string, []string) {
	t.Helper()
	sess, u := e.authenticate(t, token)
	setup, err := e.svc.SecondFactors.SetupTOTP(e.ctx, u, sess)
	if err != nil {
		t.Fatal(err)
	}
	codes, err := e.svc.SecondFactors.EnableTOTP(e.ctx, u, sess, totpOf(t, setup.Secret, e.clock.Now()))
	if err != nil {
		t.Fatal(err)
	}
	// The code used to enable is spent: move to the next step so tests start clean.
	e.clock.Advance(30 * time.Second)
	return setup.Secret, codes
}

func TestTOTPSetupGivesASecretAnOTPAuthURLAndAQRCode(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, token := e.signUpVerified(t, "ana+totp@example.com")
		sess, _ := e.authenticate(t, token)
		setup, err := e.svc.SecondFactors.SetupTOTP(e.ctx, u, sess)
		if err != nil {
			t.Fatal(err)
		}
		if len(setup.Secret) != 32 || strings.ToUpper(setup.Secret) != setup.Secret {
			t.Fatalf("secret %q: want 32 base32 characters (160 bits)", setup.Secret)
		}
		parsed, err := url.Parse(setup.OTPAuthURL)
		if err != nil {
			t.Fatal(err)
		}
		q := parsed.Query()
		if parsed.Scheme != "otpauth" || parsed.Host != "totp" || parsed.Path != "/Patrimonio:ana+totp@example.com" ||
			q.Get("secret") != setup.Secret || q.Get("issuer") != "Patrimonio" || q.Get("digits") != "6" ||
			q.Get("period") != "30" || q.Get("algorithm") != "SHA1" {
			t.Fatalf("otpauth URL %q", setup.OTPAuthURL)
		}
		png, ok := strings.CutPrefix(setup.QRPNG, "data:image/png;base64,")
		if !ok {
			t.Fatalf("QR code is not a PNG data URL: %.40s", setup.QRPNG)
		}
		raw, err := base64.StdEncoding.DecodeString(png)
		if err != nil || !strings.HasPrefix(string(raw), "\x89PNG\r\n\x1a\n") {
			t.Fatalf("QR code is not a PNG: %v", err)
		}
		// Setting up does not turn TOTP on.
		if _, u = e.authenticate(t, token); u.TOTPEnabled {
			t.Fatal("TOTP is on before a code confirmed it")
		}
	})
}

func TestEnablingTOTPNeedsARightCodeInTimeAndGivesTenSingleUseRecoveryCodes(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, token := e.signUpVerified(t, "ana@example.com")
		sess, _ := e.authenticate(t, token)
		_, err := e.svc.SecondFactors.EnableTOTP(e.ctx, u, sess, "123456")
		wantCode(t, err, core.EINVALID) // nothing set up

		setup, err := e.svc.SecondFactors.SetupTOTP(e.ctx, u, sess)
		if err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct{ name, code string }{
			{"a code two steps old is refused", totpOf(t, setup.Secret, e.clock.Now().Add(-60*time.Second))},
			{"a code two steps ahead is refused", totpOf(t, setup.Secret, e.clock.Now().Add(60*time.Second))},
			{"five digits are refused", "12345"},
			{"letters are refused", "12345a"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				_, err := e.svc.SecondFactors.EnableTOTP(e.ctx, u, sess, tt.code)
				wantCode(t, err, core.EINVALID)
			})
		}
		// One step behind is inside the window.
		codes, err := e.svc.SecondFactors.EnableTOTP(e.ctx, u, sess, totpOf(t, setup.Secret, e.clock.Now().Add(-30*time.Second)))
		if err != nil {
			t.Fatal(err)
		}
		if len(codes) != 10 {
			t.Fatalf("%d recovery codes, want 10", len(codes))
		}
		seen := map[string]bool{}
		for _, c := range codes {
			if len(c) != 11 || c[5] != '-' || seen[c] {
				t.Fatalf("recovery codes %q", codes)
			}
			seen[c] = true
		}
		var stored int
		if err := e.db.QueryRow(e.ctx, `SELECT COUNT(*) FROM recovery_codes WHERE code_hash = ?`, codes[0]).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if stored != 0 {
			t.Fatal("a recovery code is stored in clear")
		}
		if _, u = e.authenticate(t, token); !u.TOTPEnabled {
			t.Fatal("TOTP is not on")
		}
		// A pending setup older than 30 minutes is gone. (Replacing the authenticator needs a proof
		// with the second factor: the sign-up's proof is not one.)
		e.clock.Advance(time.Minute)
		sess, u = e.authenticate(t, token)
		_, err = e.svc.SecondFactors.SetupTOTP(e.ctx, u, sess)
		wantCode(t, err, core.EREVERIFY)
		if _, err := e.svc.Reverify.Reverify(e.ctx, u, sess, account.MethodTOTP, totpOf(t, setup.Secret, e.clock.Now()), meta.IP); err != nil {
			t.Fatal(err)
		}
		sess, u = e.authenticate(t, token)
		setup2, err := e.svc.SecondFactors.SetupTOTP(e.ctx, u, sess)
		if err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(30 * time.Minute)
		sess, u = e.authenticate(t, token)
		if _, err := e.svc.Reverify.Reverify(e.ctx, u, sess, account.MethodTOTP, totpOf(t, setup.Secret, e.clock.Now()), meta.IP); err != nil {
			t.Fatal(err)
		}
		sess, _ = e.authenticate(t, token)
		_, err = e.svc.SecondFactors.EnableTOTP(e.ctx, u, sess, totpOf(t, setup2.Secret, e.clock.Now()))
		wantCode(t, err, core.EINVALID)
	})
}

func TestSignInWithTOTPNeedsTheSecondFactorAndRefusesReplayedCodes(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		_, token := e.signUpVerified(t, "ana@example.com")
		secret, _ := e.enableTOTP(t, token)

		res, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", goodPassword, meta)
		if err != nil {
			t.Fatal(err)
		}
		if !res.MFARequired {
			t.Fatal("sign-in with TOTP on did not ask for the second factor")
		}
		pending, _ := e.authenticate(t, res.Token)
		if !pending.MFAPending || !pending.ReverifiedAt.IsZero() {
			t.Fatalf("pending session = %+v", pending)
		}
		_, _, err = e.svc.Sessions.SignInSecondFactor(e.ctx, pending, wrongCode(t, secret, e.clock.Now()), "", meta)
		wantCode(t, err, core.EINVALID)
		_, _, err = e.svc.Sessions.SignInSecondFactor(e.ctx, pending, "123456", "abcde-fghjk", meta)
		wantCode(t, err, core.EINVALID) // both at once

		code := totpOf(t, secret, e.clock.Now())
		u, full, err := e.svc.Sessions.SignInSecondFactor(e.ctx, pending, code, "", meta)
		if err != nil {
			t.Fatal(err)
		}
		if full == res.Token {
			t.Fatal("completing the second factor kept the pending token")
		}
		sess, got := e.authenticate(t, full)
		if got.ID != u.ID || sess.MFAPending {
			t.Fatalf("full session = %+v", sess)
		}
		_, _, err = e.svc.Sessions.Authenticate(e.ctx, res.Token)
		wantCode(t, err, core.EUNAUTHORIZED) // the pending session is gone

		// The same code again, on a new pending sign-in, is a replay.
		res2, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", goodPassword, meta)
		if err != nil {
			t.Fatal(err)
		}
		pending2, _ := e.authenticate(t, res2.Token)
		_, _, err = e.svc.Sessions.SignInSecondFactor(e.ctx, pending2, code, "", meta)
		wantCode(t, err, core.EINVALID)
		if core.ErrorMessage(err) != "El código del autenticador no es correcto o ya se ha usado." {
			t.Fatalf("message %q", core.ErrorMessage(err))
		}
		// So is the previous step's code once a later one was used.
		_, _, err = e.svc.Sessions.SignInSecondFactor(e.ctx, pending2, totpOf(t, secret, e.clock.Now().Add(-30*time.Second)), "", meta)
		wantCode(t, err, core.EINVALID)
		// The next step's code works.
		e.clock.Advance(30 * time.Second)
		if _, _, err := e.svc.Sessions.SignInSecondFactor(e.ctx, pending2, totpOf(t, secret, e.clock.Now()), "", meta); err != nil {
			t.Fatal(err)
		}
	})
}

func TestAPendingSignInExpiresAfterTenMinutes(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		_, token := e.signUpVerified(t, "ana@example.com")
		e.enableTOTP(t, token)
		res, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", goodPassword, meta)
		if err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(10 * time.Minute)
		_, _, err = e.svc.Sessions.Authenticate(e.ctx, res.Token)
		wantCode(t, err, core.EUNAUTHORIZED)
	})
}

func TestAParallelReplayOfOneTOTPCodeSucceedsOnce(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, token := e.signUpVerified(t, "ana@example.com")
		secret, _ := e.enableTOTP(t, token)
		sess, _ := e.authenticate(t, token)
		code := totpOf(t, secret, e.clock.Now())
		// Five: up to the limit of failures, so that throttling cannot refuse any before the code is
		// checked (a bigger burst may be refused whole, which proves nothing here).
		const n = 5
		var wg sync.WaitGroup
		results := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// Each from its own IP so that only the code's single use limits them.
				_, results[i] = e.svc.Reverify.Reverify(e.ctx, u, sess, account.MethodTOTP, code, "10.0.0."+string(rune('a'+i)))
			}()
		}
		wg.Wait()
		ok, replays, other := 0, 0, 0
		for _, err := range results {
			switch core.ErrorCode(err) {
			case "":
				ok++
			case core.EINVALID:
				replays++
			default:
				other++
			}
		}
		if ok != 1 || other != 0 {
			t.Fatalf("%d parallel uses of one code succeeded (%d refused as replays, %d otherwise): want exactly 1", ok, replays, other)
		}
	})
}

func TestRecoveryCodesWorkOnceEachAlsoInParallel(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		_, token := e.signUpVerified(t, "ana@example.com")
		_, codes := e.enableTOTP(t, token)
		signInPending := func() *account.Session {
			res, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", goodPassword, meta)
			if err != nil {
				t.Fatal(err)
			}
			s, _ := e.authenticate(t, res.Token)
			return s
		}
		// Typed in upper case with spaces instead of the dash: still the code.
		typed := strings.ToUpper(strings.Replace(codes[0], "-", " ", 1))
		if _, _, err := e.svc.Sessions.SignInSecondFactor(e.ctx, signInPending(), "", typed, meta); err != nil {
			t.Fatal(err)
		}
		_, _, err := e.svc.Sessions.SignInSecondFactor(e.ctx, signInPending(), "", codes[0], meta)
		wantCode(t, err, core.EINVALID)

		// Parallel uses of one code: one wins. Four, so that with the one failure above they stay
		// within the limit of failures and throttling refuses none before the code is checked.
		var wg sync.WaitGroup
		wins := make(chan bool, 4)
		for range 4 {
			p := signInPending()
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, _, err := e.svc.Sessions.SignInSecondFactor(e.ctx, p, "", codes[1], account.SessionMeta{IP: "198.18.0.1"})
				wins <- err == nil
			}()
		}
		wg.Wait()
		close(wins)
		n := 0
		for w := range wins {
			if w {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("one recovery code signed in %d times in parallel, want once", n)
		}
		left, err := e.svc.SecondFactors.RecoveryCodesLeft(e.ctx, mustUser(t, e, "ana@example.com").ID)
		if err != nil || left != 8 {
			t.Fatalf("recovery codes left = %d %v, want 8", left, err)
		}
	})
}

func mustUser(t *testing.T, e *env, email string) *account.User {
	t.Helper()
	u, err := e.svc.Users.UserByEmail(e.ctx, email)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestChangingOrRemovingTOTPNeedsARecentProof(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		_, token := e.signUpVerified(t, "ana@example.com")
		secret, _ := e.enableTOTP(t, token)
		e.clock.Advance(10 * time.Minute)
		sess, u := e.authenticate(t, token)
		_, err := e.svc.SecondFactors.SetupTOTP(e.ctx, u, sess)
		wantCode(t, err, core.EREVERIFY)
		err = e.svc.SecondFactors.DisableTOTP(e.ctx, u, sess)
		wantCode(t, err, core.EREVERIFY)

		if _, err := e.svc.Reverify.Reverify(e.ctx, u, sess, account.MethodTOTP, totpOf(t, secret, e.clock.Now()), meta.IP); err != nil {
			t.Fatal(err)
		}
		sess, u = e.authenticate(t, token)
		if err := e.svc.SecondFactors.DisableTOTP(e.ctx, u, sess); err != nil {
			t.Fatal(err)
		}
		sess, u = e.authenticate(t, token)
		if u.TOTPEnabled {
			t.Fatal("TOTP still on")
		}
		err = e.svc.SecondFactors.DisableTOTP(e.ctx, u, sess)
		wantCode(t, err, core.ECONFLICT)
		left, _ := e.svc.SecondFactors.RecoveryCodesLeft(e.ctx, u.ID)
		if left != 0 {
			t.Fatalf("%d recovery codes left after turning TOTP off", left)
		}
		res, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", goodPassword, meta)
		if err != nil || res.MFARequired {
			t.Fatalf("sign-in after turning TOTP off: %+v %v", res, err)
		}
	})
}

func TestWrongSecondFactorsAreThrottled(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		_, token := e.signUpVerified(t, "ana@example.com")
		secret, _ := e.enableTOTP(t, token)
		res, err := e.svc.Sessions.SignIn(e.ctx, "ana@example.com", goodPassword, meta)
		if err != nil {
			t.Fatal(err)
		}
		pending, _ := e.authenticate(t, res.Token)
		right := totpOf(t, secret, e.clock.Now())
		wrong := wrongCode(t, secret, e.clock.Now())
		for range 5 {
			_, _, err := e.svc.Sessions.SignInSecondFactor(e.ctx, pending, wrong, "", meta)
			wantCode(t, err, core.EINVALID)
		}
		_, _, err = e.svc.Sessions.SignInSecondFactor(e.ctx, pending, right, "", meta)
		wantCode(t, err, core.ETOOMANY)
	})
}
