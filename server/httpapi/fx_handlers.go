package httpapi

// The exchange rates (server/fx): GET /fx-rates?since=YYYY-MM-DD for every signed-in user, the
// rates the server loaded from the ECB and its second source, grouped by day and source, rates as
// exact decimal strings (units per 1 EUR). Devices keep them in their database and ask for what is
// newer than the last date they hold. Answered with an ETag (If-None-Match → 304) and gzip.
// Also a workspace's base currency (GET/PUT /workspaces/{id}/base-currency, server/fx/settings.go).

import (
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"patrimonio/core"
	"patrimonio/server/authz"
	"patrimonio/server/fx"
	schema "patrimonio/shared-schema"
)

// currencyCode is one ISO 4217 code of the currencies parameter.
var currencyCode = regexp.MustCompile(`^[A-Z]{3}$`)

// fxDayJSON is one day of one source: currency → units per 1 EUR.
type fxDayJSON struct {
	Date   string            `json:"date"`
	Source string            `json:"source"`
	Rates  map[string]string `json:"rates"`
}

// fxRatesJSON is the answer: the days from since on, oldest first, and the newest date of all.
type fxRatesJSON struct {
	Latest string      `json:"latest,omitempty"`
	Days   []fxDayJSON `json:"days"`
}

// GET /api/v1/fx-rates?since=YYYY-MM-DD&currencies=USD,GBP → the rates dated on or after since
// (all without it); with currencies, only theirs, and also each one's last rate before since (a
// device converts "on or before" a date: it needs that rate, not the whole history before it).
func (a *api) listFXRates(w http.ResponseWriter, r *http.Request) {
	if a.fx == nil {
		a.notFound(w, r)
		return
	}
	since := r.URL.Query().Get("since")
	if since != "" {
		if t, err := time.Parse(time.DateOnly, since); err != nil || t.Format(time.DateOnly) != since {
			a.writeError(w, r, core.Refuse(r.Context(), core.EINVALID, "http.fx.since"))
			return
		}
	}
	filter := fx.Filter{Since: since}
	if list := r.URL.Query().Get("currencies"); list != "" {
		for _, c := range strings.Split(list, ",") {
			if !currencyCode.MatchString(c) {
				a.writeError(w, r, core.Refuse(r.Context(), core.EINVALID, "http.fx.currencies"))
				return
			}
			filter.Currencies = append(filter.Currencies, c)
		}
		filter.Anchor = true
	}
	days, err := a.fx.Query(r.Context(), filter)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	out := fxRatesJSON{Days: make([]fxDayJSON, 0, len(days))}
	for _, d := range days {
		rates := make(map[string]string, len(d.Rates))
		for c, v := range d.Rates {
			rates[c] = v.String()
		}
		out.Days = append(out.Days, fxDayJSON{Date: d.Date, Source: d.Source, Rates: rates})
		if d.Date > out.Latest {
			out.Latest = d.Date
		}
	}
	writeCached(w, r, out)
}

// baseCurrencyJSON is a workspace's base currency; updatedAt is absent while it is the default.
type baseCurrencyJSON struct {
	BaseCurrency string     `json:"baseCurrency"`
	UpdatedAt    *time.Time `json:"updatedAt,omitempty"`
}

func toBaseCurrencyJSON(b fx.BaseCurrency) baseCurrencyJSON {
	out := baseCurrencyJSON{BaseCurrency: b.Code}
	if !b.UpdatedAt.IsZero() {
		out.UpdatedAt = &b.UpdatedAt
	}
	return out
}

// GET /api/v1/workspaces/{id}/base-currency → {baseCurrency, updatedAt?} (every member; EUR
// until chosen).
func (a *api) getBaseCurrency(w http.ResponseWriter, r *http.Request) {
	if a.fx == nil || a.workspaces == nil {
		a.notFound(w, r)
		return
	}
	id := chi.URLParam(r, "id")
	if err := a.workspaces.Can(r.Context(), callerID(r), id, authz.RecordRead); err != nil {
		a.writeError(w, r, err)
		return
	}
	b, err := a.fx.BaseCurrencyOf(r.Context(), id)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, toBaseCurrencyJSON(b))
}

// PUT /api/v1/workspaces/{id}/base-currency {baseCurrency} → {baseCurrency, updatedAt} (owners
// and editors; viewers are refused like any change to the workspace's records).
func (a *api) putBaseCurrency(w http.ResponseWriter, r *http.Request) {
	if a.fx == nil || a.workspaces == nil {
		a.notFound(w, r)
		return
	}
	var req struct {
		BaseCurrency string `json:"baseCurrency"`
	}
	if err := decodeJSON(w, r, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	// One of the currencies the app offers (shared-schema's ISO list), not any three letters: a base
	// such as "ABC" has no rate, and every amount of the dashboard would read "missing rate".
	if !schema.IsCurrencyCode(req.BaseCurrency) {
		a.writeError(w, r, core.Refuse(r.Context(), core.EINVALID, "http.fx.baseCurrency"))
		return
	}
	id := chi.URLParam(r, "id")
	if err := a.workspaces.Can(r.Context(), callerID(r), id, authz.RecordWrite); err != nil {
		a.writeError(w, r, err)
		return
	}
	b, err := a.fx.SetBaseCurrency(r.Context(), id, callerID(r), req.BaseCurrency)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toBaseCurrencyJSON(b))
}
