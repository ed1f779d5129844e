// Package enablebanking is the Enable Banking provider: PSD2 account information across the EU
// and the UK (https://enablebanking.com/docs/api/reference/). Every request carries a JWT signed
// with the application's private key (RS256, kid = the application id, iss "enablebanking.com",
// aud "api.enablebanking.com"). The operations and fields it relies on are kept in
// testdata/openapi-trimmed.yaml; the fake server in ./fake serves fixtures of that shape.
package enablebanking

import (
	"bytes"
	"context"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/shopspring/decimal"

	"patrimonio/server/connect"
)

// DefaultBaseURL is Enable Banking's API.
const DefaultBaseURL = "https://api.enablebanking.com"

// Config configures the provider. AppID and Key come from the application the operator
// registered in Enable Banking's control panel.
type Config struct {
	AppID   string
	Key     *rsa.PrivateKey
	BaseURL string // DefaultBaseURL when empty
	HTTP    *connect.Retrying
	Now     func() time.Time
}

// Provider talks to Enable Banking.
type Provider struct {
	cfg  Config
	base string
}

// New returns the provider.
func New(cfg Config) (*Provider, error) {
	if cfg.AppID == "" || cfg.Key == nil {
		return nil, errors.New("enablebanking: the application id and private key are required")
	}
	if cfg.HTTP == nil {
		cfg.HTTP = connect.DefaultRetrying()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	base := strings.TrimRight(cfg.BaseURL, "/")
	if base == "" {
		base = DefaultBaseURL
	}
	return &Provider{cfg: cfg, base: base}, nil
}

// Name implements connect.Provider.
func (p *Provider) Name() string { return "enablebanking" }

// Kind implements connect.Provider.
func (p *Provider) Kind() connect.Kind { return connect.KindBank }

// ReadsPerDay implements connect.Provider: PSD2 lets a provider read an account four times a day
// without the user present.
func (p *Provider) ReadsPerDay() int { return 4 }

// token signs the JWT of one request (valid one hour; Enable Banking accepts up to a day).
func (p *Provider) token() (string, error) {
	now := p.cfg.Now()
	t := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.RegisteredClaims{
		Issuer:    "enablebanking.com",
		Audience:  jwt.ClaimStrings{"api.enablebanking.com"},
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour)),
	})
	t.Header["kid"] = p.cfg.AppID
	s, err := t.SignedString(p.cfg.Key)
	if err != nil {
		return "", fmt.Errorf("enablebanking: sign the request token: %w", err)
	}
	return s, nil
}

// errorBody is Enable Banking's error answer.
type errorBody struct {
	Message string `json:"message"`
	Code    int    `json:"code"`
	Error   string `json:"error"`
}

// call sends one request and decodes a 2xx answer into out.
func (p *Provider) call(ctx context.Context, method, path string, query url.Values, body, out any) error {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return err
		}
	}
	resp, err := p.cfg.HTTP.Do(ctx, func() (*http.Request, error) {
		u := p.base + path
		if len(query) > 0 {
			u += "?" + query.Encode()
		}
		req, err := http.NewRequest(method, u, bytes.NewReader(payload))
		if err != nil {
			return nil, err
		}
		tok, err := p.token()
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Accept", "application/json")
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		return req, nil
	})
	if err != nil {
		return fmt.Errorf("enablebanking: %w", err)
	}
	raw, err := connect.ReadAnswer(resp, translate)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("enablebanking: decode %s: %w", path, err)
	}
	return nil
}

// translate turns an error answer into the connect errors.
func translate(status int, raw []byte) error {
	var e errorBody
	_ = json.Unmarshal(raw, &e)
	switch e.Error {
	case "EXPIRED_SESSION", "CLOSED_SESSION", "REVOKED_SESSION", "EXPIRED_AUTHORIZATION_CODE":
		return fmt.Errorf("enablebanking: %s: %w", e.Error, connect.ErrConsentExpired)
	case "ASPSP_RATE_LIMIT_EXCEEDED":
		// The bank's own daily limit: no retry helps today.
		return &connect.RateLimitError{RetryAfter: 24 * time.Hour}
	}
	return &connect.ProviderError{Status: status, Code: e.Error, Message: e.Message}
}

// aspsp is an entry of GET /aspsps.
type aspsp struct {
	Name                   string   `json:"name"`
	Country                string   `json:"country"`
	Logo                   string   `json:"logo"`
	MaximumConsentValidity int64    `json:"maximum_consent_validity"`
	PSUTypes               []string `json:"psu_types"`
}

