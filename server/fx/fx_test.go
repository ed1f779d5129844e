package fx_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"patrimonio/internal/pgtest"
	"patrimonio/internal/testkit"
	"patrimonio/server/fx"
	"patrimonio/server/store"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

var ctx = context.Background()

// source is an httptest server that serves the files of testdata/ (in the ECB's real XML format
// and the Frankfurter format) and records the requests it gets. Files can be replaced or removed
// while it runs.
type source struct {
	*httptest.Server
	mu       sync.Mutex
	files    map[string][]byte
	requests []string
}

func newSource(t *testing.T) *source {
	t.Helper()
	s := &source{files: map[string][]byte{}}
	for _, name := range []string{"eurofxref-daily.xml", "eurofxref-hist-90d.xml", "eurofxref-hist.xml", "frankfurter-series.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		s.files[name] = b
	}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.requests = append(s.requests, r.URL.RequestURI())
		name := strings.TrimPrefix(r.URL.Path, "/")
		if strings.HasPrefix(name, "frankfurter/") {
			name = "frankfurter-series.json"
		}
		b, ok := s.files[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(b)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *source) set(name string, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if body == nil {
		delete(s.files, name)
	} else {
		s.files[name] = body
	}
}

func (s *source) taken() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.requests
	s.requests = nil
	return out
}

func (s *source) config(extra bool) fx.Config {
	c := fx.Config{
		ECBDailyURL:   s.URL + "/eurofxref-daily.xml",
		ECB90DayURL:   s.URL + "/eurofxref-hist-90d.xml",
		ECBHistoryURL: s.URL + "/eurofxref-hist.xml",
	}
	if extra {
		c.ExtraURL = s.URL + "/frankfurter/"
		c.ExtraCurrencies = "uyu, ARS,CLP,COP,PEN,EUR,nonsense"
	}
	return c
}

// eachDialect runs f on a fresh database of each dialect.
func eachDialect(t *testing.T, f func(t *testing.T, db *store.DB)) { testkit.Stores(t, f) }

func at(day string) func() time.Time {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		panic(err)
	}
	t = t.Add(17 * time.Hour)
	return func() time.Time { return t }
}

// rateOn reads one stored rate ("" when absent).
func rateOn(t *testing.T, s *fx.Service, date, currency, source string) string {
	t.Helper()
	days, err := s.Since(ctx, date)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range days {
		if d.Date == date && d.Source == source {
			if r, ok := d.Rates[currency]; ok {
				return r.String()
			}
		}
	}
	return ""
}

func TestParseECB(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "eurofxref-hist.xml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rates, skipped, err := fx.ParseECB(f)
	if err != nil || skipped != 0 {
		t.Fatalf("ParseECB: %v, %d skipped", err, skipped)
	}
	// 7 days × 4 currencies + HRK on the 5 days of 2022.
	if len(rates) != 33 {
		t.Fatalf("%d rates, want 33", len(rates))
	}
	first := rates[0]
	if first.Date != "2023-01-03" || first.Currency != "USD" || first.PerEUR.String() != "1.0545" || first.Source != fx.SourceECB {
		t.Fatalf("first rate %+v", first)
	}

	// Rows the ECB marks as not available, and nonsense, are skipped; the rest is kept.
	doc := `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
<Cube><Cube time="2023-01-02"><Cube currency="USD" rate="1.0683"/><Cube currency="CYP" rate="N/A"/><Cube currency="XX" rate="1"/>
<Cube currency="EUR" rate="1"/><Cube currency="JPY" rate="0"/><Cube currency="GBP" rate="-1"/></Cube>
<Cube time="2023-02-30"><Cube currency="USD" rate="1.1"/></Cube></Cube></gesmes:Envelope>`
	rates, skipped, err = fx.ParseECB(strings.NewReader(doc))
	if err != nil || len(rates) != 1 || skipped != 6 {
		t.Fatalf("got %v, %d skipped, %v", rates, skipped, err)
	}

	// What is not the ECB's XML is an error, not zero rates.
	for _, bad := range []string{`<html><body>Service unavailable</body></html>`, `<gesmes:Envelope xmlns:gesmes="x"><Cube><Cube time="2023-01-02"><Cube currency="USD" rate="1.0`, ``,
		`<gesmes:Envelope xmlns:gesmes="x"><Cube></Cube></gesmes:Envelope>`} {
		if _, _, err := fx.ParseECB(strings.NewReader(bad)); err == nil {
			t.Errorf("no error for %q", bad)
		}
	}
}

