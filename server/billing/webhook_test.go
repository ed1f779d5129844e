package billing_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"patrimonio/core"
	"patrimonio/server/billing"
	"patrimonio/server/billing/stripemock"
)

func TestTheWebhookChecksTheSignatureOnTheRawBodyWithinFiveMinutes(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		u := e.addUser(t, "u1")
		cus := e.customer(t, u)
		payload := event("evt_sig", "customer.subscription.created", e.now.Unix(), subscription("sub_1", cus, "active", e.now.Unix()))
		tampered := []byte(string(payload))
		tampered[len(tampered)-3] = ' ' // one byte of the body changed after signing
		for name, c := range map[string]struct {
			body   []byte
			header string
		}{
			"tampered body":          {tampered, sign(payload, e.now, webhookSecret)},
			"wrong secret":           {payload, sign(payload, e.now, "whsec_someone_else")},
			"too old":                {payload, sign(payload, e.now.Add(-5*time.Minute-time.Second), webhookSecret)},
			"in the future":          {payload, sign(payload, e.now.Add(5*time.Minute+time.Second), webhookSecret)},
			"no signature":           {payload, ""},
			"no timestamp":           {payload, "v1=" + sign(payload, e.now, webhookSecret)[len("t=1234567890,v1="):]},
			"a v0 signature only":    {payload, "t=1,v0=abcdef"},
			"timestamp not a number": {payload, "t=soon,v1=abcdef"},
		} {
			t.Run(name, func(t *testing.T) {
				_, err := e.svc.HandleWebhook(ctx, c.body, c.header)
				wantCode(t, err, core.EINVALID)
			})
		}
		if st, _ := userStatus(t, e.db, "u1"); st != "" {
			t.Fatalf("a refused event changed the status to %q", st)
		}
		// Valid: just inside the tolerance either way, and with two v1 signatures while the
		// endpoint's secret is rolled (the old one first).
		if !e.deliver(t, payload) {
			t.Fatal("a valid event was not applied")
		}
		early := event("evt_sig2", "customer.subscription.updated", e.now.Unix()+1, subscription("sub_1", cus, "active", e.now.Unix()))
		if _, err := e.svc.HandleWebhook(ctx, early, sign(early, e.now.Add(-5*time.Minute+time.Second), webhookSecret)); err != nil {
			t.Errorf("4:59 old: %v", err)
		}
		late := event("evt_sig3", "customer.subscription.updated", e.now.Unix()+2, subscription("sub_1", cus, "active", e.now.Unix()))
		if _, err := e.svc.HandleWebhook(ctx, late, sign(late, e.now.Add(5*time.Minute-time.Second), "whsec_old_secret", webhookSecret)); err != nil {
			t.Errorf("rolled secret, 4:59 ahead: %v", err)
		}
		if st, step := userStatus(t, e.db, "u1"); st != "active" || step != "done" {
			t.Errorf("after a valid event: status %q, step %q", st, step)
		}
	})
}

func TestTheSameEventFiveTimesAtOnceIsAppliedOnce(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		u := e.addUser(t, "u1")
		cus := e.customer(t, u)
		payload := event("evt_5x", "customer.subscription.created", e.now.Unix(), subscription("sub_1", cus, "active", e.now.Unix()))
		header := sign(payload, e.now, webhookSecret)
		var wg sync.WaitGroup
		var mu sync.Mutex
		applied, errs := 0, []error{}
		for range 5 {
			wg.Go(func() {
				ok, err := e.svc.HandleWebhook(ctx, payload, header)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					errs = append(errs, err)
				}
				if ok {
					applied++
				}
			})
		}
		wg.Wait()
		if len(errs) > 0 || applied != 1 {
			t.Fatalf("applied %d times, errors %v", applied, errs)
		}
		var n int
		if err := e.db.QueryRow(ctx, `SELECT count(*) FROM billing_events WHERE id = 'evt_5x'`).Scan(&n); err != nil || n != 1 {
			t.Errorf("events recorded: %d %v", n, err)
		}
		// A sixth, later delivery is acknowledged and changes nothing.
		if e.deliver(t, payload) {
			t.Error("a redelivery was applied")
		}
	})
}

