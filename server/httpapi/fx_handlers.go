package httpapi

// The exchange rates (server/fx): GET /fx-rates?since=YYYY-MM-DD for every signed-in user, the
// rates the server loaded from the ECB and its second source, grouped by day and source, rates as
// exact decimal strings (units per 1 EUR). Devices keep them in their database and ask for what is
// newer than the last date they hold. Answered with an ETag (If-None-Match → 304) and gzip.

import (
	"net/http"
	"time"

	"patrimonio/server"
)

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

// GET /api/v1/fx-rates?since=YYYY-MM-DD → the rates dated on or after since (all without it).
func (a *api) listFXRates(w http.ResponseWriter, r *http.Request) {
	if a.fx == nil {
		a.notFound(w, r)
		return
	}
	since := r.URL.Query().Get("since")
	if since != "" {
		if t, err := time.Parse(time.DateOnly, since); err != nil || t.Format(time.DateOnly) != since {
			a.writeError(w, r, server.Errorf(server.EINVALID, "%s", requestText(r.Context(), "fx.since")))
			return
		}
	}
	days, err := a.fx.Since(r.Context(), since)
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
