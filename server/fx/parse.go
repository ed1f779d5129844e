package fx

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Rate is one exchange rate: PerEUR units of Currency are worth 1 EUR on Date (YYYY-MM-DD).
type Rate struct {
	Date     string
	Currency string
	PerEUR   decimal.Decimal
	Source   string
}

var currencyCode = regexp.MustCompile(`^[A-Z]{3}$`)

// validDate reports whether s is a real calendar day written YYYY-MM-DD.
func validDate(s string) bool {
	t, err := time.Parse(time.DateOnly, s)
	return err == nil && t.Format(time.DateOnly) == s
}

// newRate checks one rate read from a source: a real date, a three-letter code other than EUR and
// a positive decimal. ok is false for anything else (the row is skipped, the file is not refused).
func newRate(date, currency, value, source string) (Rate, bool) {
	currency = strings.ToUpper(strings.TrimSpace(currency))
	if !validDate(date) || !currencyCode.MatchString(currency) || currency == "EUR" {
		return Rate{}, false
	}
	d, err := decimal.NewFromString(strings.TrimSpace(value))
	if err != nil || !d.IsPositive() {
		return Rate{}, false
	}
	return Rate{Date: date, Currency: currency, PerEUR: d, Source: source}, true
}

// ErrNoRates is returned for a document that parses but holds no usable rate.
var ErrNoRates = errors.New("fx: the document holds no rates")

// ParseECB reads the ECB's euro foreign exchange reference rates in their XML format (the daily
// file eurofxref-daily.xml, the 90-day eurofxref-hist-90d.xml and the full eurofxref-hist.xml
// share it):
//
//	<gesmes:Envelope ...><Cube><Cube time="2024-01-02"><Cube currency="USD" rate="1.0956"/>...
//
// Rows with a bad date, code or rate are skipped and counted; a document that is not that XML
// (an HTML error page, a truncated body) is an error.
func ParseECB(r io.Reader) (rates []Rate, skipped int, err error) {
	dec := xml.NewDecoder(r)
	var day string
	sawEnvelope := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, 0, fmt.Errorf("fx: ECB XML: %w", err)
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if el.Name.Local == "Envelope" {
			sawEnvelope = true
			continue
		}
		if el.Name.Local != "Cube" {
			continue
		}
		var currency, value, t string
		for _, a := range el.Attr {
			switch a.Name.Local {
			case "time":
				t = a.Value
			case "currency":
				currency = a.Value
			case "rate":
				value = a.Value
			}
		}
		switch {
		case t != "":
			day = t
		case currency != "":
			if rate, ok := newRate(day, currency, value, SourceECB); ok {
				rates = append(rates, rate)
			} else {
				skipped++
			}
		}
	}
	if !sawEnvelope {
		return nil, 0, errors.New("fx: not an ECB reference rates document (no gesmes:Envelope)")
	}
	if len(rates) == 0 {
		return nil, skipped, ErrNoRates
	}
	return rates, skipped, nil
}

// ParseFrankfurter reads an answer of an API in the Frankfurter format, either one day
// (/latest, /2024-01-02):
//
//	{"amount":1.0,"base":"EUR","date":"2024-01-02","rates":{"ARS":885.12}}
//
// or a time series (/2024-01-01..2024-01-31):
//
//	{"amount":1.0,"base":"EUR","start_date":"…","end_date":"…","rates":{"2024-01-02":{"ARS":885.12}}}
//
// Numbers are read as exact decimals (never through a float). The base must be EUR and the amount
// 1, as asked (?from=EUR).
func ParseFrankfurter(r io.Reader, source string) (rates []Rate, skipped int, err error) {
	var doc struct {
		Amount json.Number                `json:"amount"`
		Base   string                     `json:"base"`
		Date   string                     `json:"date"`
		Rates  map[string]json.RawMessage `json:"rates"`
	}
	dec := json.NewDecoder(io.LimitReader(r, maxBody))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, 0, fmt.Errorf("fx: Frankfurter JSON: %w", err)
	}
	if !strings.EqualFold(doc.Base, "EUR") {
		return nil, 0, fmt.Errorf("fx: Frankfurter JSON: base %q, want EUR", doc.Base)
	}
	if doc.Amount != "" {
		if a, err := decimal.NewFromString(doc.Amount.String()); err != nil || !a.Equal(decimal.NewFromInt(1)) {
			return nil, 0, fmt.Errorf("fx: Frankfurter JSON: amount %s, want 1", doc.Amount)
		}
	}
	number := func(raw json.RawMessage) string {
		var n json.Number
		d := json.NewDecoder(strings.NewReader(string(raw)))
		d.UseNumber()
		if d.Decode(&n) != nil {
			return ""
		}
		return n.String()
	}
	for key, raw := range doc.Rates {
		if doc.Date != "" {
			if rate, ok := newRate(doc.Date, key, number(raw), source); ok {
				rates = append(rates, rate)
			} else {
				skipped++
			}
			continue
		}
		var day map[string]json.RawMessage
		if err := json.Unmarshal(raw, &day); err != nil {
			skipped++
			continue
		}
		for currency, v := range day {
			if rate, ok := newRate(key, currency, number(v), source); ok {
				rates = append(rates, rate)
			} else {
				skipped++
			}
		}
	}
	if len(rates) == 0 {
		return nil, skipped, ErrNoRates
	}
	return rates, skipped, nil
}