func TestParseFrankfurter(t *testing.T) {
	one := `{"amount":1.0,"base":"EUR","date":"2024-01-02","rates":{"ARS":885.123456789012345678,"USD":1.0956}}`
	rates, skipped, err := fx.ParseFrankfurter(strings.NewReader(one), fx.SourceExtra)
	if err != nil || skipped != 0 || len(rates) != 2 {
		t.Fatalf("got %v %d %v", rates, skipped, err)
	}
	for _, r := range rates {
		// Read as an exact decimal: no float on the way.
		if r.Currency == "ARS" && r.PerEUR.String() != "885.123456789012345678" {
			t.Errorf("ARS %s", r.PerEUR)
		}
	}
	for _, bad := range []string{`{"amount":1,"base":"USD","date":"2024-01-02","rates":{"ARS":1}}`, `{"amount":10,"base":"EUR","date":"2024-01-02","rates":{"ARS":1}}`, `not json`, `{"base":"EUR","rates":{}}`} {
		if _, _, err := fx.ParseFrankfurter(strings.NewReader(bad), fx.SourceExtra); err == nil {
			t.Errorf("no error for %s", bad)
		}
	}
}

func TestLoadsTheHistoryFirstThenWhatIsMissing(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *store.DB) {
		src := newSource(t)
		s := fx.NewService(db, src.config(false), src.Client(), nil)

		// Nothing held: the full history.
		s.Now = at("2023-01-03")
		res, err := s.UpdateECB(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got := src.taken(); len(got) != 1 || got[0] != "/eurofxref-hist.xml" {
			t.Fatalf("requested %v", got)
		}
		if res.Read != 33 || res.Written != 33 || res.Latest != "2023-01-03" {
			t.Fatalf("result %+v", res)
		}

		// The same file again writes nothing (idempotent); a corrected value is overwritten.
		if res, err := s.LoadECB(ctx, src.URL+"/eurofxref-hist.xml"); err != nil || res.Written != 0 {
			t.Fatalf("again: %+v %v", res, err)
		}
		hist, _ := os.ReadFile(filepath.Join("testdata", "eurofxref-hist.xml"))
		src.set("eurofxref-hist.xml", []byte(strings.Replace(string(hist), "rate='140.09'", "rate='140.0900'", 1)))
		if res, err := s.LoadECB(ctx, src.URL+"/eurofxref-hist.xml"); err != nil || res.Written != 0 {
			t.Fatalf("same value written differently: %+v %v", res, err)
		}
		src.set("eurofxref-hist.xml", []byte(strings.Replace(string(hist), "rate='140.09'", "rate='140.19'", 1)))
		if res, err := s.LoadECB(ctx, src.URL+"/eurofxref-hist.xml"); err != nil || res.Written != 1 {
			t.Fatalf("corrected: %+v %v", res, err)
		}
		if got := rateOn(t, s, "2023-01-02", "JPY", fx.SourceECB); got != "140.19" {
			t.Fatalf("JPY on 2 Jan: %s", got)
		}
		src.taken()

		// The next day: the daily file.
		s.Now = at("2023-01-05")
		if res, err := s.UpdateECB(ctx); err != nil || res.Latest != "2023-01-05" || res.Written != 4 {
			t.Fatalf("daily: %+v %v", res, err)
		}
		if got := src.taken(); len(got) != 1 || got[0] != "/eurofxref-daily.xml" {
			t.Fatalf("requested %v", got)
		}

		// A week without loads: the 90-day file fills the gap (the 4 rates of 4 January) and
		// puts back the JPY rate of 2 January its history has (the corrected one above).
		s.Now = at("2023-01-12")
		if res, err := s.UpdateECB(ctx); err != nil || res.Written != 5 {
			t.Fatalf("90 days: %+v %v", res, err)
		}
		if got := src.taken(); len(got) != 1 || got[0] != "/eurofxref-hist-90d.xml" {
			t.Fatalf("requested %v", got)
		}

		// Half a year later: the full history again.
		s.Now = at("2023-07-01")
		if _, err := s.UpdateECB(ctx); err != nil {
			t.Fatal(err)
		}
		if got := src.taken(); len(got) != 1 || got[0] != "/eurofxref-hist.xml" {
			t.Fatalf("requested %v", got)
		}

		// The holiday gap stays a gap and the currency that disappeared stops at its last day.
		days, err := s.Since(ctx, "2022-12-23")
		if err != nil {
			t.Fatal(err)
		}
		var dates []string
		lastHRK := ""
		for _, d := range days {
			dates = append(dates, d.Date)
			if _, ok := d.Rates["HRK"]; ok {
				lastHRK = d.Date
			}
		}
		want := "2022-12-23 2022-12-27 2022-12-28 2022-12-29 2022-12-30 2023-01-02 2023-01-03 2023-01-04 2023-01-05"
		if strings.Join(dates, " ") != want {
			t.Fatalf("dates %v", dates)
		}
		if lastHRK != "2022-12-30" {
			t.Fatalf("HRK last on %s", lastHRK)
		}
		if latest, err := s.LatestDate(ctx, fx.SourceECB); err != nil || latest != "2023-01-05" {
			t.Fatalf("latest %q %v", latest, err)
		}
		if days, err := s.Since(ctx, "2023-01-05"); err != nil || len(days) != 1 || days[0].Rates["GBP"].String() != "0.8837" {
			t.Fatalf("since: %+v %v", days, err)
		}
	})
}

