package billing_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"patrimonio/core"
	"patrimonio/server/billing"
	"patrimonio/server/store"
)

func TestMinorToDecimalWritesTheCurrencysMajorUnit(t *testing.T) {
	for _, c := range []struct {
		amount   int64
		currency string
		want     string
	}{{2000, "usd", "20.00"}, {100, "USD", "1.00"}, {5, "eur", "0.05"}, {0, "eur", "0.00"}, {500, "jpy", "500"},
		{12345, "kwd", "12.345"}, {-150, "eur", "-1.50"}} {
		if got := billing.MinorToDecimal(c.amount, c.currency); got != c.want {
			t.Errorf("MinorToDecimal(%d, %s) = %q, want %q", c.amount, c.currency, got, c.want)
		}
	}
}

func TestWithoutAKeyBillingIsOffAndEverythingIsOpen(t *testing.T) {
	svc := billing.New(nil, billing.Config{}, nil)
	if svc.Enabled() {
		t.Fatal("enabled without a key")
	}
	if _, err := svc.Products(ctx); core.ErrorCode(err) != core.ENOTFOUND {
		t.Errorf("products: %v", err)
	}
	if _, err := svc.CreateCheckout(ctx, billing.User{ID: "u"}, billing.CheckoutRequest{Kind: billing.KindCardCheck}); core.ErrorCode(err) != core.ENOTFOUND {
		t.Errorf("checkout: %v", err)
	}
	if _, err := svc.HandleWebhook(ctx, []byte(`{}`), "t=1,v1=00"); core.ErrorCode(err) != core.ENOTFOUND {
		t.Errorf("webhook: %v", err)
	}
	st, err := svc.State(ctx, "u")
	if err != nil || st.Enabled || !st.Entitled {
		t.Errorf("state = %+v, %v", st, err)
	}
	if err := svc.RequireSubscription(ctx, billing.User{ID: "u"}, billing.GateTeamWorkspace); err != nil {
		t.Errorf("gate with billing off: %v", err)
	}
}

func TestProductsAreThePlansWithTheirMonthlyPriceCachedForAWhile(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		products, err := e.svc.Products(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(products) != 1 || products[0].ID != mockProduct || products[0].Name == "" || products[0].Price == nil {
			t.Fatalf("products = %+v", products)
		}
		if p := products[0].Price; p.ID != mockPrice || p.Amount != "20.00" || p.Currency != "USD" || p.Interval != "month" {
			t.Errorf("price = %+v", p)
		}
		list := e.proxy.seen(http.MethodGet, "/v1/prices")
		if len(list) != 1 || list[0].Form.Get("recurring[interval]") != "month" || list[0].Form.Get("active") != "true" {
			t.Errorf("price listing = %+v", list)
		}
		// Within the cache time nothing is asked again; after it, Stripe is asked again.
		e.now = e.now.Add(4 * time.Minute)
		if _, err := e.svc.Products(ctx); err != nil {
			t.Fatal(err)
		}
		if n := len(e.proxy.seen(http.MethodGet, "/v1/products")); n != 1 {
			t.Errorf("products listed %d times within the cache time", n)
		}
		// An outage after the cache time serves the older list.
		e.now = e.now.Add(2 * time.Minute)
		e.proxy.refuse(func(*http.Request) (int, string, bool) {
			return 500, `{"error":{"type":"api_error","message":"boom"}}`, true
		})
		if again, err := e.svc.Products(ctx); err != nil || len(again) != 1 {
			t.Errorf("during an outage: %+v, %v", again, err)
		}
		if n := len(e.proxy.seen(http.MethodGet, "/v1/products")); n < 2 {
			t.Errorf("products not asked again after the cache time (%d calls)", n)
		}
	})
}

func TestConfiguredPlansComeInTheirOrderAndOneWithoutAMonthlyPriceHasNone(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		products, err := e.svc.Products(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// stripe-mock answers any product id with its fixture under that id; only the fixture
		// product has a monthly price.
		if len(products) != 2 || products[0].ID != "prod_Premium" || products[1].ID != mockProduct {
			t.Fatalf("products = %+v", products)
		}
		if products[0].Price != nil || products[1].Price == nil {
			t.Errorf("prices: %+v / %+v", products[0].Price, products[1].Price)
		}
		if n := len(e.proxy.seen(http.MethodGet, "/v1/products/prod_Premium")); n != 1 {
			t.Errorf("prod_Premium retrieved %d times", n)
		}
	}, func(c *billing.Config) { c.Plans = []string{"prod_Premium", mockProduct} })
}

