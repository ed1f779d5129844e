package account

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"patrimonio/core"
)

// Throttling counts failed attempts in auth_throttle, one row per failure, keyed by a hash of what
// is throttled. A limited attempt first reserves a row for each of its keys, then counts the rows
// of the window: if a key is over its limit, the reservations are removed and the attempt is
// refused with the time until the oldest counted failure leaves the window. Because the row is
// written before the count, parallel attempts cannot all slip under the limit: the attempt whose
// reservation is the n-th can only proceed when n <= limit. A failed attempt keeps its rows (they
// are its failure record); a successful one removes them.

type throttleKey struct {
	hash  string
	limit int
}

// The sign-in throttle. A stranger's wrong passwords must keep guessing slow without locking the
// owner out, so failures are counted:
//   - per account and client (accountKey: the address with the IP, an IPv6 /64): 5 per window.
//     Only that client is refused; the owner, elsewhere, is not;
//   - per client across accounts (ipKey): 20 per window;
//   - per account from every client together (accountWideKey): 50 per window, the bound on a guess
//     spread over many addresses. Past it, sign-in with the password is refused (429) from
//     anywhere until the window passes, but the owner still gets in at once with a password reset:
//     an e-mailed link or code plus a new password, which clears this count.
//
// A right password never clears the failures of other clients.
func (s *base) accountKey(email, ip string) throttleKey {
	return throttleKey{keyHash("account-client", email+"|"+core.IPBucket(ip)), s.cfg.AccountFailures}
}

func (s *base) accountWideKey(email string) throttleKey {
	return throttleKey{keyHash("account", email), s.cfg.AccountWideFailures}
}

func (s *base) userKey(userID string) throttleKey {
	return throttleKey{keyHash("user", userID), s.cfg.AccountFailures}
}

func (s *base) ipKey(ip string) throttleKey {
	return throttleKey{keyHash("ip", core.IPBucket(ip)), s.cfg.IPFailures}
}

func (s *base) resetIPKey(ip string) throttleKey {
	return throttleKey{keyHash("reset-ip", core.IPBucket(ip)), s.cfg.ResetRequestsIP}
}

// signUpIPKey counts the sign-ups and sign-up code resends of a client. Every request counts
// (each may send a mail to an address of the caller's choosing), and its reservation stays: it is
// what the limit counts.
func (s *base) signUpIPKey(ip string) throttleKey {
	return throttleKey{keyHash("signup-ip", core.IPBucket(ip)), s.cfg.SignUpRequestsIP}
}

// reserveSignUp records a sign-up or resend request of the client at ip; past the limit it is
// refused (429 with the wait) in words about sign-ups rather than failed attempts.
func (s *base) reserveSignUp(ctx context.Context, ip string) error {
	_, err := s.reserve(ctx, s.signUpIPKey(ip))
	var e *core.Error
	if errors.As(err, &e) && e.Code == core.ETOOMANY {
		return s.throttledAs(ctx, "account.signup.throttled", e.RetryAfter)
	}
	return err
}

func keyHash(kind, value string) string {
	sum := sha256.Sum256([]byte(kind + ":" + value))
	return hex.EncodeToString(sum[:])
}

// attempt is a reservation made by reserve.
type attempt struct {
	ids []string
}

// reserve records one attempt under every key and refuses it (a core.Error with RetryAfter) when a key is over its
// limit within the window.
func (s *base) reserve(ctx context.Context, keys ...throttleKey) (*attempt, error) {
	return s.reserveWithin(ctx, s.cfg.ThrottleWindow, keys...)
}