func TestTheSecondSourceInTheFrankfurterFormat(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *store.DB) {
		src := newSource(t)
		s := fx.NewService(db, src.config(true), src.Client(), nil)
		s.Now = at("2023-01-04")
		res, err := s.UpdateExtra(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// A year back the first time, the configured codes sorted, EUR and nonsense left out.
		if got := src.taken(); len(got) != 1 || got[0] != "/frankfurter/2022-01-04..2023-01-04?from=EUR&to=ARS,CLP,COP,PEN,UYU" {
			t.Fatalf("requested %v", got)
		}
		if res.Read != 15 || res.Written != 15 || res.Latest != "2023-01-04" {
			t.Fatalf("result %+v", res)
		}
		if got := rateOn(t, s, "2023-01-04", "ARS", fx.SourceExtra); got != "188.9521" {
			t.Fatalf("ARS %s", got)
		}
		// Then from the day after the newest rate held.
		s.Now = at("2023-01-09")
		if _, err := s.UpdateExtra(ctx); err != nil {
			t.Fatal(err)
		}
		if got := src.taken(); len(got) != 1 || !strings.HasPrefix(got[0], "/frankfurter/2023-01-05..2023-01-09?") {
			t.Fatalf("requested %v", got)
		}
		// Without a URL the second source is off.
		off := fx.NewService(db, src.config(false), src.Client(), nil)
		if res, err := off.UpdateExtra(ctx); err != nil || res.Read != 0 || len(src.taken()) != 0 {
			t.Fatalf("off: %+v %v", res, err)
		}
	})
}

func TestAnUnreachableSourceIsReportedAndChangesNothing(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *store.DB) {
		src := newSource(t)
		cfg := src.config(true)
		s := fx.NewService(db, cfg, src.Client(), nil)
		s.Now = at("2023-01-03")

		// A 404 (a moved URL) and an HTML error page.
		src.set("eurofxref-hist.xml", nil)
		if _, err := s.UpdateECB(ctx); !errors.Is(err, fx.ErrUnreachable) {
			t.Fatalf("404: %v", err)
		}
		src.set("eurofxref-hist.xml", []byte("<html><body>Maintenance</body></html>"))
		if _, err := s.UpdateECB(ctx); err == nil {
			t.Fatal("an HTML page was accepted")
		}
		// A closed server (no network).
		closed := httptest.NewServer(http.NotFoundHandler())
		closed.Close()
		cfg.ECBHistoryURL, cfg.ExtraURL = closed.URL+"/eurofxref-hist.xml", closed.URL
		s = fx.NewService(db, cfg, nil, nil)
		s.Now = at("2023-01-03")
		if err := s.Update(ctx); !errors.Is(err, fx.ErrUnreachable) {
			t.Fatalf("closed: %v", err)
		}
		if days, err := s.Since(ctx, ""); err != nil || len(days) != 0 {
			t.Fatalf("stored %v %v", days, err)
		}
	})
}

