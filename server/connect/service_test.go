package connect_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"patrimonio/core"
	"patrimonio/internal/pgtest"
	"patrimonio/internal/testkit"
	"patrimonio/server/config"
	"patrimonio/server/connect"
	"patrimonio/server/connect/enablebanking"
	"patrimonio/server/connect/enablebanking/ebfake"
	"patrimonio/server/connect/snaptrade"
	"patrimonio/server/connect/snaptrade/stfake"
	"patrimonio/server/store"
	psync "patrimonio/sync"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const publicURL = "https://app.example"

type world struct {
	db      *store.DB
	engine  *psync.Engine
	svc     *connect.Service
	eb      *ebfake.Server
	st      *stfake.Server
	clock   *testkit.Clock
	editor  string
	viewer  string
	outside string
	w       string
}

func add(t *testing.T, db *store.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(context.Background(), q, args...); err != nil {
		t.Fatal(err)
	}
}

func setup(t *testing.T, db *store.DB, providers ...string) *world {
	t.Helper()
	now := time.Now().UTC()
	w := &world{db: db, clock: testkit.NewClock(now)}
	var err error
	if w.engine, err = psync.New(db, psync.Options{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.engine.Close() })
	w.w = uuid.NewString()
	add(t, db, `INSERT INTO workspaces (id, name, kind, created_at) VALUES (?, 'Familia', 'team', ?)`, w.w, now)
	for _, u := range []struct {
		id   *string
		role string
	}{{&w.editor, "editor"}, {&w.viewer, "viewer"}, {&w.outside, ""}} {
		*u.id = uuid.NewString()
		add(t, db, `INSERT INTO users (id, email, onboarding_step, created_at, updated_at) VALUES (?, ?, 'done', ?, ?)`, *u.id, *u.id+"@example.com", now, now)
		if u.role != "" {
			add(t, db, `INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)`, w.w, *u.id, u.role, now)
		}
	}
	var list []connect.Provider
	for _, name := range providers {
		switch name {
		case "enablebanking":
			key, err := rsa.GenerateKey(rand.Reader, 2048)
			if err != nil {
				t.Fatal(err)
			}
			w.eb = ebfake.New("app-1", &key.PublicKey)
			srv := httptest.NewServer(w.eb)
			t.Cleanup(srv.Close)
			w.eb.URL = srv.URL
			p, err := enablebanking.New(enablebanking.Config{AppID: "app-1", Key: key, BaseURL: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			list = append(list, p)
		case "snaptrade":
			w.st = stfake.New("CLIENT", "consumer")
			srv := httptest.NewServer(w.st)
			t.Cleanup(srv.Close)
			w.st.URL = srv.URL
			p, err := snaptrade.New(snaptrade.Config{ClientID: "CLIENT", ConsumerKey: "consumer", BaseURL: srv.URL + "/api/v1"})
			if err != nil {
				t.Fatal(err)
			}
			list = append(list, p)
		}
	}
	key := make([]byte, config.SecretKeyLen)
	_, _ = rand.Read(key)
	if w.svc, err = connect.New(connect.Config{DB: db, Sync: w.engine, SecretKey: key, Providers: list, PublicURL: publicURL, Now: w.clock.Now}); err != nil {
		t.Fatal(err)
	}
	return w
}

// visit follows the institution's page like the browser and returns the query we get back.
func visit(t *testing.T, link string) url.Values {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	u, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || u.Scheme+"://"+u.Host+u.Path != publicURL+"/connect/return" {
		t.Fatalf("the institution answered %d to %s", resp.StatusCode, u)
	}
	return u.Query()
}

func (w *world) link(t *testing.T, ctx context.Context, req connect.StartRequest) connect.Connection {
	t.Helper()
	started, err := w.svc.Start(ctx, w.editor, req)
	if err != nil {
		t.Fatal(err)
	}
	back := visit(t, started.RedirectURL)
	c, err := w.svc.Complete(ctx, w.editor, back.Get("state"), back)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (w *world) records(t *testing.T, collection string) map[string]*psync.RecordState {
	t.Helper()
	out := map[string]*psync.RecordState{}
	token := ""
	for {
		page, err := w.engine.SnapshotPage(context.Background(), w.editor, w.w, token, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range page.Records {
			if r.Collection != collection {
				continue
			}
			st, err := r.Decode()
			if err != nil {
				t.Fatal(err)
			}
			out[r.RecordID] = st
		}
		if !page.HasMore {
			return out
		}
		token = page.PageToken
	}
}

var bank = connect.StartRequest{Provider: "enablebanking", InstitutionID: "Banco Santander", Country: "es", Language: "es"}

func code(err error) string { return core.ErrorCode(err) }

func TestLinkingABankChoosingAnAccountAndRefreshingWritesSyncedValuations(t *testing.T) {
	testkit.Stores(t, func(t *testing.T, db *store.DB) {
		w := setup(t, db, "enablebanking")
		ctx := core.WithLanguage(context.Background(), "es")
		req := bank
		req.WorkspaceID = w.w
		c := w.link(t, ctx, req)
		if c.Status != "active" || c.Institution.Name != "Banco Santander" || c.Kind != connect.KindBank || len(c.Accounts) != 2 {
			t.Fatalf("connection: %+v", c)
		}
		if c.ConsentExpiresAt == nil || c.ConsentExpiresAt.Sub(w.clock.Now()) < 179*24*time.Hour || c.RenewSoon {
			t.Errorf("consent expiry: %v renew soon %v", c.ConsentExpiresAt, c.RenewSoon)
		}
		var nomina connect.ConnectionAccount
		for _, a := range c.Accounts {
			if a.Name == "Cuenta Nómina" {
				nomina = a
			}
		}
		if nomina.Masked != "ES91 •••• 1332" || nomina.Currency != "EUR" || nomina.AssetID != nil || nomina.ReadsLeftToday != 4 {
			t.Fatalf("account: %+v", nomina)
		}
		// The provider's credentials are sealed at rest.
		var sealed string
		if err := db.QueryRow(ctx, `SELECT credentials FROM connections WHERE id = ?`, c.ID).Scan(&sealed); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(sealed, "session-") || !strings.HasPrefix(sealed, "enc1:") {
			t.Errorf("credentials stored as %q", sealed)
		}

		c, err := w.svc.Adopt(ctx, w.editor, c.ID, []connect.Choice{{AccountID: nomina.ID, AssetClass: "bank_accounts"}})
		if err != nil {
			t.Fatal(err)
		}
		assets := w.records(t, "assets")
		if len(assets) != 1 {
			t.Fatalf("assets: %v", assets)
		}
		var assetID string
		for id, a := range assets {
			assetID = id
			f := a.Fields
			if f["name"] != "Cuenta Nómina" || f["assetClass"] != "bank_accounts" || f["category"] != "current_account" || f["currency"] != "EUR" ||
				f["institution"] != "Banco Santander" || f["currentValue"] != "12530.55" || f["valuationDate"] != "2026-11-27" || f["description"] != "ES91 •••• 1332" {
				t.Errorf("asset fields: %v", f)
			}
			if a.Authors["currentValue"] != psync.ServerClientID(w.editor) {
				t.Errorf("written by %s", a.Authors["currentValue"])
			}
		}
		vals := w.records(t, "valuations")
		if len(vals) != 1 {
			t.Fatalf("valuations: %v", vals)
		}
		for _, v := range vals {
			if v.Fields["assetId"] != assetID || v.Fields["value"] != "12530.55" || v.Fields["date"] != "2026-11-27" || v.Fields["source"] != "connection" {
				t.Errorf("valuation: %v", v.Fields)
			}
		}
		for _, a := range c.Accounts {
			if a.ID == nomina.ID && (a.AssetID == nil || *a.AssetID != assetID || a.ReadsLeftToday != 3 || a.LastBalance == nil || *a.LastBalance != "12530.55") {
				t.Errorf("after the first read: %+v", a)
			}
		}
		if _, err := w.svc.Adopt(ctx, w.editor, c.ID, []connect.Choice{{AccountID: nomina.ID, AssetClass: "bank_accounts"}}); code(err) != core.ECONFLICT {
			t.Errorf("choosing the same account twice: %v", err)
		}

		// Three more reads today, then the bank's limit of four is kept.
		for i := 0; i < 3; i++ {
			res, err := w.svc.Refresh(ctx, w.editor, c.ID)
			if err != nil || res.Refreshed != 1 {
				t.Fatalf("read %d: %+v %v", i+2, res, err)
			}
		}
		res, err := w.svc.Refresh(ctx, w.editor, c.ID)
		if err != nil || res.Refreshed != 0 || res.Limited != 1 {
			t.Fatalf("fifth read today: %+v %v", res, err)
		}
		reads := 0
		for _, r := range w.eb.Requests() {
			if strings.HasSuffix(r, "/balances") {
				reads++
			}
		}
		if reads != 4 {
			t.Errorf("the bank was read %d times today", reads)
		}
		if n := len(w.records(t, "valuations")); n != 1 {
			t.Errorf("reads of the same day made %d valuations, want one updated", n)
		}
		// Tomorrow the reads are back; the scheduled refresh reads every active connection.
		w.clock.Advance(24 * time.Hour)
		if n := w.svc.RefreshAll(ctx); n != 1 {
			t.Fatalf("tomorrow's scheduled refresh read %d accounts", n)
		}
		// The bank still dates its balance 27 November: the same valuation, not a second one.
		if n := len(w.records(t, "valuations")); n != 1 {
			t.Errorf("%d valuations for one reference date", n)
		}
		// A member deletes the asset on a device: the account stops feeding it, nothing is written.
		if _, err := w.engine.WriteAsServer(ctx, w.editor, w.w, []psync.ServerChange{{Collection: "assets", RecordID: assetID, Delete: true}}); err != nil {
			t.Fatal(err)
		}
		if res, err := w.svc.Refresh(ctx, w.editor, c.ID); err != nil || res.Refreshed != 0 {
			t.Fatalf("after the asset was deleted: %+v %v", res, err)
		}
		got, err := w.svc.Get(ctx, w.editor, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range got.Accounts {
			if a.AssetID != nil {
				t.Errorf("account %s still feeds an asset: %+v", a.Name, a)
			}
		}
	})
}

func TestOnlyEditorsLinkAndAStateIsBoundToItsUserAndGoodOnce(t *testing.T) {
	testkit.Stores(t, func(t *testing.T, db *store.DB) {
		w := setup(t, db, "enablebanking")
		ctx := context.Background()
		req := bank
		req.WorkspaceID = w.w
		if _, err := w.svc.Start(ctx, w.viewer, req); code(err) != core.EFORBIDDEN {
			t.Errorf("a viewer starts a link: %v", err)
		}
		if _, err := w.svc.Start(ctx, w.outside, req); code(err) != core.ENOTFOUND {
			t.Errorf("a stranger starts a link: %v", err)
		}
		if list, err := w.svc.List(ctx, w.viewer, w.w); err != nil || len(list) != 0 {
			t.Errorf("a viewer lists: %v %v", list, err)
		}
		// The provider keeps answering 429 (after three tries): the member is told to wait.
		// The refusal carries the provider's wait, which the API sends as Retry-After.
		w.eb.Throttle(10)
		_, err := w.svc.Start(ctx, w.editor, req)
		var refused *core.Error
		if code(err) != core.ETOOMANY || !errors.As(err, &refused) || refused.RetryAfterSeconds() != 1 {
			t.Errorf("a rate-limited provider: %v", err)
		}
		w.eb.Throttle(0)
		if list, err := w.svc.List(ctx, w.editor, w.w); err != nil || len(list) != 0 {
			t.Errorf("after a failed start: %+v %v", list, err)
		}
		started, err := w.svc.Start(ctx, w.editor, req)
		if err != nil {
			t.Fatal(err)
		}
		back := visit(t, started.RedirectURL)
		if _, err := w.svc.Complete(ctx, w.viewer, back.Get("state"), back); code(err) != core.ENOTFOUND {
			t.Errorf("another user completes the link: %v", err)
		}
		if _, err := w.svc.Complete(ctx, w.editor, "forged", back); code(err) != core.ENOTFOUND {
			t.Errorf("a forged state: %v", err)
		}
		if _, err := w.svc.Complete(ctx, w.editor, back.Get("state"), back); err != nil {
			t.Fatal(err)
		}
		if _, err := w.svc.Complete(ctx, w.editor, back.Get("state"), back); code(err) != core.ENOTFOUND {
			t.Errorf("the same state twice: %v", err)
		}
		// A link left for more than half an hour must be started again.
		started, err = w.svc.Start(ctx, w.editor, req)
		if err != nil {
			t.Fatal(err)
		}
		back = visit(t, started.RedirectURL)
		w.clock.Advance(31 * time.Minute)
		if _, err := w.svc.Complete(ctx, w.editor, back.Get("state"), back); code(err) != core.ECONFLICT {
			t.Errorf("a late return: %v", err)
		}
		list, err := w.svc.List(ctx, w.viewer, w.w)
		if err != nil || len(list) != 1 || list[0].Status != "active" {
			t.Errorf("the viewer sees the active connection only: %+v %v", list, err)
		}
		if _, err := w.svc.Refresh(ctx, w.viewer, list[0].ID); code(err) != core.EFORBIDDEN {
			t.Errorf("a viewer refreshes: %v", err)
		}
	})
}

func TestAnExpiredConsentIsRenewedOntoTheSameAssetsNeverDuplicatingThem(t *testing.T) {
	testkit.Stores(t, func(t *testing.T, db *store.DB) {
		w := setup(t, db, "enablebanking")
		ctx := context.Background()
		req := bank
		req.WorkspaceID = w.w
		c := w.link(t, ctx, req)
		var choices []connect.Choice
		for _, a := range c.Accounts {
			choices = append(choices, connect.Choice{AccountID: a.ID, AssetClass: "bank_accounts"})
		}
		c, err := w.svc.Adopt(ctx, w.editor, c.ID, choices)
		if err != nil {
			t.Fatal(err)
		}
		before := map[string]string{}
		for _, a := range c.Accounts {
			before[a.Masked] = *a.AssetID
		}

		w.eb.ExpireSessions()
		if _, err := w.svc.Refresh(ctx, w.editor, c.ID); code(err) != core.ECONFLICT {
			t.Fatalf("reading through an expired consent: %v", err)
		}
		if got, _ := w.svc.Get(ctx, w.editor, c.ID); got.Status != "expired" || got.LastError != "consent_expired" {
			t.Fatalf("after the refusal: %+v", got)
		}

		renewed := w.link(t, ctx, connect.StartRequest{WorkspaceID: w.w, RenewConnectionID: c.ID, Language: "en"})
		if renewed.ID != c.ID || renewed.Status != "active" || len(renewed.Accounts) != 2 {
			t.Fatalf("renewed: %+v", renewed)
		}
		for _, a := range renewed.Accounts {
			if a.AssetID == nil || *a.AssetID != before[a.Masked] {
				t.Errorf("account %s lost its asset: %+v", a.Masked, a)
			}
		}
		w.clock.Advance(24 * time.Hour) // a new day's reads
		if res, err := w.svc.Refresh(ctx, w.editor, c.ID); err != nil || res.Refreshed != 2 {
			t.Fatalf("reading through the renewed consent: %+v %v", res, err)
		}
		if n := len(w.records(t, "assets")); n != 2 {
			t.Errorf("%d assets after the renewal, want the same two", n)
		}
		// A second, separate link to the same bank finds the same accounts too.
		again := w.link(t, ctx, req)
		for _, a := range again.Accounts {
			if a.AssetID == nil {
				t.Errorf("a new link to the same bank did not match %s", a.Masked)
			}
		}
		var rows int
		if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM connection_accounts WHERE workspace_id = ?`, w.w).Scan(&rows); err != nil || rows != 2 {
			t.Errorf("%d account rows in the workspace, want 2", rows)
		}
	})
}

func TestABrokerageAccountBecomesAnInvestmentAndAMissingProviderSaysSo(t *testing.T) {
	testkit.Stores(t, func(t *testing.T, db *store.DB) {
		w := setup(t, db, "snaptrade")
		ctx := core.WithLanguage(context.Background(), "en")
		info := w.svc.Providers()
		if len(info) != 2 || info[0].Name != "enablebanking" || info[0].Configured || !info[1].Configured {
			t.Fatalf("providers: %+v", info)
		}
		_, err := w.svc.Start(ctx, w.editor, connect.StartRequest{WorkspaceID: w.w, Provider: "enablebanking", InstitutionID: "BBVA", Country: "ES"})
		if code(err) != core.ENOTFOUND || !strings.Contains(core.ErrorMessage(err), "not configured") {
			t.Fatalf("a bank without Enable Banking: %v", err)
		}
		c := w.link(t, ctx, connect.StartRequest{WorkspaceID: w.w, Provider: "snaptrade", InstitutionID: "DEGIRO"})
		if c.Kind != connect.KindBrokerage || len(c.Accounts) != 1 || c.ConsentExpiresAt != nil {
			t.Fatalf("connection: %+v", c)
		}
		if _, err := w.svc.Adopt(ctx, w.editor, c.ID, []connect.Choice{{AccountID: c.Accounts[0].ID, AssetClass: "investments"}}); err != nil {
			t.Fatal(err)
		}
		for _, a := range w.records(t, "assets") {
			if a.Fields["assetClass"] != "investments" || a.Fields["category"] != "institutional_account" || a.Fields["currentValue"] != "48211.37" ||
				a.Fields["description"] != "•••• 7264" {
				t.Errorf("asset: %v", a.Fields)
			}
		}
		w.st.Revoke()
		if _, err := w.svc.Refresh(ctx, w.editor, c.ID); code(err) != core.ECONFLICT || !strings.Contains(core.ErrorMessage(err), "Renew") {
			t.Errorf("a removed brokerage connection: %v", err)
		}
	})
}
