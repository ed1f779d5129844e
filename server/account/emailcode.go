package account

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/hex"
	"fmt"
	"math/big"
	"strings"
	"time"

	"patrimonio/core"
)

// E-mailed codes are 6 random digits, valid for Config.EmailCodeTTL, with Config.EmailCodeAttempts
// tries. Only their SHA-256 (salted with user and purpose) is stored. A user has at most one live
// code per purpose: asking again replaces it, at most once per Config.EmailResendInterval.
// Six digits are few enough to guess offline from the hash, so the hash only keeps codes from
// being read off the table; what protects a code is its short life and the attempt limits (per
// code, and wrong codes count as failures of the user and the IP like wrong passwords).

const (
	purposeVerifyEmail = "verify_email"
	purposeReverify    = "reverify"
	// purposeChangeEmail codes go to the new address of an e-mail change, which waits in
	// email_codes.new_email until the code confirms it (emailchange.go).
	purposeChangeEmail = "change_email"
	// purposeEmailChanged marks the notice sent to the old address after a change (no code).
	purposeEmailChanged = "email_changed"
	// Notices without a code (issue 11): someone tried to sign up with a taken address; the
	// password was changed. purposeResetPassword mails carry a code and a link.
	purposeSignUpExists    = "signup_exists"
	purposePasswordChanged = "password_changed"
	purposeResetPassword   = "reset_password"
)

func codeHash(userID, purpose, code string) string {
	sum := sha256.Sum256([]byte(userID + ":" + purpose + ":" + code))
	return hex.EncodeToString(sum[:])
}

func sixDigits() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", fmt.Errorf("random code: %w", err)
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}