func TestRunLoadsAtStartAndStopsWithItsContext(t *testing.T) {
	db, err := store.Open(ctx, store.SQLite, filepath.Join(t.TempDir(), "p.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	src := newSource(t)
	s := fx.NewService(db, src.config(false), src.Client(), nil)
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { s.Run(runCtx); close(done) }()
	// Wait for the load at start (it fetches the history: nothing is held).
	for {
		if latest, _ := s.LatestDate(ctx, fx.SourceECB); latest != "" {
			break
		}
		select {
		case <-done:
			t.Fatal("Run returned before loading")
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	<-done
}

func TestNextSlot(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ now, want string }{
		{"2024-01-10 10:00", "2024-01-10 16:30"}, // Wednesday morning: today
		{"2024-01-10 16:30", "2024-01-11 16:30"}, // at the slot: the next one
		{"2024-01-12 17:00", "2024-01-15 16:30"}, // Friday evening: Monday
		{"2024-01-13 09:00", "2024-01-15 16:30"}, // Saturday: Monday
		{"2024-03-29 18:00", "2024-04-01 16:30"}, // across the change to summer time (31 March)
	}
	for _, tt := range tests {
		now, _ := time.ParseInLocation("2006-01-02 15:04", tt.now, berlin)
		got := fx.NextSlot(now.UTC()).In(berlin).Format("2006-01-02 15:04")
		if got != tt.want {
			t.Errorf("NextSlot(%s) = %s, want %s", tt.now, got, tt.want)
		}
	}
}

// A device asks only for its currencies, and from a date on: with Anchor it also gets, per
// currency and source, the last rate before that date (what "the rate on or before" needs for a
// value dated on a holiday), and nothing else from before it.
func TestQueryByCurrenciesWithTheRateBeforeTheDate(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *store.DB) {
		src := newSource(t)
		s := fx.NewService(db, src.config(false), src.Client(), nil)
		if _, err := s.LoadECB(ctx, src.URL+"/eurofxref-hist.xml"); err != nil {
			t.Fatal(err)
		}
		summary := func(days []fx.Day) string {
			var parts []string
			for _, d := range days {
				var cs []string
				for c, r := range d.Rates {
					cs = append(cs, c+"="+r.String())
				}
				sort.Strings(cs)
				parts = append(parts, d.Date+":"+strings.Join(cs, ","))
			}
			return strings.Join(parts, " ")
		}
		// 2022-12-31 and 2023-01-01 are not published (the holiday gap): the anchor is 2022-12-30.
		days, err := s.Query(ctx, fx.Filter{Since: "2023-01-01", Currencies: []string{"USD", "HRK"}, Anchor: true})
		if err != nil {
			t.Fatal(err)
		}
		want := "2022-12-30:HRK=7.5365,USD=1.0666 2023-01-02:USD=1.0683 2023-01-03:USD=1.0545"
		if got := summary(days); !strings.HasPrefix(got, want) || strings.Contains(got, "GBP") || strings.Contains(got, "2022-12-29") {
			t.Fatalf("anchored: %s", got)
		}
		// Without the anchor: only from the date on.
		days, err = s.Query(ctx, fx.Filter{Since: "2023-01-01", Currencies: []string{"USD"}})
		if err != nil {
			t.Fatal(err)
		}
		if got := summary(days); !strings.HasPrefix(got, "2023-01-02:USD=1.0683") {
			t.Fatalf("plain: %s", got)
		}
		// A currency that disappeared (HRK, last on 2022-12-30) keeps its last rate as the anchor of a later date.
		days, err = s.Query(ctx, fx.Filter{Since: "2023-06-01", Currencies: []string{"HRK"}, Anchor: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := summary(days); got != "2022-12-30:HRK=7.5365" {
			t.Fatalf("vanished currency: %s", got)
		}
		// Every currency without a filter, whole history without since.
		all, err := s.Query(ctx, fx.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(all) == 0 || !strings.Contains(summary(all), "GBP") {
			t.Fatalf("all: %d days", len(all))
		}
	})
}

// A workspace's base currency: EUR until chosen, then the chosen code (last writer wins), gone
// with the workspace; a code that is not in the ISO list the app offers is refused.
func TestTheBaseCurrencyOfAWorkspace(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *store.DB) {
		s := fx.NewService(db, fx.Config{}, nil, nil)
		s.Now = at("2025-03-10")
		now := s.Now()
		if _, err := db.Exec(ctx, `INSERT INTO users (id, email, onboarding_step, created_at, updated_at) VALUES (?, ?, 'done', ?, ?)`, "u1", "ana@example.com", now, now); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(ctx, `INSERT INTO workspaces (id, name, kind, created_at) VALUES (?, ?, 'team', ?)`, "w1", "Familia", now); err != nil {
			t.Fatal(err)
		}
		got, err := s.BaseCurrencyOf(ctx, "w1")
		if err != nil || got.Code != "EUR" || !got.UpdatedAt.IsZero() {
			t.Fatalf("default: %+v %v", got, err)
		}
		for _, code := range []string{"usd", "ABC", "XXX"} {
			if _, err := s.SetBaseCurrency(ctx, "w1", "u1", code); !errors.Is(err, fx.ErrInvalidCurrency) {
				t.Fatalf("%s: %v", code, err)
			}
		}
		for _, code := range []string{"USD", "GBP"} {
			if _, err := s.SetBaseCurrency(ctx, "w1", "u1", code); err != nil {
				t.Fatal(err)
			}
		}
		got, err = s.BaseCurrencyOf(ctx, "w1")
		if err != nil || got.Code != "GBP" || !got.UpdatedAt.Equal(now) {
			t.Fatalf("chosen: %+v %v", got, err)
		}
		if _, err := db.Exec(ctx, `DELETE FROM workspaces WHERE id = ?`, "w1"); err != nil {
			t.Fatal(err)
		}
		if got, err := s.BaseCurrencyOf(ctx, "w1"); err != nil || got.Code != "EUR" {
			t.Fatalf("after deletion: %+v %v", got, err)
		}
	})
}