// A tiered price or one the customer chooses has no amount (Stripe's unit_amount is null, read as
// 0): the plan showed as free; it has no price ("Price not available"). A price in fractions of a
// cent is its exact amount, not 0.
func TestAPlanWhosePriceHasNoSingleAmountIsNotShownAsFree(t *testing.T) {
	price := func(id, product, extra string) string {
		return `{"id":"` + id + `","object":"price","active":true,"currency":"usd","product":"` + product + `","type":"recurring",` +
			`"recurring":{"interval":"month","interval_count":1,"usage_type":"licensed"},"livemode":false,"created":1700000000,"metadata":{},` + extra + `}`
	}
	listing := `{"object":"list","url":"/v1/prices","has_more":false,"data":[` +
		price("price_tiered", "prod_Tiered", `"billing_scheme":"tiered","tiers_mode":"graduated","unit_amount":null,"unit_amount_decimal":null`) + `,` +
		price("price_custom", "prod_Custom", `"billing_scheme":"per_unit","custom_unit_amount":{"minimum":500,"maximum":null,"preset":null},"unit_amount":null,"unit_amount_decimal":null`) + `,` +
		price("price_decimal", "prod_Decimal", `"billing_scheme":"per_unit","unit_amount":null,"unit_amount_decimal":"1234.5"`) + `,` +
		price("price_free", "prod_Free", `"billing_scheme":"per_unit","unit_amount":0,"unit_amount_decimal":"0"`) + `]}`
	eachDialect(t, func(t *testing.T, e *env) {
		e.proxy.refuse(func(r *http.Request) (int, string, bool) {
			return 200, listing, r.Method == http.MethodGet && r.URL.Path == "/v1/prices"
		})
		products, err := e.svc.Products(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, p := range products {
			got[p.ID] = "none"
			if p.Price != nil {
				got[p.ID] = p.Price.Amount
			}
		}
		want := map[string]string{"prod_Tiered": "none", "prod_Custom": "none", "prod_Decimal": "12.345", "prod_Free": "0.00"}
		for id, w := range want {
			if got[id] != w {
				t.Errorf("%s: price %q, want %q", id, got[id], w)
			}
		}
	}, func(c *billing.Config) { c.Plans = []string{"prod_Tiered", "prod_Custom", "prod_Decimal", "prod_Free"} })
}

func TestTheCardCheckIsAOneDollarPaymentThatSavesTheCardForOneCustomerPerUser(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		u := e.addUser(t, "u1")
		for range 2 {
			c, err := e.svc.CreateCheckout(core.WithLanguage(ctx, "en"), u, billing.CheckoutRequest{Kind: billing.KindCardCheck})
			if err != nil {
				t.Fatal(err)
			}
			if c.ID == "" || !strings.HasPrefix(c.URL, "https://") {
				t.Errorf("checkout = %+v", c)
			}
		}
		customers := e.proxy.seen(http.MethodPost, "/v1/customers")
		if len(customers) != 1 || customers[0].Form.Get("email") != "u1@example.com" || customers[0].Form.Get("metadata[patrimonio_user_id]") != "u1" {
			t.Fatalf("customers created: %+v", customers)
		}
		sessions := e.proxy.seen(http.MethodPost, "/v1/checkout/sessions")
		if len(sessions) != 2 {
			t.Fatalf("%d checkout sessions", len(sessions))
		}
		f := sessions[0].Form
		for k, want := range map[string]string{
			"mode": "payment", "line_items[0][price_data][currency]": "usd", "line_items[0][price_data][unit_amount]": "100",
			"line_items[0][quantity]": "1", "payment_intent_data[setup_future_usage]": "off_session", "client_reference_id": "u1",
			"line_items[0][price_data][product_data][name]": "Card verification", "locale": "en",
			"metadata[patrimonio_purpose]": "card_check", "customer": sessions[1].Form.Get("customer"),
			"success_url": "http://localhost:8080/onboarding/card-check?checkout=success&session_id={CHECKOUT_SESSION_ID}",
			"cancel_url":  "http://localhost:8080/onboarding/card-check?checkout=cancel",
		} {
			if got := f.Get(k); got != want {
				t.Errorf("%s = %q, want %q", k, got, want)
			}
		}
		if !strings.HasPrefix(f.Get("customer"), "cus_") {
			t.Errorf("customer = %q", f.Get("customer"))
		}
	})
}

