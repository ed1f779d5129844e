package account

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"

	"patrimonio/core"
	schema "patrimonio/shared-schema"
)

// Re-verification methods.
const (
	MethodPassword = "password"
	MethodTOTP     = "totp"
	MethodEmail    = "email"
)

// Reverify proves the user's identity again on the session — with the password, an authenticator
// code (each code once) or the code of SendReverifyCode — and returns until when sensitive actions
// are open. Wrong answers are EINVALID (never 401: the session stays) and count as failures of the
// user and the IP.
func (s *Reverify) Reverify(ctx context.Context, u *User, sess *Session, method, secret, ip string) (time.Time, error) {
	if sess == nil || sess.MFAPending {
		return time.Time{}, core.Refuse(ctx, core.EUNAUTHORIZED, "account.session.required")
	}
	switch method {
	case MethodPassword:
		if !u.HasPassword {
			return time.Time{}, core.Refuse(ctx, core.EINVALID, "account.reverify.noPassword")
		}
		if secret == "" {
			return time.Time{}, core.Refuse(ctx, core.EINVALID, "account.password.required")
		}
		att, err := s.reserve(ctx, s.userKey(u.ID), s.ipKey(ip))
		if err != nil {
			return time.Time{}, err
		}
		ok, _, err := s.verify(ctx, secret, u.passwordHash)
		if err != nil {
			s.release(context.WithoutCancel(ctx), att)
			return time.Time{}, fmt.Errorf("reverify: %w", err)
		}
		if !ok {
			return time.Time{}, core.Refuse(ctx, core.EINVALID, "account.reverify.passwordWrong")
		}
		s.release(ctx, att)
	case MethodTOTP:
		if err := s.checkTOTPFormat(ctx, secret); err != nil {
			return time.Time{}, err
		}
		if err := s.proveSecondFactor(ctx, u.ID, secret, "", ip); err != nil {
			return time.Time{}, err
		}
	case MethodEmail:
		if err := s.checkEmailCode(ctx, u.ID, purposeReverify, secret, ip); err != nil {
			return time.Time{}, err
		}
	default:
		return time.Time{}, core.Refuse(ctx, core.EINVALID, "account.reverify.method")
	}
	return s.markReverified(ctx, sess.ID, method == MethodTOTP)
}

// steps is the onboarding order.
func (s *base) steps() []string {
	if s.cfg.Billing {
		return []string{StepVerifyEmail, StepSecurityTOTP, StepSecurityPasskey, StepPersonalInfo, StepBilling, StepDone}
	}
	return []string{StepVerifyEmail, StepSecurityTOTP, StepSecurityPasskey, StepPersonalInfo, StepDone}
}

func (s *base) nextStep(step string) string {
	steps := s.steps()
	for i, st := range steps {
		if st == step && i+1 < len(steps) {
			return steps[i+1]
		}
	}
	return StepDone
}

// OnboardingOf is where the user is in onboarding.
func (s *Profile) OnboardingOf(u *User) Onboarding {
	if u.OnboardingStep == StepBilling && !s.cfg.Billing {
		// Billing was turned off after this user reached its step: there is nothing left to do.
		return Onboarding{Step: StepDone, Completed: true}
	}
	return Onboarding{Step: u.OnboardingStep, Completed: u.OnboardingStep == StepDone}
}

// Onboarding actions.
const (
	ActionComplete = "complete"
	ActionSkip     = "skip"
)

