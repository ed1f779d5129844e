// Package snaptrade is the SnapTrade provider: brokerage accounts (Degiro, Interactive Brokers,
// Trading 212, …), which PSD2 does not cover. Requests carry clientId and timestamp in the query
// and a Signature header: base64(HMAC-SHA256(consumerKey, JSON {content, path, query} with sorted
// keys)). Each linked connection registers its own SnapTrade user, whose secret is kept
// encrypted by the service. The operations used are in testdata/openapi-trimmed.yaml.
package snaptrade

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"patrimonio/server/connect"
)

// DefaultBaseURL is SnapTrade's API.
const DefaultBaseURL = "https://api.snaptrade.com/api/v1"

// Config configures the provider with the client id and consumer key SnapTrade issued.
type Config struct {
	ClientID    string
	ConsumerKey string
	BaseURL     string // DefaultBaseURL when empty
	HTTP        *connect.Retrying
	Now         func() time.Time
}

// Provider talks to SnapTrade.
type Provider struct {
	cfg  Config
	base *url.URL
}

// New returns the provider.
func New(cfg Config) (*Provider, error) {
	if cfg.ClientID == "" || cfg.ConsumerKey == "" {
		return nil, errors.New("snaptrade: the client id and consumer key are required")
	}
	if cfg.HTTP == nil {
		cfg.HTTP = connect.DefaultRetrying()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	raw := strings.TrimRight(cfg.BaseURL, "/")
	if raw == "" {
		raw = DefaultBaseURL
	}
	base, err := url.Parse(raw)
	if err != nil || base.Scheme == "" || base.Host == "" {
		return nil, fmt.Errorf("snaptrade: base URL %q is not an absolute URL", raw)
	}
	return &Provider{cfg: cfg, base: base}, nil
}

// Name implements connect.Provider.
func (p *Provider) Name() string { return "snaptrade" }

// Kind implements connect.Provider.
func (p *Provider) Kind() connect.Kind { return connect.KindBrokerage }

// ReadsPerDay implements connect.Provider: SnapTrade serves cached daily data; we read it at
// most four times a day too, which keeps every connection within its plan.
func (p *Provider) ReadsPerDay() int { return 4 }

// Sign computes the Signature header of a request: path is the URL path (with /api/v1), query
// the encoded query string, content the JSON body (nil for none).
func Sign(consumerKey, path, query string, content any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// Maps marshal with sorted keys, at every level.
	if err := enc.Encode(map[string]any{"content": content, "path": path, "query": query}); err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, []byte(consumerKey))
	mac.Write(bytes.TrimRight(buf.Bytes(), "\n"))
	return base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

// call sends one signed request; query gets clientId and timestamp added.
func (p *Provider) call(ctx context.Context, method, path string, query url.Values, body map[string]any, out any) error {
	resp, err := p.cfg.HTTP.Do(ctx, func() (*http.Request, error) {
		q := url.Values{}
		for k, v := range query {
			q[k] = v
		}
		q.Set("clientId", p.cfg.ClientID)
		q.Set("timestamp", strconv.FormatInt(p.cfg.Now().Unix(), 10))
		u := *p.base
		u.Path = strings.TrimRight(p.base.Path, "/") + path
		u.RawQuery = q.Encode()
		var content any
		var payload []byte
		if body != nil {
			content = body
			var err error
			if payload, err = json.Marshal(body); err != nil {
				return nil, err
			}
		}
		sig, err := Sign(p.cfg.ConsumerKey, u.Path, u.RawQuery, content)
		if err != nil {
			return nil, err
		}
		req, err := http.NewRequest(method, u.String(), bytes.NewReader(payload))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Signature", sig)
		req.Header.Set("Accept", "application/json")
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		return req, nil
	})
	if err != nil {
		return fmt.Errorf("snaptrade: %w", err)
	}
	raw, err := connect.ReadAnswer(resp, translate)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // amounts are JSON numbers: read them exactly
	if err := dec.Decode(out); err != nil {
		return fmt.Errorf("snaptrade: decode %s: %w", path, err)
	}
	return nil
}

func translate(status int, raw []byte) error {
	var e struct {
		Detail string `json:"detail"`
		Code   any    `json:"code"`
	}
	_ = json.Unmarshal(raw, &e)
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden:
		// The user's secret no longer opens the data, or the brokerage connection was removed:
		// the link must be made again.
		return fmt.Errorf("snaptrade: %d %s: %w", status, e.Detail, connect.ErrConsentExpired)
	case http.StatusTooEarly:
		// The data is still being fetched from the brokerage.
		return &connect.RateLimitError{RetryAfter: time.Minute}
	}
	return &connect.ProviderError{Status: status, Code: fmt.Sprint(e.Code), Message: e.Detail}
}

