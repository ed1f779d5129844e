package httpapi

import (
	"context"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"patrimonio/server/admin"
	"patrimonio/server/fx"
)

// withFX gives the fixture's handler an exchange-rate service holding a few rates (stored
// directly: loading them from the ECB's files is server/fx's test).
func withFX(t *testing.T, f *teamFixture) {
	t.Helper()
	svc := fx.NewService(f.db, fx.Config{}, nil, nil)
	svc.Now = f.clock
	rate := func(date, currency, value, source string) fx.Rate {
		return fx.Rate{Date: date, Currency: currency, PerEUR: decimal.RequireFromString(value), Source: source}
	}
	if _, err := svc.Store(context.Background(), []fx.Rate{
		rate("2023-12-29", "USD", "1.1050", fx.SourceECB),
		rate("2024-01-02", "USD", "1.0956", fx.SourceECB),
		rate("2024-01-02", "JPY", "155.52", fx.SourceECB),
		rate("2024-01-02", "ARS", "885.123456789", fx.SourceExtra),
		rate("2024-01-03", "USD", "1.0919", fx.SourceECB),
	}); err != nil {
		t.Fatal(err)
	}
	f.api = newAPI(f.cfg, Deps{DB: f.db, Accounts: f.accounts, Workspaces: f.api.workspaces, Admin: admin.NewService(f.db, f.cfg.AdminEmailList()), FX: svc})
}

func TestSignedInUsersReadExchangeRatesSinceADate(t *testing.T) {
	eachTeamFixture(t, func(t *testing.T, f *teamFixture) {
		withFX(t, f)
		user := f.signUp("ana@example.com")
		route := "/api/v1/fx-rates"
		f.expect(f.call(person{}, "GET", route, nil), "GET", route, 401, nil)

		var all fxRatesJSON
		rec := f.call(user, "GET", route, nil)
		f.expect(rec, "GET", route, 200, &all)
		if all.Latest != "2024-01-03" || len(all.Days) != 4 {
			t.Fatalf("all: %+v", all)
		}
		// Oldest first, one entry per day and source, rates as exact decimal strings.
		want := []string{"2023-12-29 ecb", "2024-01-02 ecb", "2024-01-02 frankfurter", "2024-01-03 ecb"}
		for i, d := range all.Days {
			if got := d.Date + " " + d.Source; got != want[i] {
				t.Errorf("day %d: %s, want %s", i, got, want[i])
			}
		}
		if all.Days[1].Rates["JPY"] != "155.52" || all.Days[2].Rates["ARS"] != "885.123456789" || all.Days[0].Rates["USD"] != "1.105" {
			t.Errorf("rates %+v", all.Days)
		}
		if !strings.Contains(rec.Body.String(), `"rates":{"ARS":"885.123456789"}`) {
			t.Errorf("not compact: %s", rec.Body)
		}

		var since fxRatesJSON
		f.expect(f.call(user, "GET", route+"?since=2024-01-03", nil), "GET", route, 200, &since)
		if len(since.Days) != 1 || since.Days[0].Rates["USD"] != "1.0919" {
			t.Fatalf("since: %+v", since)
		}
		var none fxRatesJSON
		rec = f.call(user, "GET", route+"?since=2030-01-01", nil)
		f.expect(rec, "GET", route, 200, &none)
		if len(none.Days) != 0 || none.Latest != "" || !strings.Contains(rec.Body.String(), `"days":[]`) {
			t.Fatalf("none: %s", rec.Body)
		}

		// The ETag: 304 while nothing changed, 200 once a rate is added.
		etag := f.call(user, "GET", route+"?since=2024-01-02", nil).Header().Get("ETag")
		f.expect(f.getWith(user, route+"?since=2024-01-02", "If-None-Match", etag), "GET", route, 304, nil)
		if _, err := f.api.fx.Store(context.Background(), []fx.Rate{{Date: "2024-01-04", Currency: "USD", PerEUR: decimal.RequireFromString("1.09"), Source: fx.SourceECB}}); err != nil {
			t.Fatal(err)
		}
		f.expect(f.getWith(user, route+"?since=2024-01-02", "If-None-Match", etag), "GET", route, 200, nil)

		// A since that is not a date is refused, in the reader's language.
		for _, bad := range []string{"2024-02-30", "yesterday", "2024-1-2"} {
			rec := f.call(user, "GET", route+"?since="+bad, nil)
			f.expect(rec, "GET", route, 400, nil)
			if !strings.Contains(rec.Body.String(), "must be a date YYYY-MM-DD") {
				t.Errorf("%s: %s", bad, rec.Body)
			}
		}
		if rec := f.call(user, "GET", route+"?since=x", nil, "es"); !strings.Contains(rec.Body.String(), "debe ser una fecha AAAA-MM-DD") {
			t.Errorf("Spanish: %s", rec.Body)
		}
	})
}

