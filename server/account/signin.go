package account

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"patrimonio/core"
)

// SignUpResult is the answer to a sign-up, the same whether the address was free or taken.
type SignUpResult struct {
	Email string
	// ResendAfter is the least wait before asking for the code again.
	ResendAfter time.Duration
}

// Register is the sign-up of the HTTP API: it asks for an account with a password. The answer is the same for a free and a taken
// address, after the same work (the password is checked and hashed either way), so that sign-up
// cannot tell which addresses have accounts:
//   - a free address gets the user, the personal workspace (owner) and an e-mailed verification
//     code; nobody is signed in until VerifyRegistration confirms the code;
//   - an address of an account that was never verified (and is not Clerk's) gets the new password
//     and a new code: only the mailbox's owner can finish, other sessions of that account end and
//     its second factors are deleted (security.go);
//   - the owner of a verified address is e-mailed a notice instead (at most one per throttle
//     window), saying how to sign in or reset the password.
//
// Each well-formed request counts against the client's sign-up limit (Config.SignUpRequestsIP,
// with ResendRegistrationCode), whatever the address: past it the answer is 429 with the wait.
func (s *Signup) Register(ctx context.Context, email, password string, meta SessionMeta) (*SignUpResult, error) {
	email, err := checkEmail(ctx, email)
	if err != nil {
		return nil, err
	}
	if err := s.checkPasswordPolicy(ctx, password, PasswordContext{Email: email}); err != nil {
		return nil, err
	}
	if err := s.reserveSignUp(ctx, meta.IP); err != nil {
		return nil, err
	}
	hash, err := s.hash(ctx, password)
	if err != nil {
		return nil, err
	}
	out := &SignUpResult{Email: email, ResendAfter: s.cfg.EmailResendInterval}
	now := s.now()
	existing, err := s.userByEmail(ctx, email)
	if err != nil && core.ErrorCode(err) != core.ENOTFOUND {
		return nil, err
	}
	if existing != nil {
		return out, s.signUpTaken(ctx, existing, hash)
	}
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	id, err := s.createUser(ctx, tx, newUser{email: email, passwordHash: hash, step: StepVerifyEmail}, now)
	if core.ErrorCode(err) == core.ECONFLICT {
		// Taken by a parallel sign-up meanwhile: answer as for a taken address.
		tx.Rollback()
		if existing, lerr := s.userByEmail(ctx, email); lerr == nil {
			return out, s.signUpTaken(ctx, existing, hash)
		}
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	code, err := s.storeEmailCode(ctx, tx, id, purposeVerifyEmail, "", now)
	if err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("sign up: commit: %w", err)
	}
	s.sendCode(ctx, email, purposeVerifyEmail, code)
	return out, nil
}

