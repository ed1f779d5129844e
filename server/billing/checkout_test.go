package billing_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"patrimonio/core"
	"patrimonio/server/billing"
)

// stripeLists has the proxy answer the customer's subscription and Checkout session listings as
// Stripe would (stripe-mock ignores the filters and lists its fixtures, another customer's).
func (e *env) stripeLists(subs, sessions []map[string]any) {
	list := func(path string, data []map[string]any) string {
		if data == nil {
			data = []map[string]any{}
		}
		b, _ := json.Marshal(map[string]any{"object": "list", "url": path, "has_more": false, "data": data})
		return string(b)
	}
	e.proxy.refuse(func(r *http.Request) (int, string, bool) {
		if r.Method != http.MethodGet {
			return 0, "", false
		}
		switch r.URL.Path {
		case "/v1/subscriptions":
			return http.StatusOK, list(r.URL.Path, subs), true
		case "/v1/checkout/sessions":
			return http.StatusOK, list(r.URL.Path, sessions), true
		}
		return 0, "", false
	})
}

func planSession(id, customer, status, price string, subscription any) map[string]any {
	return map[string]any{"id": id, "object": "checkout.session", "customer": customer, "mode": "subscription", "status": status,
		"url": "https://checkout.stripe.com/c/pay/" + id, "subscription": subscription,
		"metadata": map[string]string{"patrimonio_purpose": "subscription", "patrimonio_user_id": "u1",
			"patrimonio_price": price, "patrimonio_return": "onboarding"}}
}

// verifiedUser is u1 with a Stripe customer and a verified card.
func (e *env) verifiedUser(t *testing.T) (billing.User, string) {
	t.Helper()
	u := e.addUser(t, "u1")
	cus := e.customer(t, u)
	if _, err := e.db.Exec(ctx, `UPDATE billing_customers SET card_verified_at = ? WHERE user_id = ?`, e.now.UTC(), u.ID); err != nil {
		t.Fatal(err)
	}
	return u, cus
}

var planReq = billing.CheckoutRequest{Kind: billing.KindSubscription, PriceID: mockPrice}

// A second plan is refused (409, in the user's words) while a subscription we hold still bills or
// may bill: active and trialing, but also past_due, unpaid and paused (those are for "Manage") and
// incomplete (abandon it first). Only canceled and incomplete_expired ones leave the way open.
func TestAPlanIsRefusedWhileAStoredSubscriptionStillBills(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		u, cus := e.verifiedUser(t)
		s := e.now.Unix()
		for i, c := range []struct{ status, want string }{
			{"canceled", ""}, {"past_due", "manage"}, {"unpaid", "manage"}, {"incomplete", "abandon"}, {"paused", "manage"},
			{"incomplete_expired", ""}, {"active", "already"}, {"trialing", "already"},
		} {
			sub := fmt.Sprintf("sub_%d", i)
			e.deliver(t, event("evt_"+sub, "customer.subscription.created", s, subscription(sub, cus, c.status, s)))
			_, err := e.svc.CreateCheckout(core.WithLanguage(ctx, core.LangEN), u, planReq)
			switch c.want {
			case "":
				if err != nil {
					t.Fatalf("with a %s subscription: %v", c.status, err)
				}
			case "manage":
				wantCode(t, err, core.ECONFLICT)
				if msg := core.ErrorMessage(err); !strings.Contains(msg, "Manage") {
					t.Errorf("%s: message %q", c.status, msg)
				}
			case "abandon":
				wantCode(t, err, core.ECONFLICT)
				if msg := core.ErrorMessage(err); !strings.Contains(msg, "Choose another plan") {
					t.Errorf("%s: message %q", c.status, msg)
				}
			case "already":
				wantCode(t, err, core.ECONFLICT)
				if msg := core.ErrorMessage(err); !strings.Contains(msg, "already have an active subscription") {
					t.Errorf("%s: message %q", c.status, msg)
				}
			}
			// The next case starts from a clean slate: this one ends.
			e.deliver(t, event("evt_end_"+sub, "customer.subscription.deleted", s+1, subscription(sub, cus, "canceled", s)))
		}
	})
}

