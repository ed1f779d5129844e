-- Billing: a subscription's cancellation on a set date (Stripe's cancel_at), so that the billing
-- page can say when it ends. NULL: none set. A subscription cancelled at the end of its period has
-- it too (Stripe sets cancel_at to the period's end).
ALTER TABLE billing_subscriptions ADD COLUMN cancel_at TIMESTAMPTZ NULL;
