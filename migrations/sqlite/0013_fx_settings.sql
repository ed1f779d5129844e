-- Issue 12: the base currency of a workspace (the currency its dashboard and wealth map show every
-- figure in), shared by its members and their devices. No row: EUR. Changed by owners and editors;
-- updated_by is who changed it last (NULL once that account is deleted).
CREATE TABLE workspace_fx_settings (
    workspace_id  TEXT      NOT NULL PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    base_currency TEXT      NOT NULL CHECK (length(base_currency) = 3),
    updated_at    TIMESTAMP NOT NULL,
    updated_by    TEXT      NULL REFERENCES users (id) ON DELETE SET NULL
);
-- Devices ask for some currencies' rates from a date on (GET /fx-rates?currencies=…&since=…), with
-- each one's last rate before that date: by currency, source and date.
CREATE INDEX fx_rates_currency_source_date ON fx_rates (currency, source, date);
