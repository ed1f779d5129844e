package billing_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"patrimonio/core"
	"patrimonio/server/billing"
)

// stripeSubscription has the proxy play Stripe for one subscription of the customer: its listing,
// its retrieval, and its cancellation, which ends it as Stripe ends an incomplete one. It returns
// how many times it was cancelled.
func (e *env) stripeSubscription(id, customer string, status *string, mu *sync.Mutex) func() int {
	cancels := 0
	obj := func() map[string]any {
		return subscription(id, customer, *status, e.now.Unix()-600)
	}
	e.proxy.refuse(func(r *http.Request) (int, string, bool) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/v1/subscriptions":
			b, _ := json.Marshal(map[string]any{"object": "list", "url": r.URL.Path, "has_more": false, "data": []any{obj()}})
			return http.StatusOK, string(b), true
		case r.Method == http.MethodGet && r.URL.Path == "/v1/checkout/sessions":
			b, _ := json.Marshal(map[string]any{"object": "list", "url": r.URL.Path, "has_more": false,
				"data": []any{planSession("cs_first", customer, "complete", mockPrice, id)}})
			return http.StatusOK, string(b), true
		case r.Method == http.MethodGet && r.URL.Path == "/v1/subscriptions/"+id:
			b, _ := json.Marshal(obj())
			return http.StatusOK, string(b), true
		case r.Method == http.MethodDelete && r.URL.Path == "/v1/subscriptions/"+id:
			cancels++
			if *status == "incomplete" {
				*status = "incomplete_expired"
			} else {
				*status = "canceled"
			}
			b, _ := json.Marshal(obj())
			return http.StatusOK, string(b), true
		}
		return 0, "", false
	})
	return func() int { mu.Lock(); defer mu.Unlock(); return cancels }
}

// A first payment that needs action or failed leaves the subscription incomplete for up to 23
// hours. Its owner may abandon it at once: it is cancelled at Stripe (only while still incomplete)
// and recorded as ended, and a new plan can be chosen right away — one subscription at a time still.
func TestAnIncompleteSubscriptionCanBeAbandonedAndAnotherPlanChosenAtOnce(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		u, cus := e.verifiedUser(t)
		en := core.WithLanguage(ctx, core.LangEN)
		s := e.now.Unix()
		e.deliver(t, event("evt_inc", "customer.subscription.created", s-600, subscription("sub_inc", cus, "incomplete", s-600)))
		var mu sync.Mutex
		status := "incomplete"
		cancels := e.stripeSubscription("sub_inc", cus, &status, &mu)

		_, err := e.svc.CreateCheckout(en, u, planReq)
		wantCode(t, err, core.ECONFLICT)
		if msg := core.ErrorMessage(err); !strings.Contains(msg, "did not go through") {
			t.Errorf("a plan while one is incomplete: %q", msg)
		}

		// Another user cannot abandon it (nor learn it exists).
		other := e.addUser(t, "u2")
		if _, err := e.db.Exec(ctx, `INSERT INTO billing_customers (user_id, customer_id, created_at) VALUES (?, 'cus_u2', ?)`, other.ID, e.now.UTC()); err != nil {
			t.Fatal(err)
		}
		_, err = e.svc.AbandonIncomplete(en, other, "sub_inc")
		wantCode(t, err, core.ENOTFOUND)
		if cancels() != 0 {
			t.Fatal("another user's request cancelled the subscription")
		}

		st, err := e.svc.AbandonIncomplete(en, u, "sub_inc")
		if err != nil {
			t.Fatal(err)
		}
		if cancels() != 1 || len(st.Subscriptions) != 1 || st.Subscriptions[0].Status != "incomplete_expired" {
			t.Fatalf("after abandoning: %d cancellations, %+v", cancels(), st.Subscriptions)
		}
		// A late event of the incomplete subscription does not bring it back.
		e.deliver(t, event("evt_inc_late", "customer.subscription.updated", s-500, subscription("sub_inc", cus, "incomplete", s-600)))
		posts := len(e.proxy.seen(http.MethodPost, "/v1/checkout/sessions"))
		if _, err := e.svc.CreateCheckout(en, u, planReq); err != nil {
			t.Fatalf("a plan right after abandoning: %v", err)
		}
		if got := len(e.proxy.seen(http.MethodPost, "/v1/checkout/sessions")); got != posts+1 {
			t.Fatalf("%d plan sessions made, want 1", got-posts)
		}
		// Abandoning it again changes nothing and cancels nothing more.
		if _, err := e.svc.AbandonIncomplete(en, u, "sub_inc"); err != nil || cancels() != 1 {
			t.Fatalf("abandoning twice: %v, %d cancellations", err, cancels())
		}
	})
}

// Only an incomplete subscription is abandoned: one that Stripe says is active by now (its payment
// went through meanwhile, our copy is late) is not cancelled; its status is recorded instead.
func TestOnlyAnIncompleteSubscriptionIsAbandoned(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		u, cus := e.verifiedUser(t)
		en := core.WithLanguage(ctx, core.LangEN)
		s := e.now.Unix()
		e.deliver(t, event("evt_inc", "customer.subscription.created", s-600, subscription("sub_paid", cus, "incomplete", s-600)))
		var mu sync.Mutex
		status := "active"
		cancels := e.stripeSubscription("sub_paid", cus, &status, &mu)
		_, err := e.svc.AbandonIncomplete(en, u, "sub_paid")
		wantCode(t, err, core.ECONFLICT)
		if cancels() != 0 {
			t.Fatal("an active subscription was cancelled")
		}
		st, err := e.svc.State(ctx, u.ID)
		if err != nil || len(st.Subscriptions) != 1 || st.Subscriptions[0].Status != "active" || !st.Entitled {
			t.Fatalf("our copy after the refusal: %+v %v", st, err)
		}
		_, err = e.svc.AbandonIncomplete(en, u, "sub_unknown")
		wantCode(t, err, core.ENOTFOUND)
		var off billing.Config
		_, err = billing.New(e.db, off, nil).AbandonIncomplete(en, u, "sub_paid")
		wantCode(t, err, core.ENOTFOUND)
	})
}