// From the billing page the card check comes back to its plans saying it was the card check
// (checkout=card): with checkout=success the page took it for a paid plan and waited, with every
// plan off, for a subscription that nobody bought.
func TestTheCardCheckFromTheBillingPageComesBackToThePlansAsTheCardCheck(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		u := e.addUser(t, "u1")
		if _, err := e.svc.CreateCheckout(ctx, u, billing.CheckoutRequest{Kind: billing.KindCardCheck, ReturnTo: billing.ReturnBilling}); err != nil {
			t.Fatal(err)
		}
		sessions := e.proxy.seen(http.MethodPost, "/v1/checkout/sessions")
		if len(sessions) != 1 {
			t.Fatalf("%d checkout sessions", len(sessions))
		}
		for k, want := range map[string]string{
			"success_url": "http://localhost:8080/profile/billing?tab=plans&checkout=card&session_id={CHECKOUT_SESSION_ID}",
			"cancel_url":  "http://localhost:8080/profile/billing?tab=plans&checkout=cancel",
		} {
			if got := sessions[0].Form.Get(k); got != want {
				t.Errorf("%s = %q, want %q", k, got, want)
			}
		}
	})
}

func TestThePlanNeedsTheCardCheckAnOfferedPriceAndNoActiveSubscription(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		u := e.addUser(t, "u1")
		_, err := e.svc.CreateCheckout(ctx, u, billing.CheckoutRequest{Kind: billing.KindSubscription, PriceID: mockPrice})
		wantCode(t, err, core.ECONFLICT) // card first
		_, err = e.svc.CreateCheckout(ctx, u, billing.CheckoutRequest{Kind: billing.KindSubscription, PriceID: "price_Nope"})
		wantCode(t, err, core.EINVALID)
		_, err = e.svc.CreateCheckout(ctx, u, billing.CheckoutRequest{Kind: billing.KindSubscription})
		wantCode(t, err, core.EINVALID)
		_, err = e.svc.CreateCheckout(ctx, u, billing.CheckoutRequest{Kind: "gift"})
		wantCode(t, err, core.EINVALID)
		_, err = e.svc.CreateCheckout(ctx, u, billing.CheckoutRequest{Kind: billing.KindCardCheck, ReturnTo: "elsewhere"})
		wantCode(t, err, core.EINVALID)

		cus := e.customer(t, u)
		e.deliver(t, event("evt_card", "checkout.session.completed", e.now.Unix(), map[string]any{
			"id": "cs_1", "object": "checkout.session", "mode": "payment", "payment_status": "paid", "status": "complete",
			"customer": cus, "client_reference_id": "u1", "metadata": map[string]string{"patrimonio_purpose": "card_check"}}))
		st, err := e.svc.State(ctx, "u1")
		if err != nil || !st.CardVerified || st.Entitled {
			t.Fatalf("after the card check: %+v %v", st, err)
		}
		c, err := e.svc.CreateCheckout(ctx, u, billing.CheckoutRequest{Kind: billing.KindSubscription, PriceID: mockPrice, ReturnTo: billing.ReturnBilling})
		if err != nil || c.URL == "" {
			t.Fatalf("plan checkout: %+v %v", c, err)
		}
		sessions := e.proxy.seen(http.MethodPost, "/v1/checkout/sessions")
		f := sessions[len(sessions)-1].Form
		for k, want := range map[string]string{"mode": "subscription", "line_items[0][price]": mockPrice, "customer": cus,
			"subscription_data[metadata][patrimonio_user_id]": "u1",
			"success_url": "http://localhost:8080/profile/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}"} {
			if got := f.Get(k); got != want {
				t.Errorf("%s = %q, want %q", k, got, want)
			}
		}
		e.deliver(t, event("evt_sub", "customer.subscription.created", e.now.Unix(), subscription("sub_1", cus, "active", e.now.Unix())))
		_, err = e.svc.CreateCheckout(ctx, u, billing.CheckoutRequest{Kind: billing.KindSubscription, PriceID: mockPrice})
		wantCode(t, err, core.ECONFLICT)
	})
}

