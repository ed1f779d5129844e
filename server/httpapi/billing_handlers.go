package httpapi

// Billing with Stripe (server/billing): the plans, Checkout sessions (the 1 US dollar card check
// and the plan), the customer portal, the user's subscriptions as our database knows them (and a
// "check again" that asks Stripe), and Stripe's webhook. The spec's paths: GET /stripe/products
// (the body is the list), /stripe/create-checkout-session, /stripe/subscriptions. With billing
// off every route but GET /stripe/subscriptions answers 404 "billing is not configured"; that one
// says {"enabled": false}, so the billing page can say so.

import (
	"io"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"patrimonio/core"
	"patrimonio/server/account"
	"patrimonio/server/billing"
)

type priceJSON struct {
	ID string `json:"id"`
	// Amount is an exact decimal string in the currency's major unit ("20.00").
	Amount   string `json:"amount"`
	Currency string `json:"currency"`
	Interval string `json:"interval"`
}

type productJSON struct {
	ID          string     `json:"id"`
	Name        string     `json:"name"`
	Description string     `json:"description"`
	Price       *priceJSON `json:"price"` // null: "Price not available"
	// Prices are every monthly price of the plan (price first), one per currency typically: the app
	// shows the one in the reader's currency.
	Prices []priceJSON `json:"prices"`
}

type subscriptionJSON struct {
	ID                 string     `json:"id"`
	Status             string     `json:"status"`
	Currency           string     `json:"currency"`
	Created            time.Time  `json:"created"`
	ProductID          string     `json:"productId"`
	Product            string     `json:"product"`
	PriceID            string     `json:"priceId"`
	Amount             *string    `json:"amount"`
	Interval           string     `json:"interval"`
	CurrentPeriodStart *time.Time `json:"currentPeriodStart"`
	CurrentPeriodEnd   *time.Time `json:"currentPeriodEnd"`
	CancelAtPeriodEnd  bool       `json:"cancelAtPeriodEnd"`
	CancelAt           *time.Time `json:"cancelAt"` // null: no cancellation set
	LastInvoice        string     `json:"lastInvoice"`
}

type billingStateJSON struct {
	Enabled       bool               `json:"enabled"`
	CardVerified  bool               `json:"cardVerified"`
	Entitled      bool               `json:"entitled"`
	HasCustomer   bool               `json:"hasCustomer"`
	Subscriptions []subscriptionJSON `json:"subscriptions"`
}

func toBillingStateJSON(st billing.State) billingStateJSON {
	out := billingStateJSON{Enabled: st.Enabled, CardVerified: st.CardVerified, Entitled: st.Entitled, HasCustomer: st.HasCustomer,
		Subscriptions: make([]subscriptionJSON, 0, len(st.Subscriptions))}
	for _, s := range st.Subscriptions {
		j := subscriptionJSON{ID: s.ID, Status: s.Status, Currency: s.Currency, Created: s.Created, ProductID: s.ProductID,
			Product: s.ProductName, PriceID: s.PriceID, Interval: s.Interval, CancelAtPeriodEnd: s.CancelAtPeriodEnd, LastInvoice: s.LastInvoice}
		if s.Amount != "" {
			amount := s.Amount
			j.Amount = &amount
		}
		if !s.CurrentPeriodStart.IsZero() {
			start := s.CurrentPeriodStart
			j.CurrentPeriodStart = &start
		}
		if !s.CurrentPeriodEnd.IsZero() {
			end := s.CurrentPeriodEnd
			j.CurrentPeriodEnd = &end
		}
		if !s.CancelAt.IsZero() {
			cancelAt := s.CancelAt
			j.CancelAt = &cancelAt
		}
		out.Subscriptions = append(out.Subscriptions, j)
	}
	return out
}

// billingUser is the signed-in user as billing sees it; requireUser guarantees there is one.
func billingUser(r *http.Request) billing.User {
	u, _, ok := account.AuthFrom(r.Context())
	if !ok {
		panic("httpapi: a billing handler runs without requireUser")
	}
	return billing.User{ID: u.ID, Email: u.Email, IsAdmin: u.IsAdmin}
}

// GET /api/v1/stripe/products → [{id, name, description, price: {id, amount, currency, interval} | null}]
func (a *api) stripeProducts(w http.ResponseWriter, r *http.Request) {
	products, err := a.billing.Products(r.Context())
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	out := make([]productJSON, 0, len(products))
	for _, p := range products {
		j := productJSON{ID: p.ID, Name: p.Name, Description: p.Description, Prices: make([]priceJSON, 0, len(p.Prices))}
		if p.Price != nil {
			j.Price = &priceJSON{ID: p.Price.ID, Amount: p.Price.Amount, Currency: p.Price.Currency, Interval: p.Price.Interval}
		}
		for _, pr := range p.Prices {
			j.Prices = append(j.Prices, priceJSON{ID: pr.ID, Amount: pr.Amount, Currency: pr.Currency, Interval: pr.Interval})
		}
		out = append(out, j)
	}
	writeJSON(w, http.StatusOK, out)
}

