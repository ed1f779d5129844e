// Package fx keeps the exchange rates: the euro reference rates of the European Central Bank (the
// daily file, the 90-day file, and the full history when the database has none) and a second,
// configurable source in the Frankfurter API format for currencies the ECB does not publish (ARS,
// CLP, COP, PEN, UYU…). Rates are stored as (date, currency, units per EUR, source), exact
// decimals in text, idempotently. A scheduler inside the server loads them every working day
// after the ECB publishes (around 16:00 CET) and retries; when a source cannot be reached it logs
// and carries on (the server never waits for it). GET /api/v1/fx-rates serves them to devices,
// which keep them for offline use; manual rates per workspace are a synced collection (fxRates),
// not stored here.
package fx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"patrimonio/server/store"
)

// The sources.
const (
	SourceECB   = "ecb"
	SourceExtra = "frankfurter"
)

// The ECB's files (https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/).
const (
	DefaultECBDailyURL   = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"
	DefaultECB90DayURL   = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml"
	DefaultECBHistoryURL = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.xml"
	// DefaultExtraCurrencies are asked of the second source when it is configured.
	DefaultExtraCurrencies = "ARS,CLP,COP,PEN,UYU"
)

// maxBody bounds what is read from a source: the full ECB history is about 6 MB.
const maxBody = 64 << 20

// Config says where rates come from. Empty ECB URLs mean the ECB's own; an empty ExtraURL turns
// the second source off.
type Config struct {
	ECBDailyURL, ECB90DayURL, ECBHistoryURL string
	// ExtraURL is the base URL of an API in the Frankfurter format (…/latest, …/2024-01-01..).
	ExtraURL string
	// ExtraCurrencies are the codes asked of it, comma separated.
	ExtraCurrencies string
}

func (c Config) withDefaults() Config {
	if c.ECBDailyURL == "" {
		c.ECBDailyURL = DefaultECBDailyURL
	}
	if c.ECB90DayURL == "" {
		c.ECB90DayURL = DefaultECB90DayURL
	}
	if c.ECBHistoryURL == "" {
		c.ECBHistoryURL = DefaultECBHistoryURL
	}
	if c.ExtraCurrencies == "" {
		c.ExtraCurrencies = DefaultExtraCurrencies
	}
	c.ExtraURL = strings.TrimRight(c.ExtraURL, "/")
	return c
}

// Service loads, stores and reads the rates.
type Service struct {
	db     *store.DB
	cfg    Config
	client *http.Client
	logger *slog.Logger
	// Now tells the time; tests replace it.
	Now func() time.Time
}

