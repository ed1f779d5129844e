// Package billing is Patrimonio's billing with Stripe (stripe-go): the plans (products with a
// monthly price, cached for a few minutes), one Stripe customer per user, the 1 US dollar card
// check and the plan as Checkout sessions, the customer portal, and the webhook that keeps our
// copy of each subscription (webhook.go). Screens read our database, never Stripe: what a user
// sees after paying is what the signed webhook wrote.
//
// Without a Stripe secret key billing is off (Service.Enabled is false): onboarding has no payment
// step and every feature is open (self-hosting).
//
// Who may do what without an active subscription, when billing is on (Entitled, RequireSubscription):
// nothing is ever lost. Every record stays readable, editable, exportable and synced (the sync
// server accepts every push, so no offline edit is dropped); a lapsed subscription only closes what
// adds to the installation: creating a team workspace and inviting people. App admins are never
// gated.
package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/stripe/stripe-go/v85"

	"patrimonio/core"
	"patrimonio/server/store"
)

// Card check: a payment of 1 US dollar (spec §9), in cents.
const (
	CardCheckAmount   = 100
	CardCheckCurrency = "usd"
)

// Checkout kinds and where Checkout returns to.
const (
	KindCardCheck    = "card_check"
	KindSubscription = "subscription"
	ReturnOnboarding = "onboarding"
	ReturnBilling    = "billing"
)

// Per-user limits on what costs calls to Stripe, whose rate limit is one for the whole account: a
// user looping "check again" or Checkout creation must not use it up for everyone. The HTTP layer
// applies them (429 with billing.throttled).
const (
	RefreshLimit   = 1 // "check again" (two or more Stripe listings and a write per subscription)
	RefreshWindow  = 5 * time.Second
	CheckoutLimit  = 5 // Checkout sessions (a Stripe write each, and listings for a plan)
	CheckoutWindow = time.Minute
)

// purposeKey is the metadata key of our Checkout sessions saying what they are for.
const purposeKey = "patrimonio_purpose"

// userIDKey is the metadata key naming our user on Stripe's customers and subscriptions.
const userIDKey = "patrimonio_user_id"

// Config is what the service needs to know.
type Config struct {
	// SecretKey is Stripe's API key; "" turns billing off.
	SecretKey string
	// WebhookSecrets are the endpoint's signing secrets (several while one is rolled).
	WebhookSecrets []string
	// Plans are the product ids that are plans, in display order; empty: every active product.
	Plans []string
	// APIURL is Stripe's API base URL ("" = Stripe; stripe-mock in tests).
	APIURL string
	// PublicURL is the app's origin: Checkout and the portal come back there.
	PublicURL string
	// ProductsTTL is how long the plans are cached (0 = 5 minutes).
	ProductsTTL time.Duration
	// WebhookTolerance bounds how far a webhook's signed timestamp may be from now, either way
	// (0 = 5 minutes).
	WebhookTolerance time.Duration
}

// Service is billing. A nil-key Service is valid and answers "billing is off".
type Service struct {
	db     *store.DB
	cfg    Config
	logger *slog.Logger
	stripe *stripe.Client // nil when billing is off

	// Now tells the time; tests replace it.
	Now func() time.Time

	checkoutLocks  [checkoutLockStripes]sync.Mutex
	warnedVersions sync.Map // webhook API versions already warned about (checkAPIVersion) // a user's plan checkouts, one at a time (by a hash of the user id)

	mu          sync.Mutex // guards the plans' cache; held while fetching, so one fetch at a time
	products    []Product
	productsAt  time.Time
	productsErr error
}

// New returns the service. With cfg.SecretKey empty, billing is off.
func New(db *store.DB, cfg Config, logger *slog.Logger) *Service {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if cfg.ProductsTTL <= 0 {
		cfg.ProductsTTL = 5 * time.Minute
	}
	if cfg.WebhookTolerance <= 0 {
		cfg.WebhookTolerance = 5 * time.Minute
	}
	s := &Service{db: db, cfg: cfg, logger: logger, Now: time.Now}
	if cfg.SecretKey != "" {
		s.stripe = newStripeClient(cfg.SecretKey, cfg.APIURL)
	}
	return s
}

