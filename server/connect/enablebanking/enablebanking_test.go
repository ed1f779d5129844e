package enablebanking_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"patrimonio/server/connect"
	"patrimonio/server/connect/connecttest"
	"patrimonio/server/connect/enablebanking"
	"patrimonio/server/connect/enablebanking/ebfake"
)

const appID = "0e4bd4a3-6a54-4f2b-9f34-2f1f4c0b7a11"

// The fake checks token times against the real clock, so the provider signs with it too.
var now = time.Now().UTC().Truncate(time.Second)

type harness struct {
	fake   *ebfake.Server
	p      *enablebanking.Provider
	sleeps []time.Duration
}

func newKey(t *testing.T) *rsa.PrivateKey {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func start(t *testing.T) *harness {
	t.Helper()
	key := newKey(t)
	h := &harness{fake: ebfake.New(appID, &key.PublicKey)}
	srv := httptest.NewServer(h.fake)
	t.Cleanup(srv.Close)
	h.fake.URL = srv.URL
	retry := &connect.Retrying{HTTP: srv.Client(), Sleep: func(_ context.Context, d time.Duration) error {
		h.sleeps = append(h.sleeps, d)
		return nil
	}}
	p, err := enablebanking.New(enablebanking.Config{AppID: appID, Key: key, BaseURL: srv.URL, HTTP: retry, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	h.p = p
	return h
}

// consent follows the link like a browser would and returns the redirect back to us.
func consent(t *testing.T, link string) url.Values {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("consent page answered %d", resp.StatusCode)
	}
	u, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(u.String(), "https://app.example/connect/return") {
		t.Fatalf("redirected to %s", u)
	}
	return u.Query()
}

func link(t *testing.T, h *harness, state string) connect.Consent {
	t.Helper()
	ctx := context.Background()
	banks, err := h.p.Institutions(ctx, "es")
	if err != nil {
		t.Fatal(err)
	}
	l, err := h.p.StartLink(ctx, connect.LinkRequest{Institution: banks[0], RedirectURL: "https://app.example/connect/return",
		State: state, Language: "es", ValidUntil: now.Add(365 * 24 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	back := consent(t, l.URL)
	if back.Get("state") != state {
		t.Fatalf("state came back as %q", back.Get("state"))
	}
	c, err := h.p.CompleteLink(ctx, l.Pending, connect.Callback{Params: back})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestFixturesFollowTheOpenAPIDocument(t *testing.T) {
	spec, err := connecttest.Load("testdata/openapi-trimmed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	session := map[string]any{}
	_ = json.Unmarshal(ebfake.Fixture("session.json"), &session)
	session["session_id"] = "s"
	session["access"] = map[string]any{"valid_until": "2027-05-27T10:00:00Z"}
	for _, a := range session["accounts"].([]any) {
		a.(map[string]any)["uid"] = "u"
	}
	filled, _ := json.Marshal(session)
	for _, c := range []struct {
		schema string
		body   []byte
	}{
		{"GetAspspsResponse", ebfake.Fixture("aspsps.json")},
		{"AuthorizeSessionResponse", filled},
		{"HalfBalancesResponse", ebfake.Fixture("balances.json")},
		{"HalfTransactionsResponse", ebfake.Fixture("transactions-1.json")},
		{"HalfTransactionsResponse", ebfake.Fixture("transactions-2.json")},
	} {
		if problems := spec.Check(c.schema, c.body); len(problems) > 0 {
			t.Errorf("%s: %v", c.schema, problems)
		}
	}
	// The checker itself refuses what the document does not declare.
	if len(spec.Check("BalanceResource", []byte(`{"name":"x","balance_amount":{"amount":"1","currency":"EUR"},"balance_type":"NOPE","extra":1}`))) != 2 {
		t.Error("the shape check let an unknown enum value or key through")
	}
}

func TestTheWholeLinkFlowFindsTheAccountsAndTheConsentExpiry(t *testing.T) {
	h := start(t)
	banks, err := h.p.Institutions(context.Background(), "ES")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, b := range banks {
		names = append(names, b.Name)
	}
	if strings.Join(names, ",") != "Banco Santander,BBVA,CaixaBank" {
		t.Fatalf("Spanish banks: %v", names)
	}
	if banks[0].MaxConsentDays != 180 {
		t.Errorf("Santander's longest consent: %d days", banks[0].MaxConsentDays)
	}
	c := link(t, h, "state-1")
	if c.Credentials.Session == "" {
		t.Fatal("no session id")
	}
	// A year was asked for; the bank grants at most 180 days.
	if c.ExpiresAt == nil || !c.ExpiresAt.Equal(now.Add(180*24*time.Hour)) {
		t.Errorf("consent expires at %v", c.ExpiresAt)
	}
	if len(c.Accounts) != 2 {
		t.Fatalf("accounts: %+v", c.Accounts)
	}
	a := c.Accounts[0]
	if a.IBAN != "ES9121000418450200051332" || a.Currency != "EUR" || a.Name != "Cuenta Nómina" || a.Institution != "Banco Santander" ||
		a.Match != "iban:ES9121000418450200051332" || a.Kind != connect.KindBank || a.ID == "" {
		t.Errorf("first account: %+v", a)
	}
	if c.Accounts[1].Currency != "USD" {
		t.Errorf("second account: %+v", c.Accounts[1])
	}
	bal, err := h.p.Balances(context.Background(), c.Credentials, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if bal[0].Type != "CLBD" || bal[0].Amount.String() != "12530.55" || bal[0].Currency != "EUR" || bal[0].Date.Format(time.DateOnly) != "2026-11-27" {
		t.Errorf("preferred balance: %+v", bal[0])
	}
}

func TestARefusedConsentIsNotALink(t *testing.T) {
	h := start(t)
	banks, err := h.p.Institutions(context.Background(), "ES")
	if err != nil || len(banks) < 2 {
		t.Fatalf("banks: %v %v", banks, err)
	}
	l, err := h.p.StartLink(context.Background(), connect.LinkRequest{Institution: banks[1], RedirectURL: "https://app.example/connect/return", State: "s"})
	if err != nil {
		t.Fatal(err)
	}
	back := consent(t, l.URL+"&deny=1")
	if _, err := h.p.CompleteLink(context.Background(), l.Pending, connect.Callback{Params: back}); !errors.Is(err, connect.ErrLinkRefused) {
		t.Fatalf("got %v", err)
	}
}

func TestTransactionsFollowEveryPageAndPendingBecomesBooked(t *testing.T) {
	h := start(t)
	c := link(t, h, "s")
	since := now.AddDate(0, 0, -30)
	txs, err := h.p.Transactions(context.Background(), c.Credentials, c.Accounts[0].ID, since)
	if err != nil {
		t.Fatal(err)
	}
	if len(txs) != 3 {
		t.Fatalf("transactions over two pages: %+v", txs)
	}
	if txs[0].Status != connect.Pending || txs[0].Amount.String() != "-50" || txs[0].Date.Format(time.DateOnly) != "2026-11-27" {
		t.Errorf("pending card payment: %+v", txs[0])
	}
	if txs[1].Status != connect.Booked || txs[1].Amount.String() != "2350" || txs[2].Amount.String() != "-89.9" {
		t.Errorf("booked: %+v %+v", txs[1], txs[2])
	}
	h.fake.BookPending()
	txs, err = h.p.Transactions(context.Background(), c.Credentials, c.Accounts[0].ID, since)
	if err != nil {
		t.Fatal(err)
	}
	if txs[0].ID != "20261127-0001" || txs[0].Status != connect.Booked {
		t.Errorf("after booking: %+v", txs[0])
	}
	pages := 0
	for _, r := range h.fake.Requests() {
		if strings.HasSuffix(r, "/transactions") {
			pages++
		}
	}
	if pages != 4 {
		t.Errorf("transaction pages read: %d", pages)
	}
}

func TestA429IsRetriedAfterRetryAfterAndThenReported(t *testing.T) {
	h := start(t)
	c := link(t, h, "s")
	h.fake.Throttle(2)
	if _, err := h.p.Balances(context.Background(), c.Credentials, c.Accounts[0].ID); err != nil {
		t.Fatalf("two 429s then an answer: %v", err)
	}
	if len(h.sleeps) != 2 || h.sleeps[0] != time.Second {
		t.Errorf("waits: %v", h.sleeps)
	}
	h.fake.Throttle(10)
	_, err := h.p.Balances(context.Background(), c.Credentials, c.Accounts[0].ID)
	var rl *connect.RateLimitError
	if !errors.As(err, &rl) || !errors.Is(err, connect.ErrRateLimited) || rl.RetryAfter != time.Second {
		t.Fatalf("still limited after three tries: %v", err)
	}
}

func TestAnExpiredConsentIsTyped(t *testing.T) {
	h := start(t)
	c := link(t, h, "s")
	h.fake.ExpireSessions()
	if _, err := h.p.Balances(context.Background(), c.Credentials, c.Accounts[0].ID); !errors.Is(err, connect.ErrConsentExpired) {
		t.Fatalf("balances: %v", err)
	}
	if _, err := h.p.Transactions(context.Background(), c.Credentials, c.Accounts[0].ID, now); !errors.Is(err, connect.ErrConsentExpired) {
		t.Fatalf("transactions: %v", err)
	}
}

func TestARenewedConsentHasNewAccountIDsButTheSameMatch(t *testing.T) {
	h := start(t)
	first := link(t, h, "a")
	h.fake.ExpireSessions()
	second := link(t, h, "b")
	for i := range first.Accounts {
		if first.Accounts[i].ID == second.Accounts[i].ID {
			t.Errorf("account %d kept its id %s", i, first.Accounts[i].ID)
		}
		if first.Accounts[i].Match != second.Accounts[i].Match {
			t.Errorf("account %d: match %s then %s", i, first.Accounts[i].Match, second.Accounts[i].Match)
		}
	}
	if _, err := h.p.Balances(context.Background(), second.Credentials, second.Accounts[0].ID); err != nil {
		t.Fatalf("the renewed consent reads: %v", err)
	}
}

func TestRequestsAreSignedWithTheApplicationKey(t *testing.T) {
	h := start(t)
	other, err := enablebanking.New(enablebanking.Config{AppID: appID, Key: newKey(t), BaseURL: h.fake.URL, Now: time.Now})
	if err != nil {
		t.Fatal(err)
	}
	_, err = other.Institutions(context.Background(), "ES")
	var pe *connect.ProviderError
	if !errors.As(err, &pe) || pe.Status != http.StatusUnauthorized {
		t.Fatalf("a token signed with another key: %v", err)
	}
}