// Before a plan checkout Stripe is asked what our database may not know yet: a subscription whose
// webhook is late, a plan session paid but not recorded (both refuse), an open plan session (the
// same plan is handed out again, another plan's is expired first).
func TestAPlanCheckoutAsksStripeForSubscriptionsAndSessionsOnTheirWay(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		u, cus := e.verifiedUser(t)
		en := core.WithLanguage(ctx, core.LangEN)
		posts := func() int { return len(e.proxy.seen(http.MethodPost, "/v1/checkout/sessions")) }

		// A subscription Stripe has and we do not (its webhook is late), another customer's ignored.
		e.stripeLists([]map[string]any{
			{"id": "sub_other", "object": "subscription", "customer": "cus_someone_else", "status": "active"},
			{"id": "sub_late", "object": "subscription", "customer": cus, "status": "past_due"},
		}, nil)
		before := posts()
		_, err := e.svc.CreateCheckout(en, u, planReq)
		wantCode(t, err, core.ECONFLICT)
		if msg := core.ErrorMessage(err); !strings.Contains(msg, "Manage") {
			t.Errorf("late past_due: %q", msg)
		}
		if got := e.proxy.seen(http.MethodGet, "/v1/subscriptions"); len(got) == 0 || got[len(got)-1].Form.Get("customer") != cus ||
			got[len(got)-1].Form.Get("status") != "all" {
			t.Errorf("subscriptions listing %+v", got)
		}

		// A plan session paid, whose subscription is neither listed nor recorded yet.
		e.stripeLists(nil, []map[string]any{planSession("cs_paid", cus, "complete", mockPrice, "sub_new")})
		_, err = e.svc.CreateCheckout(en, u, planReq)
		wantCode(t, err, core.ECONFLICT)
		if msg := core.ErrorMessage(err); !strings.Contains(msg, "being confirmed") {
			t.Errorf("paid session: %q", msg)
		}
		// An old paid session whose subscription has ended no longer counts.
		e.stripeLists([]map[string]any{{"id": "sub_old", "object": "subscription", "customer": cus, "status": "canceled"}},
			[]map[string]any{planSession("cs_old", cus, "complete", mockPrice, "sub_old")})
		if _, err := e.svc.CreateCheckout(en, u, planReq); err != nil {
			t.Fatalf("after an ended subscription: %v", err)
		}
		if posts() != before+1 {
			t.Fatalf("%d sessions made, want 1", posts()-before)
		}

		// An open session for the same plan is handed out again: nothing new is made.
		e.stripeLists(nil, []map[string]any{
			planSession("cs_someone", "cus_someone_else", "open", mockPrice, nil),
			planSession("cs_open", cus, "open", mockPrice, nil),
		})
		c, err := e.svc.CreateCheckout(en, u, planReq)
		if err != nil || c.ID != "cs_open" || c.URL != "https://checkout.stripe.com/c/pay/cs_open" {
			t.Fatalf("open session: %+v %v", c, err)
		}
		if posts() != before+1 {
			t.Fatal("a second plan session was made while one was open")
		}
		// One for another plan is expired before the new one is made.
		e.stripeLists(nil, []map[string]any{planSession("cs_other", cus, "open", "price_Other", nil)})
		if _, err := e.svc.CreateCheckout(en, u, planReq); err != nil {
			t.Fatal(err)
		}
		if len(e.proxy.seen(http.MethodPost, "/v1/checkout/sessions/cs_other/expire")) != 1 || posts() != before+2 {
			t.Fatal("the other plan's open session was not expired before the new one")
		}
		// Its idempotency key names the expired one: back to a plan within the minute never gets an
		// expired session again.
		made := e.proxy.seen(http.MethodPost, "/v1/checkout/sessions")
		if key := made[len(made)-1].Header.Get("Idempotency-Key"); !strings.HasSuffix(key, "-after-cs_other") {
			t.Errorf("idempotency key after expiring = %q", key)
		}
		// If it cannot be expired (it was just paid), the new one is refused.
		e.proxy.refuse(func(r *http.Request) (int, string, bool) {
			if r.Method == http.MethodPost && r.URL.Path == "/v1/checkout/sessions/cs_other/expire" {
				return 400, `{"error":{"type":"invalid_request_error","message":"Only Checkout Sessions with a status of open can be expired."}}`, true
			}
			if r.Method == http.MethodGet && r.URL.Path == "/v1/checkout/sessions" {
				b, _ := json.Marshal(map[string]any{"object": "list", "url": r.URL.Path, "has_more": false,
					"data": []any{planSession("cs_other", cus, "open", "price_Other", nil)}})
				return http.StatusOK, string(b), true
			}
			return 0, "", false
		})
		_, err = e.svc.CreateCheckout(en, u, planReq)
		wantCode(t, err, core.ECONFLICT)
		if posts() != before+2 {
			t.Fatal("a plan session was made while another could not be expired")
		}
		e.proxy.refuse(nil)
	})
}