// signUpTaken is the sign-up of an address that has an account (see Register).
func (s *base) signUpTaken(ctx context.Context, u *User, hash string) error {
	if !u.EmailVerified() && u.ClerkUserID == "" {
		tx, err := s.db.BeginTx(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		res, err := tx.Exec(ctx, `UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ? AND email_verified_at IS NULL`,
			hash, s.now(), u.ID)
		if err != nil {
			return fmt.Errorf("sign up again: %w", err)
		}
		if err := s.forgetSecondFactorsIf(ctx, tx, res, u.ID); err != nil {
			return err
		}
		ended, err := s.endOtherSessions(ctx, tx, u.ID, "")
		if err != nil {
			return err
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("sign up again: commit: %w", err)
		}
		s.notifyEnded(ended)
		if err := s.newCodeAndSend(ctx, u, purposeVerifyEmail); err != nil && core.ErrorCode(err) != core.ETOOMANY {
			return err
		}
		return nil
	}
	// One notice per throttle window, so that the form cannot flood the owner's mailbox.
	// The reservation stays: it is the record of this notice (one per throttle window).
	if _, err := s.reserve(ctx, throttleKey{keyHash("signup-notice", u.ID), 1}); err != nil {
		return nil // the owner was told recently
	}
	s.send(ctx, Mail{
		To:      u.Email,
		Subject: core.Text(ctx, "account.mail.signupExists.subject"),
		Text:    core.Text(ctx, "account.mail.signupExists.text", s.cfg.PublicURL+"/signin", s.cfg.PublicURL+"/password/forgot"),
		Purpose: purposeSignUpExists,
		SentAt:  s.now(),
	})
	return nil
}

// VerifyRegistration confirms a new account's address with the e-mailed code and signs the user in
// (the first session, a fresh proof). Any other session of the account ends and its second
// factors are deleted: whoever set a password, a passkey or an authenticator before the address
// was verified does not keep a way in. A wrong code, an unknown or an
// already verified address all answer EINVALID "the code is wrong", throttled per user and IP.
func (s *Signup) VerifyRegistration(ctx context.Context, email, code string, meta SessionMeta) (*User, string, error) {
	code = strings.TrimSpace(code)
	if !isSixDigits(code) {
		return nil, "", core.Refuse(ctx, core.EINVALID, "account.code.format")
	}
	u, err := s.userByEmail(ctx, NormalizeEmail(email))
	if err != nil && core.ErrorCode(err) != core.ENOTFOUND {
		return nil, "", err
	}
	if u == nil || u.EmailVerified() {
		// The same refusal as a wrong code, counted against the IP.
		if _, err := s.reserve(ctx, s.ipKey(meta.IP)); err != nil {
			return nil, "", err
		}
		return nil, "", core.Refuse(ctx, core.EINVALID, "account.code.wrong")
	}
	if err := s.checkEmailCode(ctx, u.ID, purposeVerifyEmail, code, meta.IP); err != nil {
		return nil, "", err
	}
	now := s.now()
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return nil, "", err
	}
	defer tx.Rollback()
	res, err := tx.Exec(ctx, `UPDATE users SET email_verified_at = ?, updated_at = ?,
		onboarding_step = CASE WHEN onboarding_step = ? THEN ? ELSE onboarding_step END
		WHERE id = ? AND email_verified_at IS NULL`,
		now, now, StepVerifyEmail, s.nextStep(StepVerifyEmail), u.ID)
	if err != nil {
		return nil, "", fmt.Errorf("verify sign-up: %w", err)
	}
	if err := s.forgetSecondFactorsIf(ctx, tx, res, u.ID); err != nil {
		return nil, "", err
	}
	ended, err := s.endOtherSessions(ctx, tx, u.ID, "")
	if err != nil {
		return nil, "", err
	}
	token, err := s.insertSession(ctx, tx, u.ID, false, meta, now)
	if err != nil {
		return nil, "", err
	}
	if err := tx.Commit(); err != nil {
		return nil, "", fmt.Errorf("verify sign-up: commit: %w", err)
	}
	s.notifyEnded(ended)
	fresh, err := s.user(ctx, u.ID)
	if err != nil {
		return nil, "", err
	}
	return fresh, token, s.applyConfiguredAdmin(ctx, fresh)
}

// ResendRegistrationCode e-mails a new verification code to an account that was never verified. It
// answers the same (nil) for any address: unknown, verified, or asked again too soon. Each request
// counts against the sign-up limit of the client at ip (429 past it), like Register.
func (s *Signup) ResendRegistrationCode(ctx context.Context, email, ip string) (*SignUpResult, error) {
	if err := s.reserveSignUp(ctx, ip); err != nil {
		return nil, err
	}
	out := &SignUpResult{Email: NormalizeEmail(email), ResendAfter: s.cfg.EmailResendInterval}
	u, err := s.userByEmail(ctx, email)
	if err != nil {
		if core.ErrorCode(err) == core.ENOTFOUND {
			return out, nil
		}
		return nil, err
	}
	if u.EmailVerified() {
		return out, nil
	}
	if err := s.newCodeAndSend(ctx, u, purposeVerifyEmail); err != nil && core.ErrorCode(err) != core.ETOOMANY {
		return nil, err
	}
	return out, nil
}