func TestEventsOutOfOrderLeaveTheNewestState(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		u := e.addUser(t, "u1")
		cus := e.customer(t, u)
		t0 := e.now.Unix() - 600
		// The update (incomplete → active, after the first payment) arrives before the creation.
		e.deliver(t, event("evt_upd", "customer.subscription.updated", t0+20, subscription("sub_1", cus, "active", t0)))
		e.deliver(t, event("evt_new", "customer.subscription.created", t0, subscription("sub_1", cus, "incomplete", t0)))
		st, err := e.svc.State(ctx, "u1")
		if err != nil || !slices.Equal(statuses(st), []string{"sub_1:active"}) || !st.Entitled {
			t.Fatalf("updated before created: %+v %v", statuses(st), err)
		}
		// Both in the same second, the update first: the creation still does not undo it.
		e.deliver(t, event("evt_upd2", "customer.subscription.updated", t0+30, subscription("sub_2", cus, "active", t0+30)))
		e.deliver(t, event("evt_new2", "customer.subscription.created", t0+30, subscription("sub_2", cus, "incomplete", t0+30)))
		if st, _ := e.svc.State(ctx, "u1"); !slices.Equal(statuses(st), []string{"sub_1:active", "sub_2:active"}) {
			t.Fatalf("same second: %v", statuses(st))
		}
		s := st.Subscriptions[0]
		if s.Amount != "20.00" || s.Currency != "USD" || s.PriceID != mockPrice || s.ProductID != mockProduct || s.ProductName == "" ||
			s.Created.Unix() != t0 || s.CurrentPeriodStart.Unix() != t0 || s.CurrentPeriodEnd.Unix() != t0+30*86400 {
			t.Errorf("subscription = %+v", s)
		}
		if status, step := userStatus(t, e.db, "u1"); status != "active" || step != "done" {
			t.Errorf("user: %q %q", status, step)
		}
		// Deleted, then a late update from before the deletion: it stays canceled.
		e.deliver(t, event("evt_del", "customer.subscription.deleted", t0+100, subscription("sub_1", cus, "canceled", t0)))
		e.deliver(t, event("evt_del2", "customer.subscription.deleted", t0+100, subscription("sub_2", cus, "canceled", t0+30)))
		e.deliver(t, event("evt_late", "customer.subscription.updated", t0+50, subscription("sub_1", cus, "past_due", t0)))
		// Even an update stamped later cannot bring a canceled subscription back.
		e.deliver(t, event("evt_later", "customer.subscription.updated", t0+200, subscription("sub_1", cus, "active", t0)))
		if st, _ := e.svc.State(ctx, "u1"); !slices.Equal(statuses(st), []string{"sub_1:canceled", "sub_2:canceled"}) || st.Entitled {
			t.Fatalf("after deletion: %v", statuses(st))
		}
		if status, _ := userStatus(t, e.db, "u1"); status != "canceled" {
			t.Errorf("users.subscription_status = %q", status)
		}
	})
}

func TestInvoiceEventsAndCardChecksAreRecordedWhateverTheOrder(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		u := e.addUser(t, "u1")
		cus := e.customer(t, u)
		now := e.now.Unix()
		invoice := func(sub string) map[string]any {
			return map[string]any{"id": "in_1", "object": "invoice", "customer": cus, "status": "open",
				"parent": map[string]any{"type": "subscription_details", "subscription_details": map[string]any{"subscription": sub}}}
		}
		// The failed payment arrives before its subscription, and an older "paid" after it.
		e.deliver(t, event("evt_fail", "invoice.payment_failed", now, invoice("sub_1")))
		e.deliver(t, event("evt_sub", "customer.subscription.created", now-10, subscription("sub_1", cus, "past_due", now-10)))
		e.deliver(t, event("evt_paid_old", "invoice.paid", now-5, invoice("sub_1")))
		st, err := e.svc.State(ctx, "u1")
		if err != nil || len(st.Subscriptions) != 1 || st.Subscriptions[0].LastInvoice != "payment_failed" {
			t.Fatalf("state = %+v %v", st, err)
		}
		// A card check of another customer, unpaid, or of the plan is not a card check.
		for i, obj := range []map[string]any{
			{"id": "cs_a", "object": "checkout.session", "mode": "payment", "payment_status": "paid", "customer": "cus_Stranger",
				"metadata": map[string]string{"patrimonio_purpose": "card_check"}},
			{"id": "cs_b", "object": "checkout.session", "mode": "payment", "payment_status": "unpaid", "customer": cus,
				"metadata": map[string]string{"patrimonio_purpose": "card_check"}},
			{"id": "cs_c", "object": "checkout.session", "mode": "subscription", "payment_status": "paid", "customer": cus,
				"metadata": map[string]string{"patrimonio_purpose": "subscription"}},
			{"id": "cs_d", "object": "checkout.session", "mode": "payment", "payment_status": "paid", "customer": cus,
				"client_reference_id": "someone-else", "metadata": map[string]string{"patrimonio_purpose": "card_check"}},
		} {
			e.deliver(t, event("evt_cs"+string(rune('a'+i)), "checkout.session.completed", now, obj))
		}
		if st, _ := e.svc.State(ctx, "u1"); st.CardVerified {
			t.Fatal("card verified by another session")
		}
		e.deliver(t, event("evt_async", "checkout.session.async_payment_succeeded", now, map[string]any{
			"id": "cs_e", "object": "checkout.session", "mode": "payment", "payment_status": "paid", "customer": cus,
			"client_reference_id": "u1", "metadata": map[string]string{"patrimonio_purpose": "card_check"}}))
		if st, _ := e.svc.State(ctx, "u1"); !st.CardVerified {
			t.Fatal("card check not recorded")
		}
		// Events of a customer we did not make, and of types we do not act on, are acknowledged.
		e.deliver(t, event("evt_x", "customer.subscription.created", now, subscription("sub_x", "cus_Stranger", "active", now)))
		e.deliver(t, event("evt_y", "charge.refunded", now, map[string]any{"id": "ch_1", "object": "charge"}))
		var n int
		if err := e.db.QueryRow(ctx, `SELECT count(*) FROM billing_subscriptions WHERE id = 'sub_x'`).Scan(&n); err != nil || n != 0 {
			t.Errorf("a stranger's subscription was stored: %d %v", n, err)
		}
	})
}