// Institutions implements connect.Provider: the enabled brokerages (they serve many countries,
// so country does not filter).
func (p *Provider) Institutions(ctx context.Context, _ string) ([]connect.Institution, error) {
	var out []struct {
		Slug            string `json:"slug"`
		Name            string `json:"name"`
		DisplayName     string `json:"display_name"`
		Logo            string `json:"aws_s3_square_logo_url"`
		Enabled         bool   `json:"enabled"`
		MaintenanceMode bool   `json:"maintenance_mode"`
	}
	if err := p.call(ctx, http.MethodGet, "/brokerages", nil, nil, &out); err != nil {
		return nil, err
	}
	var list []connect.Institution
	for _, b := range out {
		if !b.Enabled || b.MaintenanceMode {
			continue
		}
		name := b.DisplayName
		if name == "" {
			name = b.Name
		}
		list = append(list, connect.Institution{ID: b.Slug, Name: name, Logo: b.Logo})
	}
	sort.Slice(list, func(i, j int) bool { return strings.ToLower(list[i].Name) < strings.ToLower(list[j].Name) })
	return list, nil
}

// StartLink implements connect.Provider: register a SnapTrade user (or reuse the one of the
// connection being renewed) and ask for a Connection Portal link back to RedirectURL.
func (p *Provider) StartLink(ctx context.Context, req connect.LinkRequest) (connect.Link, error) {
	creds := connect.Credentials{}
	if req.Previous != nil && req.Previous.User != "" && req.Previous.Secret != "" {
		creds = *req.Previous
	} else {
		if req.UserRef == "" {
			return connect.Link{}, errors.New("snaptrade: a user reference is required")
		}
		var reg struct {
			UserID     string `json:"userId"`
			UserSecret string `json:"userSecret"`
		}
		if err := p.call(ctx, http.MethodPost, "/snapTrade/registerUser", nil, map[string]any{"userId": req.UserRef}, &reg); err != nil {
			return connect.Link{}, err
		}
		if reg.UserSecret == "" {
			return connect.Link{}, errors.New("snaptrade: registerUser answered no secret")
		}
		creds = connect.Credentials{User: reg.UserID, Secret: reg.UserSecret}
	}
	redirect, err := url.Parse(req.RedirectURL)
	if err != nil {
		return connect.Link{}, err
	}
	q := redirect.Query()
	q.Set("state", req.State)
	redirect.RawQuery = q.Encode()
	body := map[string]any{"customRedirect": redirect.String(), "immediateRedirect": true, "connectionType": "read"}
	if req.Institution.ID != "" {
		body["broker"] = req.Institution.ID
	}
	if req.Language != "" {
		body["locale"] = req.Language
	}
	var out struct {
		RedirectURI string `json:"redirectURI"`
	}
	if err := p.call(ctx, http.MethodPost, "/snapTrade/login", url.Values{"userId": {creds.User}, "userSecret": {creds.Secret}}, body, &out); err != nil {
		return connect.Link{}, err
	}
	if out.RedirectURI == "" {
		return connect.Link{}, errors.New("snaptrade: login answered no redirectURI")
	}
	return connect.Link{URL: out.RedirectURI, Pending: creds}, nil
}

type account struct {
	ID                   string  `json:"id"`
	Name                 *string `json:"name"`
	Number               string  `json:"number"`
	InstitutionAccountID *string `json:"institution_account_id"`
	InstitutionName      string  `json:"institution_name"`
	Balance              struct {
		Total *struct {
			Amount   json.Number `json:"amount"`
			Currency string      `json:"currency"`
		} `json:"total"`
	} `json:"balance"`
	IsPaper bool `json:"is_paper"`
}

func (p *Provider) userQuery(c connect.Credentials) url.Values {
	return url.Values{"userId": {c.User}, "userSecret": {c.Secret}}
}

