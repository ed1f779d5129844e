package snaptrade_test

import (
	"context"
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
	"patrimonio/server/connect/snaptrade"
	"patrimonio/server/connect/snaptrade/stfake"
)

type harness struct {
	fake   *stfake.Server
	p      *snaptrade.Provider
	sleeps []time.Duration
}

func start(t *testing.T) *harness {
	t.Helper()
	h := &harness{fake: stfake.New("PATRIMONIO-TEST", "consumer-key-for-tests")}
	srv := httptest.NewServer(h.fake)
	t.Cleanup(srv.Close)
	h.fake.URL = srv.URL
	retry := &connect.Retrying{HTTP: srv.Client(), Sleep: func(_ context.Context, d time.Duration) error {
		h.sleeps = append(h.sleeps, d)
		return nil
	}}
	p, err := snaptrade.New(snaptrade.Config{ClientID: "PATRIMONIO-TEST", ConsumerKey: "consumer-key-for-tests", BaseURL: srv.URL + "/api/v1", HTTP: retry})
	if err != nil {
		t.Fatal(err)
	}
	h.p = p
	return h
}

func portal(t *testing.T, link string) url.Values {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	u, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || resp.StatusCode != http.StatusFound || !strings.HasPrefix(u.String(), "https://app.example/connect/return") {
		t.Fatalf("portal answered %d to %s", resp.StatusCode, u)
	}
	return u.Query()
}

