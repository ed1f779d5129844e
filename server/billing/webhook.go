package billing

// POST /api/v1/stripe/webhook: Stripe's events. The signature is checked on the raw body with
// every configured secret (during a roll Stripe sends one v1 signature per secret); the signed
// timestamp must be within WebhookTolerance of now, in the past or in the future. Each event is
// applied once: its id is recorded in the same transaction as its effect, so a second delivery
// (even a concurrent one) finds the id and changes nothing. Events may arrive late or out of
// order: a subscription row keeps the time of the description it holds (observed_at, the event's
// `created`) and an older description never overwrites a newer one; a canceled subscription is
// never brought back by an older event. The work is a few statements on our database, no call to
// Stripe, so the answer is fast.

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"

	"patrimonio/core"
	"patrimonio/server/store"
)

// The event types billing acts on; every other event is recorded and acknowledged.
const (
	evCheckoutCompleted    = "checkout.session.completed"
	evCheckoutAsyncSuccess = "checkout.session.async_payment_succeeded"
	evSubCreated           = "customer.subscription.created"
	evSubUpdated           = "customer.subscription.updated"
	evSubDeleted           = "customer.subscription.deleted"
	evSubPaused            = "customer.subscription.paused"
	evSubResumed           = "customer.subscription.resumed"
	evInvoicePaid          = "invoice.paid"
	evInvoiceFailed        = "invoice.payment_failed"
)

// terminalStatuses cannot change any more in Stripe.
var terminalStatuses = []string{"canceled", "incomplete_expired"}

// VerifyWebhook checks the Stripe-Signature header of payload and returns the event.
func (s *Service) VerifyWebhook(ctx context.Context, payload []byte, header string) (stripe.Event, error) {
	if err := s.requireOn(ctx); err != nil {
		return stripe.Event{}, err
	}
	signedAt, ok := signatureTime(header)
	if !ok {
		return stripe.Event{}, core.Refuse(ctx, core.EINVALID, "billing.webhook.signature")
	}
	if d := s.Now().Sub(signedAt); d > s.cfg.WebhookTolerance || d < -s.cfg.WebhookTolerance {
		return stripe.Event{}, core.Refuse(ctx, core.EINVALID, "billing.webhook.time")
	}
	for _, secret := range s.cfg.WebhookSecrets {
		// The time was checked above against the service's clock; stripe-go checks the rest.
		ev, err := webhook.ConstructEventWithOptions(payload, header, secret,
			webhook.ConstructEventOptions{IgnoreTolerance: true, IgnoreAPIVersionMismatch: true})
		if err == nil {
			if ev.ID == "" || ev.Type == "" || ev.Data == nil {
				return stripe.Event{}, core.Refuse(ctx, core.EINVALID, "billing.webhook.body")
			}
			s.checkAPIVersion(ctx, ev.APIVersion)
			return ev, nil
		}
		if !errors.Is(err, webhook.ErrNoValidSignature) {
			if errors.Is(err, webhook.ErrNotSigned) || errors.Is(err, webhook.ErrInvalidHeader) {
				return stripe.Event{}, core.Refuse(ctx, core.EINVALID, "billing.webhook.signature")
			}
			return stripe.Event{}, core.Refuse(ctx, core.EINVALID, "billing.webhook.body")
		}
	}
	return stripe.Event{}, core.Refuse(ctx, core.EINVALID, "billing.webhook.signature")
}

// checkAPIVersion logs a warning, once per version, when an event comes in an API version of
// another release train than stripe-go's (stripe.APIVersion, "2026-03-25.dahlia": the part after
// the dot is what stripe-go itself compares). Events are still applied, but their objects may be
// read wrong: older shapes lack invoice.parent and the item-level current period, so invoice events
// are dropped and the period shows "unknown". The endpoint must be created with stripe.APIVersion.
func (s *Service) checkAPIVersion(ctx context.Context, version string) {
	if apiVersionCompatible(version) {
		return
	}
	if _, warned := s.warnedVersions.LoadOrStore(version, true); warned {
		return
	}
	s.logger.WarnContext(ctx, "stripe webhook events come in another API version than this server reads: "+
		"create the webhook endpoint with the server's API version (see the README)",
		"event_api_version", version, "expected_api_version", stripe.APIVersion)
}

