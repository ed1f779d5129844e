-- The positions of connected brokerage accounts (issue 15). Each position the broker reports
-- feeds its own synced investment asset (class investments: quantity, market, ISIN, the value
-- units × price as a dated valuation), and the account's own asset carries only its cash, so the
-- wealth totals count each euro once. A position is matched on every read by its account and
-- match_key ("isin:<ISIN>" when the provider gives one, else "symbol:<SYMBOL>"), so it is never
-- duplicated; the account row keeps its id across consent renewals, so positions follow it.
--
-- status: creating (the asset is being written; a read that finds it so writes it whole again,
-- with the same record id), open (held), closed (the broker no longer reports it: its asset was
-- set to quantity 0 and value 0, never deleted; it opens again if the position comes back),
-- dismissed (a member deleted the asset: the position no longer feeds one). last_valuation_id is
-- the valuation written for value_date (a second read that day updates it).
CREATE TABLE connection_positions (
    id                TEXT NOT NULL PRIMARY KEY,
    account_id        TEXT NOT NULL REFERENCES connection_accounts (id) ON DELETE CASCADE,
    match_key         TEXT NOT NULL,
    symbol            TEXT NOT NULL,
    name              TEXT NOT NULL,
    asset_id          TEXT NOT NULL,
    status            TEXT NOT NULL,
    units             TEXT NOT NULL,
    price             TEXT NOT NULL,
    currency          TEXT NOT NULL,
    value             TEXT NOT NULL,
    value_date        TEXT NOT NULL,
    last_valuation_id TEXT NULL,
    UNIQUE (account_id, match_key)
);

-- history_read: the account's booked transactions were read once (on its first read after it
-- became an asset) and turned into the end-of-day balances of the days before, as valuations
-- (server/connect/history.go); 0 until that succeeded.
ALTER TABLE connection_accounts ADD COLUMN history_read INTEGER NOT NULL DEFAULT 0;
-- Accounts that fed an asset before this migration already have their history in it.
UPDATE connection_accounts SET history_read = 1 WHERE asset_id IS NOT NULL;