// NewService returns the service over db. client nil uses a client with a 2-minute timeout.
func NewService(db *store.DB, cfg Config, client *http.Client, logger *slog.Logger) *Service {
	if client == nil {
		client = &http.Client{Timeout: 2 * time.Minute}
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Service{db: db, cfg: cfg.withDefaults(), client: client, logger: logger, Now: time.Now}
}

// ---------------------------------------------------------------- storing

// batch is how many rows one INSERT carries (5 parameters each, well under both engines' limits).
const batch = 400

// Store writes rates idempotently: a row already held with the same value is left alone, a
// changed value is overwritten. It returns how many rows were written or changed.
func (s *Service) Store(ctx context.Context, rates []Rate) (int, error) {
	if len(rates) == 0 {
		return 0, nil
	}
	now := s.Now().UTC()
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return 0, fmt.Errorf("fx: store: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it does nothing
	written := 0
	for start := 0; start < len(rates); start += batch {
		part := rates[start:min(start+batch, len(rates))]
		var q strings.Builder
		q.WriteString(`INSERT INTO fx_rates (date, currency, source, rate, loaded_at) VALUES `)
		args := make([]any, 0, len(part)*5)
		for i, r := range part {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(?, ?, ?, ?, ?)")
			args = append(args, r.Date, r.Currency, r.Source, r.PerEUR.String(), now)
		}
		q.WriteString(` ON CONFLICT (date, currency, source) DO UPDATE SET rate = excluded.rate, loaded_at = excluded.loaded_at
			WHERE fx_rates.rate <> excluded.rate`)
		res, err := tx.Exec(ctx, q.String(), args...)
		if err != nil {
			return 0, fmt.Errorf("fx: store: %w", err)
		}
		n, _ := res.RowsAffected()
		written += int(n)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("fx: store: %w", err)
	}
	return written, nil
}

// LatestDate is the newest date held for a source, "" when none.
func (s *Service) LatestDate(ctx context.Context, source string) (string, error) {
	var d *string
	if err := s.db.QueryRow(ctx, `SELECT MAX(date) FROM fx_rates WHERE source = ?`, source).Scan(&d); err != nil {
		return "", fmt.Errorf("fx: latest date: %w", err)
	}
	if d == nil {
		return "", nil
	}
	return *d, nil
}

// Day is the rates of one source on one date, by currency.
type Day struct {
	Date   string
	Source string
	Rates  map[string]decimal.Decimal
}

// Since returns the rates dated on or after since ("" for all), by date then source.
func (s *Service) Since(ctx context.Context, since string) ([]Day, error) {
	return s.Query(ctx, Filter{Since: since})
}

// Filter narrows what Query returns.
type Filter struct {
	// Since: only the rates dated on or after it ("" for all), plus, with Anchor, the last rate
	// before it of each currency and source.
	Since string
	// Currencies: only these (none: every currency).
	Currencies []string
	// Anchor adds, for each currency and source, the newest rate dated before Since: a device that
	// converts a value dated on or after Since needs the rate "on or before" that date, which may be
	// older than Since (a weekend, a holiday, a currency published weekly).
	Anchor bool
}

// Query returns the rates f asks for, by date then source.
func (s *Service) Query(ctx context.Context, f Filter) ([]Day, error) {
	var where strings.Builder
	args := []any{}
	if len(f.Currencies) > 0 {
		where.WriteString(`currency IN (`)
		for i, c := range f.Currencies {
			if i > 0 {
				where.WriteString(", ")
			}
			where.WriteString("?")
			args = append(args, c)
		}
		where.WriteString(`) AND `)
	}
	if f.Anchor && f.Since != "" {
		where.WriteString(`(date >= ? OR date = (SELECT MAX(b.date) FROM fx_rates b
			WHERE b.currency = fx_rates.currency AND b.source = fx_rates.source AND b.date < ?))`)
		args = append(args, f.Since, f.Since)
	} else {
		where.WriteString(`date >= ?`)
		args = append(args, f.Since)
	}
	rows, err := s.db.Query(ctx, `SELECT date, source, currency, rate FROM fx_rates WHERE `+where.String()+` ORDER BY date, source, currency`, args...)
	if err != nil {
		return nil, fmt.Errorf("fx: read: %w", err)
	}
	defer rows.Close()
	out := []Day{}
	for rows.Next() {
		var date, source, currency, rate string
		if err := rows.Scan(&date, &source, &currency, &rate); err != nil {
			return nil, fmt.Errorf("fx: read: %w", err)
		}
		d, err := decimal.NewFromString(rate)
		if err != nil {
			return nil, fmt.Errorf("fx: read: %s %s %s: %w", date, currency, source, err)
		}
		if n := len(out); n == 0 || out[n-1].Date != date || out[n-1].Source != source {
			out = append(out, Day{Date: date, Source: source, Rates: map[string]decimal.Decimal{}})
		}
		out[len(out)-1].Rates[currency] = d
	}
	return out, rows.Err()
}

// ---------------------------------------------------------------- loading

// ErrUnreachable wraps a failure to get a document from a source (network, HTTP status).
var ErrUnreachable = errors.New("fx: source unreachable")

func (s *Service) get(ctx context.Context, url string) (io.ReadCloser, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrUnreachable, url, err)
	}
	req.Header.Set("User-Agent", "Patrimonio (exchange rates)")
	res, err := s.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
	if res.StatusCode != http.StatusOK {
		res.Body.Close()
		return nil, fmt.Errorf("%w: %s: HTTP %d", ErrUnreachable, url, res.StatusCode)
	}
	return struct {
		io.Reader
		io.Closer
	}{io.LimitReader(res.Body, maxBody), res.Body}, nil
}

// Result says what one load did.
type Result struct {
	Source  string
	URL     string
	Read    int    // rates in the document
	Skipped int    // rows refused (bad date, code or rate)
	Written int    // rows new or changed
	Latest  string // the newest date in the document
}

func latestOf(rates []Rate) string {
	latest := ""
	for _, r := range rates {
		if r.Date > latest {
			latest = r.Date
		}
	}
	return latest
}

