// Package connect links bank and brokerage accounts through account-information providers
// (issue 15). This file is the domain: the Provider interface every provider implements, the
// values it answers with and its typed errors. The providers live in their own packages
// (enablebanking, snaptrade); the Service (service.go) stores connections, binds each link to
// the user and workspace that started it, and writes what it reads as ordinary synced records.
package connect

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/shopspring/decimal"
)

// Kind is what a provider connects: bank accounts (PSD2 account information) or brokerage
// accounts (custody, positions).
type Kind string

// The kinds.
const (
	KindBank      Kind = "bank"
	KindBrokerage Kind = "brokerage"
)

// Institution is a bank or broker a user can link.
type Institution struct {
	ID      string `json:"id"` // the provider's identifier (Enable Banking: the ASPSP name; SnapTrade: the broker slug)
	Name    string `json:"name"`
	Country string `json:"country,omitempty"` // ISO 3166-1 alpha-2; empty for brokers that serve many countries
	Logo    string `json:"logo,omitempty"`
	// MaxConsentDays is the longest consent the institution grants (0: no limit known).
	MaxConsentDays int `json:"maxConsentDays,omitempty"`
}

// LinkRequest starts a link: the user is sent to URL returned in Link, consents at the
// institution, and comes back to RedirectURL with State.
type LinkRequest struct {
	Institution Institution
	RedirectURL string
	State       string
	Language    string    // "es" or "en": the consent page's language where the provider supports it
	ValidUntil  time.Time // the consent validity asked for (banks cap it)
	// UserRef is an opaque, stable reference of the user at the provider (never an e-mail).
	UserRef string
	// Previous holds the credentials of the connection being renewed, if any.
	Previous *Credentials
}

// Credentials are what a provider needs to read a linked user's data. They are secrets: the
// service keeps them encrypted at rest and never sends them to a device.
type Credentials struct {
	Session string `json:"session,omitempty"` // Enable Banking: the session id
	User    string `json:"user,omitempty"`    // SnapTrade: the user id registered under our client id
	Secret  string `json:"secret,omitempty"`  // SnapTrade: that user's secret
}

// Link is a started link: where to send the user, and what to keep until they come back.
type Link struct {
	URL     string
	Pending Credentials
}

// Callback is what the institution sent back on the redirect (its query string).
type Callback struct {
	Params url.Values
}

// Consent is a completed link: the credentials to read with, when the consent ends (nil: it
// does not expire by itself) and the accounts found.
type Consent struct {
	Credentials Credentials
	ExpiresAt   *time.Time
	Accounts    []Account
}

// Account is one account found by a link.
type Account struct {
	ID          string `json:"id"` // the provider's id for reading it; may change when the consent is renewed
	Name        string `json:"name"`
	Kind        Kind   `json:"kind"`
	Institution string `json:"institution"`
	Currency    string `json:"currency"`
	IBAN        string `json:"-"` // full IBAN, never sent to devices (MaskedIBAN is)
	Number      string `json:"-"` // the account number when there is no IBAN
	// Match is what identifies the account across consents (the IBAN, otherwise the account
	// number or a provider's stable identifier). Renewals match existing assets by it.
	Match string `json:"-"`
}

// Balance is an account's balance on a date.
type Balance struct {
	Amount   decimal.Decimal
	Currency string
	Date     time.Time // the day the balance refers to (UTC midnight)
	Type     string    // the provider's balance type (CLBD, ITAV, …; "total" or "cash" for brokers)
}

// TransactionStatus says whether a transaction is booked or still pending.
type TransactionStatus string

// The statuses.
const (
	Booked  TransactionStatus = "booked"
	Pending TransactionStatus = "pending"
)

// Transaction is one movement of an account. Amount is signed: negative for money out.
type Transaction struct {
	ID          string
	Amount      decimal.Decimal
	Currency    string
	Date        time.Time
	Status      TransactionStatus
	Description string
}

// Holding is one position of a brokerage account.
type Holding struct {
	Symbol      string // the trading symbol as the provider formats it (SAN.MC)
	Description string // the security's name (Banco Santander SA)
	// Kind is the provider's instrument kind: stock, adr, etf, mutualfund, cef, bond, option,
	// future, cfd, crypto or other.
	Kind     string
	Exchange string // the market (a MIC such as XMAD, or the provider's exchange code)
	ISIN     string // where the provider has it (SnapTrade's positions do not)
	Units    decimal.Decimal
	Price    decimal.Decimal
	// CostBasis is the average purchase price per unit (zero when unknown).
	CostBasis decimal.Decimal
	Currency  string
}

// Value is Units × Price.
func (h Holding) Value() decimal.Decimal { return h.Units.Mul(h.Price) }

// Provider is an account-information provider.
type Provider interface {
	// Name is the provider's id in URLs and storage ("enablebanking", "snaptrade").
	Name() string
	Kind() Kind
	// ReadsPerDay is how many reads of one account the provider allows per day (0: no limit
	// we need to keep; banks under PSD2 allow four reads a day without the user present).
	ReadsPerDay() int
	Institutions(ctx context.Context, country string) ([]Institution, error)
	StartLink(ctx context.Context, req LinkRequest) (Link, error)
	CompleteLink(ctx context.Context, pending Credentials, cb Callback) (Consent, error)
	Balances(ctx context.Context, c Credentials, accountID string) ([]Balance, error)
	// Transactions reads every page from the day since on.
	Transactions(ctx context.Context, c Credentials, accountID string, since time.Time) ([]Transaction, error)
	// Holdings returns ErrNotSupported for providers without positions.
	Holdings(ctx context.Context, c Credentials, accountID string) ([]Holding, error)
}

// ErrConsentExpired: the consent ended (expired, revoked or closed); the user must renew it.
var ErrConsentExpired = errors.New("connect: the consent has expired")

// ErrNotSupported: the provider does not have this kind of data.
var ErrNotSupported = errors.New("connect: not supported by this provider")

// ErrLinkRefused: the user cancelled at the institution, or the institution refused the link.
var ErrLinkRefused = errors.New("connect: the link was not completed")

// ErrRateLimited matches every *RateLimitError (errors.Is).
var ErrRateLimited = errors.New("connect: the provider's rate limit was reached")

// RateLimitError says the provider refused for its rate limit, and when to try again.
type RateLimitError struct {
	RetryAfter time.Duration
}

func (e *RateLimitError) Error() string {
	return fmt.Sprintf("connect: the provider's rate limit was reached; retry after %s", e.RetryAfter)
}

// Is makes errors.Is(err, ErrRateLimited) true.
func (e *RateLimitError) Is(target error) bool { return target == ErrRateLimited }

// ProviderError is any other refusal of a provider: its HTTP status and its error code.
type ProviderError struct {
	Status  int
	Code    string
	Message string
}

func (e *ProviderError) Error() string {
	return fmt.Sprintf("connect: provider answered %d %s: %s", e.Status, e.Code, e.Message)
}
