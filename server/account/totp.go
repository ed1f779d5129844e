package account

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/base32"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"time"

	qrcode "github.com/skip2/go-qrcode"

	"patrimonio/core"
)

// TOTP follows RFC 6238 with the parameters every authenticator app supports: HMAC-SHA1, 30-second
// steps, 6 digits, and a 160-bit secret, stored sealed with the server's secret key (secretbox.go). A code is accepted for the current step and one step
// either side, and only for a step later than the last accepted one: the UPDATE that records the
// step is conditional on it, so a code works once even when replayed in parallel.

const (
	totpPeriod    = 30
	totpDigits    = 6
	totpSkew      = 1
	totpSecretLen = 20
	recoveryCount = 10
)

var base32NoPad = base32.StdEncoding.WithPadding(base32.NoPadding)

// TOTPCode is the code of secret at a time step (RFC 4226 dynamic truncation, 6 digits).
func TOTPCode(secret []byte, step int64) string {
	var msg [8]byte
	binary.BigEndian.PutUint64(msg[:], uint64(step))
	mac := hmac.New(sha1.New, secret)
	mac.Write(msg[:])
	sum := mac.Sum(nil)
	offset := sum[len(sum)-1] & 0x0f
	bin := binary.BigEndian.Uint32(sum[offset:offset+4]) & 0x7fffffff
	return fmt.Sprintf("%06d", bin%1_000_000)
}

// TOTPStep is the time step of t.
func TOTPStep(t time.Time) int64 { return t.Unix() / totpPeriod }

// decodeSecret reads a base32 secret (as shown to users: upper case, no padding; spaces and lower
// case are tolerated).
func decodeSecret(s string) ([]byte, error) {
	s = strings.ToUpper(strings.ReplaceAll(s, " ", ""))
	return base32NoPad.DecodeString(strings.TrimRight(s, "="))
}

func (s *base) checkTOTPFormat(ctx context.Context, code string) error {
	if !isSixDigits(strings.TrimSpace(code)) {
		return core.Refuse(ctx, core.EINVALID, "account.code.format")
	}
	return nil
}

// matchStep returns the step within ±totpSkew of now, later than after, whose code is code.
func matchStep(secret []byte, code string, now time.Time, after int64) (int64, bool) {
	current := TOTPStep(now)
	found, ok := int64(0), false
	for step := current - totpSkew; step <= current+totpSkew; step++ {
		// Compare every candidate, in constant time, whatever matched before.
		if subtle.ConstantTimeCompare([]byte(TOTPCode(secret, step)), []byte(code)) == 1 && step > after && !ok {
			found, ok = step, true
		}
	}
	return found, ok
}

// TOTPSetup is what the user needs to add the account to an authenticator app.
type TOTPSetup struct {
	Secret     string // base32, no padding
	OTPAuthURL string
	QRPNG      string // data:image/png;base64,...
}

// SetupTOTP makes a new pending secret for the user, whose address must be verified (403
// otherwise: security.go). The session must hold a recent proof (RequireSecondFactorProof: a
// fresh sign-in, as in onboarding, or a re-verification), which included a second factor when the
// user has one: whoever holds an old session (a stolen cookie, a borrowed device) cannot turn on an
// authenticator of their own, which would end the owner's other sessions and, since a password
// reset never skips it, lock the owner out; and a reload of the setup page never replaces an
// enabled authenticator. The active secret keeps working until EnableTOTP confirms the new one.
func (s *SecondFactors) SetupTOTP(ctx context.Context, u *User, sess *Session) (*TOTPSetup, error) {
	if err := s.requireVerifiedEmail(ctx, u); err != nil {
		return nil, err
	}
	if err := s.requireSecondFactorProof(ctx, u, sess); err != nil {
		return nil, err
	}
	raw := make([]byte, totpSecretLen)
	if _, err := rand.Read(raw); err != nil {
		return nil, fmt.Errorf("totp secret: %w", err)
	}
	secret := base32NoPad.EncodeToString(raw)
	sealed, err := s.sealTOTP(u.ID, secret)
	if err != nil {
		return nil, fmt.Errorf("seal totp secret: %w", err)
	}
	now := s.now()
	if _, err := s.db.Exec(ctx, `INSERT INTO totp (user_id, secret, enabled, pending_secret, pending_created_at, last_used_step, updated_at)
		VALUES (?, NULL, ?, ?, ?, 0, ?)
		ON CONFLICT (user_id) DO UPDATE SET pending_secret = excluded.pending_secret,
			pending_created_at = excluded.pending_created_at, updated_at = excluded.updated_at`,
		u.ID, false, sealed, now, now); err != nil {
		return nil, fmt.Errorf("store totp secret: %w", err)
	}
	label := url.PathEscape(s.cfg.Issuer) + ":" + url.PathEscape(u.Email)
	q := url.Values{}
	q.Set("secret", secret)
	q.Set("issuer", s.cfg.Issuer)
	q.Set("algorithm", "SHA1")
	q.Set("digits", fmt.Sprint(totpDigits))
	q.Set("period", fmt.Sprint(totpPeriod))
	otpURL := "otpauth://totp/" + label + "?" + q.Encode()
	png, err := qrcode.Encode(otpURL, qrcode.Medium, 256)
	if err != nil {
		return nil, fmt.Errorf("totp QR code: %w", err)
	}
	return &TOTPSetup{
		Secret:     secret,
		OTPAuthURL: otpURL,
		QRPNG:      "data:image/png;base64," + base64.StdEncoding.EncodeToString(png),
	}, nil
}

