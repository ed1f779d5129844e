package billing_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"

	"patrimonio/core"
	"patrimonio/server/billing"
)

// Deleting an account first cancels every subscription of the user that still bills: those our
// database holds and those Stripe knows of whose webhook has not arrived, never another customer's.
func TestCancelSubscriptionsCancelsEveryLiveSubscriptionOfTheUser(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		ana := e.addUser(t, "ana")
		customer := e.customer(t, ana)
		now := e.now.Unix()
		for i, sub := range []map[string]any{
			subscription("sub_live", customer, "active", now-60),
			subscription("sub_old", customer, "canceled", now-120),
		} {
			body := event(fmt.Sprintf("evt_%d", i), "customer.subscription.created", now, sub)
			if _, err := e.svc.HandleWebhook(ctx, body, sign(body, e.now, webhookSecret)); err != nil {
				t.Fatal(err)
			}
		}
		// Stripe also knows of a past-due one (its webhook is late), and, were it to list it, another
		// customer's: stripe-mock ignores the filter, so the proxy answers the listing as Stripe would.
		list := fmt.Sprintf(`{"object":"list","url":"/v1/subscriptions","has_more":false,"data":[
			{"id":"sub_late","object":"subscription","customer":%q,"status":"past_due"},
			{"id":"sub_live","object":"subscription","customer":%q,"status":"active"},
			{"id":"sub_other","object":"subscription","customer":"cus_someone_else","status":"active"}]}`, customer, customer)
		e.proxy.refuse(func(r *http.Request) (int, string, bool) {
			return http.StatusOK, list, r.Method == http.MethodGet && r.URL.Path == "/v1/subscriptions"
		})

		if err := e.svc.CancelSubscriptions(ctx, ana.ID); err != nil {
			t.Fatal(err)
		}
		if got := e.proxy.seen(http.MethodGet, "/v1/subscriptions"); len(got) != 1 || got[0].Form.Get("customer") != customer {
			t.Fatalf("listing calls %v, want one for %s", got, customer)
		}
		var canceled []string
		for _, id := range []string{"sub_live", "sub_old", "sub_late", "sub_other"} {
			if n := len(e.proxy.seen(http.MethodDelete, "/v1/subscriptions/"+id)); n > 0 {
				canceled = append(canceled, id)
			}
		}
		if !slices.Equal(canceled, []string{"sub_live", "sub_late"}) {
			t.Fatalf("canceled %v, want [sub_live sub_late]", canceled)
		}
	})
}

// When Stripe cannot cancel, the answer is 503 with a message saying the account stays; a user
// who never became a Stripe customer costs no call to Stripe; billing off has nothing to do.
func TestCancelSubscriptionsRefusesWhenStripeCannotBeReached(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		ana := e.addUser(t, "ana")
		customer := e.customer(t, ana)
		body := event("evt_1", "customer.subscription.created", e.now.Unix(), subscription("sub_live", customer, "active", e.now.Unix()))
		if _, err := e.svc.HandleWebhook(ctx, body, sign(body, e.now, webhookSecret)); err != nil {
			t.Fatal(err)
		}
		e.proxy.refuse(func(r *http.Request) (int, string, bool) {
			return http.StatusServiceUnavailable, `{"error":{"type":"api_error","message":"down"}}`, r.Method == http.MethodDelete
		})
		err := e.svc.CancelSubscriptions(core.WithLanguage(ctx, core.LangEN), ana.ID)
		wantCode(t, err, core.EUNAVAILABLE)
		if got, want := core.ErrorMessage(err), "Your account was not deleted: your subscriptions could not be canceled with the payment provider, "+
			"which is not answering. Try again in a few minutes."; got != want {
			t.Fatalf("message %q, want %q", got, want)
		}

		bob := e.addUser(t, "bob")
		before := len(e.proxy.seen(http.MethodGet, "/v1/subscriptions"))
		if err := e.svc.CancelSubscriptions(ctx, bob.ID); err != nil {
			t.Fatal(err)
		}
		if after := len(e.proxy.seen(http.MethodGet, "/v1/subscriptions")); after != before {
			t.Fatal("Stripe was asked about a user who has no Stripe customer")
		}
	})
	off := billing.New(nil, billing.Config{}, nil)
	if err := off.CancelSubscriptions(ctx, "ana"); err != nil {
		t.Fatalf("billing off: %v", err)
	}
}

// Billing turned off while subscriptions still bill: the start-up says so, as an error, with how many.
func TestBillingOffWithSubscriptionsStillBillingIsReported(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		var logs bytes.Buffer
		off := billing.New(e.db, billing.Config{}, slog.New(slog.NewTextHandler(&logs, nil)))
		if n, err := off.WarnIfOffWithLiveSubscriptions(ctx); err != nil || n != 0 || logs.Len() != 0 {
			t.Fatalf("with none: %d %v %q", n, err, logs.String())
		}
		u := e.addUser(t, "u1")
		cus := e.customer(t, u)
		s := e.now.Unix()
		e.deliver(t, event("evt_1", "customer.subscription.created", s, subscription("sub_1", cus, "past_due", s)))
		e.deliver(t, event("evt_2", "customer.subscription.created", s, subscription("sub_2", cus, "canceled", s)))
		if n, err := off.WarnIfOffWithLiveSubscriptions(ctx); err != nil || n != 1 {
			t.Fatalf("live subscriptions = %d, %v", n, err)
		}
		if !strings.Contains(logs.String(), "level=ERROR") || !strings.Contains(logs.String(), "live_subscriptions=1") {
			t.Errorf("log: %s", logs.String())
		}
		if n, _ := e.svc.WarnIfOffWithLiveSubscriptions(ctx); n != 0 {
			t.Error("billing on reported subscriptions")
		}
	})
}