// Institutions implements connect.Provider: the banks of a country that serve personal users.
func (p *Provider) Institutions(ctx context.Context, country string) ([]connect.Institution, error) {
	var out struct {
		ASPSPs []aspsp `json:"aspsps"`
	}
	q := url.Values{"country": {strings.ToUpper(country)}, "psu_type": {"personal"}, "service": {"AIS"}}
	if err := p.call(ctx, http.MethodGet, "/aspsps", q, nil, &out); err != nil {
		return nil, err
	}
	list := make([]connect.Institution, 0, len(out.ASPSPs))
	for _, a := range out.ASPSPs {
		list = append(list, connect.Institution{ID: a.Name, Name: a.Name, Country: a.Country, Logo: a.Logo,
			MaxConsentDays: int(a.MaximumConsentValidity / 86400)})
	}
	sort.Slice(list, func(i, j int) bool { return strings.ToLower(list[i].Name) < strings.ToLower(list[j].Name) })
	return list, nil
}

// StartLink implements connect.Provider (POST /auth).
func (p *Provider) StartLink(ctx context.Context, req connect.LinkRequest) (connect.Link, error) {
	valid := req.ValidUntil
	if max := req.Institution.MaxConsentDays; max > 0 {
		if limit := p.cfg.Now().Add(time.Duration(max) * 24 * time.Hour); valid.IsZero() || valid.After(limit) {
			valid = limit
		}
	}
	if valid.IsZero() {
		valid = p.cfg.Now().Add(90 * 24 * time.Hour)
	}
	body := map[string]any{
		"access":       map[string]any{"valid_until": valid.UTC().Format(time.RFC3339)},
		"aspsp":        map[string]any{"name": req.Institution.ID, "country": req.Institution.Country},
		"state":        req.State,
		"redirect_url": req.RedirectURL,
		"psu_type":     "personal",
	}
	if req.Language != "" {
		body["language"] = req.Language
	}
	if req.UserRef != "" {
		body["psu_id"] = req.UserRef
	}
	var out struct {
		URL             string `json:"url"`
		AuthorizationID string `json:"authorization_id"`
	}
	if err := p.call(ctx, http.MethodPost, "/auth", nil, body, &out); err != nil {
		return connect.Link{}, err
	}
	if out.URL == "" {
		return connect.Link{}, errors.New("enablebanking: POST /auth answered no url")
	}
	return connect.Link{URL: out.URL}, nil
}

type accountID struct {
	IBAN  string `json:"iban"`
	Other *struct {
		Identification string `json:"identification"`
		SchemeName     string `json:"scheme_name"`
	} `json:"other"`
}

type accountResource struct {
	AccountID       *accountID `json:"account_id"`
	AccountServicer *struct {
		Name string `json:"name"`
	} `json:"account_servicer"`
	Name               string `json:"name"`
	Details            string `json:"details"`
	Product            string `json:"product"`
	CashAccountType    string `json:"cash_account_type"`
	Currency           string `json:"currency"`
	UID                string `json:"uid"`
	IdentificationHash string `json:"identification_hash"`
}