// WarnIfOffWithLiveSubscriptions logs an error at start-up when billing is off but the database
// holds subscriptions that still bill (any status but canceled and incomplete_expired): Stripe goes on
// charging those people while the portal, the cancellation on account deletion and the webhook are
// off. The operator must cancel them in Stripe, or turn billing back on. It returns how many there are.
func (s *Service) WarnIfOffWithLiveSubscriptions(ctx context.Context) (int, error) {
	if s.Enabled() || s.db == nil {
		return 0, nil
	}
	var n int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM billing_subscriptions WHERE status NOT IN ('canceled', 'incomplete_expired')`).Scan(&n); err != nil {
		return 0, fmt.Errorf("count live subscriptions: %w", err)
	}
	if n > 0 {
		s.logger.ErrorContext(ctx, "billing is off (no PATRIMONIO_STRIPE_SECRET_KEY) but the database holds subscriptions that Stripe "+
			"still bills: their owners cannot reach the portal and deleting an account cancels nothing. Cancel them in Stripe, "+
			"or set the key again", "live_subscriptions", n)
	}
	return n, nil
}

// Enabled says whether billing is on.
func (s *Service) Enabled() bool { return s != nil && s.stripe != nil }

func (s *Service) requireOn(ctx context.Context) error {
	if !s.Enabled() {
		return core.Refuse(ctx, core.ENOTFOUND, "billing.billing.off")
	}
	return nil
}

// Price is a plan's monthly price. Amount is an exact decimal string in the currency's major unit
// ("20.00"); Currency is upper case ISO 4217.
type Price struct {
	ID         string
	Amount     string
	UnitAmount int64
	Currency   string
	Interval   string
}

// Product is a plan: a Stripe product and its monthly price (nil: none, "Price not available"):
// the product's default price when it is a monthly one, else the first monthly price listed.
// Prices are every monthly price of the product that says an amount, Price first, then in Stripe's
// order: one per currency, typically, so that the app can show the reader's currency. Any of them
// may be checked out.
type Product struct {
	ID          string
	Name        string
	Description string
	Price       *Price
	Prices      []Price
}

// Products returns the plans with their monthly prices, from a cache of ProductsTTL. When Stripe
// cannot be reached and an older list exists, the older list is served (and the failure logged).
func (s *Service) Products(ctx context.Context) ([]Product, error) {
	if err := s.requireOn(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.products != nil && s.Now().Sub(s.productsAt) < s.cfg.ProductsTTL {
		return s.products, nil
	}
	products, err := s.fetchProducts(ctx)
	if err != nil {
		if s.products != nil {
			s.logger.WarnContext(ctx, "serving the cached plans: stripe failed", "err", err)
			return s.products, nil
		}
		return nil, err
	}
	s.products, s.productsAt = products, s.Now()
	return products, nil
}

// cachedProducts returns the plans if they are cached (however old), else tries to fetch them;
// nil when neither works. For naming products, where an id is an acceptable fallback.
func (s *Service) cachedProducts(ctx context.Context) []Product {
	s.mu.Lock()
	cached := s.products
	s.mu.Unlock()
	if cached != nil {
		return cached
	}
	fetchCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	products, err := s.Products(fetchCtx)
	if err != nil {
		return nil
	}
	return products
}

func (s *Service) fetchProducts(ctx context.Context) ([]Product, error) {
	var products []*stripe.Product
	if len(s.cfg.Plans) > 0 {
		for _, id := range s.cfg.Plans {
			p, err := s.stripe.V1Products.Retrieve(ctx, id, nil)
			if err != nil {
				var se *stripe.Error
				if errors.As(err, &se) && se.HTTPStatusCode == 404 {
					s.logger.WarnContext(ctx, "a configured plan does not exist in Stripe: check PATRIMONIO_STRIPE_PLANS", "product", id)
					continue
				}
				return nil, s.translate(ctx, "retrieve product", err)
			}
			if p.Active && !p.Deleted {
				products = append(products, p)
			}
		}
	} else {
		params := &stripe.ProductListParams{Active: stripe.Bool(true)}
		params.Limit = stripe.Int64(100)
		for p, err := range s.stripe.V1Products.List(ctx, params).All(ctx) {
			if err != nil {
				return nil, s.translate(ctx, "list products", err)
			}
			products = append(products, p)
		}
	}
	// The monthly prices of every product, in one listing.
	monthly := map[string][]*stripe.Price{}
	params := &stripe.PriceListParams{Active: stripe.Bool(true), Type: stripe.String("recurring"),
		Recurring: &stripe.PriceListRecurringParams{Interval: stripe.String("month")}}
	params.Limit = stripe.Int64(100)
	for p, err := range s.stripe.V1Prices.List(ctx, params).All(ctx) {
		if err != nil {
			return nil, s.translate(ctx, "list prices", err)
		}
		if p.Product == nil || p.Recurring == nil || p.Recurring.Interval != "month" || p.Recurring.IntervalCount != 1 {
			continue
		}
		monthly[p.Product.ID] = append(monthly[p.Product.ID], p)
	}
	out := make([]Product, 0, len(products))
	for _, p := range products {
		prices := monthly[p.ID]
		var chosen *stripe.Price
		for _, pr := range prices { // the product's default price when it is a monthly one
			if p.DefaultPrice != nil && pr.ID == p.DefaultPrice.ID {
				chosen = pr
			}
		}
		if chosen == nil && len(prices) > 0 {
			chosen = prices[0]
		}
		plan := Product{ID: p.ID, Name: p.Name, Description: p.Description, Prices: []Price{}}
		if price, ok := offeredPrice(chosen); ok {
			plan.Price = &price
			plan.Prices = append(plan.Prices, price)
		}
		for _, pr := range prices {
			if pr == chosen {
				continue
			}
			if price, ok := offeredPrice(pr); ok {
				plan.Prices = append(plan.Prices, price)
			}
		}
		out = append(out, plan)
	}
	return out, nil
}

// offeredPrice is a monthly price as a plan offers it, and whether it says an amount (monthlyAmount).
func offeredPrice(p *stripe.Price) (Price, bool) {
	amount, ok := monthlyAmount(p)
	if !ok {
		return Price{}, false
	}
	return Price{ID: p.ID, UnitAmount: p.UnitAmount, Currency: strings.ToUpper(string(p.Currency)), Amount: amount,
		Interval: string(p.Recurring.Interval)}, true
}

// zeroDecimal and threeDecimal are the currencies Stripe counts in whole units, or in thousandths.
var (
	zeroDecimal  = []string{"bif", "clp", "djf", "gnf", "jpy", "kmf", "krw", "mga", "pyg", "rwf", "ugx", "vnd", "vuv", "xaf", "xof", "xpf"}
	threeDecimal = []string{"bhd", "jod", "kwd", "omr", "tnd"}
)

// MinorToDecimal writes an amount in a currency's minor unit (Stripe's unit_amount) as an exact
// decimal string in its major unit: 2000 usd → "20.00", 500 jpy → "500".
func MinorToDecimal(amount int64, currency string) string {
	c := strings.ToLower(currency)
	places := 2
	if slices.Contains(zeroDecimal, c) {
		places = 0
	} else if slices.Contains(threeDecimal, c) {
		places = 3
	}
	sign := ""
	if amount < 0 {
		sign, amount = "-", -amount
	}
	digits := fmt.Sprintf("%0*d", places+1, amount)
	if places == 0 {
		return sign + digits
	}
	return sign + digits[:len(digits)-places] + "." + digits[len(digits)-places:]
}

// monthlyAmount is what a monthly price charges a month, as an exact decimal in the currency's major
// unit, and whether it says one. A tiered price (it depends on the quantity) or one whose amount the
// customer chooses has none: Stripe leaves its unit_amount null, which reads as 0, and the plan
// showed as free ("0,00 € / mes"); it is "Price not available" instead. A price of fractions of a
// cent (unit_amount_decimal "1234.5", unit_amount null) is that amount ("12.345"), not 0.
func monthlyAmount(p *stripe.Price) (string, bool) {
	if p == nil || p.BillingScheme == stripe.PriceBillingSchemeTiered {
		return "", false
	}
	// (A custom amount's unit_amount is null; stripe-mock's fixture has a custom_unit_amount of nulls
	// beside its unit_amount, so the object alone does not tell.)
	if p.CustomUnitAmount != nil && p.UnitAmount == 0 && p.UnitAmountDecimal == 0 {
		return "", false
	}
	if p.UnitAmountDecimal != 0 && p.UnitAmountDecimal != float64(p.UnitAmount) {
		return minorDecimalToMajor(strconv.FormatFloat(p.UnitAmountDecimal, 'f', -1, 64), string(p.Currency)), true
	}
	return MinorToDecimal(p.UnitAmount, string(p.Currency)), true
}

// minorDecimalToMajor moves the point of a non-negative decimal amount in the minor unit ("1234.5")
// to the major unit ("12.345"): MinorToDecimal's places for the integer part, then its fraction.
func minorDecimalToMajor(minor, currency string) string {
	whole, frac, _ := strings.Cut(minor, ".")
	n, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return minor
	}
	major := MinorToDecimal(n, currency)
	if frac == "" {
		return major
	}
	if !strings.Contains(major, ".") {
		major += "."
	}
	return major + frac
}

// priceOffered returns the plan one of whose monthly prices is priceID, or nil.
func priceOffered(products []Product, priceID string) *Product {
	for i := range products {
		for _, p := range products[i].Prices {
			if p.ID == priceID {
				return &products[i]
			}
		}
	}
	return nil
}

// User is who billing acts for.
type User struct {
	ID      string
	Email   string
	IsAdmin bool
}

// customerOf returns the user's Stripe customer id, "" when none was made yet.
func (s *Service) customerOf(ctx context.Context, userID string) (customerID string, cardVerified bool, err error) {
	var verified sql.NullTime
	err = s.db.QueryRow(ctx, `SELECT customer_id, card_verified_at FROM billing_customers WHERE user_id = ?`, userID).Scan(&customerID, &verified)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read billing customer: %w", err)
	}
	return customerID, verified.Valid, nil
}

// ensureCustomer returns the user's Stripe customer, creating it the first time. Concurrent first
// calls send the same idempotency key (Stripe answers them with one customer) and only one row is
// ever stored.
func (s *Service) ensureCustomer(ctx context.Context, u User) (string, error) {
	if id, _, err := s.customerOf(ctx, u.ID); err != nil || id != "" {
		return id, err
	}
	params := &stripe.CustomerCreateParams{Email: stripe.String(u.Email), Metadata: map[string]string{userIDKey: u.ID}}
	params.SetIdempotencyKey("patrimonio-customer-" + u.ID)
	c, err := s.stripe.V1Customers.Create(ctx, params)
	if err != nil {
		return "", s.translate(ctx, "create customer", err)
	}
	if _, err := s.db.Exec(ctx, `INSERT INTO billing_customers (user_id, customer_id, created_at) VALUES (?, ?, ?)
		ON CONFLICT (user_id) DO NOTHING`, u.ID, c.ID, s.Now().UTC()); err != nil {
		return "", fmt.Errorf("store billing customer: %w", err)
	}
	id, _, err := s.customerOf(ctx, u.ID)
	return id, err
}

// CheckoutRequest asks for a Checkout session: the card check, or the plan with PriceID.
// ReturnTo says where Checkout comes back: the onboarding or the billing page.
type CheckoutRequest struct {
	Kind     string
	PriceID  string
	ReturnTo string
}

// Checkout is a Checkout session to send the user to.
type Checkout struct {
	ID  string
	URL string
}

// CreateCheckout makes a Checkout session: the 1 US dollar card check in payment mode, saving the
// card for later use; or the chosen plan's monthly price in subscription mode (after the card
// check, and not while a subscription is active).
func (s *Service) CreateCheckout(ctx context.Context, u User, req CheckoutRequest) (Checkout, error) {
	if err := s.requireOn(ctx); err != nil {
		return Checkout{}, err
	}
	if req.ReturnTo == "" {
		req.ReturnTo = ReturnOnboarding
	}
	if req.ReturnTo != ReturnOnboarding && req.ReturnTo != ReturnBilling {
		return Checkout{}, core.Refuse(ctx, core.EINVALID, "billing.checkout.returnTo")
	}
	base := s.cfg.PublicURL
	params := &stripe.CheckoutSessionCreateParams{
		ClientReferenceID: stripe.String(u.ID),
		Locale:            stripe.String(core.LanguageFrom(ctx)),
	}
	switch req.Kind {
	case KindCardCheck:
		if _, verified, err := s.customerOf(ctx, u.ID); err != nil {
			return Checkout{}, err
		} else if verified {
			return Checkout{}, core.Refuse(ctx, core.ECONFLICT, "billing.checkout.cardVerified")
		}
		params.Mode = stripe.String(string(stripe.CheckoutSessionModePayment))
		params.LineItems = []*stripe.CheckoutSessionCreateLineItemParams{{
			Quantity: stripe.Int64(1),
			PriceData: &stripe.CheckoutSessionCreateLineItemPriceDataParams{
				Currency:    stripe.String(CardCheckCurrency),
				UnitAmount:  stripe.Int64(CardCheckAmount),
				ProductData: &stripe.CheckoutSessionCreateLineItemPriceDataProductDataParams{Name: stripe.String(core.Text(ctx, "billing.checkout.productName"))},
			},
		}}
		params.PaymentIntentData = &stripe.CheckoutSessionCreatePaymentIntentDataParams{
			SetupFutureUsage: stripe.String("off_session"), // the card is kept for the subscription
			Metadata:         map[string]string{purposeKey: KindCardCheck, userIDKey: u.ID},
		}
		success, cancel := "/onboarding/card-check?checkout=success", "/onboarding/card-check?checkout=cancel"
		if req.ReturnTo == ReturnBilling {
			// Back on the billing page's plans, saying it was the card check ("card"), not a plan,
			// that was paid: the page waits for the card's confirmation and then offers the plans,
			// where "success" would wait for a subscription that nobody bought.
			success, cancel = "/profile/billing?tab=plans&checkout=card", "/profile/billing?tab=plans&checkout=cancel"
		}
		params.SuccessURL = stripe.String(base + success + "&session_id={CHECKOUT_SESSION_ID}")
		params.CancelURL = stripe.String(base + cancel)
	case KindSubscription:
		if req.PriceID == "" {
			return Checkout{}, core.Refuse(ctx, core.EINVALID, "billing.checkout.priceRequired")
		}
		products, err := s.Products(ctx)
		if err != nil {
			return Checkout{}, err
		}
		if priceOffered(products, req.PriceID) == nil {
			return Checkout{}, core.Refuse(ctx, core.EINVALID, "billing.checkout.unknownPrice")
		}
		st, err := s.State(ctx, u.ID)
		if err != nil {
			return Checkout{}, err
		}
		for _, sub := range st.Subscriptions {
			if err := refuseLive(ctx, sub.Status); err != nil {
				return Checkout{}, err
			}
		}
		if !st.CardVerified {
			return Checkout{}, core.Refuse(ctx, core.ECONFLICT, "billing.checkout.cardFirst")
		}
		params.Mode = stripe.String(string(stripe.CheckoutSessionModeSubscription))
		params.LineItems = []*stripe.CheckoutSessionCreateLineItemParams{{Price: stripe.String(req.PriceID), Quantity: stripe.Int64(1)}}
		params.SubscriptionData = &stripe.CheckoutSessionCreateSubscriptionDataParams{Metadata: map[string]string{userIDKey: u.ID}}
		success, cancel := "/onboarding/status", "/onboarding/suscription"
		if req.ReturnTo == ReturnBilling {
			success, cancel = "/profile/billing", "/profile/billing"
		}
		params.SuccessURL = stripe.String(base + success + "?checkout=success&session_id={CHECKOUT_SESSION_ID}")
		params.CancelURL = stripe.String(base + cancel + "?checkout=cancel")
	default:
		return Checkout{}, core.Refuse(ctx, core.EINVALID, "billing.checkout.kind")
	}
	customer, err := s.ensureCustomer(ctx, u)
	if err != nil {
		return Checkout{}, err
	}
	params.Customer = stripe.String(customer)
	params.Metadata = map[string]string{purposeKey: req.Kind, userIDKey: u.ID}
	after := "" // an open session expired just now
	if req.Kind == KindSubscription {
		params.Metadata[priceKey] = req.PriceID
		params.Metadata[returnKey] = req.ReturnTo
		// One user's plan checkouts run one at a time (in this process): the look at Stripe below
		// and the creation cannot interleave with another's.
		lock := &s.checkoutLocks[lockStripe(u.ID)]
		lock.Lock()
		defer lock.Unlock()
		open, expired, err := s.subscriptionInFlight(ctx, u.ID, customer, req)
		if err != nil || open != nil {
			return ptrOr(open), err
		}
		after = expired
	}
	// Double clicks and retries within the same minute get the same session from Stripe. After an
	// open session was expired the key differs (naming it), so that coming back to the first plan
	// within the minute never gets that expired session again.
	bucket := s.Now().Unix() / 60
	key := fmt.Sprintf("patrimonio-checkout-%s-%s-%s-%s-%s-%d", u.ID, req.Kind, req.PriceID, req.ReturnTo, core.LanguageFrom(ctx), bucket)
	if after != "" {
		key += "-after-" + after
	}
	params.SetIdempotencyKey(key)
	sess, err := s.stripe.V1CheckoutSessions.Create(ctx, params)
	if err != nil {
		return Checkout{}, s.translate(ctx, "create checkout session", err)
	}
	return Checkout{ID: sess.ID, URL: sess.URL}, nil
}

// Metadata keys of our plan Checkout sessions: the price and where it returns (so an open session
// can be handed out again when the same plan is asked for).
const (
	priceKey  = "patrimonio_price"
	returnKey = "patrimonio_return"
)

func ptrOr(c *Checkout) Checkout {
	if c == nil {
		return Checkout{}
	}
	return *c
}

const checkoutLockStripes = 64

func lockStripe(userID string) int {
	h := uint32(2166136261)
	for i := 0; i < len(userID); i++ {
		h = (h ^ uint32(userID[i])) * 16777619
	}
	return int(h % checkoutLockStripes)
}

// refuseLive refuses a new plan (409) while a subscription in status still bills or may bill: an
// active or trialing one ("you already have one"), an incomplete one (abandon it first:
// AbandonIncomplete), or a past_due, unpaid or paused one (manage it in the portal instead: a
// second subscription would be charged alongside it).
func refuseLive(ctx context.Context, status string) error {
	switch {
	case slices.Contains(endedStatuses, status):
		return nil
	case slices.Contains(entitledStatuses, status):
		return core.Refuse(ctx, core.ECONFLICT, "billing.checkout.alreadyActive")
	case status == string(stripe.SubscriptionStatusIncomplete):
		return core.Refuse(ctx, core.ECONFLICT, "billing.checkout.incomplete")
	}
	return core.Refuse(ctx, core.ECONFLICT, "billing.checkout.manageExisting")
}

// AbandonIncomplete gives up a subscription of the user whose first payment has not gone through
// (status incomplete: a card that needs an action the user did not finish, or a failed first
// payment), so that they can choose a plan again at once instead of waiting the 23 hours after
// which Stripe ends it (incomplete_expired). The subscription is read from Stripe (ours by its
// customer, else ENOTFOUND), cancelled there only while Stripe still says incomplete, and what
// Stripe answers is recorded as "check again" records it; it returns the user's billing. One that
// is no longer incomplete is not cancelled: an ended one answers the state, any other (its payment
// went through meanwhile) is recorded and refused (409). It takes the user's checkout lock, so no
// plan checkout of theirs interleaves in this process; a later checkout still asks Stripe, so at
// most one subscription is ever live.
func (s *Service) AbandonIncomplete(ctx context.Context, u User, subscriptionID string) (State, error) {
	if err := s.requireOn(ctx); err != nil {
		return State{}, err
	}
	notFound := core.Refuse(ctx, core.ENOTFOUND, "billing.abandon.notFound")
	customer, _, err := s.customerOf(ctx, u.ID)
	if err != nil {
		return State{}, err
	}
	if customer == "" || subscriptionID == "" || !strings.HasPrefix(subscriptionID, "sub_") {
		return State{}, notFound
	}
	lock := &s.checkoutLocks[lockStripe(u.ID)]
	lock.Lock()
	defer lock.Unlock()
	sub, err := s.stripe.V1Subscriptions.Retrieve(ctx, subscriptionID, nil)
	if err != nil {
		err = s.translate(ctx, "retrieve subscription", err)
		if core.ErrorCode(err) == core.ENOTFOUND {
			return State{}, notFound
		}
		return State{}, err
	}
	if sub.Customer == nil || sub.Customer.ID != customer {
		return State{}, notFound
	}
	now := s.Now().Unix()
	record := func(sub *stripe.Subscription) error {
		return s.inTx(ctx, func(tx *store.Tx) error {
			return s.applySubscription(ctx, tx, sub, now, now-int64(RefreshSkew/time.Second), false)
		})
	}
	switch {
	case slices.Contains(endedStatuses, string(sub.Status)):
		if err := record(sub); err != nil {
			return State{}, err
		}
		return s.State(ctx, u.ID)
	case sub.Status != stripe.SubscriptionStatusIncomplete:
		if err := record(sub); err != nil {
			return State{}, err
		}
		return State{}, core.Refuse(ctx, core.ECONFLICT, "billing.abandon.notIncomplete")
	}
	canceled, err := s.stripe.V1Subscriptions.Cancel(ctx, sub.ID, &stripe.SubscriptionCancelParams{})
	if err != nil {
		return State{}, s.translate(ctx, "cancel incomplete subscription", err)
	}
	if canceled.Status == stripe.SubscriptionStatusCanceled || canceled.Status == stripe.SubscriptionStatusIncompleteExpired {
		s.logger.InfoContext(ctx, "incomplete subscription abandoned by its owner", "subscription", sub.ID, "status", string(canceled.Status))
	}
	if err := record(canceled); err != nil {
		return State{}, err
	}
	return s.State(ctx, u.ID)
}

// subscriptionInFlight asks Stripe, before a plan checkout, what our database may not know yet:
// the customer's subscriptions (one whose webhook is late refuses, as refuseLive says) and their
// Checkout sessions. A plan session that was paid but whose subscription we have not recorded
// refuses (409, the payment is being confirmed). An open plan session of ours for the same price
// and return is handed out again (returned, nothing new is made); one for another plan is expired
// first, so that at most one plan session can ever be paid (expired names the last one expired).
func (s *Service) subscriptionInFlight(ctx context.Context, userID, customer string, req CheckoutRequest) (reuse *Checkout, expired string, err error) {
	ended := map[string]bool{} // subscription id → it bills no more
	rows, err := s.db.Query(ctx, `SELECT id, status FROM billing_subscriptions WHERE user_id = ?`, userID)
	if err != nil {
		return nil, "", fmt.Errorf("read subscriptions: %w", err)
	}
	for rows.Next() {
		var id, status string
		if err := rows.Scan(&id, &status); err != nil {
			rows.Close()
			return nil, "", fmt.Errorf("read subscriptions: %w", err)
		}
		ended[id] = slices.Contains(endedStatuses, status)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, "", fmt.Errorf("read subscriptions: %w", err)
	}
	subs := &stripe.SubscriptionListParams{Customer: stripe.String(customer), Status: stripe.String("all")}
	subs.Limit = stripe.Int64(20)
	for sub, err := range s.stripe.V1Subscriptions.List(ctx, subs).All(ctx) {
		if err != nil {
			return nil, "", s.translate(ctx, "list subscriptions", err)
		}
		if sub.Customer == nil || sub.Customer.ID != customer {
			continue
		}
		if err := refuseLive(ctx, string(sub.Status)); err != nil {
			return nil, "", err
		}
		ended[sub.ID] = true
	}
	sessions := &stripe.CheckoutSessionListParams{Customer: stripe.String(customer)}
	sessions.Limit = stripe.Int64(20)
	seen := 0
	for sess, err := range s.stripe.V1CheckoutSessions.List(ctx, sessions).All(ctx) {
		if err != nil {
			return nil, "", s.translate(ctx, "list checkout sessions", err)
		}
		if seen++; seen > 100 { // the newest hundred are plenty
			break
		}
		if sess.Customer == nil || sess.Customer.ID != customer || sess.Mode != stripe.CheckoutSessionModeSubscription ||
			sess.Metadata[purposeKey] != KindSubscription {
			continue
		}
		switch sess.Status {
		case stripe.CheckoutSessionStatusComplete:
			if sess.Subscription == nil || !ended[sess.Subscription.ID] {
				return nil, "", core.Refuse(ctx, core.ECONFLICT, "billing.checkout.pending")
			}
		case stripe.CheckoutSessionStatusOpen:
			if reuse == nil && sess.URL != "" && sess.Metadata[priceKey] == req.PriceID && sess.Metadata[returnKey] == req.ReturnTo {
				reuse = &Checkout{ID: sess.ID, URL: sess.URL}
				continue
			}
			if _, err := s.stripe.V1CheckoutSessions.Expire(ctx, sess.ID, &stripe.CheckoutSessionExpireParams{}); err != nil {
				// Most likely it was paid meanwhile: its subscription is on its way.
				_ = s.translate(ctx, "expire checkout session", err)
				return nil, "", core.Refuse(ctx, core.ECONFLICT, "billing.checkout.pending")
			}
			expired = sess.ID
		}
	}
	return reuse, expired, nil
}

// PortalURL makes a customer-portal session (change the card, cancel) that comes back to the
// billing page.
func (s *Service) PortalURL(ctx context.Context, u User) (string, error) {
	if err := s.requireOn(ctx); err != nil {
		return "", err
	}
	customer, _, err := s.customerOf(ctx, u.ID)
	if err != nil {
		return "", err
	}
	if customer == "" {
		return "", core.Refuse(ctx, core.ECONFLICT, "billing.portal.noCustomer")
	}
	sess, err := s.stripe.V1BillingPortalSessions.Create(ctx, &stripe.BillingPortalSessionCreateParams{
		Customer:  stripe.String(customer),
		ReturnURL: stripe.String(s.cfg.PublicURL + "/profile/billing?tab=billing"),
		Locale:    stripe.String(core.LanguageFrom(ctx)),
	})
	if err != nil {
		return "", s.translate(ctx, "create portal session", err)
	}
	return sess.URL, nil
}

// Subscription is our copy of one of the user's subscriptions. Amount is the price as an exact
// decimal string in the major unit ("" when Stripe gave none).
type Subscription struct {
	ID                 string
	Status             string
	Currency           string
	ProductID          string
	ProductName        string
	PriceID            string
	Amount             string
	Interval           string
	CancelAtPeriodEnd  bool
	CancelAt           time.Time // zero: no cancellation set (Stripe's cancel_at: the day it ends)
	Created            time.Time
	CurrentPeriodStart time.Time // zero: unknown
	CurrentPeriodEnd   time.Time // zero: unknown
	// LastInvoice is "paid", "payment_failed" or "" (no invoice event yet).
	LastInvoice string
}

// State is a user's billing as our database knows it.
type State struct {
	Enabled      bool
	CardVerified bool
	// Entitled: billing is off, or a subscription is active or on trial.
	Entitled      bool
	HasCustomer   bool
	Subscriptions []Subscription
}

// entitledStatuses are the subscription statuses that open every feature.
var entitledStatuses = []string{"active", "trialing"}

// statusRank orders statuses for the one status a user shows (users.subscription_status): the
// best of their subscriptions.
func statusRank(status string) int {
	switch status {
	case "active":
		return 9
	case "trialing":
		return 8
	case "past_due":
		return 7
	case "unpaid":
		return 6
	case "paused":
		return 5
	case "incomplete":
		return 4
	case "canceled":
		return 2
	case "incomplete_expired":
		return 1
	}
	return 3
}

// State returns the user's billing: card check, subscriptions newest first (with the product's
// name when the plans are known), and whether every feature is open.
func (s *Service) State(ctx context.Context, userID string) (State, error) {
	if !s.Enabled() {
		return State{Enabled: false, Entitled: true, Subscriptions: []Subscription{}}, nil
	}
	customer, verified, err := s.customerOf(ctx, userID)
	if err != nil {
		return State{}, err
	}
	st := State{Enabled: true, CardVerified: verified, HasCustomer: customer != "", Subscriptions: []Subscription{}}
	rows, err := s.db.Query(ctx, `SELECT s.id, s.status, s.currency, s.product_id, s.price_id, s.unit_amount, s.price_interval,
		s.cancel_at_period_end, s.cancel_at, s.created_at, s.current_period_start, s.current_period_end, COALESCE(i.status, '')
		FROM billing_subscriptions s LEFT JOIN billing_invoice_status i ON i.subscription_id = s.id
		WHERE s.user_id = ? ORDER BY s.created_at DESC, s.id`, userID)
	if err != nil {
		return State{}, fmt.Errorf("read subscriptions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var sub Subscription
		var amount sql.NullInt64
		var start, end, cancelAt sql.NullTime
		if err := rows.Scan(&sub.ID, &sub.Status, &sub.Currency, &sub.ProductID, &sub.PriceID, &amount, &sub.Interval,
			&sub.CancelAtPeriodEnd, &cancelAt, &sub.Created, &start, &end, &sub.LastInvoice); err != nil {
			return State{}, fmt.Errorf("read subscriptions: %w", err)
		}
		if amount.Valid {
			sub.Amount = MinorToDecimal(amount.Int64, sub.Currency)
		}
		sub.Created = sub.Created.UTC()
		if start.Valid {
			sub.CurrentPeriodStart = start.Time.UTC()
		}
		if end.Valid {
			sub.CurrentPeriodEnd = end.Time.UTC()
		}
		if cancelAt.Valid {
			sub.CancelAt = cancelAt.Time.UTC()
		}
		st.Entitled = st.Entitled || slices.Contains(entitledStatuses, sub.Status)
		st.Subscriptions = append(st.Subscriptions, sub)
	}
	if err := rows.Err(); err != nil {
		return State{}, fmt.Errorf("read subscriptions: %w", err)
	}
	if len(st.Subscriptions) > 0 {
		names := map[string]string{}
		for _, p := range s.cachedProducts(ctx) {
			names[p.ID] = p.Name
		}
		for i := range st.Subscriptions {
			if n := names[st.Subscriptions[i].ProductID]; n != "" {
				st.Subscriptions[i].ProductName = n
			} else {
				st.Subscriptions[i].ProductName = st.Subscriptions[i].ProductID
			}
		}
	}
	return st, nil
}

// Entitled says whether every feature is open to the user: billing is off, the user is an app
// admin, or users.subscription_status (kept by the webhook) is active or trialing.
func (s *Service) Entitled(ctx context.Context, u User) (bool, error) {
	if !s.Enabled() || u.IsAdmin {
		return true, nil
	}
	var status sql.NullString
	err := s.db.QueryRow(ctx, `SELECT subscription_status FROM users WHERE id = ?`, u.ID).Scan(&status)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read subscription status: %w", err)
	}
	return slices.Contains(entitledStatuses, status.String), nil
}

// Gated actions (RequireSubscription).
const (
	GateTeamWorkspace = "billing.gate.teamWorkspace"
	GateInvite        = "billing.gate.invite"
)

// RequireSubscription refuses (403 forbidden, saying that the data stays available) an action
// that needs an active subscription when the user has none. gate is GateTeamWorkspace or
// GateInvite.
func (s *Service) RequireSubscription(ctx context.Context, u User, gate string) error {
	ok, err := s.Entitled(ctx, u)
	if err != nil || ok {
		return err
	}
	return core.Refuse(ctx, core.EFORBIDDEN, "billing.gate.subscription", core.Text(ctx, gate))
}

// RefreshSkew is how far our clock may run ahead of Stripe's without losing events: "check again"
// keeps its description as taken RefreshSkew before now (see applySubscription), so an event that
// Stripe stamps just after the refresh, by its clock, still counts as newer.
const RefreshSkew = time.Minute

// Refresh asks Stripe for the user's subscriptions and paid card checks and records what it
// says (the status screen's "check again", for when a webhook is late). Objects of another
// customer are ignored. The description fetched now is newer than any event created before now;
// it is kept stamped RefreshSkew earlier (never earlier than the row's own stamp), so events
// created after the refresh are applied even when our clock is up to RefreshSkew fast.
func (s *Service) Refresh(ctx context.Context, u User) (State, error) {
	if err := s.requireOn(ctx); err != nil {
		return State{}, err
	}
	customer, _, err := s.customerOf(ctx, u.ID)
	if err != nil {
		return State{}, err
	}
	if customer == "" {
		return s.State(ctx, u.ID)
	}
	now := s.Now().Unix()
	subs := &stripe.SubscriptionListParams{Customer: stripe.String(customer), Status: stripe.String("all")}
	subs.Limit = stripe.Int64(20)
	for sub, err := range s.stripe.V1Subscriptions.List(ctx, subs).All(ctx) {
		if err != nil {
			return State{}, s.translate(ctx, "list subscriptions", err)
		}
		if sub.Customer == nil || sub.Customer.ID != customer {
			continue
		}
		if err := s.inTx(ctx, func(tx *store.Tx) error {
			return s.applySubscription(ctx, tx, sub, now, now-int64(RefreshSkew/time.Second), false)
		}); err != nil {
			return State{}, err
		}
	}
	sessions := &stripe.CheckoutSessionListParams{Customer: stripe.String(customer), Status: stripe.String("complete")}
	sessions.Limit = stripe.Int64(20)
	for sess, err := range s.stripe.V1CheckoutSessions.List(ctx, sessions).All(ctx) {
		if err != nil {
			return State{}, s.translate(ctx, "list checkout sessions", err)
		}
		if sess.Customer == nil || sess.Customer.ID != customer {
			continue
		}
		if err := s.inTx(ctx, func(tx *store.Tx) error { return s.applyCheckout(ctx, tx, sess) }); err != nil {
			return State{}, err
		}
	}
	return s.State(ctx, u.ID)
}

func (s *Service) inTx(ctx context.Context, f func(tx *store.Tx) error) error {
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := f(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// endedStatuses are the subscription statuses that bill nothing more: nothing to cancel.
var endedStatuses = []string{"canceled", "incomplete_expired"}

// CancelSubscriptions cancels at once every subscription of the user that is not already ended,
// before their account is deleted (account.Hooks.BeforeDelete), so that nobody keeps paying for
// an account that is gone. It asks Stripe for the customer's subscriptions (so one whose webhook
// has not arrived yet is canceled too) and adds those our database holds. With billing off, or a
// user who never got as far as a Stripe customer, there is nothing to do and Stripe is not called.
// When Stripe cannot be reached or refuses, it answers 503 unavailable ("your account was not
// deleted"): the caller must not delete the account then.
func (s *Service) CancelSubscriptions(ctx context.Context, userID string) error {
	if !s.Enabled() {
		return nil
	}
	customer, _, err := s.customerOf(ctx, userID)
	if err != nil {
		return err
	}
	refuse := func(op string, err error) error {
		_ = s.translate(ctx, op, err) // logs what Stripe said
		return core.Refuse(ctx, core.EUNAVAILABLE, "billing.delete.stripe")
	}
	live := map[string]bool{} // subscription id → still billing
	rows, err := s.db.Query(ctx, `SELECT id, status FROM billing_subscriptions WHERE user_id = ?`, userID)
	if err != nil {
		return fmt.Errorf("read subscriptions: %w", err)
	}
	for rows.Next() {
		var id, status string
		if err := rows.Scan(&id, &status); err != nil {
			rows.Close()
			return fmt.Errorf("read subscriptions: %w", err)
		}
		live[id] = !slices.Contains(endedStatuses, status)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read subscriptions: %w", err)
	}
	if customer != "" {
		params := &stripe.SubscriptionListParams{Customer: stripe.String(customer), Status: stripe.String("all")}
		params.Limit = stripe.Int64(100)
		for sub, err := range s.stripe.V1Subscriptions.List(ctx, params).All(ctx) {
			if err != nil {
				return refuse("list subscriptions", err)
			}
			if sub.Customer == nil || sub.Customer.ID != customer {
				continue
			}
			live[sub.ID] = !slices.Contains(endedStatuses, string(sub.Status)) // Stripe knows better than our copy
		}
	}
	ids := make([]string, 0, len(live))
	for id, ok := range live {
		if ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		_, err := s.stripe.V1Subscriptions.Cancel(ctx, id, &stripe.SubscriptionCancelParams{})
		var se *stripe.Error
		if errors.As(err, &se) && (se.HTTPStatusCode == 404 || se.Code == stripe.ErrorCodeResourceMissing) {
			continue // gone already
		}
		if err != nil {
			return refuse("cancel subscription", err)
		}
		s.logger.InfoContext(ctx, "subscription canceled: the account is being deleted", "subscription", id)
	}
	return nil
}