// reserveWithin is reserve over a shorter window (at most Config.ThrottleWindow: older rows are swept).
func (s *base) reserveWithin(ctx context.Context, window time.Duration, keys ...throttleKey) (*attempt, error) {
	window = min(window, s.cfg.ThrottleWindow)
	now := s.now()
	since := now.Add(-window)
	a := &attempt{}
	for _, k := range keys {
		id := uuid.NewString()
		if _, err := s.db.Exec(ctx, `INSERT INTO auth_throttle (id, key, failed_at) VALUES (?, ?, ?)`, id, k.hash, now); err != nil {
			s.release(context.WithoutCancel(ctx), a)
			return nil, fmt.Errorf("throttle: record attempt: %w", err)
		}
		a.ids = append(a.ids, id)
	}
	var wait time.Duration
	for _, k := range keys {
		var n int
		if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM auth_throttle WHERE key = ? AND failed_at > ?`, k.hash, since).Scan(&n); err != nil {
			s.release(context.WithoutCancel(ctx), a)
			return nil, fmt.Errorf("throttle: count attempts: %w", err)
		}
		if n > k.limit {
			if w, err := s.waitFor(ctx, k, since, window, a); err != nil {
				s.release(context.WithoutCancel(ctx), a)
				return nil, err
			} else if w > wait {
				wait = w
			}
		}
	}
	if wait > 0 {
		s.release(context.WithoutCancel(ctx), a)
		return nil, s.throttled(ctx, wait)
	}
	return a, nil
}

// waitFor is how long until key drops under its limit: the limit-th newest failure of the window,
// not counting this attempt's own reservation, leaves the window.
func (s *base) waitFor(ctx context.Context, k throttleKey, since time.Time, window time.Duration, a *attempt) (time.Duration, error) {
	rows, err := s.db.Query(ctx, `SELECT id, failed_at FROM auth_throttle WHERE key = ? AND failed_at > ? ORDER BY failed_at DESC, id`, k.hash, since)
	if err != nil {
		return 0, fmt.Errorf("throttle: list attempts: %w", err)
	}
	defer rows.Close()
	seen := 0
	for rows.Next() {
		var id string
		var at time.Time
		if err := rows.Scan(&id, &at); err != nil {
			return 0, fmt.Errorf("throttle: list attempts: %w", err)
		}
		if a.owns(id) {
			continue
		}
		seen++
		if seen == k.limit {
			return max(time.Second, at.Add(window).Sub(s.now())), nil
		}
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("throttle: list attempts: %w", err)
	}
	// Other attempts in flight hold the count up; they settle within a second or so.
	return time.Second, nil
}

func (a *attempt) owns(id string) bool {
	for _, x := range a.ids {
		if x == id {
			return true
		}
	}
	return false
}

// release removes the reservation of an attempt that succeeded (or was refused).
func (s *base) release(ctx context.Context, a *attempt) {
	if a == nil {
		return
	}
	for _, id := range a.ids {
		if _, err := s.db.Exec(ctx, `DELETE FROM auth_throttle WHERE id = ?`, id); err != nil {
			s.logger.WarnContext(ctx, "throttle: remove reservation", "err", err)
		}
	}
	a.ids = nil
}

// ThrottleByIP runs attempt, a sign-in that names no account (a passkey assertion), under the
// per-IP failure limit that password sign-ins count against too (Config.IPFailures per
// Config.ThrottleWindow, in auth_throttle). Over the limit the attempt is not run and the answer
// is a core.Error with RetryAfter (429 with the wait). An attempt refused as EUNAUTHORIZED or EINVALID counts as a
// failure of the IP; one that succeeds or fails otherwise (the database) does not.
func (s *Sessions) ThrottleByIP(ctx context.Context, ip string, attempt func() error) error {
	att, err := s.reserve(ctx, s.ipKey(ip))
	if err != nil {
		return err
	}
	if err := attempt(); err != nil {
		switch core.ErrorCode(err) {
		case core.EUNAUTHORIZED, core.EINVALID:
			// The reservation stays: it is the record of this failure.
		default:
			s.release(context.WithoutCancel(ctx), att)
		}
		return err
	}
	s.release(ctx, att)
	return nil
}

// LimitUser counts one request of kind (a name of the action: "billing-refresh") by the user and
// refuses it — 429 with RetryAfter, worded by messageKey, which takes the seconds to wait — when more
// than limit requests of that kind by that user fall within window (at most Config.ThrottleWindow).
// Every request that is let through counts: its row in auth_throttle stays until it is swept. It is
// the sign-in throttle's machinery, for actions that cost a call to a third party.
func (s *Sessions) LimitUser(ctx context.Context, kind, userID string, limit int, window time.Duration, messageKey string) error {
	_, err := s.reserveWithin(ctx, window, throttleKey{keyHash("user-"+kind, userID), limit})
	var e *core.Error
	if errors.As(err, &e) && e.Code == core.ETOOMANY {
		seconds := int((e.RetryAfter + time.Second - 1) / time.Second)
		refused := core.Refuse(ctx, core.ETOOMANY, messageKey, max(1, seconds))
		refused.RetryAfter = e.RetryAfter
		return refused
	}
	return err
}

// clearKey forgets the failures of a key (after a successful sign-in of that account).
func (s *base) clearKey(ctx context.Context, k throttleKey) {
	if _, err := s.db.Exec(ctx, `DELETE FROM auth_throttle WHERE key = ?`, k.hash); err != nil {
		s.logger.WarnContext(ctx, "throttle: clear failures", "err", err)
	}
}

func (s *base) throttled(ctx context.Context, wait time.Duration) error {
	return s.throttledAs(ctx, "account.signin.throttled", wait)
}

// throttledAs is the 429 refusal with the message key (which takes the minutes to wait).
func (s *base) throttledAs(ctx context.Context, key string, wait time.Duration) error {
	minutes := int((wait + time.Minute - 1) / time.Minute)
	e := core.Refuse(ctx, core.ETOOMANY, key, max(1, minutes))
	e.RetryAfter = wait
	return e
}

// sweepInterval is the least time between two sweeps of expired sessions and old failures.
const sweepInterval = 10 * time.Minute

// maybeSweep deletes expired sessions, old throttle rows and dead e-mailed codes, at most once per
// sweepInterval per process. It runs on sign-in, so an idle server does no work.
func (s *base) maybeSweep(ctx context.Context) {
	now := s.now()
	last := s.lastCleanup.Load()
	if now.Unix()-last < int64(sweepInterval/time.Second) || !s.lastCleanup.CompareAndSwap(last, now.Unix()) {
		return
	}
	if err := s.sweep(ctx); err != nil {
		s.logger.WarnContext(ctx, "sweep expired sessions", "err", err)
	}
}

// sweep deletes expired sessions, failures older than the throttle window and expired codes.
func (s *base) sweep(ctx context.Context) error {
	now := s.now()
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`DELETE FROM sessions WHERE expires_at <= ? OR last_seen_at <= ?`, []any{now, now.Add(-s.cfg.SessionIdle)}},
		{`DELETE FROM auth_throttle WHERE failed_at <= ?`, []any{now.Add(-s.cfg.ThrottleWindow)}},
		{`DELETE FROM email_codes WHERE expires_at <= ?`, []any{now}},
	} {
		if _, err := s.db.Exec(ctx, q.sql, q.args...); err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
	}
	return nil
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
