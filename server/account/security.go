package account

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"patrimonio/core"
)

// Security events and the proofs they need (issue 11):
//   - changing or removing a second factor or a passkey needs a recent proof that included a
//     second factor whenever the user has one (RequireSecondFactorProof): a password or an
//     e-mailed code is not enough then, nor a session signed in before the factor existed;
//   - turning TOTP on, replacing or turning it off, removing a passkey, changing the password or
//     the e-mail address end every other session of the user at once (endOtherSessions), and the
//     live connections opened with them (OnSessionEnded); deleting the account ends all of them
//     (OnUserEnded);
//   - second factors need a verified address (requireVerifiedEmail). Sign-in works before the
//     address is verified, so anyone may hold a session of an account made with an address they do
//     not own; a factor they added would outlive the owner's sign-up and let them in afterwards. For
//     the same reason, proving the address (VerifyRegistration, VerifyEmail) or signing it up again
//     while unverified (signUpTaken) deletes every factor set up before (forgetSecondFactorsIf).

// hasSecondFactor says whether the user has TOTP on or a passkey.
func (s *base) hasSecondFactor(ctx context.Context, u *User) (bool, error) {
	if u.TOTPEnabled {
		return true, nil
	}
	if s.hooks.HasPasskey == nil {
		return false, nil
	}
	return s.hooks.HasPasskey(ctx, u.ID)
}

// requireVerifiedEmail refuses (403) a user whose address was never verified (see above).
func (s *base) requireVerifiedEmail(ctx context.Context, u *User) error {
	if !u.EmailVerified() {
		return core.Refuse(ctx, core.EFORBIDDEN, "account.email.unverified")
	}
	return nil
}

// forgetSecondFactorsIf deletes, inside q, the user's passkeys, authenticator (active or being set
// up) and recovery codes, when res (the UPDATE of the still unverified user) changed the user:
// whoever set them up before the address was proven may not be its owner. When it changed nothing,
// the address was verified meanwhile and the factors are the owner's.
func (s *base) forgetSecondFactorsIf(ctx context.Context, q queryer, res sql.Result, userID string) error {
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("forget the second factors: %w", err)
	} else if n == 0 {
		return nil
	}
	for _, table := range []string{"passkeys", "totp", "recovery_codes"} {
		if _, err := q.Exec(ctx, `DELETE FROM `+table+` WHERE user_id = ?`, userID); err != nil {
			return fmt.Errorf("forget the second factors: %s: %w", table, err)
		}
	}
	return nil
}

// requireSecondFactorProof refuses (403, core.EREVERIFY) unless the session holds a recent proof
// (RequireRecentProof) and, when the user has a second factor, that proof included one.
func (s *base) requireSecondFactorProof(ctx context.Context, u *User, sess *Session) error {
	if err := s.requireRecentProof(ctx, sess); err != nil {
		return err
	}
	has, err := s.hasSecondFactor(ctx, u)
	if err != nil {
		return err
	}
	if has && !sess.ReverifiedMFA {
		return core.Refuse(ctx, core.EREVERIFY, "account.reverify.secondFactor")
	}
	return nil
}

// endOtherSessions deletes, inside q, every session of the user but keep ("" for all of them), and
// returns their ids; the caller tells them to notifyEnded after its commit.
func (s *base) endOtherSessions(ctx context.Context, q queryer, userID, keep string) ([]string, error) {
	rows, err := q.Query(ctx, `DELETE FROM sessions WHERE user_id = ? AND id <> ? RETURNING id`, userID, keep)
	if err != nil {
		return nil, fmt.Errorf("end the other sessions: %w", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("end the other sessions: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("end the other sessions: %w", err)
	}
	return ids, nil
}

// notifyEnded tells OnSessionEnded about sessions that were ended.
func (s *base) notifyEnded(ids []string) {
	if s.hooks.OnSessionEnded == nil {
		return
	}
	for _, id := range ids {
		s.hooks.OnSessionEnded(id)
	}
}

// EndOtherSessions signs the user out everywhere but on sess ("sign out other devices").
func (s *Sessions) EndOtherSessions(ctx context.Context, u *User, sess *Session) (int, error) {
	keep := ""
	if sess != nil {
		keep = sess.ID
	}
	ids, err := s.endOtherSessions(ctx, s.db, u.ID, keep)
	if err != nil {
		return 0, err
	}
	s.notifyEnded(ids)
	return len(ids), nil
}

// SessionInfo is a signed-in device as its user sees it in the list of sessions.
type SessionInfo struct {
	// ID is a public handle of the session (not the id it is stored under, which is the hash of the
	// cookie's token).
	ID         string
	Current    bool
	CreatedAt  time.Time
	LastSeenAt time.Time
	UserAgent  string
	IP         string
}

// publicSessionID is the handle a session is shown and ended under, in the form of a UUID.
func publicSessionID(id string) string {
	sum := sha256.Sum256([]byte("session-handle:" + id))
	u, _ := uuid.FromBytes(sum[:16])
	return u.String()
}

// Sessions lists the user's live sessions (a pending sign-in waiting for its second factor is not
// one), the most recently used first; current marks the one of the request.
func (s *Sessions) Sessions(ctx context.Context, u *User, current *Session) ([]SessionInfo, error) {
	now := s.now()
	rows, err := s.db.Query(ctx, `SELECT id, created_at, last_seen_at, user_agent, ip FROM sessions
		WHERE user_id = ? AND mfa_pending = ? AND expires_at > ? AND last_seen_at > ?
		ORDER BY last_seen_at DESC, created_at DESC`, u.ID, false, now, now.Add(-s.cfg.SessionIdle))
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	out := []SessionInfo{}
	for rows.Next() {
		var id string
		var si SessionInfo
		if err := rows.Scan(&id, &si.CreatedAt, &si.LastSeenAt, &si.UserAgent, &si.IP); err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		si.ID, si.Current = publicSessionID(id), current != nil && current.ID == id
		si.CreatedAt, si.LastSeenAt = si.CreatedAt.UTC(), si.LastSeenAt.UTC()
		out = append(out, si)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	return out, nil
}

// EndSession signs one of the user's sessions out by its public id (ENOTFOUND when the user has
// no such session).
func (s *Sessions) EndSession(ctx context.Context, u *User, publicID string) error {
	rows, err := s.db.Query(ctx, `SELECT id FROM sessions WHERE user_id = ?`, u.ID)
	if err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	target := ""
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return fmt.Errorf("end session: %w", err)
		}
		if publicSessionID(id) == publicID {
			target = id
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	if target == "" {
		return core.Refuse(ctx, core.ENOTFOUND, "account.session.notFound")
	}
	if _, err := s.db.Exec(ctx, `DELETE FROM sessions WHERE id = ? AND user_id = ?`, target, u.ID); err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	s.notifyEnded([]string{target})
	return nil
}

// cleanText makes text safe to store: valid UTF-8 without NUL bytes (Postgres refuses both).
func cleanText(v string) string {
	if !utf8.ValidString(v) {
		v = strings.ToValidUTF8(v, "\uFFFD")
	}
	return strings.ReplaceAll(v, "\x00", "")
}

// validText says whether v can reach the database as it is.
func validText(v string) bool { return utf8.ValidString(v) && !strings.Contains(v, "\x00") }

// sessionID is the id of sess, "" for none.
func sessionID(sess *Session) string {
	if sess == nil {
		return ""
	}
	return sess.ID
}