// isSixDigits says whether s is exactly six ASCII digits.
func isSixDigits(s string) bool {
	if len(s) != 6 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// storeEmailCode makes a new code for the purpose, replacing the live one, and returns it.
// newEmail is the address a change_email code confirms, "" for the other purposes.
func (s *base) storeEmailCode(ctx context.Context, q queryer, userID, purpose, newEmail string, now time.Time) (string, error) {
	code, err := sixDigits()
	if err != nil {
		return "", err
	}
	var pending any
	if newEmail != "" {
		pending = newEmail
	}
	if _, err := q.Exec(ctx, `INSERT INTO email_codes (user_id, purpose, code_hash, attempts, created_at, expires_at, used_at, new_email)
		VALUES (?, ?, ?, 0, ?, ?, NULL, ?)
		ON CONFLICT (user_id, purpose) DO UPDATE SET code_hash = excluded.code_hash, attempts = 0,
			created_at = excluded.created_at, expires_at = excluded.expires_at, used_at = NULL, new_email = excluded.new_email`,
		userID, purpose, codeHash(userID, purpose, code), now, now.Add(s.cfg.EmailCodeTTL), pending); err != nil {
		return "", fmt.Errorf("store e-mail code: %w", err)
	}
	return code, nil
}

// newCodeAndSend replaces the code of the purpose and mails it to the user's address, unless the
// last one was sent less than Config.EmailResendInterval ago (429 with the wait).
func (s *base) newCodeAndSend(ctx context.Context, u *User, purpose string) error {
	return s.newCodeAndSendTo(ctx, u, purpose, u.Email, "")
}

// newCodeAndSendTo is newCodeAndSend to the address to, storing newEmail beside the code.
func (s *base) newCodeAndSendTo(ctx context.Context, u *User, purpose, to, newEmail string) error {
	now := s.now()
	var created time.Time
	err := s.db.QueryRow(ctx, `SELECT created_at FROM email_codes WHERE user_id = ? AND purpose = ? AND used_at IS NULL`,
		u.ID, purpose).Scan(&created)
	if err != nil && !isNoRows(err) {
		return fmt.Errorf("load e-mail code: %w", err)
	}
	if err == nil {
		if wait := created.Add(s.cfg.EmailResendInterval).Sub(now); wait > 0 {
			seconds := int((wait + time.Second - 1) / time.Second)
			e := core.Refuse(ctx, core.ETOOMANY, "account.code.resendTooSoon", seconds)
			e.RetryAfter = wait
			return e
		}
	}
	code, err := s.storeEmailCode(ctx, s.db, u.ID, purpose, newEmail, now)
	if err != nil {
		return err
	}
	s.sendCode(ctx, to, purpose, code)
	return nil
}

// codeMails are the message keys of the mail of each purpose: {subject, text}. A text takes the
// code and its lifetime in minutes.
var codeMails = map[string][2]string{
	purposeVerifyEmail: {"account.mail.verify.subject", "account.mail.verify.text"},
	purposeReverify:    {"account.mail.reverify.subject", "account.mail.reverify.text"},
	purposeChangeEmail: {"account.mail.changeEmail.subject", "account.mail.changeEmail.text"},
}

// sendCode mails a code in the language of ctx. A delivery failure is logged, not returned: the
// account change is done, and the user can ask for the code again.
func (s *base) sendCode(ctx context.Context, to, purpose, code string) {
	keys := codeMails[purpose]
	minutes := int(s.cfg.EmailCodeTTL / time.Minute)
	s.send(ctx, Mail{
		To:      to,
		Subject: core.Text(ctx, keys[0]),
		Text:    core.Text(ctx, keys[1], code, minutes),
		Code:    code,
		Purpose: purpose,
		SentAt:  s.now(),
	})
}

// send delivers a mail; a failure is logged, not returned.
func (s *base) send(ctx context.Context, m Mail) {
	if s.mailer == nil {
		s.logger.ErrorContext(ctx, "no mailer configured; e-mail not sent", "purpose", m.Purpose)
		return
	}
	if err := s.mailer.Send(ctx, m); err != nil {
		s.logger.ErrorContext(ctx, "send e-mail", "purpose", m.Purpose, "err", err)
	}
}

// checkEmailCode consumes the user's code of the purpose if code matches it.
func (s *base) checkEmailCode(ctx context.Context, userID, purpose, code, ip string) error {
	_, err := s.checkEmailCodeFor(ctx, userID, purpose, code, ip)
	return err
}

// checkEmailCodeFor is checkEmailCode that also returns the new address stored beside the code
// (change_email), "" for other purposes.
func (s *base) checkEmailCodeFor(ctx context.Context, userID, purpose, code, ip string) (string, error) {
	code = strings.TrimSpace(code)
	if !isSixDigits(code) {
		return "", core.Refuse(ctx, core.EINVALID, "account.code.format")
	}
	att, err := s.reserve(ctx, s.userKey(userID), s.ipKey(ip))
	if err != nil {
		return "", err
	}
	newEmail, err := s.consumeEmailCode(ctx, userID, purpose, code)
	if err != nil {
		if core.ErrorCode(err) != core.EINVALID {
			s.release(context.WithoutCancel(ctx), att)
		}
		return "", err
	}
	s.release(ctx, att)
	return newEmail, nil
}

func (s *base) consumeEmailCode(ctx context.Context, userID, purpose, code string) (string, error) {
	now := s.now()
	var stored string
	var attempts int
	var expires time.Time
	var newEmail sql.NullString
	err := s.db.QueryRow(ctx, `SELECT code_hash, attempts, expires_at, new_email FROM email_codes
		WHERE user_id = ? AND purpose = ? AND used_at IS NULL`, userID, purpose).Scan(&stored, &attempts, &expires, &newEmail)
	if isNoRows(err) {
		return "", core.Refuse(ctx, core.EINVALID, "account.code.none")
	}
	if err != nil {
		return "", fmt.Errorf("load e-mail code: %w", err)
	}
	if !now.Before(expires) {
		return "", core.Refuse(ctx, core.EINVALID, "account.code.expired")
	}
	if attempts >= s.cfg.EmailCodeAttempts {
		return "", core.Refuse(ctx, core.EINVALID, "account.code.tooManyAttempts")
	}
	// Count the try first, atomically, so that parallel guesses cannot exceed the limit.
	res, err := s.db.Exec(ctx, `UPDATE email_codes SET attempts = attempts + 1
		WHERE user_id = ? AND purpose = ? AND code_hash = ? AND used_at IS NULL AND attempts < ?`,
		userID, purpose, stored, s.cfg.EmailCodeAttempts)
	if err != nil {
		return "", fmt.Errorf("count e-mail code attempt: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return "", fmt.Errorf("count e-mail code attempt: %w", err)
	} else if n == 0 {
		return "", core.Refuse(ctx, core.EINVALID, "account.code.tooManyAttempts")
	}
	if subtle.ConstantTimeCompare([]byte(codeHash(userID, purpose, code)), []byte(stored)) != 1 {
		return "", core.Refuse(ctx, core.EINVALID, "account.code.wrong")
	}
	res, err = s.db.Exec(ctx, `UPDATE email_codes SET used_at = ? WHERE user_id = ? AND purpose = ? AND code_hash = ? AND used_at IS NULL`,
		now, userID, purpose, stored)
	if err != nil {
		return "", fmt.Errorf("use e-mail code: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return "", fmt.Errorf("use e-mail code: %w", err)
	} else if n == 0 {
		return "", core.Refuse(ctx, core.EINVALID, "account.code.none") // used by a parallel request
	}
	return newEmail.String, nil
}

// VerifyEmail marks the user's address verified with the e-mailed code and moves onboarding past
// verify_email. Second factors set up before are deleted (security.go). It returns the updated
// user.
func (s *Signup) VerifyEmail(ctx context.Context, u *User, code, ip string) (*User, error) {
	if u.EmailVerified() {
		return nil, core.Refuse(ctx, core.ECONFLICT, "account.email.alreadyVerified")
	}
	if err := s.checkEmailCode(ctx, u.ID, purposeVerifyEmail, code, ip); err != nil {
		return nil, err
	}
	now := s.now()
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	res, err := tx.Exec(ctx, `UPDATE users SET email_verified_at = ?, updated_at = ?,
		onboarding_step = CASE WHEN onboarding_step = ? THEN ? ELSE onboarding_step END
		WHERE id = ? AND email_verified_at IS NULL`,
		now, now, StepVerifyEmail, s.nextStep(StepVerifyEmail), u.ID)
	if err != nil {
		return nil, fmt.Errorf("verify e-mail: %w", err)
	}
	if err := s.forgetSecondFactorsIf(ctx, tx, res, u.ID); err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("verify e-mail: commit: %w", err)
	}
	fresh, err := s.user(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	return fresh, s.applyConfiguredAdmin(ctx, fresh)
}

// ResendVerification e-mails a new verification code.
func (s *Signup) ResendVerification(ctx context.Context, u *User) error {
	if u.EmailVerified() {
		return core.Refuse(ctx, core.ECONFLICT, "account.email.alreadyVerified")
	}
	return s.newCodeAndSend(ctx, u, purposeVerifyEmail)
}

// SendReverifyCode e-mails a code that proves the user's identity (Reverify with method email).
func (s *Reverify) SendReverifyCode(ctx context.Context, u *User) error {
	return s.newCodeAndSend(ctx, u, purposeReverify)
}
