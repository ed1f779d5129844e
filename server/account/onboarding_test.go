package account_test

import (
	"context"
	"errors"
	"testing"

	"patrimonio/core"
	"patrimonio/server/account"
)

func strp(s string) *string { return &s }

func fullIdentity() account.IdentityInput {
	return account.IdentityInput{FirstName: strp("Ana"), LastName: strp("García"), Birthday: strp("1980-02-29"),
		Gender: strp("female"), Country: strp("ES"), State: strp("Madrid")}
}

func TestOnboardingFollowsTheStepsInOrderOnTheServer(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, token := e.signUp(t, "ana@example.com")
		step := func() string {
			t.Helper()
			_, u := e.authenticate(t, token)
			return u.OnboardingStep
		}
		current := func() *account.User {
			t.Helper()
			_, u := e.authenticate(t, token)
			return u
		}
		_, err := e.svc.Profile.AdvanceOnboarding(e.ctx, u, account.StepVerifyEmail, account.ActionComplete)
		wantCode(t, err, core.EINVALID) // only the e-mailed code completes it
		_, err = e.svc.Profile.AdvanceOnboarding(e.ctx, u, account.StepVerifyEmail, account.ActionSkip)
		wantCode(t, err, core.EINVALID)
		_, err = e.svc.Profile.AdvanceOnboarding(e.ctx, u, account.StepSecurityTOTP, account.ActionSkip)
		wantCode(t, err, core.ECONFLICT) // not the current step
		if core.ErrorMessage(err) != "Ese paso no es el actual; el paso actual es verify_email." {
			t.Fatalf("message %q", core.ErrorMessage(err))
		}

		if _, err := e.svc.Signup.VerifyEmail(e.ctx, u, e.lastCode(t, u.Email, "verify_email"), meta.IP); err != nil {
			t.Fatal(err)
		}
		if step() != account.StepSecurityTOTP {
			t.Fatalf("step %q after verifying the e-mail", step())
		}
		_, err = e.svc.Profile.AdvanceOnboarding(e.ctx, current(), account.StepSecurityTOTP, account.ActionComplete)
		wantCode(t, err, core.EINVALID) // TOTP is not on
		e.enableTOTP(t, token)
		o, err := e.svc.Profile.AdvanceOnboarding(e.ctx, current(), account.StepSecurityTOTP, account.ActionComplete)
		if err != nil || o.Step != account.StepSecurityPasskey || o.Completed {
			t.Fatalf("after TOTP: %+v %v", o, err)
		}
		o, err = e.svc.Profile.AdvanceOnboarding(e.ctx, current(), account.StepSecurityPasskey, account.ActionSkip)
		if err != nil || o.Step != account.StepPersonalInfo {
			t.Fatalf("after skipping the passkey: %+v %v", o, err)
		}
		_, err = e.svc.Profile.AdvanceOnboarding(e.ctx, current(), account.StepPersonalInfo, account.ActionSkip)
		wantCode(t, err, core.EINVALID)
		_, err = e.svc.Profile.AdvanceOnboarding(e.ctx, current(), account.StepPersonalInfo, account.ActionComplete)
		wantCode(t, err, core.EINVALID) // identity missing
		if _, err := e.svc.Profile.UpdateIdentity(e.ctx, u.ID, fullIdentity()); err != nil {
			t.Fatal(err)
		}
		o, err = e.svc.Profile.AdvanceOnboarding(e.ctx, current(), account.StepPersonalInfo, account.ActionComplete)
		if err != nil || o.Step != account.StepDone || !o.Completed {
			t.Fatalf("after the identity: %+v %v", o, err)
		}
		if got := e.svc.Profile.OnboardingOf(current()); got != (account.Onboarding{Step: account.StepDone, Completed: true}) {
			t.Fatalf("onboarding = %+v", got)
		}
		for _, bad := range []struct{ step, action string }{{"done", "complete"}, {"billing", "complete"}, {"nope", "skip"}, {"security_totp", "finish"}} {
			_, err := e.svc.Profile.AdvanceOnboarding(e.ctx, current(), bad.step, bad.action)
			wantCode(t, err, core.EINVALID)
		}
	})
}

func TestThePasskeyStepAsksThePasskeyProviderAndBillingIsAStepWhenOn(t *testing.T) {
	dialectsWith(t, func(c *account.Config) { c.Billing = true }, func(t *testing.T, e *env) {
		has := false
		e.withHooks(t, account.Hooks{HasPasskey: func(ctx context.Context, userID string) (bool, error) { return has, nil }})
		u, token := e.signUp(t, "ana@example.com")
		if _, err := e.svc.Signup.VerifyEmail(e.ctx, u, e.lastCode(t, u.Email, "verify_email"), meta.IP); err != nil {
			t.Fatal(err)
		}
		current := func() *account.User {
			_, u := e.authenticate(t, token)
			return u
		}
		if _, err := e.svc.Profile.AdvanceOnboarding(e.ctx, current(), account.StepSecurityTOTP, account.ActionSkip); err != nil {
			t.Fatal(err)
		}
		_, err := e.svc.Profile.AdvanceOnboarding(e.ctx, current(), account.StepSecurityPasskey, account.ActionComplete)
		wantCode(t, err, core.EINVALID)
		has = true
		if _, err := e.svc.Profile.AdvanceOnboarding(e.ctx, current(), account.StepSecurityPasskey, account.ActionComplete); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Profile.UpdateIdentity(e.ctx, u.ID, fullIdentity()); err != nil {
			t.Fatal(err)
		}
		o, err := e.svc.Profile.AdvanceOnboarding(e.ctx, current(), account.StepPersonalInfo, account.ActionComplete)
		if err != nil || o.Step != account.StepBilling {
			t.Fatalf("with billing on: %+v %v", o, err)
		}
		_, err = e.svc.Profile.AdvanceOnboarding(e.ctx, current(), account.StepBilling, account.ActionComplete)
		wantCode(t, err, core.EINVALID) // completed by the billing flow
	})
}

