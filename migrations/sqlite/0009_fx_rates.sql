-- Exchange rates (server/fx): the euro reference rates of the European Central Bank and a second,
-- configurable source in the Frankfurter API format for currencies the ECB does not publish. One
-- row per day, currency and source: `rate` units of `currency` are worth 1 EUR on `date`
-- (YYYY-MM-DD, whose text order is date order). The rate is an exact decimal kept as text, never a
-- float. Loading a file again changes nothing (the primary key; a changed value overwrites).
-- loaded_at is when the row was written or last changed.
CREATE TABLE fx_rates (
    date      TEXT NOT NULL CHECK (length(date) = 10),
    currency  TEXT NOT NULL CHECK (length(currency) = 3),
    source    TEXT NOT NULL CHECK (source <> ''),
    rate      TEXT NOT NULL CHECK (rate <> ''),
    loaded_at TIMESTAMP NOT NULL,
    PRIMARY KEY (date, currency, source)
);
-- The newest date of each source (what to load next).
CREATE INDEX fx_rates_source_date ON fx_rates (source, date);
