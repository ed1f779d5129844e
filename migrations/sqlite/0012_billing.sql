-- Billing with Stripe (issue 14). Stripe is the authority on payments; these tables hold what its
-- webhooks (and the "check again" of the status screen) told us, so that every screen reads our
-- database, never Stripe, and users.subscription_status (0011) is derived from them.

-- One Stripe customer per user, created once. card_verified_at: when the 1 US dollar card check
-- (a Checkout session in payment mode) was paid; NULL: not yet.
CREATE TABLE billing_customers (
    user_id          TEXT      NOT NULL PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    customer_id      TEXT      NOT NULL UNIQUE,
    card_verified_at TIMESTAMP NULL,
    created_at       TIMESTAMP NOT NULL
);

-- A user's subscriptions as Stripe last described them. observed_at is the Unix time (seconds) of
-- the Stripe event (or the fetch) the row was taken from: an older description never overwrites a
-- newer one, so events that arrive late, twice or out of order leave the newest state.
-- Amounts are in the currency's minor unit (cents), as Stripe gives them.
CREATE TABLE billing_subscriptions (
    id                   TEXT      NOT NULL PRIMARY KEY,
    user_id              TEXT      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    customer_id          TEXT      NOT NULL,
    status               TEXT      NOT NULL,
    currency             TEXT      NOT NULL,
    product_id           TEXT      NOT NULL,
    price_id             TEXT      NOT NULL,
    unit_amount          BIGINT    NULL,
    price_interval       TEXT      NOT NULL DEFAULT '',
    cancel_at_period_end BOOLEAN   NOT NULL DEFAULT false,
    created_at           TIMESTAMP NOT NULL,
    current_period_start TIMESTAMP NULL,
    current_period_end   TIMESTAMP NULL,
    observed_at          BIGINT    NOT NULL
);
CREATE INDEX billing_subscriptions_user ON billing_subscriptions (user_id, created_at);

-- The latest invoice event of each subscription (paid or payment_failed), kept apart so that an
-- invoice event arriving before its subscription's is not lost. observed_at as above.
CREATE TABLE billing_invoice_status (
    subscription_id TEXT   NOT NULL PRIMARY KEY,
    status          TEXT   NOT NULL,
    observed_at     BIGINT NOT NULL
);

-- Every Stripe event received, recorded in the same transaction as its effect: an event id seen
-- before is acknowledged and not applied again (Stripe delivers at least once).
CREATE TABLE billing_events (
    id          TEXT      NOT NULL PRIMARY KEY,
    type        TEXT      NOT NULL,
    created     BIGINT    NOT NULL,
    received_at TIMESTAMP NOT NULL
);