// SignUp creates an account with a password and signs the user in at once: the user, the personal
// workspace (owner) and a session, in one transaction; then it e-mails the verification code and
// onboarding starts at verify_email. A taken address is ECONFLICT. It is for tools and tests that
// need a signed-in user; the HTTP sign-up is Register, which answers the same for taken addresses.
func (s *Signup) SignUp(ctx context.Context, email, password string, meta SessionMeta) (*User, string, error) {
	email, err := checkEmail(ctx, email)
	if err != nil {
		return nil, "", err
	}
	if err := s.checkPasswordPolicy(ctx, password, PasswordContext{Email: email}); err != nil {
		return nil, "", err
	}
	hash, err := s.hash(ctx, password)
	if err != nil {
		return nil, "", err
	}
	now := s.now()
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return nil, "", err
	}
	defer tx.Rollback()
	id, err := s.createUser(ctx, tx, newUser{email: email, passwordHash: hash, step: StepVerifyEmail}, now)
	if err != nil {
		return nil, "", err
	}
	token, err := s.insertSession(ctx, tx, id, false, meta, now)
	if err != nil {
		return nil, "", err
	}
	code, err := s.storeEmailCode(ctx, tx, id, purposeVerifyEmail, "", now)
	if err != nil {
		return nil, "", err
	}
	if err := tx.Commit(); err != nil {
		return nil, "", fmt.Errorf("sign up: commit: %w", err)
	}
	u, err := s.user(ctx, id)
	if err != nil {
		return nil, "", err
	}
	s.sendCode(ctx, u.Email, purposeVerifyEmail, code)
	return u, token, nil
}

// SignInResult is the outcome of a right password.
type SignInResult struct {
	User  *User
	Token string
	// MFARequired is true when the session waits for the second factor (SignInSecondFactor).
	MFARequired bool
}

// SignIn checks e-mail and password and starts a session (a new token every time). A wrong
// password, an unknown address and an account without a password all get the same EUNAUTHORIZED
// answer after the same work (an unknown address is checked against a dummy hash). Failures are
// throttled per address and per IP (429 with a retry delay). When the user has TOTP on, the
// session is only a pending one (MFARequired) that SignInSecondFactor completes.
func (s *Sessions) SignIn(ctx context.Context, email, password string, meta SessionMeta) (*SignInResult, error) {
	email = NormalizeEmail(email)
	s.maybeSweep(ctx)
	acct := s.accountKey(email, meta.IP)
	att, err := s.reserve(ctx, acct, s.ipKey(meta.IP), s.accountWideKey(email))
	if err != nil {
		return nil, err
	}
	u, err := s.userByEmail(ctx, email)
	if err != nil && core.ErrorCode(err) != core.ENOTFOUND {
		s.release(context.WithoutCancel(ctx), att)
		return nil, err
	}
	hash := s.dummyHash
	if u != nil && u.HasPassword {
		hash = u.passwordHash
	}
	ok, stale, err := s.verify(ctx, password, hash)
	if err != nil {
		s.release(context.WithoutCancel(ctx), att)
		return nil, fmt.Errorf("sign in: %w", err)
	}
	if !ok || u == nil || !u.HasPassword {
		// The reservation stays: it is the record of this failure.
		return nil, core.Refuse(ctx, core.EUNAUTHORIZED, "account.signin.invalid")
	}
	s.release(ctx, att)
	s.clearKey(ctx, acct)
	if stale {
		if newHash, err := s.hash(ctx, password); err == nil {
			if _, err := s.db.Exec(ctx, `UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?`, newHash, u.ID, u.passwordHash); err != nil {
				s.logger.WarnContext(ctx, "rehash password", "err", err)
			}
		}
	}
	if err := s.applyConfiguredAdmin(ctx, u); err != nil {
		return nil, err
	}
	token, err := s.insertSession(ctx, s.db, u.ID, u.TOTPEnabled, meta, s.now())
	if err != nil {
		return nil, err
	}
	return &SignInResult{User: u, Token: token, MFARequired: u.TOTPEnabled}, nil
}