// ?currencies= narrows the answer to those currencies, and with since adds each one's last rate
// before since (the rate "on or before" the first date the device needs); a bad code is refused.
func TestExchangeRatesOfSomeCurrenciesFromADate(t *testing.T) {
	eachTeamFixture(t, func(t *testing.T, f *teamFixture) {
		withFX(t, f)
		user := f.signUp("ana@example.com")
		route := "/api/v1/fx-rates"
		var got fxRatesJSON
		f.expect(f.call(user, "GET", route+"?currencies=USD&since=2024-01-01", nil), "GET", route, 200, &got)
		var days []string
		for _, d := range got.Days {
			for c, r := range d.Rates {
				days = append(days, d.Date+" "+c+" "+r)
			}
		}
		if strings.Join(days, ", ") != "2023-12-29 USD 1.105, 2024-01-02 USD 1.0956, 2024-01-03 USD 1.0919" || got.Latest != "2024-01-03" {
			t.Fatalf("USD from 2024-01-01: %v (latest %s)", days, got.Latest)
		}
		f.expect(f.call(user, "GET", route+"?currencies=ARS,JPY", nil), "GET", route, 200, &got)
		if len(got.Days) != 2 || got.Days[0].Rates["JPY"] != "155.52" || got.Days[1].Rates["ARS"] != "885.123456789" {
			t.Fatalf("ARS,JPY: %+v", got.Days)
		}
		f.expect(f.call(user, "GET", route+"?currencies=usd", nil), "GET", route, 400, nil)
	})
}

// The base currency of a workspace: EUR until chosen; owners and editors choose it, a viewer
// reads it and is refused a change, a stranger gets nothing; a code not in the ISO list is refused.
func TestTheWorkspaceBaseCurrency(t *testing.T) {
	eachTeamFixture(t, func(t *testing.T, f *teamFixture) {
		withFX(t, f)
		ana, vic, eve := f.signUp("ana@example.com"), f.signUp("vic@example.com"), f.signUp("eve@example.com")
		var list []workspaceJSON
		f.expect(f.call(ana, "GET", "/api/v1/workspaces", nil), "GET", "/api/v1/workspaces", 200, &list)
		ws := list[0].ID
		if _, err := f.db.Exec(context.Background(), `INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES (?, ?, 'viewer', ?)`, ws, vic.id, f.clock()); err != nil {
			t.Fatal(err)
		}
		route := "/api/v1/workspaces/{id}/base-currency"
		path := "/api/v1/workspaces/" + ws + "/base-currency"
		var got baseCurrencyJSON
		f.expect(f.call(ana, "GET", path, nil), "GET", route, 200, &got)
		if got.BaseCurrency != "EUR" || got.UpdatedAt != nil {
			t.Fatalf("default %+v", got)
		}
		f.expect(f.call(ana, "PUT", path, map[string]string{"baseCurrency": "USD"}), "PUT", route, 200, &got)
		if got.BaseCurrency != "USD" || got.UpdatedAt == nil {
			t.Fatalf("chosen %+v", got)
		}
		f.expect(f.call(vic, "GET", path, nil), "GET", route, 200, &got)
		if got.BaseCurrency != "USD" {
			t.Fatalf("viewer reads %+v", got)
		}
		f.expect(f.call(vic, "PUT", path, map[string]string{"baseCurrency": "GBP"}), "PUT", route, 403, nil)
		if rec := f.call(eve, "GET", path, nil); rec.Code != 403 && rec.Code != 404 {
			t.Fatalf("stranger: %d %s", rec.Code, rec.Body)
		}
		f.expect(f.call(ana, "PUT", path, map[string]string{"baseCurrency": "dollars"}), "PUT", route, 400, nil)
		// Three capital letters are not enough: the code must be one of the ISO list the app offers
		// (XXX, "no currency", is not in it).
		for _, code := range []string{"ABC", "XXX"} {
			f.expect(f.call(ana, "PUT", path, map[string]string{"baseCurrency": code}), "PUT", route, 400, nil)
		}
		f.expect(f.call(ana, "PUT", path, map[string]any{"baseCurrency": "GBP", "other": 1}), "PUT", route, 400, nil)
		f.expect(f.call(ana, "GET", path, nil), "GET", route, 200, &got)
		if got.BaseCurrency != "USD" {
			t.Fatalf("after refusals %+v", got)
		}
	})
}
