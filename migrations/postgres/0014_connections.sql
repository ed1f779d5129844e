-- Bank and broker connections (issue 15). A connection is one consent at one provider (Enable
-- Banking for banks, SnapTrade for brokerages), made by a member of a workspace; the server reads
-- through it and writes what it reads as ordinary synced records (assets and their valuations),
-- authored by the server's own sync client for that member.
--
-- state_hash: SHA-256 (hex) of the state of a link in progress (new or a renewal), so that the
-- return from the bank is matched to the member and workspace that started it; cleared when it
-- completes. pending_credentials and credentials are provider secrets (session ids, user secrets),
-- sealed with AES-256-GCM under PATRIMONIO_SECRET_KEY with the connection id as associated data.
CREATE TABLE connections (
    id                  TEXT      NOT NULL PRIMARY KEY,
    workspace_id        TEXT      NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    user_id             TEXT      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    provider            TEXT      NOT NULL,
    institution_id      TEXT      NOT NULL,
    institution_name    TEXT      NOT NULL,
    country             TEXT      NOT NULL DEFAULT '',
    status              TEXT      NOT NULL,
    state_hash          TEXT      NULL UNIQUE,
    link_started_at     TIMESTAMPTZ NULL,
    pending_credentials TEXT      NULL,
    credentials         TEXT      NULL,
    consent_expires_at  TIMESTAMPTZ NULL,
    last_refresh_at     TIMESTAMPTZ NULL,
    last_error          TEXT      NOT NULL DEFAULT '',
    created_at          TIMESTAMPTZ NOT NULL,
    updated_at          TIMESTAMPTZ NOT NULL
);
CREATE INDEX connections_workspace ON connections (workspace_id, created_at);

-- The accounts a connection found. match_hash: SHA-256 (hex) of what identifies the account across
-- consents (its IBAN, otherwise its account number): a renewed consent, whose provider account ids
-- are new, finds its assets by it; the IBAN itself is not stored, only masked. asset_id: the asset
-- record the account feeds, once the member chose it; last_valuation_id the valuation record
-- written for last_balance_date (a second read that day updates it instead of adding one). reads_day and reads_today count the
-- provider reads of the day (UTC), kept within the provider's daily limit.
CREATE TABLE connection_accounts (
    id                  TEXT      NOT NULL PRIMARY KEY,
    connection_id       TEXT      NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
    workspace_id        TEXT      NOT NULL,
    provider_account_id TEXT      NOT NULL,
    match_hash          TEXT      NOT NULL,
    name                TEXT      NOT NULL,
    kind                TEXT      NOT NULL,
    institution         TEXT      NOT NULL,
    currency            TEXT      NOT NULL,
    masked              TEXT      NOT NULL DEFAULT '',
    asset_id            TEXT      NULL,
    reads_day           TEXT      NOT NULL DEFAULT '',
    reads_today         INTEGER   NOT NULL DEFAULT 0,
    last_balance        TEXT      NULL,
    last_balance_date   TEXT      NULL,
    last_valuation_id   TEXT      NULL,
    last_refresh_at     TIMESTAMPTZ NULL,
    UNIQUE (connection_id, match_hash)
);
CREATE INDEX connection_accounts_match ON connection_accounts (workspace_id, match_hash);
