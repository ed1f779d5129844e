package account

import (
	"context"
	"database/sql"
	"fmt"

	"patrimonio/server"
)

// SignUp creates an account with a password: the user, the personal workspace (owner) and a
// signed-in session, in one transaction; then it e-mails the verification code. The user's
// onboarding starts at verify_email. A taken address answers ECONFLICT; such answers are
// throttled per IP so that the sign-up form cannot be used to test many addresses.
func (s *Service) SignUp(ctx context.Context, email, password string, meta SessionMeta) (*User, string, error) {
	email, err := checkEmail(ctx, email)
	if err != nil {
		return nil, "", err
	}
	if err := s.checkPasswordPolicy(ctx, password); err != nil {
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

	var taken int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM users WHERE email = ?`, email).Scan(&taken); err != nil {
		return nil, "", fmt.Errorf("sign up: %w", err)
	}
	var id string
	if taken == 0 {
		id, err = s.createUser(ctx, tx, newUser{email: email, passwordHash: hash, step: StepVerifyEmail}, now)
	} else {
		err = errorf(ctx, server.ECONFLICT, "email.taken")
	}
	if server.ErrorCode(err) == server.ECONFLICT {
		tx.Rollback()
		// Count the conflict against the IP; past the limit the answer becomes 429.
		if _, terr := s.reserve(ctx, s.signUpConflictKey(meta.IP)); terr != nil {
			return nil, "", terr
		}
		return nil, "", err
	}
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
	u, err := s.User(ctx, id)
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
func (s *Service) SignIn(ctx context.Context, email, password string, meta SessionMeta) (*SignInResult, error) {
	email = normalizeEmail(email)
	s.maybeSweep(ctx)
	acct := s.accountKey(email)
	att, err := s.reserve(ctx, acct, s.ipKey(meta.IP))
	if err != nil {
		return nil, err
	}
	u, err := s.UserByEmail(ctx, email)
	if err != nil && server.ErrorCode(err) != server.ENOTFOUND {
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
		return nil, errorf(ctx, server.EUNAUTHORIZED, "signin.invalid")
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
func (s *Service) SignInSecondFactor(ctx context.Context, pending *Session, code, recoveryCode string, meta SessionMeta) (*User, string, error) {
	if pending == nil || !pending.MFAPending {
		return nil, "", errorf(ctx, server.EUNAUTHORIZED, "session.noMFA")
	}
	if (code == "") == (recoveryCode == "") {
		return nil, "", errorf(ctx, server.EINVALID, "secondFactor.oneOf")
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
		return nil, "", errorf(ctx, server.EUNAUTHORIZED, "session.noMFA")
	}
	token, err := s.insertSession(ctx, tx, pending.UserID, false, meta, now)
	if err != nil {
		return nil, "", err
	}
	if err := tx.Commit(); err != nil {
		return nil, "", fmt.Errorf("complete sign-in: commit: %w", err)
	}
	u, err := s.User(ctx, pending.UserID)
	if err != nil {
		return nil, "", err
	}
	return u, token, nil
}

// proveSecondFactor checks a TOTP code (once only) or a recovery code (single use) of the user,
// throttled per user and per IP.
func (s *Service) proveSecondFactor(ctx context.Context, userID, code, recoveryCode, ip string) error {
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
		if code := server.ErrorCode(err); code != server.EINVALID {
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
func (s *Service) EnsureUser(ctx context.Context, externalID, email string) (*User, error) {
	if externalID == "" {
		return nil, server.Errorf(server.EINVALID, "EnsureUser: empty external id")
	}
	if u, err := s.userWhere(ctx, s.db, "u.clerk_user_id = ?", externalID); err == nil {
		return u, s.applyConfiguredAdmin(ctx, u)
	} else if server.ErrorCode(err) != server.ENOTFOUND {
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
		if server.ErrorCode(err) == server.ECONFLICT {
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
		return nil, errorf(ctx, server.ECONFLICT, "email.taken")
	default:
		if _, err := tx.Exec(ctx, `UPDATE users SET clerk_user_id = ?, email_verified_at = COALESCE(email_verified_at, ?), updated_at = ? WHERE id = ?`,
			externalID, now, now, id); err != nil {
			if isUniqueViolation(err) {
				return nil, errorf(ctx, server.ECONFLICT, "email.taken")
			}
			return nil, fmt.Errorf("link clerk user: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("ensure user: commit: %w", err)
	}
	u, err := s.User(ctx, id)
	if err != nil {
		return nil, err
	}
	return u, s.applyConfiguredAdmin(ctx, u)
}