// SignInSecondFactor completes a pending sign-in with a TOTP code or a recovery code (exactly one).
// The pending session is replaced by a new full session, whose token it returns. Wrong codes are
// EINVALID (the pending session stays) and are throttled per user and per IP.
func (s *Sessions) SignInSecondFactor(ctx context.Context, pending *Session, code, recoveryCode string, meta SessionMeta) (*User, string, error) {
	if pending == nil || !pending.MFAPending {
		return nil, "", core.Refuse(ctx, core.EUNAUTHORIZED, "account.session.noMFA")
	}
	if (code == "") == (recoveryCode == "") {
		return nil, "", core.Refuse(ctx, core.EINVALID, "account.secondFactor.oneOf")
	}
	if code != "" {
		if err := s.checkTOTPFormat(ctx, code); err != nil {
			return nil, "", err
		}
	}
	if err := s.proveSecondFactor(ctx, pending.UserID, code, recoveryCode, meta.IP); err != nil {
		return nil, "", err
	}
	now := s.now()
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return nil, "", err
	}
	defer tx.Rollback()
	res, err := tx.Exec(ctx, `DELETE FROM sessions WHERE id = ? AND mfa_pending = ?`, pending.ID, true)
	if err != nil {
		return nil, "", fmt.Errorf("complete sign-in: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, "", fmt.Errorf("complete sign-in: %w", err)
	} else if n == 0 {
		return nil, "", core.Refuse(ctx, core.EUNAUTHORIZED, "account.session.noMFA")
	}
	token, err := s.insertSession(ctx, tx, pending.UserID, false, meta, now, true)
	if err != nil {
		return nil, "", err
	}
	if err := tx.Commit(); err != nil {
		return nil, "", fmt.Errorf("complete sign-in: commit: %w", err)
	}
	u, err := s.user(ctx, pending.UserID)
	if err != nil {
		return nil, "", err
	}
	return u, token, nil
}

// proveSecondFactor checks a TOTP code (once only) or a recovery code (single use) of the user,
// throttled per user and per IP.
func (s *base) proveSecondFactor(ctx context.Context, userID, code, recoveryCode, ip string) error {
	att, err := s.reserve(ctx, s.userKey(userID), s.ipKey(ip))
	if err != nil {
		return err
	}
	if recoveryCode != "" {
		err = s.useRecoveryCode(ctx, userID, recoveryCode)
	} else {
		err = s.useTOTPCode(ctx, userID, code)
	}
	if err != nil {
		if code := core.ErrorCode(err); code != core.EINVALID {
			s.release(context.WithoutCancel(ctx), att)
		}
		return err
	}
	s.release(ctx, att)
	return nil
}

// EnsureUser returns the user of a Clerk identity, provisioning it on first sight: an existing
// user with the same address is linked to the Clerk id; otherwise a new user (no password, address
// verified, personal workspace) is created. Its onboarding starts at personal_info: e-mail
// verification and second factors are Clerk's. The caller must pass the Clerk user's verified
// primary address only, since linking by address trusts it.
func (s *Users) EnsureUser(ctx context.Context, externalID, email string) (*User, error) {
	if externalID == "" {
		return nil, core.Errorf(core.EINVALID, "EnsureUser: empty external id")
	}
	if u, err := s.userWhere(ctx, s.db, "u.clerk_user_id = ?", externalID); err == nil {
		return u, s.applyConfiguredAdmin(ctx, u)
	} else if core.ErrorCode(err) != core.ENOTFOUND {
		return nil, err
	}
	email, err := checkEmail(ctx, email)
	if err != nil {
		return nil, err
	}
	now := s.now()
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var id string
	var linked sql.NullString
	err = tx.QueryRow(ctx, `SELECT id, clerk_user_id FROM users WHERE email = ?`, email).Scan(&id, &linked)
	switch {
	case isNoRows(err):
		id, err = s.createUser(ctx, tx, newUser{email: email, clerkUserID: externalID, verifiedAt: now, step: StepPersonalInfo}, now)
		if core.ErrorCode(err) == core.ECONFLICT {
			// Two first requests of the same Clerk user raced; the other one created it.
			tx.Rollback()
			if u, lerr := s.userWhere(ctx, s.db, "u.clerk_user_id = ?", externalID); lerr == nil {
				return u, nil
			}
			return nil, err
		}
		if err != nil {
			return nil, err
		}
	case err != nil:
		return nil, fmt.Errorf("ensure user: %w", err)
	case linked.Valid && linked.String != externalID:
		return nil, core.Refuse(ctx, core.ECONFLICT, "account.email.taken")
	default:
		if _, err := tx.Exec(ctx, `UPDATE users SET clerk_user_id = ?, email_verified_at = COALESCE(email_verified_at, ?), updated_at = ? WHERE id = ?`,
			externalID, now, now, id); err != nil {
			if isUniqueViolation(err) {
				return nil, core.Refuse(ctx, core.ECONFLICT, "account.email.taken")
			}
			return nil, fmt.Errorf("link clerk user: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("ensure user: commit: %w", err)
	}
	u, err := s.user(ctx, id)
	if err != nil {
		return nil, err
	}
	return u, s.applyConfiguredAdmin(ctx, u)
}