// CompleteLink implements connect.Provider: the portal sent the user back; list the accounts.
// The Connection Portal's redirect carries status=SUCCESS&connection_id=<id>, or
// status=ERROR&status_code=<http status>&error_code=<code>, or status=ABANDONED (SnapTrade's
// "Implement the Connection Portal" guide, passiv/snaptrade-sdks docs/implement-connection-portal.md).
// The accounts are listed for the user whatever connection_id says, since a user has only the
// connections made through us. A brokerage connection has no expiry of its own (it breaks when
// the broker asks for a new login, which reads as ErrConsentExpired).
func (p *Provider) CompleteLink(ctx context.Context, pending connect.Credentials, cb connect.Callback) (connect.Consent, error) {
	if s := strings.ToUpper(cb.Params.Get("status")); s == "ERROR" || s == "ABANDONED" || cb.Params.Get("error") != "" {
		return connect.Consent{}, fmt.Errorf("snaptrade: the portal answered %s (status_code %q, error_code %q): %w", s,
			cb.Params.Get("status_code"), cb.Params.Get("error_code"), connect.ErrLinkRefused)
	}
	var out []account
	if err := p.call(ctx, http.MethodGet, "/accounts", p.userQuery(pending), nil, &out); err != nil {
		return connect.Consent{}, err
	}
	consent := connect.Consent{Credentials: pending}
	for _, a := range out {
		if a.IsPaper {
			continue
		}
		acc := connect.Account{ID: a.ID, Kind: connect.KindBrokerage, Institution: a.InstitutionName, Number: a.Number}
		if a.Name != nil {
			acc.Name = *a.Name
		}
		if acc.Name == "" {
			acc.Name = a.InstitutionName
		}
		if a.Balance.Total != nil {
			acc.Currency = strings.ToUpper(a.Balance.Total.Currency)
		}
		stable := a.Number
		if a.InstitutionAccountID != nil && *a.InstitutionAccountID != "" {
			stable = *a.InstitutionAccountID
		}
		acc.Match = "broker:" + strings.ToLower(a.InstitutionName) + ":" + stable
		consent.Accounts = append(consent.Accounts, acc)
	}
	return consent, nil
}

// Balances implements connect.Provider: first the account's total value (cash and positions, as
// the brokerage reports it), then the cash in each currency.
func (p *Provider) Balances(ctx context.Context, c connect.Credentials, accountID string) ([]connect.Balance, error) {
	today := day(p.cfg.Now())
	var detail account
	if err := p.call(ctx, http.MethodGet, "/accounts/"+url.PathEscape(accountID), p.userQuery(c), nil, &detail); err != nil {
		return nil, err
	}
	var list []connect.Balance
	if t := detail.Balance.Total; t != nil && t.Amount != "" {
		amt, err := decimal.NewFromString(t.Amount.String())
		if err != nil {
			return nil, fmt.Errorf("snaptrade: total %q: %w", t.Amount, err)
		}
		list = append(list, connect.Balance{Amount: amt, Currency: strings.ToUpper(t.Currency), Date: today, Type: "total"})
	}
	var cash []struct {
		Currency *struct {
			Code string `json:"code"`
		} `json:"currency"`
		Cash *json.Number `json:"cash"`
	}
	if err := p.call(ctx, http.MethodGet, "/accounts/"+url.PathEscape(accountID)+"/balances", p.userQuery(c), nil, &cash); err != nil {
		return nil, err
	}
	for _, b := range cash {
		if b.Cash == nil || b.Currency == nil {
			continue
		}
		amt, err := decimal.NewFromString(b.Cash.String())
		if err != nil {
			return nil, fmt.Errorf("snaptrade: cash %q: %w", *b.Cash, err)
		}
		list = append(list, connect.Balance{Amount: amt, Currency: strings.ToUpper(b.Currency.Code), Date: today, Type: "cash"})
	}
	return list, nil
}

func day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// pageSize is how many activities one request asks for.
const pageSize = 1000

