-- Bank and broker connections: an account's own read error. A refresh that fails for one account
-- only (the provider no longer finds it: closed, moved) records the error's key here and goes on
-- with the others; the connection's last_error and status are for consent-wide failures. An account
-- a renewed consent no longer includes is kept, with its asset, but detached: provider_account_id
-- is '' and refreshes skip it until a later consent includes it again (matched by match_hash).
ALTER TABLE connection_accounts ADD COLUMN last_error TEXT NOT NULL DEFAULT '';