// Every Checkout creation carries an idempotency key of the user, kind, plan, return and minute:
// a double click asks Stripe for the same session.
func TestCheckoutCreationSendsAnIdempotencyKey(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		u, _ := e.verifiedUser(t)
		e.stripeLists(nil, nil)
		for range 2 {
			if _, err := e.svc.CreateCheckout(ctx, u, planReq); err != nil {
				t.Fatal(err)
			}
		}
		calls := e.proxy.seen(http.MethodPost, "/v1/checkout/sessions")
		first, last := calls[len(calls)-2].Header.Get("Idempotency-Key"), calls[len(calls)-1].Header.Get("Idempotency-Key")
		if !strings.HasPrefix(first, "patrimonio-checkout-u1-subscription-"+mockPrice) || first != last {
			t.Errorf("idempotency keys %q and %q", first, last)
		}
		card := calls[0].Header.Get("Idempotency-Key") // the card check of verifiedUser
		if !strings.HasPrefix(card, "patrimonio-checkout-u1-card_check-") {
			t.Errorf("card check key %q", card)
		}
	})
}

// Once the card is verified, the 1 dollar check is not sold again.
func TestTheCardCheckIsRefusedOnceTheCardIsVerified(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		u, _ := e.verifiedUser(t)
		before := len(e.proxy.seen(http.MethodPost, "/v1/checkout/sessions"))
		_, err := e.svc.CreateCheckout(core.WithLanguage(ctx, core.LangEN), u, billing.CheckoutRequest{Kind: billing.KindCardCheck})
		wantCode(t, err, core.ECONFLICT)
		if msg := core.ErrorMessage(err); !strings.Contains(msg, "already verified") {
			t.Errorf("message %q", msg)
		}
		if len(e.proxy.seen(http.MethodPost, "/v1/checkout/sessions")) != before {
			t.Error("a card check session was made for a verified card")
		}
	})
}

// "Check again" with our clock ahead of Stripe's: an event Stripe stamps after the refresh (by its
// clock, so before ours) still applies; one from well before the refresh still does not; and the
// refresh itself still wins over an older event's row.
func TestCheckAgainLeavesRoomForAClockAheadOfStripes(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		u := e.addUser(t, "u1")
		cus := e.customer(t, u)
		s := e.now.Unix()
		e.deliver(t, event("evt_c", "customer.subscription.created", s-30, subscription("sub_1", cus, "incomplete", s-300)))
		// Stripe says past_due now (its event is late); the refresh records it.
		e.stripeLists([]map[string]any{subscription("sub_1", cus, "past_due", s-300)}, nil)
		if st, err := e.svc.Refresh(ctx, u); err != nil || !slices.Equal(statuses(st), []string{"sub_1:past_due"}) {
			t.Fatalf("refresh: %v %v", statuses(st), err)
		}
		e.proxy.refuse(nil)
		// Our clock is 20 s fast: Stripe's next event, made just after the refresh, says s-20.
		e.deliver(t, event("evt_paid", "customer.subscription.updated", s-20, subscription("sub_1", cus, "active", s-300)))
		if st, _ := userStatus(t, e.db, "u1"); st != "active" {
			t.Fatalf("an event made after the refresh was dropped: %q", st)
		}
		// An event older than the row's own stamp is still ignored.
		e.deliver(t, event("evt_old", "customer.subscription.updated", s-25, subscription("sub_1", cus, "incomplete", s-300)))
		if st, _ := userStatus(t, e.db, "u1"); st != "active" {
			t.Fatalf("an older event applied: %q", st)
		}
	})
}