// LoadECB fetches one ECB file and stores its rates.
func (s *Service) LoadECB(ctx context.Context, url string) (Result, error) {
	res := Result{Source: SourceECB, URL: url}
	body, err := s.get(ctx, url)
	if err != nil {
		return res, err
	}
	defer body.Close()
	rates, skipped, err := ParseECB(body)
	if err != nil {
		return res, err
	}
	res.Read, res.Skipped, res.Latest = len(rates), skipped, latestOf(rates)
	res.Written, err = s.Store(ctx, rates)
	return res, err
}

// historyGap is how far behind the daily file may be before the 90-day file is loaded instead,
// and ninetyDays how far before the full history is.
const (
	historyGap = 4 * 24 * time.Hour
	ninetyDays = 85 * 24 * time.Hour
)

// UpdateECB brings the ECB rates up to date with the smallest file that covers the gap: the full
// history when nothing is held or the newest rate is older than the 90-day file reaches, the
// 90-day file after a few days without a load, otherwise the daily file.
func (s *Service) UpdateECB(ctx context.Context) (Result, error) {
	latest, err := s.LatestDate(ctx, SourceECB)
	if err != nil {
		return Result{Source: SourceECB}, err
	}
	url := s.cfg.ECBDailyURL
	if latest == "" {
		url = s.cfg.ECBHistoryURL
	} else if t, err := time.Parse(time.DateOnly, latest); err == nil {
		switch behind := s.Now().Sub(t); {
		case behind > ninetyDays:
			url = s.cfg.ECBHistoryURL
		case behind > historyGap:
			url = s.cfg.ECB90DayURL
		}
	}
	return s.LoadECB(ctx, url)
}

// UpdateExtra loads the second source from the day after its newest rate (a year back the first
// time) to today, as one time series. It does nothing when no URL is configured.
func (s *Service) UpdateExtra(ctx context.Context) (Result, error) {
	res := Result{Source: SourceExtra}
	if s.cfg.ExtraURL == "" {
		return res, nil
	}
	latest, err := s.LatestDate(ctx, SourceExtra)
	if err != nil {
		return res, err
	}
	today := s.Now().UTC().Format(time.DateOnly)
	from := s.Now().UTC().AddDate(-1, 0, 0).Format(time.DateOnly)
	if latest != "" {
		t, _ := time.Parse(time.DateOnly, latest)
		from = t.AddDate(0, 0, 1).Format(time.DateOnly)
	}
	if from > today {
		from = today
	}
	var codes []string
	for _, c := range strings.Split(s.cfg.ExtraCurrencies, ",") {
		if c = strings.ToUpper(strings.TrimSpace(c)); currencyCode.MatchString(c) && c != "EUR" {
			codes = append(codes, c)
		}
	}
	sort.Strings(codes)
	res.URL = fmt.Sprintf("%s/%s..%s?from=EUR&to=%s", s.cfg.ExtraURL, from, today, strings.Join(codes, ","))
	body, err := s.get(ctx, res.URL)
	if err != nil {
		return res, err
	}
	defer body.Close()
	rates, skipped, err := ParseFrankfurter(body, SourceExtra)
	if err != nil {
		return res, err
	}
	res.Read, res.Skipped, res.Latest = len(rates), skipped, latestOf(rates)
	res.Written, err = s.Store(ctx, rates)
	return res, err
}

// Update runs both loads, logging what each did; it returns the ECB's error (the second source's
// is logged only), so that the scheduler retries until the ECB's rates are in.
func (s *Service) Update(ctx context.Context) error {
	res, ecbErr := s.UpdateECB(ctx)
	if ecbErr != nil {
		s.logger.WarnContext(ctx, "exchange rates: the ECB could not be loaded; the server carries on with the rates it has", "url", res.URL, "err", ecbErr)
	} else {
		s.logger.InfoContext(ctx, "exchange rates loaded", "source", res.Source, "url", res.URL, "rates", res.Read, "written", res.Written, "skipped", res.Skipped, "latest", res.Latest)
	}
	if s.cfg.ExtraURL != "" {
		res, err := s.UpdateExtra(ctx)
		if err != nil {
			s.logger.WarnContext(ctx, "exchange rates: the second source could not be loaded", "url", res.URL, "err", err)
		} else {
			s.logger.InfoContext(ctx, "exchange rates loaded", "source", res.Source, "rates", res.Read, "written", res.Written, "skipped", res.Skipped, "latest", res.Latest)
		}
	}
	return ecbErr
}