// apiVersionCompatible says whether an event's API version is of stripe-go's release train.
func apiVersionCompatible(version string) bool {
	_, train, ok := strings.Cut(version, ".")
	_, want, _ := strings.Cut(stripe.APIVersion, ".")
	return ok && train == want
}

// signatureTime reads the t= of a Stripe-Signature header. A header with more than one t= is not
// Stripe's (it sends one) and is refused: stripe-go checks the signature against the last one, so a
// fresh t= put in front of an old signed delivery would otherwise pass our time check.
func signatureTime(header string) (time.Time, bool) {
	var at time.Time
	found := false
	for part := range strings.SplitSeq(header, ",") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(part), "t="); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || found {
				return time.Time{}, false
			}
			at, found = time.Unix(n, 0), true
		}
	}
	return at, found
}

// HandleWebhook verifies and applies one delivery. It returns applied=false for an event seen
// before (acknowledged, nothing changed).
func (s *Service) HandleWebhook(ctx context.Context, payload []byte, header string) (applied bool, err error) {
	ev, err := s.VerifyWebhook(ctx, payload, header)
	if err != nil {
		return false, err
	}
	return s.apply(ctx, ev)
}

func (s *Service) apply(ctx context.Context, ev stripe.Event) (bool, error) {
	applied := false
	err := s.inTx(ctx, func(tx *store.Tx) error {
		res, err := tx.Exec(ctx, `INSERT INTO billing_events (id, type, created, received_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (id) DO NOTHING`, ev.ID, string(ev.Type), ev.Created, s.Now().UTC())
		if err != nil {
			return fmt.Errorf("record stripe event: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("record stripe event: %w", err)
		} else if n == 0 {
			return nil // seen before
		}
		applied = true
		switch string(ev.Type) {
		case evCheckoutCompleted, evCheckoutAsyncSuccess:
			var sess stripe.CheckoutSession
			if err := json.Unmarshal(ev.Data.Raw, &sess); err != nil {
				return fmt.Errorf("decode %s %s: %w", ev.Type, ev.ID, err)
			}
			return s.applyCheckout(ctx, tx, &sess)
		case evSubCreated, evSubUpdated, evSubDeleted, evSubPaused, evSubResumed:
			var sub stripe.Subscription
			if err := json.Unmarshal(ev.Data.Raw, &sub); err != nil {
				return fmt.Errorf("decode %s %s: %w", ev.Type, ev.ID, err)
			}
			return s.applySubscription(ctx, tx, &sub, ev.Created, ev.Created, string(ev.Type) == evSubCreated)
		case evInvoicePaid, evInvoiceFailed:
			var inv stripe.Invoice
			if err := json.Unmarshal(ev.Data.Raw, &inv); err != nil {
				return fmt.Errorf("decode %s %s: %w", ev.Type, ev.ID, err)
			}
			status := "paid"
			if string(ev.Type) == evInvoiceFailed {
				status = "payment_failed"
			}
			return s.applyInvoice(ctx, tx, &inv, status, ev.Created)
		}
		return nil
	})
	if err != nil {
		return false, err
	}
	s.logger.InfoContext(ctx, "stripe event", "id", ev.ID, "type", string(ev.Type), "applied", applied)
	return applied, nil
}

// userOfCustomer returns our user of a Stripe customer, "" for a customer we did not make.
func userOfCustomer(ctx context.Context, tx *store.Tx, customer string) (string, error) {
	var userID string
	err := tx.QueryRow(ctx, `SELECT user_id FROM billing_customers WHERE customer_id = ?`, customer).Scan(&userID)
	if err != nil && !errors.Is(err, errNoRows) {
		return "", fmt.Errorf("find billing customer: %w", err)
	}
	return userID, nil
}

// lockUser serialises the billing changes of one user on Postgres (SQLite's transactions already
// take the write lock at BEGIN), so the derived status is computed from committed rows.
func lockUser(ctx context.Context, tx *store.Tx, userID string) error {
	if tx.Dialect() != store.Postgres {
		return nil
	}
	var id string
	if err := tx.QueryRow(ctx, `SELECT id FROM users WHERE id = ? FOR UPDATE`, userID).Scan(&id); err != nil && !errors.Is(err, errNoRows) {
		return fmt.Errorf("lock user: %w", err)
	}
	return nil
}

// applyCheckout records a paid card check of one of our customers.
func (s *Service) applyCheckout(ctx context.Context, tx *store.Tx, sess *stripe.CheckoutSession) error {
	if sess.Mode != stripe.CheckoutSessionModePayment || sess.Metadata[purposeKey] != KindCardCheck ||
		sess.PaymentStatus != stripe.CheckoutSessionPaymentStatusPaid || sess.Customer == nil {
		return nil
	}
	userID, err := userOfCustomer(ctx, tx, sess.Customer.ID)
	if err != nil || userID == "" {
		return err
	}
	if sess.ClientReferenceID != "" && sess.ClientReferenceID != userID {
		s.logger.WarnContext(ctx, "checkout session of another user's customer ignored", "session", sess.ID)
		return nil
	}
	if _, err := tx.Exec(ctx, `UPDATE billing_customers SET card_verified_at = ? WHERE user_id = ? AND card_verified_at IS NULL`,
		s.Now().UTC(), userID); err != nil {
		return fmt.Errorf("record card check: %w", err)
	}
	return nil
}

// lifecycleStage orders a subscription's statuses along its life, for two descriptions of the same
// second (Stripe's `created` has whole seconds, and deliveries come in any order): incomplete comes
// first, trialing next, then the living statuses (active, past_due, unpaid, paused: any of them may
// follow another), and an ended one last. stageSQL is the same for the stored row.
func lifecycleStage(status string) int {
	switch status {
	case "incomplete":
		return 1
	case "trialing":
		return 2
	case "canceled", "incomplete_expired":
		return 4
	}
	return 3
}

const stageSQL = `CASE billing_subscriptions.status WHEN 'incomplete' THEN 1 WHEN 'trialing' THEN 2
	WHEN 'canceled' THEN 4 WHEN 'incomplete_expired' THEN 4 ELSE 3 END`

// applySubscription stores a description of a subscription taken at observedAt (Unix seconds)
// unless a newer one is stored. Of two descriptions of the same second, the one further along the
// subscription's life wins (lifecycleStage: an active subscription is never taken back to
// incomplete or trialing by a same-second update delivered late); at the same stage the later
// delivery wins, except that a "created" description never replaces one of the same second (the
// update that followed it may have arrived first).
//
// stampAt is the time kept on the row (observed_at; never lowered): an event's own time, or for
// "check again" (Refresh) its time less RefreshSkew, so that events Stripe stamps just after it are
// not taken as older when our clock runs ahead of Stripe's.
func (s *Service) applySubscription(ctx context.Context, tx *store.Tx, sub *stripe.Subscription, observedAt, stampAt int64, created bool) error {
	if sub.ID == "" || sub.Customer == nil {
		return nil
	}
	userID, err := userOfCustomer(ctx, tx, sub.Customer.ID)
	if err != nil {
		return err
	}
	if userID == "" {
		s.logger.InfoContext(ctx, "subscription of a customer we did not make ignored", "subscription", sub.ID)
		return nil
	}
	if err := lockUser(ctx, tx, userID); err != nil {
		return err
	}
	var productID, priceID, interval string
	var amount any
	var start, end any
	if sub.Items != nil && len(sub.Items.Data) > 0 {
		item := sub.Items.Data[0]
		if item.Price != nil {
			priceID = item.Price.ID
			if item.Price.Product != nil {
				productID = item.Price.Product.ID
			}
			if item.Price.Recurring != nil {
				interval = string(item.Price.Recurring.Interval)
			}
			if item.Price.UnitAmount != 0 || item.Price.UnitAmountDecimal != 0 {
				amount = item.Price.UnitAmount
			}
		}
		start, end = unixOrNil(item.CurrentPeriodStart), unixOrNil(item.CurrentPeriodEnd)
	}
	terminal := `'canceled', 'incomplete_expired'`
	if _, err := tx.Exec(ctx, `INSERT INTO billing_subscriptions (id, user_id, customer_id, status, currency, product_id, price_id,
			unit_amount, price_interval, cancel_at_period_end, cancel_at, created_at, current_period_start, current_period_end, observed_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET user_id = excluded.user_id, customer_id = excluded.customer_id, status = excluded.status,
			currency = excluded.currency, product_id = excluded.product_id, price_id = excluded.price_id,
			unit_amount = excluded.unit_amount, price_interval = excluded.price_interval,
			cancel_at_period_end = excluded.cancel_at_period_end, cancel_at = excluded.cancel_at, created_at = excluded.created_at,
			current_period_start = excluded.current_period_start, current_period_end = excluded.current_period_end,
			observed_at = CASE WHEN billing_subscriptions.observed_at > excluded.observed_at
				THEN billing_subscriptions.observed_at ELSE excluded.observed_at END
		WHERE (billing_subscriptions.observed_at < ?
				OR (billing_subscriptions.observed_at = ?
					AND (? > `+stageSQL+` OR (? = `+stageSQL+` AND ?))))
			AND NOT (billing_subscriptions.status IN (`+terminal+`) AND excluded.status NOT IN (`+terminal+`))`,
		sub.ID, userID, sub.Customer.ID, string(sub.Status), strings.ToUpper(string(sub.Currency)), productID, priceID,
		amount, interval, sub.CancelAtPeriodEnd, unixOrNil(sub.CancelAt), time.Unix(sub.Created, 0).UTC(), start, end, stampAt, observedAt, observedAt,
		lifecycleStage(string(sub.Status)), lifecycleStage(string(sub.Status)), !created); err != nil {
		return fmt.Errorf("store subscription: %w", err)
	}
	return s.refreshUserStatus(ctx, tx, userID)
}

// applyInvoice records the latest invoice event of a subscription (paid or payment_failed).
func (s *Service) applyInvoice(ctx context.Context, tx *store.Tx, inv *stripe.Invoice, status string, observedAt int64) error {
	if inv.Parent == nil || inv.Parent.SubscriptionDetails == nil || inv.Parent.SubscriptionDetails.Subscription == nil {
		return nil // not a subscription's invoice
	}
	subID := inv.Parent.SubscriptionDetails.Subscription.ID
	if inv.Customer == nil {
		return nil
	}
	if userID, err := userOfCustomer(ctx, tx, inv.Customer.ID); err != nil || userID == "" {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO billing_invoice_status (subscription_id, status, observed_at) VALUES (?, ?, ?)
		ON CONFLICT (subscription_id) DO UPDATE SET status = excluded.status, observed_at = excluded.observed_at
		WHERE billing_invoice_status.observed_at <= excluded.observed_at`, subID, status, observedAt); err != nil {
		return fmt.Errorf("store invoice status: %w", err)
	}
	return nil
}

// refreshUserStatus derives users.subscription_status (the best status of the user's
// subscriptions; NULL for none), shown on the admin users screen, and completes the onboarding's
// billing step once a subscription is active or on trial.
func (s *Service) refreshUserStatus(ctx context.Context, tx *store.Tx, userID string) error {
	rows, err := tx.Query(ctx, `SELECT status FROM billing_subscriptions WHERE user_id = ?`, userID)
	if err != nil {
		return fmt.Errorf("read subscriptions: %w", err)
	}
	best := ""
	for rows.Next() {
		var st string
		if err := rows.Scan(&st); err != nil {
			rows.Close()
			return fmt.Errorf("read subscriptions: %w", err)
		}
		if best == "" || statusRank(st) > statusRank(best) {
			best = st
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read subscriptions: %w", err)
	}
	var status any
	if best != "" {
		status = best
	}
	if _, err := tx.Exec(ctx, `UPDATE users SET subscription_status = ? WHERE id = ?`, status, userID); err != nil {
		return fmt.Errorf("store subscription status: %w", err)
	}
	if slices.Contains(entitledStatuses, best) {
		// The onboarding's billing step (server/account) is completed by the billing flow.
		if _, err := tx.Exec(ctx, `UPDATE users SET onboarding_step = 'done', updated_at = ? WHERE id = ? AND onboarding_step = 'billing'`,
			s.Now().UTC(), userID); err != nil {
			return fmt.Errorf("finish onboarding: %w", err)
		}
	}
	return nil
}

func unixOrNil(sec int64) any {
	if sec == 0 {
		return nil
	}
	return time.Unix(sec, 0).UTC()
}

var errNoRows = sql.ErrNoRows
