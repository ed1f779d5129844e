package httpapi

// The billing endpoints through the real router against stripe-mock (server/billing/stripemock),
// with real sessions, on SQLite and on Postgres; every answer is checked against the OpenAPI
// document. The webhook gets correctly and wrongly signed events like Stripe would send.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"

	"patrimonio/server/billing"
	"patrimonio/server/billing/stripemock"
	schema "patrimonio/shared-schema"
)

const testWebhookSecret = "whsec_httpapi_test"

func withBilling(t *testing.T, f *teamFixture) {
	t.Helper()
	svc := billing.New(f.db, billing.Config{SecretKey: stripemock.TestKey, WebhookSecrets: []string{testWebhookSecret},
		APIURL: stripemock.URL(t), PublicURL: f.cfg.PublicURL}, nil)
	svc.Now = f.clock
	f.api.billing = svc
}

// webhookCall posts payload to the webhook as Stripe does: no session, no Origin, signed at the
// fixture's time with secret.
func (f *teamFixture) webhookCall(payload []byte, secret string) *httptest.ResponseRecorder {
	f.t.Helper()
	at := f.clock()
	req := httptest.NewRequest(http.MethodPost, "/api/v1/stripe/webhook", bytes.NewReader(payload))
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("Stripe-Signature", fmt.Sprintf("t=%d,v1=%x", at.Unix(), webhook.ComputeSignature(at, payload, secret)))
	rec := httptest.NewRecorder()
	f.api.mux.ServeHTTP(rec, req)
	return rec
}