// Transactions implements connect.Provider: every page of activities from since on. An
// activity whose settlement date is still ahead is pending.
func (p *Provider) Transactions(ctx context.Context, c connect.Credentials, accountID string, since time.Time) ([]connect.Transaction, error) {
	today := day(p.cfg.Now())
	var list []connect.Transaction
	for offset := 0; ; {
		q := p.userQuery(c)
		q.Set("startDate", since.UTC().Format(time.DateOnly))
		q.Set("offset", strconv.Itoa(offset))
		q.Set("limit", strconv.Itoa(pageSize))
		var out struct {
			Data []struct {
				ID       string       `json:"id"`
				Amount   *json.Number `json:"amount"`
				Currency *struct {
					Code string `json:"code"`
				} `json:"currency"`
				Type           string  `json:"type"`
				Description    string  `json:"description"`
				TradeDate      *string `json:"trade_date"`
				SettlementDate *string `json:"settlement_date"`
			} `json:"data"`
			Pagination struct {
				Offset int `json:"offset"`
				Limit  int `json:"limit"`
				Total  int `json:"total"`
			} `json:"pagination"`
		}
		if err := p.call(ctx, http.MethodGet, "/accounts/"+url.PathEscape(accountID)+"/activities", q, nil, &out); err != nil {
			return nil, err
		}
		for _, a := range out.Data {
			tx := connect.Transaction{ID: a.ID, Status: connect.Booked, Description: strings.TrimSpace(a.Type + " " + a.Description)}
			if a.Amount != nil {
				amt, err := decimal.NewFromString(a.Amount.String())
				if err != nil {
					return nil, fmt.Errorf("snaptrade: activity amount %q: %w", *a.Amount, err)
				}
				tx.Amount = amt
			}
			if a.Currency != nil {
				tx.Currency = strings.ToUpper(a.Currency.Code)
			}
			if a.TradeDate != nil {
				tx.Date = parseDay(*a.TradeDate)
			}
			if a.SettlementDate != nil {
				if s := parseDay(*a.SettlementDate); !s.IsZero() && s.After(today) {
					tx.Status = connect.Pending
				}
			}
			list = append(list, tx)
		}
		offset += len(out.Data)
		if len(out.Data) == 0 || offset >= out.Pagination.Total {
			return list, nil
		}
	}
}

func parseDay(s string) time.Time {
	if len(s) >= 10 {
		if t, err := time.Parse(time.DateOnly, s[:10]); err == nil {
			return t
		}
	}
	return time.Time{}
}

// Holdings implements connect.Provider (GET /accounts/{id}/positions/all).
func (p *Provider) Holdings(ctx context.Context, c connect.Credentials, accountID string) ([]connect.Holding, error) {
	var out struct {
		Results []struct {
			Instrument struct {
				Kind        string  `json:"kind"`
				Symbol      string  `json:"symbol"`
				Description *string `json:"description"`
				Currency    *string `json:"currency"`
				Exchange    *string `json:"exchange"`
			} `json:"instrument"`
			Units     *string `json:"units"`
			Price     *string `json:"price"`
			CostBasis *string `json:"cost_basis"`
			Currency  *string `json:"currency"`
		} `json:"results"`
	}
	if err := p.call(ctx, http.MethodGet, "/accounts/"+url.PathEscape(accountID)+"/positions/all", p.userQuery(c), nil, &out); err != nil {
		return nil, err
	}
	var list []connect.Holding
	for _, r := range out.Results {
		h := connect.Holding{Symbol: r.Instrument.Symbol, Kind: r.Instrument.Kind}
		if r.Instrument.Description != nil {
			h.Description = *r.Instrument.Description
		}
		if r.Instrument.Exchange != nil {
			h.Exchange = *r.Instrument.Exchange
		}
		var err error
		if r.Units != nil {
			if h.Units, err = decimal.NewFromString(*r.Units); err != nil {
				return nil, fmt.Errorf("snaptrade: units %q: %w", *r.Units, err)
			}
		}
		if r.Price != nil {
			if h.Price, err = decimal.NewFromString(*r.Price); err != nil {
				return nil, fmt.Errorf("snaptrade: price %q: %w", *r.Price, err)
			}
		}
		if r.CostBasis != nil {
			if h.CostBasis, err = decimal.NewFromString(*r.CostBasis); err != nil {
				return nil, fmt.Errorf("snaptrade: cost basis %q: %w", *r.CostBasis, err)
			}
		}
		switch {
		case r.Currency != nil:
			h.Currency = strings.ToUpper(*r.Currency)
		case r.Instrument.Currency != nil:
			h.Currency = strings.ToUpper(*r.Instrument.Currency)
		}
		list = append(list, h)
	}
	return list, nil
}

var _ connect.Provider = (*Provider)(nil)
