package config_test

import (
	"slices"
	"strings"
	"testing"

	"patrimonio/server/config"
)

func TestBillingConfig(t *testing.T) {
	// Unset: billing off.
	cfg, err := config.Load(envFrom(nil), nil)
	if err != nil || cfg.BillingEnabled() || cfg.BillingConfig != (config.BillingConfig{}) {
		t.Fatalf("defaults: %+v %v", cfg.BillingConfig, err)
	}
	cfg, err = config.Load(envFrom(map[string]string{
		"PATRIMONIO_STRIPE_SECRET_KEY":     "sk_test_51Abc",
		"PATRIMONIO_STRIPE_WEBHOOK_SECRET": "whsec_old, whsec_new",
		"PATRIMONIO_STRIPE_PLANS":          "prod_Basic,prod_Premium",
		"PATRIMONIO_STRIPE_API_URL":        "http://127.0.0.1:12111/",
	}), nil)
	if err != nil || !cfg.BillingEnabled() || !slices.Equal(cfg.StripeWebhookSecretList(), []string{"whsec_old", "whsec_new"}) ||
		!slices.Equal(cfg.StripePlanList(), []string{"prod_Basic", "prod_Premium"}) || cfg.StripeAPIURL != "http://127.0.0.1:12111" {
		t.Fatalf("set: %+v %v", cfg.BillingConfig, err)
	}
	// The flag wins over the environment.
	if cfg, err := config.Load(envFrom(map[string]string{"PATRIMONIO_STRIPE_PLANS": "prod_A"}), []string{"-stripe-plans", "prod_B"}); err != nil ||
		cfg.StripePlans != "prod_B" {
		t.Fatalf("flag: %+v %v", cfg.BillingConfig, err)
	}
	const key = "sk_live_SECRETVALUE"
	for _, bad := range []struct {
		env     map[string]string
		inError string
	}{
		{map[string]string{"PATRIMONIO_STRIPE_SECRET_KEY": key}, "PATRIMONIO_STRIPE_WEBHOOK_SECRET is required"},
		{map[string]string{"PATRIMONIO_STRIPE_WEBHOOK_SECRET": "whsec_x"}, "PATRIMONIO_STRIPE_SECRET_KEY is not"},
		{map[string]string{"PATRIMONIO_STRIPE_SECRET_KEY": "pk_live_SECRETVALUE", "PATRIMONIO_STRIPE_WEBHOOK_SECRET": "whsec_x"}, "must be a Stripe secret key"},
		{map[string]string{"PATRIMONIO_STRIPE_SECRET_KEY": key, "PATRIMONIO_STRIPE_WEBHOOK_SECRET": "SECRETVALUE"}, "whsec_"},
		{map[string]string{"PATRIMONIO_STRIPE_PLANS": "price_1"}, "not a Stripe product id"},
		{map[string]string{"PATRIMONIO_STRIPE_API_URL": "ftp://x"}, "http"},
	} {
		_, err := config.Load(envFrom(bad.env), nil)
		if err == nil || !strings.Contains(err.Error(), bad.inError) || strings.Contains(err.Error(), "SECRETVALUE") {
			t.Errorf("%v: %v", bad.env, err)
		}
	}
}