// Two updates of the same second delivered in reverse (incomplete → active, then the older
// incomplete description): a status never moves back along the subscription's life on a tie, and an
// ending of the same second always wins.
func TestSameSecondUpdatesOutOfOrderNeverMoveTheStatusBack(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		u := e.addUser(t, "u1")
		cus := e.customer(t, u)
		s := e.now.Unix()
		e.deliver(t, event("evt_c", "customer.subscription.created", s, subscription("sub_1", cus, "incomplete", s)))
		e.deliver(t, event("evt_u2", "customer.subscription.updated", s+1, subscription("sub_1", cus, "active", s)))
		e.deliver(t, event("evt_u1", "customer.subscription.updated", s+1, subscription("sub_1", cus, "incomplete", s)))
		if st, step := userStatus(t, e.db, "u1"); st != "active" || step != "done" {
			t.Fatalf("after a late same-second incomplete: status %q, step %q", st, step)
		}
		if ok, err := e.svc.Entitled(ctx, u); err != nil || !ok {
			t.Fatalf("entitled = %v, %v", ok, err)
		}
		// Trialing does not follow active either; past_due may (the same stage: the later delivery).
		e.deliver(t, event("evt_u3", "customer.subscription.updated", s+1, subscription("sub_1", cus, "trialing", s)))
		e.deliver(t, event("evt_u4", "customer.subscription.updated", s+1, subscription("sub_1", cus, "past_due", s)))
		if st, _ := userStatus(t, e.db, "u1"); st != "past_due" {
			t.Fatalf("same-second past_due after active: %q", st)
		}
		// An ending wins over a same-second update whatever the order.
		e.deliver(t, event("evt_d", "customer.subscription.deleted", s+2, subscription("sub_1", cus, "canceled", s)))
		e.deliver(t, event("evt_u5", "customer.subscription.updated", s+2, subscription("sub_1", cus, "active", s)))
		if st, _ := userStatus(t, e.db, "u1"); st != "canceled" {
			t.Fatalf("same-second update after the deletion: %q", st)
		}
	})
}

// A Stripe-Signature header with more than one t= is refused: stripe-go checks the signature
// against the last one, and a fresh t= put in front of an hour-old signed delivery must not pass
// the 5 minute check.
func TestASignatureHeaderWithTwoTimestampsIsRefused(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		u := e.addUser(t, "u1")
		cus := e.customer(t, u)
		old := e.now.Add(-time.Hour)
		payload := event("evt_old", "customer.subscription.created", old.Unix(), subscription("sub_1", cus, "active", old.Unix()))
		_, err := e.svc.HandleWebhook(ctx, payload, sign(payload, old, webhookSecret))
		wantCode(t, err, core.EINVALID)
		_, err = e.svc.HandleWebhook(ctx, payload, fmt.Sprintf("t=%d,", e.now.Unix())+sign(payload, old, webhookSecret))
		wantCode(t, err, core.EINVALID)
		// Two timestamps even when both are fresh and one matches.
		_, err = e.svc.HandleWebhook(ctx, payload, sign(payload, e.now, webhookSecret)+fmt.Sprintf(",t=%d", e.now.Unix()))
		wantCode(t, err, core.EINVALID)
		if st, _ := userStatus(t, e.db, "u1"); st != "" {
			t.Fatalf("a refused delivery changed the status to %q", st)
		}
	})
}