func stripeEvent(t *testing.T, id, typ string, created int64, object map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"id": id, "object": "event", "api_version": "2026-03-25.dahlia", "created": created,
		"type": typ, "data": map[string]any{"object": object}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBillingFromThePlansToAnActiveSubscriptionOverHTTP(t *testing.T) {
	eachTeamFixture(t, func(t *testing.T, f *teamFixture) {
		withBilling(t, f)
		ana := f.signUp("ana@example.com")
		if _, err := f.db.Exec(t.Context(), `UPDATE users SET onboarding_step = 'billing' WHERE id = ?`, ana.id); err != nil {
			t.Fatal(err)
		}

		var products []productJSON
		f.expect(f.call(ana, "GET", "/api/v1/stripe/products", nil), "GET", "/api/v1/stripe/products", 200, &products)
		if len(products) != 1 || products[0].Price == nil || products[0].Price.Amount != "20.00" || products[0].Price.Currency != "USD" {
			t.Fatalf("products = %+v", products)
		}
		priceID := products[0].Price.ID

		// The plan before the card check: 409, in the reader's language.
		rec := f.call(ana, "POST", "/api/v1/stripe/create-checkout-session", map[string]string{"kind": "subscription", "priceId": priceID}, "es")
		f.expect(rec, "POST", "/api/v1/stripe/create-checkout-session", 409, nil)
		if e := errorOf(t, rec); !strings.Contains(e.Message, "Verifica primero tu tarjeta") {
			t.Errorf("message = %q", e.Message)
		}
		rec = f.call(ana, "POST", "/api/v1/stripe/create-checkout-session", map[string]string{"kind": "gift"})
		f.expect(rec, "POST", "/api/v1/stripe/create-checkout-session", 400, nil)

		var session struct{ ID, URL string }
		f.expect(f.call(ana, "POST", "/api/v1/stripe/create-checkout-session", map[string]string{"kind": "card_check"}),
			"POST", "/api/v1/stripe/create-checkout-session", 200, &session)
		if !strings.HasPrefix(session.URL, "https://") {
			t.Fatalf("checkout = %+v", session)
		}
		var customer string
		if err := f.db.QueryRow(t.Context(), `SELECT customer_id FROM billing_customers WHERE user_id = ?`, ana.id).Scan(&customer); err != nil {
			t.Fatal(err)
		}

		// Creating a team workspace needs an active subscription; reading one's own does not.
		rec = f.call(ana, "POST", "/api/v1/workspaces", map[string]string{"name": "Familia"})
		f.expect(rec, "POST", "/api/v1/workspaces", 403, nil)
		if e := errorOf(t, rec); !strings.Contains(e.Message, "team workspace") {
			t.Errorf("gate message = %q", e.Message)
		}
		f.expect(f.call(ana, "GET", "/api/v1/workspaces", nil), "GET", "/api/v1/workspaces", 200, nil)

		now := f.clock().Unix()
		card := stripeEvent(t, "evt_card", "checkout.session.completed", now, map[string]any{"id": session.ID, "object": "checkout.session",
			"mode": "payment", "payment_status": "paid", "customer": customer, "client_reference_id": ana.id,
			"metadata": map[string]string{"patrimonio_purpose": "card_check"}})
		var ack struct{ Received, Applied bool }
		f.expect(f.webhookCall(card, testWebhookSecret), "POST", "/api/v1/stripe/webhook", 200, &ack)
		if !ack.Received || !ack.Applied {
			t.Fatalf("ack = %+v", ack)
		}
		f.expect(f.webhookCall(card, testWebhookSecret), "POST", "/api/v1/stripe/webhook", 200, &ack)
		if ack.Applied {
			t.Fatal("a redelivery was applied")
		}
		f.expect(f.webhookCall(card, "whsec_wrong"), "POST", "/api/v1/stripe/webhook", 400, nil)

		f.expect(f.call(ana, "POST", "/api/v1/stripe/create-checkout-session", map[string]string{"kind": "subscription", "priceId": priceID}),
			"POST", "/api/v1/stripe/create-checkout-session", 200, &session)
		sub := stripeEvent(t, "evt_sub", "customer.subscription.created", now, map[string]any{"id": "sub_http", "object": "subscription",
			"customer": customer, "status": "active", "currency": "usd", "created": now, "cancel_at": now + 86400,
			"items": map[string]any{"object": "list", "data": []any{map[string]any{"id": "si_1", "object": "subscription_item",
				"current_period_start": now, "current_period_end": now + 2592000,
				"price": map[string]any{"id": priceID, "object": "price", "product": products[0].ID, "currency": "usd", "unit_amount": 2000,
					"recurring": map[string]any{"interval": "month", "interval_count": 1}}}}}})
		f.expect(f.webhookCall(sub, testWebhookSecret), "POST", "/api/v1/stripe/webhook", 200, nil)

		var st billingStateJSON
		f.expect(f.call(ana, "GET", "/api/v1/stripe/subscriptions", nil), "GET", "/api/v1/stripe/subscriptions", 200, &st)
		if !st.Enabled || !st.CardVerified || !st.Entitled || len(st.Subscriptions) != 1 {
			t.Fatalf("state = %+v", st)
		}
		s := st.Subscriptions[0]
		if s.ID != "sub_http" || s.Status != "active" || s.Amount == nil || *s.Amount != "20.00" || s.Product != products[0].Name ||
			s.CurrentPeriodEnd == nil || !s.CurrentPeriodEnd.Equal(time.Unix(now+2592000, 0)) ||
			s.CancelAt == nil || !s.CancelAt.Equal(time.Unix(now+86400, 0)) {
			t.Errorf("subscription = %+v", s)
		}
		var me struct {
			Onboarding struct{ Step string } `json:"onboarding"`
		}
		f.expect(f.call(ana, "GET", "/api/v1/me", nil), "GET", "/api/v1/me", 200, &me)
		if me.Onboarding.Step != "done" {
			t.Errorf("onboarding step = %q", me.Onboarding.Step)
		}
		f.expect(f.call(ana, "POST", "/api/v1/workspaces", map[string]string{"name": "Familia"}), "POST", "/api/v1/workspaces", 201, nil)

		f.expect(f.call(ana, "POST", "/api/v1/stripe/subscriptions/refresh", nil), "POST", "/api/v1/stripe/subscriptions/refresh", 200, &st)
		// Abandoning an incomplete subscription (server/billing's tests): stripe-mock's description
		// of sub_http names another customer, so it is not hers to abandon.
		const abandon = "/api/v1/stripe/subscriptions/{id}/abandon"
		rec = f.call(ana, "POST", "/api/v1/stripe/subscriptions/sub_http/abandon", nil)
		f.expect(rec, "POST", abandon, 404, nil)
		if msg := errorOf(t, rec).Message; !strings.Contains(msg, "not found among yours") {
			t.Errorf("abandon another customer's subscription: %q", msg)
		}
		f.expect(f.call(person{}, "POST", "/api/v1/stripe/subscriptions/sub_http/abandon", nil), "POST", abandon, 401, nil)
		var portal struct{ URL string }
		f.expect(f.call(ana, "POST", "/api/v1/stripe/portal-session", nil), "POST", "/api/v1/stripe/portal-session", 200, &portal)
		if !strings.HasPrefix(portal.URL, "https://") {
			t.Errorf("portal = %+v", portal)
		}
		// Without a session: 401, except the webhook.
		f.expect(f.call(person{}, "GET", "/api/v1/stripe/products", nil), "GET", "/api/v1/stripe/products", 401, nil)
	})
}

func TestWithBillingOffTheBillingPageSaysSoAndEverythingIsOpen(t *testing.T) {
	eachTeamFixture(t, func(t *testing.T, f *teamFixture) {
		ana := f.signUp("ana@example.com")
		var st billingStateJSON
		f.expect(f.call(ana, "GET", "/api/v1/stripe/subscriptions", nil), "GET", "/api/v1/stripe/subscriptions", 200, &st)
		if st.Enabled || !st.Entitled || st.Subscriptions == nil || len(st.Subscriptions) != 0 {
			t.Errorf("state = %+v", st)
		}
		rec := f.call(ana, "GET", "/api/v1/stripe/products", nil, "en")
		f.expect(rec, "GET", "/api/v1/stripe/products", 404, nil)
		if e := errorOf(t, rec); e.Message != "Billing is not configured on this server." {
			t.Errorf("message = %q", e.Message)
		}
		f.expect(f.call(ana, "POST", "/api/v1/stripe/create-checkout-session", map[string]string{"kind": "card_check"}),
			"POST", "/api/v1/stripe/create-checkout-session", 404, nil)
		f.expect(f.webhookCall([]byte(`{}`), testWebhookSecret), "POST", "/api/v1/stripe/webhook", 404, nil)
		f.expect(f.call(ana, "POST", "/api/v1/workspaces", map[string]string{"name": "Familia"}), "POST", "/api/v1/workspaces", 201, nil)
	})
}

// The checkout body is the shared schema's checkoutRequest: each of its vectors through the real
// endpoint, with billing on. A refused body names its field and key; a valid one reaches billing
// (the card check: a Checkout session; the plan before the card check: billing's own 409).
func TestTheCheckoutBodyIsValidatedWithTheSharedSchema(t *testing.T) {
	eachTeamFixture(t, func(t *testing.T, f *teamFixture) {
		withBilling(t, f)
		ana := f.signUp("ana@example.com")
		vectors, err := schema.Vectors()
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, v := range vectors {
			if v.Entity != bodyCheckout {
				continue
			}
			seen++
			rec := f.call(ana, "POST", "/api/v1/stripe/create-checkout-session", v.Input, "en")
			var got invalidAnswer
			_ = json.Unmarshal(rec.Body.Bytes(), &got)
			switch {
			case v.Valid && rec.Code != http.StatusOK && rec.Code != http.StatusConflict:
				t.Errorf("%s: valid body answered %d %s", v.Name, rec.Code, rec.Body)
			case !v.Valid && (rec.Code != http.StatusBadRequest || len(got.Error.Fields) != 1 ||
				got.Error.Fields[0].Path != v.Path || got.Error.Fields[0].Key != v.Key):
				t.Errorf("%s: answered %d %s, want 400 naming %s %s", v.Name, rec.Code, rec.Body, v.Path, v.Key)
			}
		}
		if seen < 5 {
			t.Fatalf("%d checkoutRequest vectors", seen)
		}
	})
}

// "Check again" and Checkout creation cost calls to Stripe, whose rate limit is the whole
// account's: each is limited per user (429 with the wait, in the user's language); another user is
// not affected, and the limit passes with its window.
func TestCheckAgainAndCheckoutAreThrottledPerUser(t *testing.T) {
	eachTeamFixture(t, func(t *testing.T, f *teamFixture) {
		withBilling(t, f)
		ana, bea := f.signUp("ana@example.com"), f.signUp("bea@example.com")
		const refresh = "/api/v1/stripe/subscriptions/refresh"
		f.expect(f.call(ana, "POST", refresh, nil), "POST", refresh, 200, nil)
		rec := f.call(ana, "POST", refresh, nil, "es")
		f.expect(rec, "POST", refresh, 429, nil)
		if e := errorOf(t, rec); !strings.Contains(e.Message, "Vuelve a intentarlo dentro de 5 segundos") {
			t.Errorf("message = %q", e.Message)
		}
		if rec.Header().Get("Retry-After") != "5" {
			t.Errorf("Retry-After = %q", rec.Header().Get("Retry-After"))
		}
		f.expect(f.call(bea, "POST", refresh, nil), "POST", refresh, 200, nil)
		f.advance(billing.RefreshWindow)
		f.expect(f.call(ana, "POST", refresh, nil), "POST", refresh, 200, nil)

		const checkout = "/api/v1/stripe/create-checkout-session"
		plan := map[string]string{"kind": "subscription", "priceId": "price_1PgafmB7WZ01zgkW6dKueIc5"}
		for range billing.CheckoutLimit {
			f.expect(f.call(ana, "POST", checkout, plan), "POST", checkout, 409, nil) // card first: it still reached billing
		}
		rec = f.call(ana, "POST", checkout, plan, "en")
		f.expect(rec, "POST", checkout, 429, nil)
		if e := errorOf(t, rec); !strings.Contains(e.Message, "Try again in 60 seconds") {
			t.Errorf("message = %q", e.Message)
		}
		f.expect(f.call(bea, "POST", checkout, plan), "POST", checkout, 409, nil)
		f.advance(billing.CheckoutWindow)
		f.expect(f.call(ana, "POST", checkout, plan), "POST", checkout, 409, nil)
	})
}