func link(t *testing.T, h *harness, previous *connect.Credentials) connect.Consent {
	t.Helper()
	ctx := context.Background()
	l, err := h.p.StartLink(ctx, connect.LinkRequest{Institution: connect.Institution{ID: "DEGIRO"}, UserRef: "conn-1",
		RedirectURL: "https://app.example/connect/return?provider=snaptrade", State: "st-1", Language: "es", Previous: previous})
	if err != nil {
		t.Fatal(err)
	}
	back := portal(t, l.URL)
	if back.Get("state") != "st-1" || back.Get("provider") != "snaptrade" {
		t.Fatalf("came back with %v", back)
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
	var accounts []json.RawMessage
	_ = json.Unmarshal(stfake.Fixture("accounts.json"), &accounts)
	var brokerages, balances, activities []json.RawMessage
	_ = json.Unmarshal(stfake.Fixture("brokerages.json"), &brokerages)
	_ = json.Unmarshal(stfake.Fixture("balances.json"), &balances)
	_ = json.Unmarshal(stfake.Fixture("activities.json"), &activities)
	check := func(schema string, items ...json.RawMessage) {
		for i, it := range items {
			if problems := spec.Check(schema, it); len(problems) > 0 {
				t.Errorf("%s #%d: %v", schema, i, problems)
			}
		}
	}
	check("Account", accounts...)
	check("Brokerage", brokerages...)
	check("Balance", balances...)
	check("AccountUniversalActivity", activities...)
	check("AllAccountPositionsResponse", stfake.Fixture("positions.json"))
	if len(spec.Check("Balance", []byte(`{"cash":"12"}`))) == 0 {
		t.Error("the shape check let a string where a number belongs through")
	}
}

func TestTheSignatureCoversPathQueryAndBody(t *testing.T) {
	a, _ := snaptrade.Sign("key", "/api/v1/accounts", "clientId=X&timestamp=1", nil)
	b, _ := snaptrade.Sign("key", "/api/v1/accounts", "clientId=X&timestamp=2", nil)
	c, _ := snaptrade.Sign("key", "/api/v1/snapTrade/registerUser", "clientId=X&timestamp=1", map[string]any{"userId": "u"})
	d, _ := snaptrade.Sign("key", "/api/v1/snapTrade/registerUser", "clientId=X&timestamp=1", map[string]any{"userId": "v"})
	if a == b || c == d || a == c {
		t.Fatal("signatures of different requests are equal")
	}
	h := start(t)
	wrong, _ := snaptrade.New(snaptrade.Config{ClientID: "PATRIMONIO-TEST", ConsumerKey: "another-key", BaseURL: h.fake.URL + "/api/v1"})
	_, err := wrong.Institutions(context.Background(), "ES")
	if !errors.Is(err, connect.ErrConsentExpired) { // 401 from the API
		t.Fatalf("a request signed with another key: %v", err)
	}
}

func TestTheWholeLinkFlowFindsTheBrokerageAccounts(t *testing.T) {
	h := start(t)
	brokers, err := h.p.Institutions(context.Background(), "ES")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, b := range brokers {
		names = append(names, b.Name)
	}
	if strings.Join(names, ",") != "DEGIRO,Interactive Brokers,Trading 212" {
		t.Fatalf("brokers (the one in maintenance left out): %v", names)
	}
	c := link(t, h, nil)
	if c.Credentials.User != "conn-1" || c.Credentials.Secret == "" || c.ExpiresAt != nil {
		t.Fatalf("consent: %+v", c)
	}
	if len(c.Accounts) != 1 { // the paper account is left out
		t.Fatalf("accounts: %+v", c.Accounts)
	}
	a := c.Accounts[0]
	if a.Name != "DEGIRO Cuenta Básica" || a.Currency != "EUR" || a.Kind != connect.KindBrokerage || a.Match != "broker:degiro:93817264" || a.Number != "93817264" {
		t.Errorf("account: %+v", a)
	}
	bal, err := h.p.Balances(context.Background(), c.Credentials, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(bal) != 3 || bal[0].Type != "total" || bal[0].Amount.String() != "47431.37" || bal[1].Amount.String() != "1211.37" || bal[2].Currency != "USD" {
		t.Errorf("balances: %+v", bal)
	}
	hold, err := h.p.Holdings(context.Background(), c.Credentials, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(hold) != 2 || hold[0].Symbol != "IWDA.AS" || hold[0].Value().String() != "35420" || hold[1].Currency != "EUR" ||
		hold[0].Kind != "etf" || hold[1].Exchange != "XMAD" || hold[1].CostBasis.String() != "3.95" || hold[1].Description != "Banco Santander SA" {
		t.Errorf("holdings: %+v", hold)
	}
}

func TestActivitiesArePagedAndAnUnsettledTradeIsPendingUntilItSettles(t *testing.T) {
	h := start(t)
	c := link(t, h, nil)
	since := time.Now().AddDate(0, -1, 0)
	txs, err := h.p.Transactions(context.Background(), c.Credentials, c.Accounts[0].ID, since)
	if err != nil {
		t.Fatal(err)
	}
	if len(txs) != 4 {
		t.Fatalf("activities over two pages: %+v", txs)
	}
	if txs[1].Amount.String() != "-506" || txs[1].Status != connect.Booked || txs[3].Status != connect.Pending {
		t.Errorf("activities: %+v", txs)
	}
	h.fake.Settle()
	txs, err = h.p.Transactions(context.Background(), c.Credentials, c.Accounts[0].ID, since)
	if err != nil {
		t.Fatal(err)
	}
	if txs[3].Status != connect.Booked {
		t.Errorf("after settlement: %+v", txs[3])
	}
	var offsets []string
	for _, r := range h.fake.Requests() {
		if strings.Contains(r, "/activities?") {
			offsets = append(offsets, r[strings.Index(r, "?")+1:])
		}
	}
	if strings.Join(offsets, ",") != "0,2,0,2" {
		t.Errorf("pages asked for: %v", offsets)
	}
}

func TestA429IsRetriedAndThenReported(t *testing.T) {
	h := start(t)
	c := link(t, h, nil)
	h.fake.Throttle(1)
	if _, err := h.p.Holdings(context.Background(), c.Credentials, c.Accounts[0].ID); err != nil {
		t.Fatal(err)
	}
	if len(h.sleeps) != 1 || h.sleeps[0] != time.Second {
		t.Errorf("waits: %v", h.sleeps)
	}
	h.fake.Throttle(3)
	_, err := h.p.Holdings(context.Background(), c.Credentials, c.Accounts[0].ID)
	if !errors.Is(err, connect.ErrRateLimited) {
		t.Fatalf("after three 429s: %v", err)
	}
}

func TestARemovedConnectionReadsAsAnExpiredConsent(t *testing.T) {
	h := start(t)
	c := link(t, h, nil)
	h.fake.Revoke()
	if _, err := h.p.Balances(context.Background(), c.Credentials, c.Accounts[0].ID); !errors.Is(err, connect.ErrConsentExpired) {
		t.Fatalf("balances: %v", err)
	}
}

func TestARenewedConnectionReusesTheUserAndMatchesItsAccountsWithNewIDs(t *testing.T) {
	h := start(t)
	first := link(t, h, nil)
	second := link(t, h, &first.Credentials)
	if second.Credentials != first.Credentials {
		t.Errorf("the renewal registered another user: %+v", second.Credentials)
	}
	if second.Accounts[0].ID == first.Accounts[0].ID || second.Accounts[0].Match != first.Accounts[0].Match {
		t.Errorf("accounts: %+v then %+v", first.Accounts[0], second.Accounts[0])
	}
	if _, err := h.p.Balances(context.Background(), first.Credentials, first.Accounts[0].ID); err == nil {
		t.Error("the old account id still reads")
	}
}

func TestThePortalsReturnParametersSayWhetherTheLinkWasMade(t *testing.T) {
	h := start(t)
	ctx := context.Background()
	l, err := h.p.StartLink(ctx, connect.LinkRequest{Institution: connect.Institution{ID: "DEGIRO"}, UserRef: "conn-2",
		RedirectURL: "https://app.example/connect/return", State: "st-2"})
	if err != nil {
		t.Fatal(err)
	}
	for name, q := range map[string]url.Values{
		"a failed login":      {"status": {"ERROR"}, "status_code": {"401"}, "error_code": {"1076"}, "state": {"st-2"}},
		"a portal left early": {"status": {"ABANDONED"}, "state": {"st-2"}},
	} {
		_, err := h.p.CompleteLink(ctx, l.Pending, connect.Callback{Params: q})
		if !errors.Is(err, connect.ErrLinkRefused) {
			t.Errorf("%s: %v, want ErrLinkRefused", name, err)
		}
	}
	back := portal(t, l.URL)
	if back.Get("status") != "SUCCESS" || back.Get("connection_id") == "" {
		t.Fatalf("the portal's success: %v", back)
	}
	c, err := h.p.CompleteLink(ctx, l.Pending, connect.Callback{Params: back})
	if err != nil || len(c.Accounts) != 1 {
		t.Fatalf("after success: %+v %v", c, err)
	}
}
