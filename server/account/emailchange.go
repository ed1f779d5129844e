package account

import (
	"context"
	"fmt"
	"strings"
	"time"

	"patrimonio/core"
)

// Changing the e-mail address takes two calls. RequestEmailChange (a sensitive action: it needs a
// recent proof) e-mails a 6-digit code to the new address and keeps the address beside the code
// (email_codes, purpose change_email). ConfirmEmailChange with that code switches the address,
// marks it verified, ends the user's other sessions and tells the old address.
//
// Whether another account already uses the new address is not said when the change is asked: the
// code goes out either way, and only whoever reads that mailbox learns, when confirming, that the
// address cannot be used (409). So the form cannot be used to test addresses.

// EmailChange is a change of address waiting for its code.
type EmailChange struct {
	NewEmail string
	// ExpiresAt is when the code sent to NewEmail stops working.
	ExpiresAt time.Time
}

// RequestEmailChange e-mails a code to newEmail to confirm it as the user's address. It needs a
// recent proof (EREVERIFY). Asking again replaces the pending change, at most once per
// Config.EmailResendInterval (429 with the wait). Users of the Clerk provider change their address
// at Clerk (EFORBIDDEN).
func (s *Profile) RequestEmailChange(ctx context.Context, u *User, sess *Session, newEmail string) (*EmailChange, error) {
	if u.ClerkUserID != "" {
		return nil, core.Refuse(ctx, core.EFORBIDDEN, "account.email.clerkManaged")
	}
	if err := s.requireRecentProof(ctx, sess); err != nil {
		return nil, err
	}
	email, err := checkEmail(ctx, newEmail)
	if err != nil {
		return nil, err
	}
	if email == u.Email {
		return nil, core.Refuse(ctx, core.EINVALID, "account.email.same")
	}
	now := s.now()
	if err := s.newCodeAndSendTo(ctx, u, purposeChangeEmail, email, email); err != nil {
		return nil, err
	}
	return &EmailChange{NewEmail: email, ExpiresAt: now.Add(s.cfg.EmailCodeTTL)}, nil
}

// ConfirmEmailChange switches the user's address to the one the code was sent to, marks it
// verified (a user still at the verify_email step moves past it), ends every other session of the
// user (sess stays) and e-mails a notice to the old address. Wrong codes are EINVALID and count as
// failures of the user and the IP. An address taken meanwhile by another account is ECONFLICT,
// worded without saying more than that it cannot be used. It returns the updated user.
func (s *Profile) ConfirmEmailChange(ctx context.Context, u *User, sess *Session, code, ip string) (*User, error) {
	if u.ClerkUserID != "" {
		return nil, core.Refuse(ctx, core.EFORBIDDEN, "account.email.clerkManaged")
	}
	newEmail, err := s.checkEmailCodeFor(ctx, u.ID, purposeChangeEmail, code, ip)
	if err != nil {
		return nil, err
	}
	if newEmail == "" {
		return nil, fmt.Errorf("confirm e-mail change of %s: the code has no address", u.ID)
	}
	keep := ""
	if sess != nil {
		keep = sess.ID
	}
	now := s.now()
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	res, err := tx.Exec(ctx, `UPDATE users SET email = ?, email_verified_at = ?, updated_at = ?,
		onboarding_step = CASE WHEN onboarding_step = ? THEN ? ELSE onboarding_step END
		WHERE id = ?`, newEmail, now, now, StepVerifyEmail, s.nextStep(StepVerifyEmail), u.ID)
	if err != nil {
		if isUniqueViolation(err) {
			return nil, core.Refuse(ctx, core.ECONFLICT, "account.email.unavailable")
		}
		return nil, fmt.Errorf("change e-mail: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, fmt.Errorf("change e-mail: %w", err)
	} else if n == 0 {
		return nil, core.Refuse(ctx, core.ENOTFOUND, "account.user.notFound")
	}
	// A verification code sent to the old address has nothing left to verify.
	if _, err := tx.Exec(ctx, `DELETE FROM email_codes WHERE user_id = ? AND purpose = ?`, u.ID, purposeVerifyEmail); err != nil {
		return nil, fmt.Errorf("change e-mail: %w", err)
	}
	ended, err := s.endOtherSessions(ctx, tx, u.ID, keep)
	if err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("change e-mail: commit: %w", err)
	}
	s.notifyEnded(ended)
	s.send(ctx, Mail{
		To:      u.Email,
		Subject: core.Text(ctx, "account.mail.emailChanged.subject"),
		Text:    core.Text(ctx, "account.mail.emailChanged.text", maskEmail(newEmail)),
		Purpose: purposeEmailChanged,
		SentAt:  now,
	})
	fresh, err := s.user(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	return fresh, s.applyConfiguredAdmin(ctx, fresh)
}

// maskEmail hides most of an address's local part (ana.garcia@example.com → a***@example.com), so
// that the notice to the old address tells where the account went without handing the new
// address to whoever reads the old mailbox.
func maskEmail(email string) string {
	local, domain, ok := strings.Cut(email, "@")
	if !ok || local == "" {
		return "***"
	}
	first := []rune(local)[0]
	return string(first) + "***@" + domain
}