// CompleteLink implements connect.Provider (POST /sessions with the code the bank sent back).
func (p *Provider) CompleteLink(ctx context.Context, _ connect.Credentials, cb connect.Callback) (connect.Consent, error) {
	if e := cb.Params.Get("error"); e != "" {
		return connect.Consent{}, fmt.Errorf("enablebanking: %s: %w", e, connect.ErrLinkRefused)
	}
	code := cb.Params.Get("code")
	if code == "" {
		return connect.Consent{}, fmt.Errorf("enablebanking: no code on the redirect: %w", connect.ErrLinkRefused)
	}
	var out struct {
		SessionID string            `json:"session_id"`
		Accounts  []accountResource `json:"accounts"`
		ASPSP     struct {
			Name    string `json:"name"`
			Country string `json:"country"`
		} `json:"aspsp"`
		Access struct {
			ValidUntil string `json:"valid_until"`
		} `json:"access"`
	}
	if err := p.call(ctx, http.MethodPost, "/sessions", nil, map[string]string{"code": code}, &out); err != nil {
		return connect.Consent{}, err
	}
	consent := connect.Consent{Credentials: connect.Credentials{Session: out.SessionID}}
	if t, err := time.Parse(time.RFC3339, out.Access.ValidUntil); err == nil {
		t = t.UTC()
		consent.ExpiresAt = &t
	}
	for _, a := range out.Accounts {
		if a.UID == "" { // blocked or closed at the bank: nothing can be read
			continue
		}
		acc := connect.Account{ID: a.UID, Kind: connect.KindBank, Institution: out.ASPSP.Name, Currency: strings.ToUpper(a.Currency)}
		if a.AccountServicer != nil && a.AccountServicer.Name != "" {
			acc.Institution = a.AccountServicer.Name
		}
		if a.AccountID != nil {
			acc.IBAN = strings.ToUpper(strings.ReplaceAll(a.AccountID.IBAN, " ", ""))
			if a.AccountID.Other != nil {
				acc.Number = a.AccountID.Other.Identification
			}
		}
		acc.Name = firstNonEmpty(a.Details, a.Product, a.Name, acc.Institution)
		switch {
		case acc.IBAN != "":
			acc.Match = "iban:" + acc.IBAN
		case acc.Number != "":
			acc.Match = "number:" + acc.Number
		default:
			acc.Match = "hash:" + a.IdentificationHash
		}
		consent.Accounts = append(consent.Accounts, acc)
	}
	return consent, nil
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

type amount struct {
	Amount   string `json:"amount"`
	Currency string `json:"currency"`
}

// balancePreference orders the ISO 20022 balance types: the closing booked balance first, then
// the interim ones, then the expected one.
var balancePreference = map[string]int{"CLBD": 0, "ITBD": 1, "CLAV": 2, "ITAV": 3, "XPCD": 4, "OTHR": 5}

// Balances implements connect.Provider, the preferred balance first.
func (p *Provider) Balances(ctx context.Context, c connect.Credentials, account string) ([]connect.Balance, error) {
	var out struct {
		Balances []struct {
			BalanceAmount      amount     `json:"balance_amount"`
			BalanceType        string     `json:"balance_type"`
			ReferenceDate      string     `json:"reference_date"`
			LastChangeDateTime *time.Time `json:"last_change_date_time"`
		} `json:"balances"`
	}
	if err := p.call(ctx, http.MethodGet, "/accounts/"+url.PathEscape(account)+"/balances", nil, nil, &out); err != nil {
		return nil, err
	}
	today := day(p.cfg.Now())
	list := make([]connect.Balance, 0, len(out.Balances))
	for _, b := range out.Balances {
		amt, err := decimal.NewFromString(b.BalanceAmount.Amount)
		if err != nil {
			return nil, fmt.Errorf("enablebanking: balance amount %q: %w", b.BalanceAmount.Amount, err)
		}
		d := today
		if t, err := time.Parse(time.DateOnly, b.ReferenceDate); err == nil {
			d = t
		} else if b.LastChangeDateTime != nil {
			d = day(*b.LastChangeDateTime)
		}
		list = append(list, connect.Balance{Amount: amt, Currency: strings.ToUpper(b.BalanceAmount.Currency), Date: d, Type: b.BalanceType})
	}
	sort.SliceStable(list, func(i, j int) bool { return rank(list[i].Type) < rank(list[j].Type) })
	return list, nil
}

func rank(t string) int {
	if r, ok := balancePreference[t]; ok {
		return r
	}
	return len(balancePreference)
}

func day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Transactions implements connect.Provider: every page (continuation_key) from since on.
func (p *Provider) Transactions(ctx context.Context, c connect.Credentials, account string, since time.Time) ([]connect.Transaction, error) {
	var list []connect.Transaction
	key := ""
	for page := 0; ; page++ {
		if page >= 1000 {
			return nil, errors.New("enablebanking: more than 1000 pages of transactions")
		}
		q := url.Values{"date_from": {since.UTC().Format(time.DateOnly)}}
		if key != "" {
			q.Set("continuation_key", key)
		}
		var out struct {
			Transactions []struct {
				EntryReference        string   `json:"entry_reference"`
				TransactionID         string   `json:"transaction_id"`
				TransactionAmount     amount   `json:"transaction_amount"`
				CreditDebitIndicator  string   `json:"credit_debit_indicator"`
				Status                string   `json:"status"`
				BookingDate           string   `json:"booking_date"`
				ValueDate             string   `json:"value_date"`
				TransactionDate       string   `json:"transaction_date"`
				RemittanceInformation []string `json:"remittance_information"`
			} `json:"transactions"`
			ContinuationKey string `json:"continuation_key"`
		}
		if err := p.call(ctx, http.MethodGet, "/accounts/"+url.PathEscape(account)+"/transactions", q, nil, &out); err != nil {
			return nil, err
		}
		for _, t := range out.Transactions {
			amt, err := decimal.NewFromString(t.TransactionAmount.Amount)
			if err != nil {
				return nil, fmt.Errorf("enablebanking: transaction amount %q: %w", t.TransactionAmount.Amount, err)
			}
			if t.CreditDebitIndicator == "DBIT" {
				amt = amt.Abs().Neg()
			}
			tx := connect.Transaction{ID: firstNonEmpty(t.EntryReference, t.TransactionID), Amount: amt,
				Currency: strings.ToUpper(t.TransactionAmount.Currency), Status: connect.Booked,
				Description: strings.Join(t.RemittanceInformation, " ")}
			if t.Status == "PDNG" {
				tx.Status = connect.Pending
			}
			for _, s := range []string{t.BookingDate, t.ValueDate, t.TransactionDate} {
				if d, err := time.Parse(time.DateOnly, s); err == nil {
					tx.Date = d
					break
				}
			}
			list = append(list, tx)
		}
		if out.ContinuationKey == "" {
			return list, nil
		}
		key = out.ContinuationKey
	}
}

// Holdings implements connect.Provider: bank accounts have no positions.
func (p *Provider) Holdings(context.Context, connect.Credentials, string) ([]connect.Holding, error) {
	return nil, connect.ErrNotSupported
}

var _ connect.Provider = (*Provider)(nil)
