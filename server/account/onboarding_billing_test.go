package account_test

import (
	"testing"

	"patrimonio/server/account"
)

// A user left at the billing step when billing is turned off (no Stripe key any more) has nothing
// left to do: onboarding reads as done.
func TestTheBillingStepReadsAsDoneOnceBillingIsOff(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, token := e.signUp(t, "ana@example.com")
		if _, err := e.db.Exec(e.ctx, `UPDATE users SET onboarding_step = 'billing' WHERE id = ?`, u.ID); err != nil {
			t.Fatal(err)
		}
		_, u = e.authenticate(t, token)
		if got := e.svc.Profile.OnboardingOf(u); got != (account.Onboarding{Step: account.StepDone, Completed: true}) {
			t.Errorf("billing off: %+v", got)
		}
		on := e.service(t, func(c *account.Config) { c.Billing = true })
		if got := on.Profile.OnboardingOf(u); got != (account.Onboarding{Step: account.StepBilling}) {
			t.Errorf("billing on: %+v", got)
		}
	})
}
