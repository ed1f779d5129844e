package account

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"time"

	"patrimonio/core"
)

// Changing and resetting the password (issue 11).
//
// ChangePassword needs the current password and a recent proof (with a second factor when the
// user has one); every other session ends and the address gets a notice.
//
// A reset is asked with an address (RequestPasswordReset): the answer is the same for known and
// unknown addresses, and the owner of a known one is e-mailed a link (a 43-character token) and a
// 6-digit code, both good for Config.PasswordResetTTL and one reset. ResetPassword takes the token,
// or the address with the code (5 tries per code, throttled per user and IP like other codes), and
// the new password; it ends every session of the user (who then signs in, with the second factor
// if they have one: a reset never skips it) and clears the account-wide sign-in throttle.

// ChangePassword replaces the user's password. current must be right (wrong answers are EINVALID
// and count as failures of the user and the IP); a user without a password (passkeys only) sets
// one without it.
func (s *Profile) ChangePassword(ctx context.Context, u *User, sess *Session, current, next, ip string) error {
	if err := s.requireSecondFactorProof(ctx, u, sess); err != nil {
		return err
	}
	if u.HasPassword {
		if current == "" {
			return core.Refuse(ctx, core.EINVALID, "account.password.required")
		}
		att, err := s.reserve(ctx, s.userKey(u.ID), s.ipKey(ip))
		if err != nil {
			return err
		}
		ok, _, err := s.verify(ctx, current, u.passwordHash)
		if err != nil {
			s.release(context.WithoutCancel(ctx), att)
			return fmt.Errorf("change password: %w", err)
		}
		if !ok {
			return core.Refuse(ctx, core.EINVALID, "account.password.currentWrong")
		}
		s.release(ctx, att)
		if current == next {
			return core.Refuse(ctx, core.EINVALID, "account.password.same")
		}
	}
	if err := s.checkPasswordPolicy(ctx, next, passwordContextOf(u)); err != nil {
		return err
	}
	hash, err := s.hash(ctx, next)
	if err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(ctx, `UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?`, hash, s.now(), u.ID); err != nil {
		return fmt.Errorf("change password: %w", err)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM password_resets WHERE user_id = ?`, u.ID); err != nil {
		return fmt.Errorf("change password: %w", err)
	}
	ended, err := s.endOtherSessions(ctx, tx, u.ID, sessionID(sess))
	if err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("change password: commit: %w", err)
	}
	s.notifyEnded(ended)
	s.sendPasswordChanged(ctx, u.Email)
	return nil
}

func (s *base) sendPasswordChanged(ctx context.Context, to string) {
	s.send(ctx, Mail{
		To:      to,
		Subject: core.Text(ctx, "account.mail.passwordChanged.subject"),
		Text:    core.Text(ctx, "account.mail.passwordChanged.text", s.cfg.PublicURL+"/password/forgot"),
		Purpose: purposePasswordChanged,
		SentAt:  s.now(),
	})
}

func resetHash(kind, userID, secret string) string {
	sum := sha256.Sum256([]byte("reset:" + kind + ":" + userID + ":" + secret))
	return hex.EncodeToString(sum[:])
}

func tokenHash(token string) string {
	sum := sha256.Sum256([]byte("reset-token:" + token))
	return hex.EncodeToString(sum[:])
}

// RequestPasswordReset e-mails a reset link and code to the owner of the address, if there is
// one. It answers nil either way (and for an address asked again within the resend interval,
// when nothing is sent); only too many requests from one IP get an error with RetryAfter, whatever the
// addresses.
func (s *Signup) RequestPasswordReset(ctx context.Context, email, ip string) error {
	if _, err := s.reserve(ctx, s.resetIPKey(ip)); err != nil {
		return err // the reservation of each request stays: it is what the limit counts
	}
	email = NormalizeEmail(email)
	if !validText(email) {
		return nil
	}
	u, err := s.userByEmail(ctx, email)
	if err != nil {
		if core.ErrorCode(err) == core.ENOTFOUND {
			return nil
		}
		return err
	}
	if u.ClerkUserID != "" && !u.HasPassword {
		return nil // Clerk's users reset their password at Clerk
	}
	now := s.now()
	var created time.Time
	err = s.db.QueryRow(ctx, `SELECT created_at FROM password_resets WHERE user_id = ? AND used_at IS NULL AND expires_at > ?`, u.ID, now).Scan(&created)
	if err == nil && now.Sub(created) < s.cfg.EmailResendInterval {
		return nil
	}
	if err != nil && !isNoRows(err) {
		return fmt.Errorf("password reset: %w", err)
	}
	token := randomToken()
	code, err := sixDigits()
	if err != nil {
		return err
	}
	if _, err := s.db.Exec(ctx, `INSERT INTO password_resets (user_id, token_hash, code_hash, attempts, created_at, expires_at, used_at)
		VALUES (?, ?, ?, 0, ?, ?, NULL)
		ON CONFLICT (user_id) DO UPDATE SET token_hash = excluded.token_hash, code_hash = excluded.code_hash, attempts = 0,
			created_at = excluded.created_at, expires_at = excluded.expires_at, used_at = NULL`,
		u.ID, tokenHash(token), resetHash("code", u.ID, code), now, now.Add(s.cfg.PasswordResetTTL)); err != nil {
		return fmt.Errorf("password reset: %w", err)
	}
	link := s.cfg.PublicURL + "/password/reset?token=" + url.QueryEscape(token)
	s.send(ctx, Mail{
		To:      u.Email,
		Subject: core.Text(ctx, "account.mail.resetPassword.subject"),
		Text:    core.Text(ctx, "account.mail.resetPassword.text", code, int(s.cfg.PasswordResetTTL/time.Minute), link),
		Code:    code,
		Link:    link,
		Purpose: purposeResetPassword,
		SentAt:  now,
	})
	return nil
}

// ResetInput is a reset: Token (from the link), or Email with Code; and the new password.
type ResetInput struct {
	Token    string
	Email    string
	Code     string
	Password string
}

// ResetPassword sets a new password with an e-mailed reset link or code (see the top of the file).
// A wrong, used or expired link or code is EINVALID "reset.invalid" (a wrong code counts as a
// failure of the user and the IP); a password the policy refuses is EINVALID with its reason, and
// the link or code keeps working.
func (s *Signup) ResetPassword(ctx context.Context, in ResetInput, ip string) error {
	invalid := core.Refuse(ctx, core.EINVALID, "account.reset.invalid")
	now := s.now()
	var userID, storedCode string
	var attempts int
	var att *attempt
	switch {
	case in.Token != "":
		if !wellFormedToken(in.Token) {
			return invalid
		}
		var err error
		att, err = s.reserve(ctx, s.ipKey(ip))
		if err != nil {
			return err
		}
		err = s.db.QueryRow(ctx, `SELECT user_id, code_hash, attempts FROM password_resets
			WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?`, tokenHash(in.Token), now).Scan(&userID, &storedCode, &attempts)
		if isNoRows(err) {
			return invalid // the reservation stays: a failure of the IP
		}
		if err != nil {
			s.release(context.WithoutCancel(ctx), att)
			return fmt.Errorf("reset password: %w", err)
		}
	case in.Email != "" && in.Code != "":
		code := strings.TrimSpace(in.Code)
		if !isSixDigits(code) {
			return core.Refuse(ctx, core.EINVALID, "account.code.format")
		}
		u, err := s.userByEmail(ctx, in.Email)
		if err != nil && core.ErrorCode(err) != core.ENOTFOUND {
			return err
		}
		keys := []throttleKey{s.ipKey(ip)}
		if u != nil {
			keys = append(keys, s.userKey(u.ID))
		}
		att, err = s.reserve(ctx, keys...)
		if err != nil {
			return err
		}
		if u == nil {
			return invalid
		}
		userID = u.ID
		err = s.db.QueryRow(ctx, `SELECT code_hash, attempts FROM password_resets
			WHERE user_id = ? AND used_at IS NULL AND expires_at > ?`, u.ID, now).Scan(&storedCode, &attempts)
		if isNoRows(err) {
			return invalid
		}
		if err != nil {
			s.release(context.WithoutCancel(ctx), att)
			return fmt.Errorf("reset password: %w", err)
		}
		if attempts >= s.cfg.EmailCodeAttempts {
			return invalid
		}
		res, err := s.db.Exec(ctx, `UPDATE password_resets SET attempts = attempts + 1 WHERE user_id = ? AND attempts < ? AND used_at IS NULL`,
			u.ID, s.cfg.EmailCodeAttempts)
		if err != nil {
			s.release(context.WithoutCancel(ctx), att)
			return fmt.Errorf("reset password: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return invalid
		}
		if subtle.ConstantTimeCompare([]byte(resetHash("code", u.ID, code)), []byte(storedCode)) != 1 {
			return invalid
		}
	default:
		return invalid
	}
	// The link or code is right: the attempt is not a failure.
	s.release(ctx, att)
	u, err := s.user(ctx, userID)
	if err != nil {
		return err
	}
	if err := s.checkPasswordPolicy(ctx, in.Password, passwordContextOf(u)); err != nil {
		if in.Code != "" {
			// A right code that the password policy stopped does not use up a try.
			_, _ = s.db.Exec(ctx, `UPDATE password_resets SET attempts = attempts - 1 WHERE user_id = ? AND attempts > 0`, userID)
		}
		return err
	}
	hash, err := s.hash(ctx, in.Password)
	if err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.Exec(ctx, `UPDATE password_resets SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL`, now, userID, storedCode)
	if err != nil {
		return fmt.Errorf("reset password: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("reset password: %w", err)
	} else if n == 0 {
		return invalid // used by a parallel request
	}
	if _, err := tx.Exec(ctx, `UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?`, hash, now, userID); err != nil {
		return fmt.Errorf("reset password: %w", err)
	}
	ended, err := s.endOtherSessions(ctx, tx, userID, "")
	if err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("reset password: commit: %w", err)
	}
	s.notifyEnded(ended)
	s.clearKey(ctx, s.accountWideKey(u.Email))
	s.sendPasswordChanged(ctx, u.Email)
	return nil
}