// EnableTOTP confirms the pending secret with a code from the app, turns TOTP on and returns 10
// new recovery codes (shown once; the old ones stop working). Like SetupTOTP it needs a verified
// address and a recent proof, with the second factor when the user has one. Every other session of
// the user ends.
func (s *SecondFactors) EnableTOTP(ctx context.Context, u *User, sess *Session, code string) ([]string, error) {
	if err := s.requireVerifiedEmail(ctx, u); err != nil {
		return nil, err
	}
	if err := s.requireSecondFactorProof(ctx, u, sess); err != nil {
		return nil, err
	}
	code = strings.TrimSpace(code)
	if err := s.checkTOTPFormat(ctx, code); err != nil {
		return nil, err
	}
	now := s.now()
	var pending sql.NullString
	var pendingAt sql.NullTime
	err := s.db.QueryRow(ctx, `SELECT pending_secret, pending_created_at FROM totp WHERE user_id = ?`, u.ID).Scan(&pending, &pendingAt)
	if isNoRows(err) || (err == nil && (!pending.Valid || !pendingAt.Valid || !now.Before(pendingAt.Time.Add(s.cfg.TOTPSetupTTL)))) {
		return nil, core.Refuse(ctx, core.EINVALID, "account.totp.noSetup")
	}
	if err != nil {
		return nil, fmt.Errorf("load totp setup: %w", err)
	}
	text, plaintext, err := s.openTOTP(u.ID, pending.String)
	if err != nil {
		return nil, fmt.Errorf("open pending totp secret: %w", err)
	}
	active := pending.String // the value the active secret gets: sealed
	if plaintext {
		if active, err = s.sealTOTP(u.ID, text); err != nil {
			return nil, fmt.Errorf("seal totp secret: %w", err)
		}
	}
	secret, err := decodeSecret(text)
	if err != nil {
		return nil, fmt.Errorf("decode totp secret: %w", err)
	}
	step, ok := matchStep(secret, code, now, 0)
	if !ok {
		return nil, core.Refuse(ctx, core.EINVALID, "account.totp.wrong")
	}
	codes, hashes, err := newRecoveryCodes()
	if err != nil {
		return nil, err
	}
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	res, err := tx.Exec(ctx, `UPDATE totp SET secret = ?, enabled = ?, pending_secret = NULL,
		pending_created_at = NULL, last_used_step = ?, enabled_at = ?, updated_at = ?
		WHERE user_id = ? AND pending_secret = ?`, active, true, step, now, now, u.ID, pending.String)
	if err != nil {
		return nil, fmt.Errorf("enable totp: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, fmt.Errorf("enable totp: %w", err)
	} else if n == 0 {
		return nil, core.Refuse(ctx, core.EINVALID, "account.totp.noSetup") // confirmed by a parallel request
	}
	if _, err := tx.Exec(ctx, `DELETE FROM recovery_codes WHERE user_id = ?`, u.ID); err != nil {
		return nil, fmt.Errorf("replace recovery codes: %w", err)
	}
	for _, h := range hashes {
		if _, err := tx.Exec(ctx, `INSERT INTO recovery_codes (user_id, code_hash, created_at) VALUES (?, ?, ?)`, u.ID, h, now); err != nil {
			return nil, fmt.Errorf("store recovery code: %w", err)
		}
	}
	ended, err := s.endOtherSessions(ctx, tx, u.ID, sessionID(sess))
	if err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("enable totp: commit: %w", err)
	}
	s.notifyEnded(ended)
	return codes, nil
}