// AdvanceOnboarding completes or skips the user's current step and returns the new position. The
// step must be the current one (ECONFLICT otherwise, so a stale tab cannot jump ahead). The server
// checks what "complete" claims: TOTP on, a passkey registered (when the passkey provider tells),
// personal identity filled in. Only the two security steps may be skipped; e-mail verification is
// completed by VerifyEmail and billing by the billing flow.
func (s *Profile) AdvanceOnboarding(ctx context.Context, u *User, step, action string) (Onboarding, error) {
	known := false
	for _, st := range s.steps() {
		known = known || st == step
	}
	if !known || step == StepDone {
		return Onboarding{}, core.Refuse(ctx, core.EINVALID, "account.onboarding.unknownStep")
	}
	if action != ActionComplete && action != ActionSkip {
		return Onboarding{}, core.Refuse(ctx, core.EINVALID, "account.onboarding.action")
	}
	if step != u.OnboardingStep {
		return Onboarding{}, core.Refuse(ctx, core.ECONFLICT, "account.onboarding.notCurrent", u.OnboardingStep)
	}
	skippable := step == StepSecurityTOTP || step == StepSecurityPasskey
	if action == ActionSkip && !skippable {
		return Onboarding{}, core.Refuse(ctx, core.EINVALID, "account.onboarding.notSkippable")
	}
	if action == ActionComplete {
		switch step {
		case StepVerifyEmail:
			return Onboarding{}, core.Refuse(ctx, core.EINVALID, "account.onboarding.verifyByCode")
		case StepBilling:
			return Onboarding{}, core.Refuse(ctx, core.EINVALID, "account.onboarding.billingPending")
		case StepSecurityTOTP:
			if !u.TOTPEnabled {
				return Onboarding{}, core.Refuse(ctx, core.EINVALID, "account.onboarding.needTOTP")
			}
		case StepSecurityPasskey:
			if s.hooks.HasPasskey != nil {
				has, err := s.hooks.HasPasskey(ctx, u.ID)
				if err != nil {
					return Onboarding{}, err
				}
				if !has {
					return Onboarding{}, core.Refuse(ctx, core.EINVALID, "account.onboarding.needPasskey")
				}
			}
		case StepPersonalInfo:
			if issues, err := schema.ValidateValue("personalIdentity", identityDocument(u.Identity), core.LanguageFrom(ctx)); err != nil {
				return Onboarding{}, fmt.Errorf("validate identity: %w", err)
			} else if len(issues) > 0 {
				return Onboarding{}, core.Refuse(ctx, core.EINVALID, "account.onboarding.needIdentity")
			}
		}
	}
	next := s.nextStep(step)
	res, err := s.db.Exec(ctx, `UPDATE users SET onboarding_step = ?, updated_at = ? WHERE id = ? AND onboarding_step = ?`,
		next, s.now(), u.ID, step)
	if err != nil {
		return Onboarding{}, fmt.Errorf("advance onboarding: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return Onboarding{}, fmt.Errorf("advance onboarding: %w", err)
	} else if n == 0 {
		fresh, err := s.user(ctx, u.ID)
		if err != nil {
			return Onboarding{}, err
		}
		return Onboarding{}, core.Refuse(ctx, core.ECONFLICT, "account.onboarding.notCurrent", fresh.OnboardingStep)
	}
	return Onboarding{Step: next, Completed: next == StepDone}, nil
}

// IdentityInput is a submitted personal identity; nil fields were absent.
type IdentityInput struct {
	FirstName, LastName, Birthday, Gender, Country, State *string
}

// identityDocument is the personal identity as the shared schema sees it; empty fields are absent.
func identityDocument(id Identity) map[string]any {
	doc := map[string]any{}
	for k, v := range map[string]string{"first_name": id.FirstName, "last_name": id.LastName, "birthday": id.Birthday,
		"gender": id.Gender, "country": id.Country, "state": id.State} {
		if v != "" {
			doc[k] = v
		}
	}
	return doc
}

// UpdateIdentity validates the personal identity with the shared schema (patrimonio/shared-schema,
// the same rules and messages as the PWA's form: all six fields required) and stores it as given,
// without blanks around each value (the form trims them too, so "  " is an empty name on both sides).
// Problems are a *core.Error (EINVALID) naming each field (Fields) with its message in the language of ctx.
func (s *Profile) UpdateIdentity(ctx context.Context, userID string, in IdentityInput) (*User, error) {
	for _, v := range []**string{&in.FirstName, &in.LastName, &in.Birthday, &in.Gender, &in.Country, &in.State} {
		if *v != nil {
			t := trimBlanks(**v)
			*v = &t
		}
	}
	doc := map[string]any{}
	for k, v := range map[string]*string{"first_name": in.FirstName, "last_name": in.LastName, "birthday": in.Birthday,
		"gender": in.Gender, "country": in.Country, "state": in.State} {
		if v != nil {
			doc[k] = *v
		}
	}
	issues, err := schema.ValidateValue("personalIdentity", doc, core.LanguageFrom(ctx))
	if err != nil {
		return nil, fmt.Errorf("validate identity: %w", err)
	}
	if len(issues) > 0 {
		ve := core.Refuse(ctx, core.EINVALID, "account.identity.invalid")
		for _, is := range issues {
			ve.Fields = append(ve.Fields, core.FieldIssue{Path: is.Path, Message: is.Message})
		}
		return nil, ve
	}
	res, err := s.db.Exec(ctx, `UPDATE users SET first_name = ?, last_name = ?, birthday = ?, gender = ?, country = ?, state = ?,
		updated_at = ? WHERE id = ?`, deref(in.FirstName), deref(in.LastName), deref(in.Birthday), deref(in.Gender),
		deref(in.Country), deref(in.State), s.now(), userID)
	if err != nil {
		return nil, fmt.Errorf("update identity: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, fmt.Errorf("update identity: %w", err)
	} else if n == 0 {
		return nil, core.Refuse(ctx, core.ENOTFOUND, "account.user.notFound")
	}
	return s.user(ctx, userID)
}

// trimBlanks removes the blanks around s as JavaScript's String.prototype.trim does (the PWA's
// form): Unicode white space and the byte-order mark.
func trimBlanks(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' })
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
