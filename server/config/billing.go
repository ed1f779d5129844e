package config

import (
	"flag"
	"fmt"
	"regexp"
	"strings"
)

// The environment variables of billing with Stripe (issue 14). The secret key and the webhook
// signing secret have no flags: a secret on the command line shows in the process list. Without
// a secret key billing is off: onboarding has no payment steps and every feature is open.
const (
	// EnvStripeSecretKey is the Stripe API secret key (sk_live_…, sk_test_…, or a restricted
	// rk_… key). Set: billing is on.
	EnvStripeSecretKey = "PATRIMONIO_STRIPE_SECRET_KEY"
	// EnvStripeWebhookSecret is the signing secret of the webhook endpoint (whsec_…); several,
	// comma separated, while an endpoint's secret is being rolled. Required with the key.
	EnvStripeWebhookSecret = "PATRIMONIO_STRIPE_WEBHOOK_SECRET"
	// EnvStripePlans lists the Stripe product ids that are plans, in the order the plan screen
	// shows them (comma separated). Unset: every active product.
	EnvStripePlans = "PATRIMONIO_STRIPE_PLANS"
	// EnvStripeAPIURL points the Stripe client at another API base URL (stripe-mock in tests and
	// development). Unset: Stripe itself.
	EnvStripeAPIURL = "PATRIMONIO_STRIPE_API_URL"
)

// BillingConfig is the part of Config that billing reads (embedded in Config). The secrets are
// never logged: String-like helpers below describe billing without them.
type BillingConfig struct {
	// StripeSecretKey is the Stripe API key; "" turns billing off.
	StripeSecretKey string
	// StripeWebhookSecrets are the webhook signing secrets, comma separated.
	StripeWebhookSecrets string
	// StripePlans are the product ids that are plans, comma separated, in display order; "" means
	// every active product.
	StripePlans string
	// StripeAPIURL is the API base URL ("" = https://api.stripe.com).
	StripeAPIURL string
}

// BillingEnabled says whether billing is on (a Stripe secret key is configured).
func (c Config) BillingEnabled() bool { return c.StripeSecretKey != "" }

// StripeWebhookSecretList splits StripeWebhookSecrets.
func (c Config) StripeWebhookSecretList() []string { return splitList(c.StripeWebhookSecrets) }

// StripePlanList splits StripePlans.
func (c Config) StripePlanList() []string { return splitList(c.StripePlans) }

type rawBillingConfig struct {
	secretKey, webhookSecret, plans, apiURL string
}

func readBillingEnv(getenv func(string) string) rawBillingConfig {
	return rawBillingConfig{
		secretKey:     strings.TrimSpace(getenv(EnvStripeSecretKey)),
		webhookSecret: strings.TrimSpace(getenv(EnvStripeWebhookSecret)),
		plans:         strings.TrimSpace(getenv(EnvStripePlans)),
		apiURL:        strings.TrimSpace(getenv(EnvStripeAPIURL)),
	}
}

func addBillingFlags(fs *flag.FlagSet, raw *rawBillingConfig) {
	fs.StringVar(&raw.plans, "stripe-plans", raw.plans, "Stripe product ids that are plans, comma separated ("+EnvStripePlans+"; default every active product)")
	fs.StringVar(&raw.apiURL, "stripe-api-url", raw.apiURL, "Stripe API base URL, e.g. a stripe-mock for development ("+EnvStripeAPIURL+")")
}

var (
	stripeKeyPattern     = regexp.MustCompile(`^(sk|rk)_(test|live)_[A-Za-z0-9_]+$`)
	stripeWebhookPattern = regexp.MustCompile(`^whsec_[A-Za-z0-9_+/=]+$`)
	stripeProductPattern = regexp.MustCompile(`^prod_[A-Za-z0-9]+$`)
)

// applyBilling validates the raw values into cfg. Errors name the variable, never its value.
func applyBilling(cfg *Config, raw rawBillingConfig) error {
	if raw.secretKey == "" {
		if raw.webhookSecret != "" {
			return fmt.Errorf("%s is set but %s is not: set both to turn billing on, or neither", EnvStripeWebhookSecret, EnvStripeSecretKey)
		}
	} else {
		if !stripeKeyPattern.MatchString(raw.secretKey) {
			return fmt.Errorf("%s: must be a Stripe secret key (sk_live_…, sk_test_… or a restricted rk_… key)", EnvStripeSecretKey)
		}
		secrets := splitList(raw.webhookSecret)
		if len(secrets) == 0 {
			return fmt.Errorf("%s is required with %s: the signing secret (whsec_…) of the webhook endpoint %s",
				EnvStripeWebhookSecret, EnvStripeSecretKey, "/api/v1/stripe/webhook")
		}
		for _, s := range secrets {
			if !stripeWebhookPattern.MatchString(s) {
				return fmt.Errorf("%s: each secret must be a webhook signing secret (whsec_…)", EnvStripeWebhookSecret)
			}
		}
	}
	plans := splitList(raw.plans)
	for _, p := range plans {
		if !stripeProductPattern.MatchString(p) {
			return fmt.Errorf("%s (-stripe-plans): %q is not a Stripe product id (prod_…)", EnvStripePlans, p)
		}
	}
	if raw.apiURL != "" && !strings.HasPrefix(raw.apiURL, "https://") && !strings.HasPrefix(raw.apiURL, "http://") {
		return fmt.Errorf("%s (-stripe-api-url): must be an http:// or https:// URL", EnvStripeAPIURL)
	}
	cfg.StripeSecretKey = raw.secretKey
	cfg.StripeWebhookSecrets = strings.Join(splitList(raw.webhookSecret), ",")
	cfg.StripePlans = strings.Join(plans, ",")
	cfg.StripeAPIURL = strings.TrimRight(raw.apiURL, "/")
	return nil
}
