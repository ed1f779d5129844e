package account

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"patrimonio/core"
)

// Session tokens are 32 random bytes, base64url without padding (43 characters). The database
// keeps only their SHA-256, so a copy of the sessions table opens no session.

const tokenBytes = 32

func randomToken() string {
	b := make([]byte, tokenBytes)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("crypto/rand failed: %v", err)) // never happens on supported systems
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// SessionID is the id under which the session of token is stored.
func SessionID(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func wellFormedToken(token string) bool {
	if len(token) != base64.RawURLEncoding.EncodedLen(tokenBytes) {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(token)
	return err == nil
}

const maxUserAgent = 512

// insertSession stores a new session of userID and returns its token. A full session (not
// mfaPending) counts as a fresh proof of identity: it was just earned with a password (and second
// factor), a passkey or a new account.
// secondFactor says whether that proof included a second factor (a TOTP code, a passkey).
// Every sign-in passes here: a disabled user is refused (EFORBIDDEN, account.disabled), and a full
// session records the user's last sign-in.
func (s *base) insertSession(ctx context.Context, q queryer, userID string, mfaPending bool, meta SessionMeta, now time.Time, secondFactor ...bool) (string, error) {
	var disabled sql.NullTime
	if err := q.QueryRow(ctx, `SELECT disabled_at FROM users WHERE id = ?`, userID).Scan(&disabled); err != nil {
		if isNoRows(err) {
			return "", core.Refuse(ctx, core.EUNAUTHORIZED, "account.session.required")
		}
		return "", fmt.Errorf("insert session: user: %w", err)
	}
	if disabled.Valid {
		return "", core.Refuse(ctx, core.EFORBIDDEN, "account.disabled")
	}
	if !mfaPending {
		if _, err := q.Exec(ctx, `UPDATE users SET last_sign_in_at = ? WHERE id = ?`, now, userID); err != nil {
			return "", fmt.Errorf("insert session: last sign-in: %w", err)
		}
	}
	token := randomToken()
	expires := now.Add(s.cfg.SessionAbsolute)
	var reverified any = now
	mfa := len(secondFactor) > 0 && secondFactor[0]
	if mfaPending {
		expires = now.Add(s.cfg.MFAPendingTTL)
		reverified = nil
		mfa = false
	}
	ua := cleanText(meta.UserAgent)
	if len(ua) > maxUserAgent {
		ua = strings.ToValidUTF8(ua[:maxUserAgent], "")
	}
	if _, err := q.Exec(ctx, `INSERT INTO sessions (id, user_id, created_at, last_seen_at, expires_at, reverified_at,
		reverified_mfa, mfa_pending, user_agent, ip) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		SessionID(token), userID, now, now, expires, reverified, mfa, mfaPending, ua, cleanText(meta.IP)); err != nil {
		return "", fmt.Errorf("insert session: %w", err)
	}
	return token, nil
}

// StartSession signs the user in on a new session and returns its token (for the cookie). It is
// for providers that proved the user's identity themselves: passkey sign-in (a passkey is a second
// factor in itself, so no TOTP is asked) and Clerk. The session counts as a fresh proof that
// includes a second factor.
func (s *Sessions) StartSession(ctx context.Context, userID string, meta SessionMeta) (string, error) {
	u, err := s.user(ctx, userID)
	if err != nil {
		return "", err
	}
	if err := s.applyConfiguredAdmin(ctx, u); err != nil {
		return "", err
	}
	s.maybeSweep(ctx)
	return s.insertSession(ctx, s.db, u.ID, false, meta, s.now(), true)
}

// Authenticate returns the session of token and its user. It answers EUNAUTHORIZED for a missing,
// malformed, unknown or expired token (an expired session is deleted). A session waiting for its
// second factor is returned with MFAPending set; callers decide what it may do. last_seen_at is
// moved forward at most once per Config.SessionTouch.
func (s *Sessions) Authenticate(ctx context.Context, token string) (*Session, *User, error) {
	unauthorized := core.Refuse(ctx, core.EUNAUTHORIZED, "account.session.required")
	if !wellFormedToken(token) {
		return nil, nil, unauthorized
	}
	id := SessionID(token)
	sess, err := s.session(ctx, id)
	if isNoRows(err) {
		return nil, nil, unauthorized
	}
	if err != nil {
		return nil, nil, err
	}
	now := s.now()
	if !now.Before(sess.ExpiresAt) || !now.Before(sess.LastSeenAt.Add(s.cfg.SessionIdle)) {
		if _, err := s.db.Exec(ctx, `DELETE FROM sessions WHERE id = ?`, id); err != nil {
			return nil, nil, fmt.Errorf("delete expired session: %w", err)
		}
		return nil, nil, unauthorized
	}
	u, err := s.user(ctx, sess.UserID)
	if err != nil {
		if core.ErrorCode(err) == core.ENOTFOUND {
			return nil, nil, unauthorized
		}
		return nil, nil, err
	}
	if u.Disabled() {
		// Disabling deletes the user's sessions; one started in the same instant dies here.
		if _, err := s.db.Exec(ctx, `DELETE FROM sessions WHERE id = ?`, id); err != nil {
			return nil, nil, fmt.Errorf("delete session of a disabled user: %w", err)
		}
		return nil, nil, core.Refuse(ctx, core.EUNAUTHORIZED, "account.disabled")
	}
	if now.Sub(sess.LastSeenAt) >= s.cfg.SessionTouch {
		if _, err := s.db.Exec(ctx, `UPDATE sessions SET last_seen_at = ? WHERE id = ? AND last_seen_at < ?`, now, id, now); err != nil {
			return nil, nil, fmt.Errorf("touch session: %w", err)
		}
		sess.LastSeenAt = now
	}
	return sess, u, nil
}

func (s *base) session(ctx context.Context, id string) (*Session, error) {
	var sess Session
	var reverified sql.NullTime
	err := s.db.QueryRow(ctx, `SELECT id, user_id, created_at, last_seen_at, expires_at, reverified_at, reverified_mfa, mfa_pending,
		user_agent, ip FROM sessions WHERE id = ?`, id).Scan(&sess.ID, &sess.UserID, &sess.CreatedAt, &sess.LastSeenAt,
		&sess.ExpiresAt, &reverified, &sess.ReverifiedMFA, &sess.MFAPending, &sess.UserAgent, &sess.IP)
	if err != nil {
		if isNoRows(err) {
			return nil, err
		}
		return nil, fmt.Errorf("load session: %w", err)
	}
	sess.CreatedAt, sess.LastSeenAt, sess.ExpiresAt = sess.CreatedAt.UTC(), sess.LastSeenAt.UTC(), sess.ExpiresAt.UTC()
	if reverified.Valid {
		sess.ReverifiedAt = reverified.Time.UTC()
	}
	return &sess, nil
}

// SignOut ends the session of token. Signing out of an unknown or expired session is not an error.
func (s *Sessions) SignOut(ctx context.Context, token string) error {
	if !wellFormedToken(token) {
		return nil
	}
	id := SessionID(token)
	if _, err := s.db.Exec(ctx, `DELETE FROM sessions WHERE id = ?`, id); err != nil {
		return fmt.Errorf("sign out: %w", err)
	}
	if s.hooks.OnSessionEnded != nil {
		s.hooks.OnSessionEnded(id)
	}
	return nil
}

// MarkReverified records a fresh proof of identity without a second factor (a password, an
// e-mailed code) on the session and returns until when sensitive actions are open.
func (s *Reverify) MarkReverified(ctx context.Context, sessionID string) (time.Time, error) {
	return s.markReverified(ctx, sessionID, false)
}

// MarkReverifiedSecondFactor records a fresh proof with a second factor (an authenticator code, a
// passkey), which changing second factors needs (RequireSecondFactorProof).
func (s *Reverify) MarkReverifiedSecondFactor(ctx context.Context, sessionID string) (time.Time, error) {
	return s.markReverified(ctx, sessionID, true)
}

func (s *base) markReverified(ctx context.Context, sessionID string, secondFactor bool) (time.Time, error) {
	now := s.now()
	res, err := s.db.Exec(ctx, `UPDATE sessions SET reverified_at = ?, reverified_mfa = ? WHERE id = ? AND mfa_pending = ?`, now, secondFactor, sessionID, false)
	if err != nil {
		return time.Time{}, fmt.Errorf("mark reverified: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return time.Time{}, fmt.Errorf("mark reverified: %w", err)
	} else if n == 0 {
		return time.Time{}, core.Refuse(ctx, core.EUNAUTHORIZED, "account.session.required")
	}
	return now.Add(s.cfg.ReverifyWindow), nil
}

// reverifiedUntil is until when the session's last proof keeps sensitive actions open; zero when
// it does not (never proved, or expired).
func (s *base) reverifiedUntil(sess *Session) time.Time {
	if sess == nil || sess.ReverifiedAt.IsZero() {
		return time.Time{}
	}
	until := sess.ReverifiedAt.Add(s.cfg.ReverifyWindow)
	if !s.now().Before(until) {
		return time.Time{}
	}
	return until
}

// requireRecentProof refuses (403, code core.EREVERIFY) unless the session proved the user's
// identity within Config.ReverifyWindow: by signing in, or through Reverify.
func (s *base) requireRecentProof(ctx context.Context, sess *Session) error {
	if s.reverifiedUntil(sess).IsZero() {
		return core.Refuse(ctx, core.EREVERIFY, "account.reverify.required")
	}
	return nil
}