func TestThePortalIsForACustomer(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		u := e.addUser(t, "u1")
		_, err := e.svc.PortalURL(ctx, u)
		wantCode(t, err, core.ECONFLICT)
		cus := e.customer(t, u)
		url, err := e.svc.PortalURL(ctx, u)
		if err != nil || !strings.HasPrefix(url, "https://") {
			t.Fatalf("portal = %q, %v", url, err)
		}
		calls := e.proxy.seen(http.MethodPost, "/v1/billing_portal/sessions")
		if len(calls) != 1 || calls[0].Form.Get("customer") != cus ||
			calls[0].Form.Get("return_url") != "http://localhost:8080/profile/billing?tab=billing" {
			t.Errorf("portal calls = %+v", calls)
		}
	})
}

func TestRefreshAsksStripeAndIgnoresAnotherCustomersObjects(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		u := e.addUser(t, "u1")
		st, err := e.svc.Refresh(ctx, u) // no customer yet: nothing to ask
		if err != nil || len(st.Subscriptions) != 0 || len(e.proxy.seen(http.MethodGet, "/v1/subscriptions")) != 0 {
			t.Fatalf("without a customer: %+v %v", st, err)
		}
		cus := e.customer(t, u)
		// stripe-mock's fixtures belong to another customer: nothing is recorded from them.
		st, err = e.svc.Refresh(ctx, u)
		if err != nil || len(st.Subscriptions) != 0 || st.CardVerified {
			t.Fatalf("refresh: %+v %v", st, err)
		}
		subs := e.proxy.seen(http.MethodGet, "/v1/subscriptions")
		sessions := e.proxy.seen(http.MethodGet, "/v1/checkout/sessions")
		if len(subs) != 1 || subs[0].Form.Get("customer") != cus || subs[0].Form.Get("status") != "all" ||
			len(sessions) != 1 || sessions[0].Form.Get("customer") != cus {
			t.Errorf("refresh asked %+v and %+v", subs, sessions)
		}
	})
}

func TestStripeErrorsBecomeOurCodesWithAReadableMessage(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		u := e.addUser(t, "u1")
		for _, c := range []struct {
			status int
			body   string
			code   string
			en     string
		}{
			{401, `{"error":{"type":"invalid_request_error","message":"Invalid API Key provided: sk_test_****"}}`, core.EUNAVAILABLE, "misconfigured"},
			{429, `{"error":{"type":"invalid_request_error","code":"rate_limit","message":"Too many"}}`, core.EUNAVAILABLE, "too many requests"},
			{404, `{"error":{"type":"invalid_request_error","code":"resource_missing","message":"No such customer"}}`, core.ENOTFOUND, "cannot find"},
			{400, `{"error":{"type":"invalid_request_error","message":"Invalid email"}}`, core.EINVALID, "refused the request"},
			{402, `{"error":{"type":"card_error","code":"card_declined","message":"Your card was declined."}}`, core.EINVALID, "declined"},
			{409, `{"error":{"type":"idempotency_error","message":"Keys for idempotent requests"}}`, core.ECONFLICT, "already in progress"},
			{503, `{"error":{"type":"api_error","message":"down"}}`, core.EUNAVAILABLE, "cannot be reached"},
		} {
			e.proxy.refuse(func(r *http.Request) (int, string, bool) { return c.status, c.body, r.URL.Path == "/v1/customers" })
			_, err := e.svc.CreateCheckout(core.WithLanguage(ctx, "en"), u, billing.CheckoutRequest{Kind: billing.KindCardCheck})
			wantCode(t, err, c.code)
			if msg := core.ErrorMessage(err); !strings.Contains(msg, c.en) || strings.Contains(msg, "sk_test") {
				t.Errorf("%d: message %q", c.status, msg)
			}
			_, err = e.svc.CreateCheckout(core.WithLanguage(ctx, "es"), u, billing.CheckoutRequest{Kind: billing.KindCardCheck})
			if msg := core.ErrorMessage(err); msg == "" || strings.Contains(msg, c.en) {
				t.Errorf("%d: Spanish message %q", c.status, msg)
			}
		}
		e.proxy.refuse(nil)
	})
}