// checkoutRequest is the body of POST /stripe/create-checkout-session, validated as the shared
// schema's checkoutRequest (kind card_check or subscription, returnTo onboarding or billing, no
// other field); the service checks the rest (a subscription names an offered price).
type checkoutRequest struct {
	Kind     string `json:"kind"`
	PriceID  string `json:"priceId"`
	ReturnTo string `json:"returnTo"`
}

// POST /api/v1/stripe/create-checkout-session {kind, priceId?, returnTo?} → 200 {id, url}; 429 past
// billing.CheckoutLimit per billing.CheckoutWindow for the user.
func (a *api) stripeCreateCheckout(w http.ResponseWriter, r *http.Request) {
	var req checkoutRequest
	if err := decodeValid(w, r, bodyCheckout, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	if !a.limitBilling(w, r, "billing-checkout", billing.CheckoutLimit, billing.CheckoutWindow) {
		return
	}
	c, err := a.billing.CreateCheckout(r.Context(), billingUser(r), billing.CheckoutRequest{Kind: req.Kind, PriceID: req.PriceID, ReturnTo: req.ReturnTo})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"id": c.ID, "url": c.URL})
}

// POST /api/v1/stripe/portal-session → 200 {url}
func (a *api) stripePortal(w http.ResponseWriter, r *http.Request) {
	url, err := a.billing.PortalURL(r.Context(), billingUser(r))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"url": url})
}

// GET /api/v1/stripe/subscriptions → 200 billing state (our database only).
func (a *api) stripeSubscriptions(w http.ResponseWriter, r *http.Request) {
	st, err := a.billing.State(r.Context(), billingUser(r).ID)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toBillingStateJSON(st))
}

// POST /api/v1/stripe/subscriptions/refresh → 200 billing state, after asking Stripe; 429 past
// billing.RefreshLimit per billing.RefreshWindow for the user.
func (a *api) stripeRefresh(w http.ResponseWriter, r *http.Request) {
	if !a.limitBilling(w, r, "billing-refresh", billing.RefreshLimit, billing.RefreshWindow) {
		return
	}
	st, err := a.billing.Refresh(r.Context(), billingUser(r))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toBillingStateJSON(st))
}

// POST /api/v1/stripe/subscriptions/{id}/abandon → 200 billing state, after cancelling at Stripe
// the caller's subscription {id} while its first payment is still incomplete (409 when it is no
// longer incomplete, 404 when it is not theirs); counted with the Checkout creations.
func (a *api) stripeAbandon(w http.ResponseWriter, r *http.Request) {
	if !a.limitBilling(w, r, "billing-checkout", billing.CheckoutLimit, billing.CheckoutWindow) {
		return
	}
	st, err := a.billing.AbandonIncomplete(r.Context(), billingUser(r), chi.URLParam(r, "id"))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toBillingStateJSON(st))
}

// POST /api/v1/stripe/webhook (Stripe; no session) → 200 {received, applied}; 400 for a bad
// signature or timestamp. The signature is checked on the body exactly as received.
func (a *api) stripeWebhook(w http.ResponseWriter, r *http.Request) {
	if !a.billing.Enabled() {
		a.writeError(w, r, core.Errorf(core.ENOTFOUND, "No API endpoint at %s.", r.URL.Path))
		return
	}
	payload, err := io.ReadAll(r.Body) // limitBody bounds it
	if err != nil {
		a.writeError(w, r, decodeError(r.Context(), err))
		return
	}
	applied, err := a.billing.HandleWebhook(r.Context(), payload, r.Header.Get("Stripe-Signature"))
	if err != nil {
		if core.ErrorCode(err) == core.EINVALID {
			a.logger.WarnContext(r.Context(), "stripe webhook refused", "reason", core.ErrorMessage(err))
		}
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"received": true, "applied": applied})
}

// limitBilling counts a request that costs calls to Stripe against the user's limit of its kind
// (the sign-in throttle's machinery, account.Sessions.LimitUser) and answers 429, with the seconds to
// wait in the user's language, past it. With billing off nothing is counted (the service answers
// 404). It reports whether to go on.
func (a *api) limitBilling(w http.ResponseWriter, r *http.Request, kind string, limit int, window time.Duration) bool {
	if !a.billing.Enabled() || a.accounts == nil {
		return true
	}
	if err := a.accounts.Sessions.LimitUser(r.Context(), kind, billingUser(r).ID, limit, window, "billing.throttled"); err != nil {
		a.writeError(w, r, err)
		return false
	}
	return true
}

// requireSubscription refuses, with billing on, an action that needs an active subscription
// (billing.RequireSubscription: creating team workspaces, inviting). It reports whether to go on.
func (a *api) requireSubscription(w http.ResponseWriter, r *http.Request, gate string) bool {
	if err := a.billing.RequireSubscription(r.Context(), billingUser(r), gate); err != nil {
		a.writeError(w, r, err)
		return false
	}
	return true
}