// DisableTOTP turns TOTP off and deletes the recovery codes; it needs a recent proof that
// included a second factor. Every other session of the user ends.
func (s *SecondFactors) DisableTOTP(ctx context.Context, u *User, sess *Session) error {
	if err := s.requireSecondFactorProof(ctx, u, sess); err != nil {
		return err
	}
	if !u.TOTPEnabled {
		return core.Refuse(ctx, core.ECONFLICT, "account.totp.notEnabled")
	}
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(ctx, `DELETE FROM totp WHERE user_id = ?`, u.ID); err != nil {
		return fmt.Errorf("disable totp: %w", err)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM recovery_codes WHERE user_id = ?`, u.ID); err != nil {
		return fmt.Errorf("disable totp: %w", err)
	}
	ended, err := s.endOtherSessions(ctx, tx, u.ID, sessionID(sess))
	if err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("disable totp: commit: %w", err)
	}
	s.notifyEnded(ended)
	return nil
}

// useTOTPCode accepts code for the user's active secret once: EINVALID when wrong or already used.
func (s *base) useTOTPCode(ctx context.Context, userID, code string) error {
	code = strings.TrimSpace(code)
	var secretText sql.NullString
	var last int64
	err := s.db.QueryRow(ctx, `SELECT secret, last_used_step FROM totp WHERE user_id = ? AND enabled = ?`, userID, true).Scan(&secretText, &last)
	if isNoRows(err) || (err == nil && !secretText.Valid) {
		return core.Refuse(ctx, core.EINVALID, "account.totp.notEnabled")
	}
	if err != nil {
		return fmt.Errorf("load totp: %w", err)
	}
	text, plaintext, err := s.openTOTP(userID, secretText.String)
	if err != nil {
		return fmt.Errorf("open totp secret: %w", err)
	}
	if plaintext {
		s.resealTOTP(ctx, userID, secretText.String, text)
	}
	secret, err := decodeSecret(text)
	if err != nil {
		return fmt.Errorf("decode totp secret: %w", err)
	}
	step, ok := matchStep(secret, code, s.now(), last)
	if !ok {
		return core.Refuse(ctx, core.EINVALID, "account.totp.wrong")
	}
	res, err := s.db.Exec(ctx, `UPDATE totp SET last_used_step = ?, updated_at = ? WHERE user_id = ? AND enabled = ? AND last_used_step < ?`,
		step, s.now(), userID, true, step)
	if err != nil {
		return fmt.Errorf("record totp step: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("record totp step: %w", err)
	} else if n == 0 {
		return core.Refuse(ctx, core.EINVALID, "account.totp.wrong") // replayed, here or in parallel
	}
	return nil
}

// resealTOTP replaces a plaintext active secret (stored before secrets were encrypted) with its
// sealed form, unless it changed meanwhile. A failure is logged: the code check goes on.
func (s *base) resealTOTP(ctx context.Context, userID, stored, secret string) {
	sealed, err := s.sealTOTP(userID, secret)
	if err == nil {
		_, err = s.db.Exec(ctx, `UPDATE totp SET secret = ? WHERE user_id = ? AND secret = ?`, sealed, userID, stored)
	}
	if err != nil {
		s.logger.WarnContext(ctx, "seal a plaintext totp secret", "err", err)
	}
}

// Recovery codes are 10 characters of a 32-letter alphabet without look-alikes (50 bits), shown
// as xxxxx-xxxxx. Input is folded to lower case without spaces or dashes before hashing.
const recoveryAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"

func newRecoveryCodes() (codes, hashes []string, err error) {
	for range recoveryCount {
		b := make([]byte, 10)
		if _, err := rand.Read(b); err != nil {
			return nil, nil, fmt.Errorf("recovery code: %w", err)
		}
		for i := range b {
			b[i] = recoveryAlphabet[int(b[i])%len(recoveryAlphabet)] // 256 is a multiple of 32: no bias
		}
		code := string(b[:5]) + "-" + string(b[5:])
		codes = append(codes, code)
		hashes = append(hashes, recoveryHash(code))
	}
	return codes, hashes, nil
}

func foldRecoveryCode(code string) string {
	code = strings.ToLower(code)
	return strings.Map(func(r rune) rune {
		if r == '-' || r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, code)
}

func recoveryHash(code string) string {
	sum := sha256.Sum256([]byte(foldRecoveryCode(code)))
	return hex.EncodeToString(sum[:])
}

// useRecoveryCode consumes one unused recovery code of the user; EINVALID when wrong or used.
func (s *base) useRecoveryCode(ctx context.Context, userID, code string) error {
	if len(foldRecoveryCode(code)) != 10 {
		return core.Refuse(ctx, core.EINVALID, "account.recovery.wrong")
	}
	res, err := s.db.Exec(ctx, `UPDATE recovery_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL`,
		s.now(), userID, recoveryHash(code))
	if err != nil {
		return fmt.Errorf("use recovery code: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("use recovery code: %w", err)
	} else if n == 0 {
		return core.Refuse(ctx, core.EINVALID, "account.recovery.wrong")
	}
	return nil
}

// RecoveryCodesLeft counts the user's unused recovery codes.
func (s *SecondFactors) RecoveryCodesLeft(ctx context.Context, userID string) (int, error) {
	var n int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM recovery_codes WHERE user_id = ? AND used_at IS NULL`, userID).Scan(&n); err != nil {
		return 0, fmt.Errorf("count recovery codes: %w", err)
	}
	return n, nil
}