func TestWithoutAnActiveSubscriptionOnlyTeamWorkspacesAndInvitationsAreClosed(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		u := e.addUser(t, "u1")
		err := e.svc.RequireSubscription(core.WithLanguage(ctx, "en"), u, billing.GateTeamWorkspace)
		wantCode(t, err, core.EFORBIDDEN)
		if msg := core.ErrorMessage(err); !strings.Contains(msg, "create a team workspace") || !strings.Contains(msg, "export") {
			t.Errorf("message %q", msg)
		}
		admin := u
		admin.IsAdmin = true
		if err := e.svc.RequireSubscription(ctx, admin, billing.GateInvite); err != nil {
			t.Errorf("admin gated: %v", err)
		}
		cus := e.customer(t, u)
		e.deliver(t, event("evt_1", "customer.subscription.created", e.now.Unix(), subscription("sub_1", cus, "trialing", e.now.Unix())))
		if err := e.svc.RequireSubscription(ctx, u, billing.GateInvite); err != nil {
			t.Errorf("on trial: %v", err)
		}
		e.deliver(t, event("evt_2", "customer.subscription.updated", e.now.Unix()+5, subscription("sub_1", cus, "past_due", e.now.Unix())))
		wantCode(t, e.svc.RequireSubscription(ctx, u, billing.GateInvite), core.EFORBIDDEN)
	})
}

// deliver sends a correctly signed event and fails the test if it is refused.
func (e *env) deliver(t *testing.T, payload []byte) bool {
	t.Helper()
	applied, err := e.svc.HandleWebhook(ctx, payload, sign(payload, e.now, webhookSecret))
	if err != nil {
		t.Fatalf("webhook refused: %v", err)
	}
	return applied
}

func userStatus(t *testing.T, db *store.DB, id string) (status, step string) {
	t.Helper()
	var s *string
	if err := db.QueryRow(ctx, `SELECT subscription_status, onboarding_step FROM users WHERE id = ?`, id).Scan(&s, &step); err != nil {
		t.Fatal(err)
	}
	if s != nil {
		status = *s
	}
	return status, step
}

func statuses(st billing.State) []string {
	var out []string
	for _, s := range st.Subscriptions {
		out = append(out, s.ID+":"+s.Status)
	}
	slices.Sort(out)
	return out
}

// A plan priced in several currencies lists every monthly price (the default first, then Stripe's
// order), so that the app can show the reader's currency; any of them may be checked out.
func TestAPlanPricedInSeveralCurrenciesOffersEachOfThem(t *testing.T) {
	price := func(id, currency string, amount int) string {
		return fmt.Sprintf(`{"id":%q,"object":"price","active":true,"currency":%q,"product":%q,"type":"recurring","billing_scheme":"per_unit",`+
			`"recurring":{"interval":"month","interval_count":1,"usage_type":"licensed"},"livemode":false,"created":1700000000,"metadata":{},`+
			`"unit_amount":%d,"unit_amount_decimal":"%d"}`, id, currency, mockProduct, amount, amount)
	}
	listing := `{"object":"list","url":"/v1/prices","has_more":false,"data":[` + price("price_usd", "usd", 2000) + `,` +
		price("price_eur", "eur", 1800) + `,` + price("price_gbp", "gbp", 1600) + `]}`
	eachDialect(t, func(t *testing.T, e *env) {
		e.proxy.refuse(func(r *http.Request) (int, string, bool) {
			return 200, listing, r.Method == http.MethodGet && r.URL.Path == "/v1/prices"
		})
		products, err := e.svc.Products(ctx)
		if err != nil || len(products) != 1 {
			t.Fatalf("products = %+v, %v", products, err)
		}
		var got []string
		for _, p := range products[0].Prices {
			got = append(got, p.ID+" "+p.Amount+" "+p.Currency)
		}
		if want := []string{"price_usd 20.00 USD", "price_eur 18.00 EUR", "price_gbp 16.00 GBP"}; !slices.Equal(got, want) {
			t.Errorf("prices = %v, want %v", got, want)
		}
		if products[0].Price == nil || products[0].Price.ID != "price_usd" {
			t.Errorf("price = %+v, want the first", products[0].Price)
		}
		u := e.addUser(t, "u1")
		cus := e.customer(t, u)
		e.deliver(t, event("evt_card", "checkout.session.completed", e.now.Unix(), map[string]any{
			"id": "cs_1", "object": "checkout.session", "mode": "payment", "payment_status": "paid", "status": "complete",
			"customer": cus, "client_reference_id": "u1", "metadata": map[string]string{"patrimonio_purpose": "card_check"}}))
		if _, err := e.svc.CreateCheckout(ctx, u, billing.CheckoutRequest{Kind: billing.KindSubscription, PriceID: "price_eur"}); err != nil {
			t.Fatalf("checkout in euros: %v", err)
		}
		sessions := e.proxy.seen(http.MethodPost, "/v1/checkout/sessions")
		if got := sessions[len(sessions)-1].Form.Get("line_items[0][price]"); got != "price_eur" {
			t.Errorf("checked out %q", got)
		}
	})
}
