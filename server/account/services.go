package account

import (
	"context"
	"time"
)

// The exported faces of the helpers that several services use (their bodies are on base).

// User returns the user with id, or an ENOTFOUND error.
func (s *Users) User(ctx context.Context, id string) (*User, error) { return s.user(ctx, id) }

// UserByEmail returns the user with the address (any case), or an ENOTFOUND error.
func (s *Users) UserByEmail(ctx context.Context, email string) (*User, error) {
	return s.userByEmail(ctx, email)
}

// Sweep deletes expired sessions, failures older than the throttle window and expired codes.
func (s *Users) Sweep(ctx context.Context) error { return s.sweep(ctx) }

// HasSecondFactor says whether the user has TOTP on or a passkey.
func (s *SecondFactors) HasSecondFactor(ctx context.Context, u *User) (bool, error) {
	return s.hasSecondFactor(ctx, u)
}

// RequireVerifiedEmail refuses (403, core.EFORBIDDEN) a user whose address was never verified:
// second factors (TOTP, passkeys) are only added to a verified account.
func (s *SecondFactors) RequireVerifiedEmail(ctx context.Context, u *User) error {
	return s.requireVerifiedEmail(ctx, u)
}

// ReverifiedUntil is until when the session's last proof keeps sensitive actions open; zero when
// it does not (never proved, or expired).
func (s *Reverify) ReverifiedUntil(sess *Session) time.Time { return s.reverifiedUntil(sess) }

// RequireRecentProof refuses (403, code core.EREVERIFY) unless the session proved the user's
// identity within Config.ReverifyWindow: by signing in, or through Reverify.
func (s *Reverify) RequireRecentProof(ctx context.Context, sess *Session) error {
	return s.requireRecentProof(ctx, sess)
}

// RequireSecondFactorProof refuses (403, core.EREVERIFY) unless the session holds a recent proof
// (RequireRecentProof) and, when the user has a second factor, that proof included one.
func (s *Reverify) RequireSecondFactorProof(ctx context.Context, u *User, sess *Session) error {
	return s.requireSecondFactorProof(ctx, u, sess)
}