func TestAnEmptyIdentityGetsTheSpecsSpanishMessagesOrTheirEnglishOnes(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, _ := e.signUp(t, "ana@example.com")
		empty := account.IdentityInput{FirstName: strp(""), LastName: strp(""), Birthday: strp(""), Gender: strp(""), Country: strp(""), State: strp("")}
		want := map[string]map[string]string{
			"es": {"first_name": "El primer nombre es requerido", "last_name": "El apellido es requerido",
				"birthday": "La fecha de nacimiento es requerida", "gender": "El sexo es requerido",
				"country": "El país es requerido", "state": "La provincia es requerida"},
			"en": {"first_name": "First name is required", "last_name": "Last name is required",
				"birthday": "Date of birth is required", "gender": "Gender is required",
				"country": "Country is required", "state": "State or province is required"},
		}
		for lang, fields := range want {
			for name, in := range map[string]account.IdentityInput{"empty strings": empty, "absent fields": {}} {
				t.Run(lang+" with "+name, func(t *testing.T) {
					_, err := e.svc.Profile.UpdateIdentity(core.WithLanguage(e.ctx, lang), u.ID, in)
					var ve *core.Error
					if !errors.As(err, &ve) || len(ve.Fields) == 0 {
						t.Fatalf("error %v does not name the fields at fault", err)
					}
					wantCode(t, err, core.EINVALID)
					got := map[string]string{}
					for _, f := range ve.Fields {
						got[f.Path] = f.Message
					}
					if len(got) != 6 {
						t.Fatalf("fields %v", got)
					}
					for k, v := range fields {
						if got[k] != v {
							t.Errorf("%s: %q, want %q", k, got[k], v)
						}
					}
				})
			}
		}
		bad := fullIdentity()
		bad.Birthday, bad.Country, bad.Gender = strp("1981-02-29"), strp("XX"), strp("robot")
		_, err := e.svc.Profile.UpdateIdentity(e.ctx, u.ID, bad)
		var ve *core.Error
		if !errors.As(err, &ve) || len(ve.Fields) != 3 {
			t.Fatalf("bad values: %v %+v", err, ve)
		}
	})
}

func TestPersonalIdentityRoundTripsUnicodeByteForByte(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, _ := e.signUp(t, "ana@example.com")
		in := account.IdentityInput{
			FirstName: strp("Jose\u0301 Ñandú 😀"),         // decomposed accent, kept as sent
			LastName:  strp("O'Brien-Łukasiewicz 李 محمد"), // apostrophe, Polish, CJK, Arabic
			Birthday:  strp("1975-12-31"),
			Gender:    strp("other"),
			Country:   strp("AR"),
			State:     strp("Tierra del Fuego, Antártida e Islas del Atlántico Sur \u200d👩\u200d👩\u200d👧"),
		}
		got, err := e.svc.Profile.UpdateIdentity(e.ctx, u.ID, in)
		if err != nil {
			t.Fatal(err)
		}
		again, err := e.svc.Users.User(e.ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range []*account.User{got, again} {
			if x.Identity.FirstName != *in.FirstName || x.Identity.LastName != *in.LastName || x.Identity.State != *in.State ||
				x.Identity.Birthday != "1975-12-31" || x.Identity.Gender != "other" || x.Identity.Country != "AR" {
				t.Fatalf("identity came back as %+q", x.Identity)
			}
		}
	})
}

// The PWA trims what was typed before its schema checks it ("  " is an empty name); the server does
// the same, so a blank name sent by another client is refused with the same message, not stored.
func TestIdentityBlanksAreTrimmedAsTheFormDoes(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, _ := e.signUp(t, "ana@example.com")
		blank := fullIdentity()
		blank.FirstName, blank.State = strp("   "), strp("\t\u00a0")
		_, err := e.svc.Profile.UpdateIdentity(e.ctx, u.ID, blank)
		var ve *core.Error
		if !errors.As(err, &ve) {
			t.Fatalf("blank names were accepted: %v", err)
		}
		got := map[string]string{}
		for _, f := range ve.Fields {
			got[f.Path] = f.Message
		}
		if len(got) != 2 || got["first_name"] != "El primer nombre es requerido" || got["state"] != "La provincia es requerida" {
			t.Fatalf("fields %v", got)
		}

		padded := fullIdentity()
		padded.FirstName, padded.LastName, padded.State = strp("  Ana "), strp("García López\n"), strp(" Madrid")
		saved, err := e.svc.Profile.UpdateIdentity(e.ctx, u.ID, padded)
		if err != nil {
			t.Fatal(err)
		}
		if saved.Identity.FirstName != "Ana" || saved.Identity.LastName != "García López" || saved.Identity.State != "Madrid" {
			t.Fatalf("identity stored as %+q", saved.Identity)
		}
	})
}