// An event in an API version of another release train than stripe-go's is applied, but the operator
// is warned, once per version, that the endpoint must use the server's version.
func TestAnEventInAnotherAPIVersionIsWarnedAboutOnce(t *testing.T) {
	var logs bytes.Buffer
	svc := billing.New(nil, billing.Config{SecretKey: stripemock.TestKey, WebhookSecrets: []string{webhookSecret}},
		slog.New(slog.NewTextHandler(&logs, nil)))
	now := time.Now()
	svc.Now = func() time.Time { return now }
	verify := func(id, version string) {
		t.Helper()
		body, err := json.Marshal(map[string]any{"id": id, "object": "event", "api_version": version, "created": now.Unix(),
			"type": "customer.created", "data": map[string]any{"object": map[string]any{"id": "cus_1", "object": "customer"}}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.VerifyWebhook(ctx, body, sign(body, now, webhookSecret)); err != nil {
			t.Fatalf("%s: %v", version, err)
		}
	}
	verify("evt_1", "2026-03-25.dahlia")
	verify("evt_2", "2026-01-28.dahlia") // the same release train: compatible
	if logs.Len() != 0 {
		t.Fatalf("warned about a compatible version: %s", logs.String())
	}
	verify("evt_3", "2024-06-20")
	verify("evt_4", "2024-06-20")
	verify("evt_5", "2025-03-31.basil")
	if n := strings.Count(logs.String(), "level=WARN"); n != 2 {
		t.Fatalf("%d warnings, want one per version:\n%s", n, logs.String())
	}
	if !strings.Contains(logs.String(), "event_api_version=2024-06-20") || !strings.Contains(logs.String(), "expected_api_version=2026-03-25.dahlia") {
		t.Errorf("warning: %s", logs.String())
	}
}

// A cancellation on a set date (Stripe's cancel_at) is kept, from a webhook and from "check again",
// so that the billing page can say the day the subscription ends; taking it back clears it.
func TestACancellationOnASetDateIsKeptFromWebhooksAndCheckAgain(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		u := e.addUser(t, "u1")
		cus := e.customer(t, u)
		t0 := e.now.Unix() - 600
		cancelAt := t0 + 10*86400
		sub := subscription("sub_1", cus, "active", t0)
		sub["cancel_at"] = cancelAt
		e.deliver(t, event("evt_cancel_at", "customer.subscription.updated", t0+10, sub))
		st, err := e.svc.State(ctx, "u1")
		if err != nil || len(st.Subscriptions) != 1 || !st.Subscriptions[0].CancelAt.Equal(time.Unix(cancelAt, 0)) {
			t.Fatalf("after the webhook: %+v %v", st.Subscriptions, err)
		}
		// Taken back in the portal: cancel_at is null again.
		e.deliver(t, event("evt_kept", "customer.subscription.updated", t0+20, subscription("sub_1", cus, "active", t0)))
		if st, _ := e.svc.State(ctx, "u1"); !st.Subscriptions[0].CancelAt.IsZero() {
			t.Fatalf("after taking it back: cancel at %v", st.Subscriptions[0].CancelAt)
		}
		// "Check again" reads it from Stripe's description.
		later := subscription("sub_1", cus, "active", t0)
		later["cancel_at"] = cancelAt + 86400
		list, err := json.Marshal(map[string]any{"object": "list", "url": "/v1/subscriptions", "has_more": false, "data": []any{later}})
		if err != nil {
			t.Fatal(err)
		}
		e.proxy.refuse(func(r *http.Request) (int, string, bool) {
			return 200, string(list), r.Method == http.MethodGet && r.URL.Path == "/v1/subscriptions"
		})
		st, err = e.svc.Refresh(ctx, u)
		if err != nil || len(st.Subscriptions) != 1 || !st.Subscriptions[0].CancelAt.Equal(time.Unix(cancelAt+86400, 0)) {
			t.Fatalf("after check again: %+v %v", st.Subscriptions, err)
		}
	})
}
