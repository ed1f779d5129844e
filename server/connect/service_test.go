package connect_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"patrimonio/core"
	"patrimonio/internal/pgtest"
	"patrimonio/internal/testkit"
	"patrimonio/server/authz"
	"patrimonio/server/config"
	"patrimonio/server/connect"
	"patrimonio/server/connect/enablebanking"
	"patrimonio/server/connect/enablebanking/ebfake"
	"patrimonio/server/connect/snaptrade"
	"patrimonio/server/connect/snaptrade/stfake"
	"patrimonio/server/store"
	"patrimonio/server/workspace"
	psync "patrimonio/sync"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const publicURL = "https://app.example"

// flakyWriter is the sync engine, except that it refuses the next write carrying a position
// (a quantity) when failPositions is set, as a database that goes away half way would.
type flakyWriter struct {
	connect.Writer
	failPositions bool
	// pairAssets: the next two writes creating an account's asset wait for each other, so that
	// two requests choosing accounts overlap.
	mu         sync.Mutex
	pairAssets chan struct{}
	pairWait   int
}

func (f *flakyWriter) WriteAsServer(ctx context.Context, userID, workspaceID string, changes []psync.ServerChange) ([]psync.Outcome, error) {
	if len(changes) > 0 && changes[0].Fields["assetClass"] != nil && changes[0].Fields["quantity"] == nil {
		f.mu.Lock()
		wait := f.pairAssets
		if wait != nil {
			if f.pairWait++; f.pairWait == 2 {
				f.pairAssets = nil
				close(wait)
			}
		}
		f.mu.Unlock()
		if wait != nil {
			select {
			case <-wait:
			case <-time.After(10 * time.Second):
			}
		}
	}
	for _, c := range changes {
		if _, ok := c.Fields["quantity"]; ok && f.failPositions {
			f.failPositions = false
			return nil, errors.New("the database went away")
		}
	}
	return f.Writer.WriteAsServer(ctx, userID, workspaceID, changes)
}

// netSwitch is the providers' network in tests: it records every query sent, and while down
// every request fails as a read timing out does.
type netSwitch struct {
	down    atomic.Bool
	mu      sync.Mutex
	queries []url.Values
	// pairing: the next two requests whose path ends with pairSuffix wait for each other, so
	// that two reads overlap.
	pairSuffix string
	pairWait   int
	paired     chan struct{}
}

// pair makes the next two requests whose path ends with suffix wait for each other (at most
// ten seconds).
func (n *netSwitch) pair(suffix string) {
	n.mu.Lock()
	n.pairSuffix, n.pairWait, n.paired = suffix, 0, make(chan struct{})
	n.mu.Unlock()
}

func (n *netSwitch) RoundTrip(r *http.Request) (*http.Response, error) {
	n.mu.Lock()
	n.queries = append(n.queries, r.URL.Query())
	var wait chan struct{}
	if n.pairSuffix != "" && strings.HasSuffix(r.URL.Path, n.pairSuffix) {
		wait = n.paired
		if n.pairWait++; n.pairWait == 2 {
			n.pairSuffix = ""
			close(wait)
		}
	}
	n.mu.Unlock()
	if wait != nil {
		select {
		case <-wait:
		case <-time.After(10 * time.Second):
		}
	}
	if n.down.Load() {
		return nil, &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}
	}
	return http.DefaultTransport.RoundTrip(r)
}

// sent returns the values of a query parameter sent so far (non-empty ones).
func (n *netSwitch) sent(name string) []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []string
	for _, q := range n.queries {
		if v := q.Get(name); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// logBuffer is what the service logged.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}
func (b *logBuffer) String() string { b.mu.Lock(); defer b.mu.Unlock(); return b.buf.String() }

type world struct {
	// brokerNow is the SnapTrade adapter's clock (it dates the cash balance): the real one
	// unless a test sets it.
	brokerNow func() time.Time
	net       *netSwitch
	logs      *logBuffer
	db        *store.DB
	writer    *flakyWriter
	engine    *psync.Engine
	svc       *connect.Service
	eb        *ebfake.Server
	st        *stfake.Server
	clock     *testkit.Clock
	editor    string
	viewer    string
	outside   string
	w         string
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
	w := &world{db: db, clock: testkit.NewClock(now), net: &netSwitch{}, logs: &logBuffer{}, brokerNow: time.Now}
	retrying := func() *connect.Retrying {
		return &connect.Retrying{HTTP: &http.Client{Transport: w.net, Timeout: 30 * time.Second}}
	}
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
			p, err := enablebanking.New(enablebanking.Config{AppID: "app-1", Key: key, BaseURL: srv.URL, HTTP: retrying()})
			if err != nil {
				t.Fatal(err)
			}
			list = append(list, p)
		case "snaptrade":
			w.st = stfake.New("CLIENT", "consumer")
			srv := httptest.NewServer(w.st)
			t.Cleanup(srv.Close)
			w.st.URL = srv.URL
			p, err := snaptrade.New(snaptrade.Config{ClientID: "CLIENT", ConsumerKey: "consumer", BaseURL: srv.URL + "/api/v1", HTTP: retrying(),
				Now: func() time.Time { return w.brokerNow() }})
			if err != nil {
				t.Fatal(err)
			}
			list = append(list, p)
		}
	}
	key := make([]byte, config.SecretKeyLen)
	_, _ = rand.Read(key)
	w.writer = &flakyWriter{Writer: w.engine}
	if w.svc, err = connect.New(connect.Config{DB: db, Sync: w.writer, SecretKey: key, Providers: list, PublicURL: publicURL, Now: w.clock.Now,
		Logger: slog.New(slog.NewTextHandler(w.logs, nil))}); err != nil {
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

// linkBankAdoptingAll links the fake bank in the world's workspace as its editor and adopts every
// account it offers as a bank account: the start of most tests of a bank connection.
func (w *world) linkBankAdoptingAll(t *testing.T, ctx context.Context) connect.Connection {
	t.Helper()
	req := bank
	req.WorkspaceID = w.w
	c := w.link(t, ctx, req)
	var choices []connect.Choice
	for _, a := range c.Accounts {
		choices = append(choices, connect.Choice{AccountID: a.ID, AssetClass: "bank_accounts"})
	}
	adopted, err := w.svc.Adopt(ctx, w.editor, c.ID, choices)
	if err != nil {
		t.Fatal(err)
	}
	return adopted
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
		page, err := w.engine.SnapshotPage(context.Background(), w.viewer, w.w, token, 0)
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
		// The bank's booked balance on its date, and the history counted back from it through the
		// booked transactions (the pending card payment is not in a booked balance): the end of
		// each day with movements, and of the day before the first one.
		history := func() map[string]string {
			out := map[string]string{}
			for _, v := range w.records(t, "valuations") {
				if v.Fields["assetId"] != assetID || v.Fields["source"] != "connection" || v.Fields["currency"] != "EUR" {
					t.Errorf("valuation: %v", v.Fields)
				}
				if _, twice := out[v.Fields["date"].(string)]; twice {
					t.Errorf("two valuations on %s", v.Fields["date"])
				}
				out[v.Fields["date"].(string)] = v.Fields["value"].(string)
			}
			return out
		}
		wantHistory := map[string]string{"2026-11-19": "10270.45", "2026-11-20": "10180.55", "2026-11-25": "12530.55", "2026-11-27": "12530.55"}
		if got := history(); !maps.Equal(got, wantHistory) {
			t.Fatalf("valuations: %v, want %v", got, wantHistory)
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
		if got := history(); !maps.Equal(got, wantHistory) {
			t.Errorf("reads of the same day made valuations %v, want the same ones (one updated)", got)
		}
		pages := 0
		for _, r := range w.eb.Requests() {
			if strings.Contains(r, "/transactions") {
				pages++
			}
		}
		if pages != 2 {
			t.Errorf("the transactions were read %d times (pages), want once: two pages", pages)
		}
		// Tomorrow the reads are back; the scheduled refresh reads every active connection.
		w.clock.Advance(24 * time.Hour)
		if n := w.svc.RefreshAll(ctx); n != 1 {
			t.Fatalf("tomorrow's scheduled refresh read %d accounts", n)
		}
		// The bank still dates its balance 27 November: the same valuation, not a second one.
		if got := history(); !maps.Equal(got, wantHistory) {
			t.Errorf("valuations %v after tomorrow's read, want the same ones", got)
		}
		// A member marks the asset sold: the account keeps its link but is not read (an asset no
		// longer held is read-only), and the sale stays as written; undone, the reads resume.
		balanceReads := func() int {
			n := 0
			for _, r := range w.eb.Requests() {
				if strings.HasSuffix(r, "/balances") {
					n++
				}
			}
			return n
		}
		sale := map[string]any{"kind": "sold", "date": "2026-11-28", "amount": "12000"}
		if _, err := w.engine.WriteAsServer(ctx, w.editor, w.w, []psync.ServerChange{{Collection: "assets", RecordID: assetID, Fields: map[string]any{"disposal": sale}}}); err != nil {
			t.Fatal(err)
		}
		before := balanceReads()
		w.clock.Advance(24 * time.Hour)
		if res, err := w.svc.Refresh(ctx, w.editor, c.ID); err != nil || res.Refreshed != 0 || res.Limited != 0 {
			t.Fatalf("after the asset was sold: %+v %v", res, err)
		}
		if n := w.svc.RefreshAll(ctx); n != 0 {
			t.Errorf("the scheduled refresh read %d accounts of a sold asset", n)
		}
		if got := balanceReads(); got != before {
			t.Errorf("the bank was read %d times for a sold asset", got-before)
		}
		if f := w.records(t, "assets")[assetID].Fields; !reflect.DeepEqual(f["disposal"], sale) || f["currentValue"] != "12530.55" {
			t.Errorf("the sold asset was written: %v", f)
		}
		if got, err := w.svc.Get(ctx, w.editor, c.ID); err != nil {
			t.Fatal(err)
		} else {
			for _, a := range got.Accounts {
				if a.ID == nomina.ID && (a.AssetID == nil || *a.AssetID != assetID) {
					t.Errorf("the sale unlinked the account: %+v", a)
				}
			}
		}
		if _, err := w.engine.WriteAsServer(ctx, w.editor, w.w, []psync.ServerChange{{Collection: "assets", RecordID: assetID, Fields: map[string]any{"disposal": nil}}}); err != nil {
			t.Fatal(err)
		}
		if res, err := w.svc.Refresh(ctx, w.editor, c.ID); err != nil || res.Refreshed != 1 {
			t.Fatalf("after the sale was undone: %+v %v", res, err)
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
		c := w.linkBankAdoptingAll(t, ctx)
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
		req := bank
		req.WorkspaceID = w.w
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
			if a.Fields["category"] != "institutional_account" {
				continue // a position (TestABrokerAccountsPositionsAreAssetsOfTheirOwn)
			}
			if a.Fields["assetClass"] != "investments" || a.Fields["currentValue"] != "1211.37" ||
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

// assetsByName returns the workspace's assets by name, and the valuations of each asset id.
func (w *world) assetsByName(t *testing.T) (map[string]*psync.RecordState, map[string][]*psync.RecordState) {
	t.Helper()
	byName := map[string]*psync.RecordState{}
	for _, a := range w.records(t, "assets") {
		if !a.Deleted() {
			byName[a.Fields["name"].(string)] = a
		}
	}
	valuations := map[string][]*psync.RecordState{}
	for _, v := range w.records(t, "valuations") {
		id := v.Fields["assetId"].(string)
		valuations[id] = append(valuations[id], v)
	}
	return byName, valuations
}

func TestABrokerAccountsPositionsAreAssetsOfTheirOwnMatchedOnEveryReadAndKeptWhenSold(t *testing.T) {
	testkit.Stores(t, func(t *testing.T, db *store.DB) {
		w := setup(t, db, "snaptrade")
		ctx := core.WithLanguage(context.Background(), "es")
		c := w.link(t, ctx, connect.StartRequest{WorkspaceID: w.w, Provider: "snaptrade", InstitutionID: "DEGIRO"})
		c, err := w.svc.Adopt(ctx, w.editor, c.ID, []connect.Choice{{AccountID: c.Accounts[0].ID, AssetClass: "investments"}})
		if err != nil {
			t.Fatal(err)
		}
		today := w.clock.Now().UTC().Format(time.DateOnly)

		// The account carries its cash; each position is an investment of its own.
		assets, valuations := w.assetsByName(t)
		if len(assets) != 3 {
			t.Fatalf("%d assets, want the account and its two positions: %v", len(assets), assets)
		}
		account := assets["DEGIRO Cuenta Básica"]
		if account == nil || account.Fields["currentValue"] != "1211.37" || account.Fields["category"] != "institutional_account" {
			t.Fatalf("the account's asset carries its cash only: %v", account)
		}
		etf, stock := assets["iShares Core MSCI World UCITS ETF"], assets["Banco Santander SA"]
		if etf == nil || stock == nil {
			t.Fatalf("positions: %v", assets)
		}
		want := map[string]any{"assetClass": "investments", "category": "fund", "currency": "EUR", "quantity": "350", "currentValue": "35420",
			"valuationDate": today, "market": "XAMS", "institution": "DEGIRO", "participation": "100", "purchaseValue": "27440",
			"description": "IWDA.AS · DEGIRO Cuenta Básica"}
		for k, v := range want {
			if etf.Fields[k] != v {
				t.Errorf("ETF %s = %v, want %v", k, etf.Fields[k], v)
			}
		}
		if stock.Fields["category"] != "equity" || stock.Fields["issuingCompany"] != "Banco Santander SA" || stock.Fields["quantity"] != "1500" ||
			stock.Fields["currentValue"] != "10800" || stock.Fields["market"] != "XMAD" {
			t.Errorf("stock: %v", stock.Fields)
		}
		idOf := map[string]string{}
		for id, a := range w.records(t, "assets") {
			idOf[a.Fields["name"].(string)] = id
		}
		etfAsset, stockAsset := idOf["iShares Core MSCI World UCITS ETF"], idOf["Banco Santander SA"]
		if v := valuations[etfAsset]; len(v) != 1 || v[0].Fields["value"] != "35420" || v[0].Fields["date"] != today || v[0].Fields["source"] != "connection" {
			t.Errorf("the ETF's valuations: %v", v)
		}
		// The dashboard's sum: cash and positions make the broker's total, once.
		total := decimal.Zero
		for _, a := range assets {
			total = total.Add(decimal.RequireFromString(a.Fields["currentValue"].(string)))
		}
		if total.String() != "47431.37" {
			t.Errorf("the account and its positions sum to %s, want the broker's total 47431.37", total)
		}
		got, err := w.svc.Get(ctx, w.viewer, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		if p := got.Accounts[0].Positions; len(p) != 2 || p[0].Symbol != "IWDA.AS" || p[0].Value != "35420" || p[0].Price != "101.2" ||
			p[1].Units != "1500" || *p[1].AssetID != stockAsset || p[1].Status != "open" {
			t.Errorf("positions as the API shows them: %+v", p)
		}

		// A second read the same day updates the same assets and the same valuations.
		if res, err := w.svc.Refresh(ctx, w.editor, c.ID); err != nil || res.Refreshed != 1 {
			t.Fatalf("second read: %+v %v", res, err)
		}
		assets, valuations = w.assetsByName(t)
		if len(assets) != 3 || len(valuations[etfAsset]) != 1 || len(valuations[stockAsset]) != 1 {
			t.Fatalf("after a second read the same day: %d assets, valuations %v", len(assets), valuations)
		}

		// The next day the Santander shares are sold: the asset stays, at quantity and value zero.
		w.clock.Advance(24 * time.Hour)
		tomorrow := w.clock.Now().UTC().Format(time.DateOnly)
		w.st.Sell("SAN.MC")
		if _, err := w.svc.Refresh(ctx, w.editor, c.ID); err != nil {
			t.Fatal(err)
		}
		assets, valuations = w.assetsByName(t)
		stock = assets["Banco Santander SA"]
		if len(assets) != 3 || stock == nil || stock.Fields["quantity"] != "0" || stock.Fields["currentValue"] != "0" || stock.Fields["valuationDate"] != tomorrow {
			t.Fatalf("a sold position: %d assets, %v", len(assets), stock)
		}
		if v := valuations[stockAsset]; len(v) != 2 {
			t.Errorf("the sold position's history: %v", v)
		}
		if len(valuations[etfAsset]) != 2 {
			t.Errorf("the ETF has a valuation per day: %v", valuations[etfAsset])
		}
		got, _ = w.svc.Get(ctx, w.editor, c.ID)
		if p := got.Accounts[0].Positions; len(p) != 2 || p[0].Status != "open" || p[1].Status != "closed" || p[1].Value != "0" {
			t.Errorf("positions after the sale: %+v", p)
		}

		// A renewed link (new SnapTrade account ids) feeds the same assets, never new ones; the
		// Santander shares bought back bring their asset back to life.
		w.st.BuyBack("SAN.MC")
		renewed := w.link(t, ctx, connect.StartRequest{WorkspaceID: w.w, RenewConnectionID: c.ID})
		if renewed.ID != c.ID || len(renewed.Accounts) != 1 || renewed.Accounts[0].AssetID == nil || len(renewed.Accounts[0].Positions) != 2 {
			t.Fatalf("renewed: %+v", renewed)
		}
		w.clock.Advance(24 * time.Hour)
		if res, err := w.svc.Refresh(ctx, w.editor, c.ID); err != nil || res.Refreshed != 1 {
			t.Fatalf("a read through the renewed link: %+v %v", res, err)
		}
		assets, valuations = w.assetsByName(t)
		if len(assets) != 3 || len(valuations[etfAsset]) != 3 || assets["iShares Core MSCI World UCITS ETF"].Fields["currentValue"] != "35420" {
			t.Fatalf("after the renewal: %d assets, ETF valuations %v", len(assets), valuations[etfAsset])
		}
		if stock := assets["Banco Santander SA"]; stock.Fields["quantity"] != "1500" || stock.Fields["currentValue"] != "10800" || len(valuations[stockAsset]) != 3 {
			t.Errorf("shares bought back: %v, %d valuations", stock.Fields, len(valuations[stockAsset]))
		}
		got, _ = w.svc.Get(ctx, w.editor, c.ID)
		if p := got.Accounts[0].Positions; len(p) != 2 || p[0].Status != "open" || p[1].Status != "open" {
			t.Errorf("positions after buying back: %+v", p)
		}
		var rows int
		if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM connection_positions`).Scan(&rows); err != nil || rows != 2 {
			t.Errorf("%d position rows, want 2", rows)
		}

		// A day the broker has no price for the ETF: it keeps its last value and is not sold.
		w.st.Unprice("IWDA.AS")
		w.clock.Advance(24 * time.Hour)
		if _, err := w.svc.Refresh(ctx, w.editor, c.ID); err != nil {
			t.Fatal(err)
		}
		assets, valuations = w.assetsByName(t)
		if etf := assets["iShares Core MSCI World UCITS ETF"]; etf.Fields["quantity"] != "350" || etf.Fields["currentValue"] != "35420" || len(valuations[etfAsset]) != 3 {
			t.Errorf("an ETF without a price: %v, %d valuations", etf.Fields, len(valuations[etfAsset]))
		}

		// A member marks both positions' assets sold (with their own amounts): the broker's next
		// reads leave them alone, the one it still reports and the one it reports sold alike.
		for id, amount := range map[string]string{etfAsset: "36000", stockAsset: "11000"} {
			sale := map[string]any{"kind": "sold", "date": "2026-11-28", "amount": amount}
			if _, err := w.engine.WriteAsServer(ctx, w.editor, w.w, []psync.ServerChange{{Collection: "assets", RecordID: id, Fields: map[string]any{"disposal": sale}}}); err != nil {
				t.Fatal(err)
			}
		}
		heldBefore, valuationsBefore := w.assetsByName(t)
		w.st.Reprice("IWDA.AS")
		w.st.Sell("SAN.MC")
		w.clock.Advance(24 * time.Hour)
		if _, err := w.svc.Refresh(ctx, w.editor, c.ID); err != nil {
			t.Fatal(err)
		}
		assets, valuations = w.assetsByName(t)
		for _, name := range []string{"iShares Core MSCI World UCITS ETF", "Banco Santander SA"} {
			if !reflect.DeepEqual(assets[name].Fields, heldBefore[name].Fields) {
				t.Errorf("a read wrote to the sold %s: %v, was %v", name, assets[name].Fields, heldBefore[name].Fields)
			}
		}
		if len(valuations[etfAsset]) != len(valuationsBefore[etfAsset]) || len(valuations[stockAsset]) != len(valuationsBefore[stockAsset]) {
			t.Errorf("valuations of sold assets: %d and %d, were %d and %d", len(valuations[etfAsset]), len(valuations[stockAsset]), len(valuationsBefore[etfAsset]), len(valuationsBefore[stockAsset]))
		}

		// A member deletes the ETF's asset: the position stops feeding it and is not made again.
		if _, err := w.engine.WriteAsServer(ctx, w.editor, w.w, []psync.ServerChange{{Collection: "assets", RecordID: etfAsset, Delete: true}}); err != nil {
			t.Fatal(err)
		}
		w.clock.Advance(24 * time.Hour)
		if _, err := w.svc.Refresh(ctx, w.editor, c.ID); err != nil {
			t.Fatal(err)
		}
		if assets, _ = w.assetsByName(t); len(assets) != 2 || assets["iShares Core MSCI World UCITS ETF"] != nil {
			t.Errorf("after the member deleted the ETF: %v", assets)
		}
		if n := len(w.records(t, "assets")); n != 3 {
			t.Errorf("%d asset records (the deleted one a tombstone), want 3: no new asset for the ETF", n)
		}
	})
}

func TestAPositionWhoseWriteFailedIsFinishedByTheNextReadNeverDuplicated(t *testing.T) {
	testkit.Stores(t, func(t *testing.T, db *store.DB) {
		w := setup(t, db, "snaptrade")
		ctx := context.Background()
		c := w.link(t, ctx, connect.StartRequest{WorkspaceID: w.w, Provider: "snaptrade", InstitutionID: "DEGIRO"})
		w.writer.failPositions = true
		c, err := w.svc.Adopt(ctx, w.editor, c.ID, []connect.Choice{{AccountID: c.Accounts[0].ID, AssetClass: "investments"}})
		if err != nil {
			t.Fatal(err) // the first read's failure is logged; the account's asset is made
		}
		if assets, _ := w.assetsByName(t); len(assets) != 1 {
			t.Fatalf("after the failed write: %d assets, want the account's only", len(assets))
		}
		recorded := map[string]string{}
		rows, err := db.Query(ctx, `SELECT match_key, asset_id FROM connection_positions WHERE status = 'creating'`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var key, asset string
			if err := rows.Scan(&key, &asset); err != nil {
				t.Fatal(err)
			}
			recorded[key] = asset
		}
		rows.Close()
		if len(recorded) != 2 {
			t.Fatalf("positions recorded before their write: %v", recorded)
		}
		if _, err := w.svc.Refresh(ctx, w.editor, c.ID); err != nil {
			t.Fatal(err)
		}
		byID := w.records(t, "assets")
		if len(byID) != 3 {
			t.Fatalf("%d assets after the next read, want the account and two positions", len(byID))
		}
		for key, id := range recorded {
			if a := byID[id]; a == nil || a.Fields["quantity"] == nil {
				t.Errorf("position %s was not written with its recorded id %s", key, id)
			}
		}
		got, _ := w.svc.Get(ctx, w.editor, c.ID)
		if p := got.Accounts[0].Positions; len(p) != 2 || p[0].Status != "open" || p[1].Status != "open" {
			t.Errorf("positions: %+v", p)
		}
	})
}

// A request that times out quotes its whole URL in Go's error, and SnapTrade's URLs carry the
// user's secret: neither the log nor the answer may ever show it.
func TestAProviderTimeoutNeverLogsTheUsersSecret(t *testing.T) {
	testkit.Stores(t, func(t *testing.T, db *store.DB) {
		w := setup(t, db, "snaptrade")
		ctx := core.WithLanguage(context.Background(), "en")
		c := w.link(t, ctx, connect.StartRequest{WorkspaceID: w.w, Provider: "snaptrade", InstitutionID: "DEGIRO"})
		if _, err := w.svc.Adopt(ctx, w.editor, c.ID, []connect.Choice{{AccountID: c.Accounts[0].ID, AssetClass: "investments"}}); err != nil {
			t.Fatal(err)
		}
		secrets := w.net.sent("userSecret")
		if len(secrets) == 0 {
			t.Fatal("no request carried the user's secret")
		}
		secret := secrets[len(secrets)-1]
		w.net.down.Store(true)
		_, err := w.svc.Refresh(ctx, w.editor, c.ID)
		if code(err) != core.EUNAVAILABLE || strings.Contains(err.Error(), secret) {
			t.Errorf("a refresh that timed out: %v", err)
		}
		w.clock.Advance(24 * time.Hour)
		w.svc.RefreshAll(ctx)
		logs := w.logs.String()
		if !strings.Contains(logs, "i/o timeout") || !strings.Contains(logs, "/accounts/") {
			t.Errorf("the timeout was not logged with its path: %s", logs)
		}
		if strings.Contains(logs, secret) || strings.Contains(logs, "userSecret") {
			t.Errorf("the log shows the user's secret: %s", logs)
		}
	})
}

const dollarsIBAN = "ES7620770024003102575766"

// accountsByName returns a connection's accounts by name.
func accountsByName(c connect.Connection) map[string]connect.ConnectionAccount {
	out := map[string]connect.ConnectionAccount{}
	for _, a := range c.Accounts {
		out[a.Name] = a
	}
	return out
}

// A renewed consent that no longer includes an account (closed, or not ticked again at the bank):
// the account keeps its asset, stops updating, and the others are read; the connection stays
// active instead of expiring again at its next read.
func TestARenewalWithoutAnAccountDetachesItAndKeepsTheConnectionActive(t *testing.T) {
	testkit.Stores(t, func(t *testing.T, db *store.DB) {
		w := setup(t, db, "enablebanking")
		ctx := context.Background()
		c := w.linkBankAdoptingAll(t, ctx)
		dollars := accountsByName(c)["Cuenta Dólares"]
		w.eb.ExpireSessions()
		if _, err := w.svc.Refresh(ctx, w.editor, c.ID); code(err) != core.ECONFLICT {
			t.Fatalf("reading through an expired consent: %v", err)
		}
		w.eb.Withhold(dollarsIBAN)
		renewed := w.link(t, ctx, connect.StartRequest{WorkspaceID: w.w, RenewConnectionID: c.ID, Language: "en"})
		got := accountsByName(renewed)
		if renewed.Status != "active" || len(renewed.Accounts) != 2 || got["Cuenta Nómina"].Detached ||
			!got["Cuenta Dólares"].Detached || got["Cuenta Dólares"].AssetID == nil || *got["Cuenta Dólares"].AssetID != *dollars.AssetID {
			t.Fatalf("renewed without the dollar account: %+v", renewed)
		}
		for day := 1; day <= 2; day++ {
			w.clock.Advance(24 * time.Hour)
			res, err := w.svc.Refresh(ctx, w.editor, c.ID)
			if err != nil || res.Refreshed != 1 || res.Failed != 0 {
				t.Fatalf("read %d after the renewal: %+v %v", day, res, err)
			}
			if after, _ := w.svc.Get(ctx, w.editor, c.ID); after.Status != "active" || after.LastError != "" {
				t.Fatalf("after read %d: status %s, last error %q", day, after.Status, after.LastError)
			}
		}
		if assets, _ := w.assetsByName(t); len(assets) != 2 || assets["Cuenta Dólares"] == nil {
			t.Errorf("the detached account's asset must stay: %v", assets)
		}
	})
}

// One account the provider no longer finds (closed while the consent lasts): its error is kept on
// the account, the accounts after it are still read, and the connection stays active.
func TestOneAccountsFailureIsKeptOnItAndTheOthersAreRead(t *testing.T) {
	testkit.Stores(t, func(t *testing.T, db *store.DB) {
		w := setup(t, db, "enablebanking")
		ctx := context.Background()
		c := w.linkBankAdoptingAll(t, ctx)
		// The payroll account is the first one read (account rows are read in the order found).
		w.eb.Close("ES9121000418450200051332")
		w.clock.Advance(24 * time.Hour)
		res, err := w.svc.Refresh(ctx, w.editor, c.ID)
		if err != nil || res.Refreshed != 1 || res.Failed != 1 {
			t.Fatalf("with the payroll account closed: %+v %v", res, err)
		}
		got, _ := w.svc.Get(ctx, w.editor, c.ID)
		if got.Status != "active" || got.LastError != "" {
			t.Fatalf("the connection after one account failed: %s %q", got.Status, got.LastError)
		}
		today := w.clock.Now().UTC().Format(time.DateOnly)
		for _, a := range got.Accounts {
			closed := a.Name == "Cuenta Nómina"
			if closed != (a.LastError == "account_error") || (!closed && (a.LastRefreshAt == nil || a.LastRefreshAt.Format(time.DateOnly) != today)) {
				t.Errorf("account %s: last error %q, last read %v", a.Name, a.LastError, a.LastRefreshAt)
			}
		}
	})
}

// valuationsPerDay counts the live valuations of each asset and date.
func (w *world) valuationsPerDay(t *testing.T) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, v := range w.records(t, "valuations") {
		if !v.Deleted() {
			out[v.Fields["assetId"].(string)+" "+v.Fields["date"].(string)]++
		}
	}
	return out
}

// Two refreshes of a broker account overlapping (two instances' schedules, or "update balance"
// during the scheduled one): one valuation per asset and date, for the cash and every position.
func TestOverlappingRefreshesWriteOneValuationPerAssetAndDay(t *testing.T) {
	testkit.Stores(t, func(t *testing.T, db *store.DB) {
		w := setup(t, db, "snaptrade")
		ctx := context.Background()
		c := w.link(t, ctx, connect.StartRequest{WorkspaceID: w.w, Provider: "snaptrade", InstitutionID: "DEGIRO"})
		if _, err := w.svc.Adopt(ctx, w.editor, c.ID, []connect.Choice{{AccountID: c.Accounts[0].ID, AssetClass: "investments"}}); err != nil {
			t.Fatal(err)
		}
		w.clock.Advance(24 * time.Hour)
		w.brokerNow = w.clock.Now
		w.net.pair("/positions/all") // both have read the balances, neither has written
		var wg sync.WaitGroup
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := w.svc.Refresh(ctx, w.editor, c.ID); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		today := w.clock.Now().UTC().Format(time.DateOnly)
		days := 0
		for k, n := range w.valuationsPerDay(t) {
			if n != 1 {
				t.Errorf("%d valuations of %s", n, k)
			}
			if strings.HasSuffix(k, today) {
				days++
			}
		}
		if days != 3 {
			t.Errorf("%d assets valued today, want the cash and two positions", days)
		}
	})
}

// The first read of a new bank account (Adopt's) overlapping the schedule's: its history days are
// written once.
func TestAFirstReadOverlappingTheScheduleWritesTheHistoryOnce(t *testing.T) {
	testkit.Stores(t, func(t *testing.T, db *store.DB) {
		w := setup(t, db, "enablebanking")
		ctx := context.Background()
		req := bank
		req.WorkspaceID = w.w
		c := w.link(t, ctx, req)
		nomina := accountsByName(c)["Cuenta Nómina"].ID
		w.net.pair("/transactions")
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			if _, err := w.svc.Adopt(ctx, w.editor, c.ID, []connect.Choice{{AccountID: nomina, AssetClass: "bank_accounts"}}); err != nil {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			for i := 0; i < 1000; i++ { // the schedule ticks once the account feeds its asset
				var n int
				if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM connection_accounts WHERE id = ? AND asset_id IS NOT NULL`, nomina).Scan(&n); err == nil && n == 1 {
					break
				}
				time.Sleep(2 * time.Millisecond)
			}
			w.svc.RefreshAll(ctx)
		}()
		wg.Wait()
		per := w.valuationsPerDay(t)
		if len(per) != 4 {
			t.Errorf("valuations per day: %v, want the balance and three days of history", per)
		}
		for k, n := range per {
			if n != 1 {
				t.Errorf("%d valuations of %s", n, k)
			}
		}
	})
}

// member adds a user to the workspace with a role and returns their id.
func (w *world) member(t *testing.T, role string) string {
	t.Helper()
	id, now := uuid.NewString(), w.clock.Now()
	add(t, w.db, `INSERT INTO users (id, email, onboarding_step, created_at, updated_at) VALUES (?, ?, 'done', ?, ?)`, id, id+"@example.com", now, now)
	add(t, w.db, `INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)`, w.w, id, role, now)
	return id
}

// linkAs links as another member (w.link links as the editor).
func (w *world) linkAs(t *testing.T, ctx context.Context, userID string, req connect.StartRequest) connect.Connection {
	t.Helper()
	started, err := w.svc.Start(ctx, userID, req)
	if err != nil {
		t.Fatal(err)
	}
	back := visit(t, started.RedirectURL)
	c, err := w.svc.Complete(ctx, userID, back.Get("state"), back)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A member removed from the workspace, or leaving it: their connections there end (nothing reads
// their broker any more, nobody renews them), the assets they fed stay, and other members'
// connections go on.
func TestARemovedOrLeavingMembersConnectionsEndAndTheirAssetsStay(t *testing.T) {
	testkit.Stores(t, func(t *testing.T, db *store.DB) {
		w := setup(t, db, "snaptrade", "enablebanking")
		ctx := context.Background()
		owner, leaver, stays := w.member(t, "owner"), w.member(t, "editor"), w.member(t, "editor")
		req := bank
		req.WorkspaceID = w.w
		ids := map[string]string{}
		for u, r := range map[string]connect.StartRequest{
			w.editor: {WorkspaceID: w.w, Provider: "snaptrade", InstitutionID: "DEGIRO"},
			leaver:   req,
		} {
			c := w.linkAs(t, ctx, u, r)
			if _, err := w.svc.Adopt(ctx, u, c.ID, []connect.Choice{{AccountID: c.Accounts[0].ID, AssetClass: "investments"}}); err != nil {
				t.Fatal(err)
			}
			ids[u] = c.ID
		}
		// Another member's link in progress is theirs, and stays.
		if _, err := w.svc.Start(ctx, stays, connect.StartRequest{WorkspaceID: w.w, Provider: "snaptrade", InstitutionID: "DEGIRO"}); err != nil {
			t.Fatal(err)
		}
		assets := len(w.records(t, "assets"))
		ws := workspace.NewService(db)
		if err := ws.RemoveMember(ctx, owner, w.w, w.editor); err != nil {
			t.Fatal(err)
		}
		if err := ws.RemoveMember(ctx, leaver, w.w, leaver); err != nil {
			t.Fatal(err)
		}
		if list, err := w.svc.List(ctx, owner, w.w); err != nil || len(list) != 0 {
			t.Fatalf("connections left: %+v %v", list, err)
		}
		if list, err := w.svc.List(ctx, stays, w.w); err != nil || len(list) != 1 || list[0].Status != "pending" {
			t.Fatalf("the staying member's link: %+v %v", list, err)
		}
		if _, err := w.svc.Get(ctx, owner, ids[w.editor]); code(err) != core.ENOTFOUND {
			t.Errorf("the removed member's connection: %v", err)
		}
		var rows int
		if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM connections WHERE user_id IN (?, ?)`, w.editor, leaver).Scan(&rows); err != nil || rows != 0 {
			t.Errorf("%d connections of the departed members remain", rows)
		}
		w.clock.Advance(24 * time.Hour)
		if n := w.svc.RefreshAll(ctx); n != 0 {
			t.Errorf("the schedule read %d accounts of departed members", n)
		}
		live := 0
		for _, a := range w.records(t, "assets") {
			if !a.Deleted() {
				live++
			}
		}
		if live != assets {
			t.Errorf("%d assets after the members left, want the %d they had", live, assets)
		}
	})
}

// A membership ended without the workspace service (a race, or a row deleted by hand): the
// connection is not read for a member who is gone (nor would the sync engine take its writes), and
// the connection says so instead of staying "active" with no error.
func TestARefusedWriteIsKeptAsTheConnectionsError(t *testing.T) {
	testkit.Stores(t, func(t *testing.T, db *store.DB) {
		w := setup(t, db, "snaptrade")
		ctx := context.Background()
		c := w.link(t, ctx, connect.StartRequest{WorkspaceID: w.w, Provider: "snaptrade", InstitutionID: "DEGIRO"})
		if _, err := w.svc.Adopt(ctx, w.editor, c.ID, []connect.Choice{{AccountID: c.Accounts[0].ID, AssetClass: "investments"}}); err != nil {
			t.Fatal(err)
		}
		owner := w.member(t, "owner")
		add(t, db, `DELETE FROM memberships WHERE workspace_id = ? AND user_id = ?`, w.w, w.editor)
		w.clock.Advance(24 * time.Hour)
		if n := w.svc.RefreshAll(ctx); n != 0 {
			t.Errorf("the schedule wrote %d accounts for a departed member", n)
		}
		got, err := w.svc.Get(ctx, owner, c.ID)
		if err != nil || got.LastError != "write_failed" {
			t.Errorf("the connection after its writes were refused: %+v %v", got, err)
		}
	})
}

// A member made a viewer may no longer write in the workspace, so their connections there end with
// the change, as when they leave: the institution is not read with their consent any more (no
// request at all), the assets stay, and being made an editor again brings nothing back (they, or
// another editor, link the institution again: its accounts are matched to the same assets). A
// member who stays an editor or becomes an owner keeps theirs.
func TestAMemberMadeViewerLosesTheirConnectionsAndTheirInstitutionIsReadNoMore(t *testing.T) {
	testkit.Stores(t, func(t *testing.T, db *store.DB) {
		w := setup(t, db, "snaptrade", "enablebanking")
		ctx := context.Background()
		owner, promoted := w.member(t, "owner"), w.member(t, "editor")
		c := w.linkBankAdoptingAll(t, ctx)
		kept := w.linkAs(t, ctx, promoted, connect.StartRequest{WorkspaceID: w.w, Provider: "snaptrade", InstitutionID: "DEGIRO"})
		if _, err := w.svc.Adopt(ctx, promoted, kept.ID, []connect.Choice{{AccountID: kept.Accounts[0].ID, AssetClass: "investments"}}); err != nil {
			t.Fatal(err)
		}
		assets := w.liveAssets(t)
		ws := workspace.NewService(db)
		if _, err := ws.ChangeRole(ctx, owner, w.w, promoted, authz.Owner); err != nil {
			t.Fatal(err)
		}
		if _, err := ws.ChangeRole(ctx, owner, w.w, w.editor, authz.Viewer); err != nil {
			t.Fatal(err)
		}
		list, err := w.svc.List(ctx, owner, w.w)
		if err != nil || len(list) != 1 || list[0].ID != kept.ID {
			t.Fatalf("connections after the change of roles: %+v %v (want only %s)", list, err, kept.ID)
		}
		if _, err := w.svc.Get(ctx, owner, c.ID); code(err) != core.ENOTFOUND {
			t.Errorf("the viewer's connection: %v", err)
		}
		count := func(requests []string, part string) int {
			n := 0
			for _, r := range requests {
				if strings.Contains(r, part) {
					n++
				}
			}
			return n
		}
		bankReads, brokerReads := count(w.eb.Requests(), "/accounts/"), count(w.st.Requests(), "/accounts")
		w.clock.Advance(24 * time.Hour)
		w.svc.RefreshAll(ctx)
		if _, err := ws.ChangeRole(ctx, owner, w.w, w.editor, authz.Editor); err != nil {
			t.Fatal(err)
		}
		w.clock.Advance(24 * time.Hour)
		w.svc.RefreshAll(ctx)
		if got := count(w.eb.Requests(), "/accounts/"); got != bankReads {
			t.Errorf("the bank was read %d times after its linker became a viewer", got-bankReads)
		}
		if got := count(w.st.Requests(), "/accounts"); got == brokerReads {
			t.Error("the new owner's broker connection was not read")
		}
		if got := w.liveAssets(t); got != assets {
			t.Errorf("%d assets after the change of roles, want the %d there were", got, assets)
		}
	})
}

// A linker who may no longer write (made a viewer without the workspace service: a row changed by
// hand, or a race) is not read for: the refresh stops before calling the institution and says why.
func TestAConnectionWhoseLinkerCannotWriteIsNotRead(t *testing.T) {
	testkit.Stores(t, func(t *testing.T, db *store.DB) {
		w := setup(t, db, "enablebanking")
		ctx := context.Background()
		c := w.linkBankAdoptingAll(t, ctx)
		owner := w.member(t, "owner")
		add(t, db, `UPDATE memberships SET role = 'viewer' WHERE workspace_id = ? AND user_id = ?`, w.w, w.editor)
		reads := func() int {
			n := 0
			for _, r := range w.eb.Requests() {
				if strings.Contains(r, "/balances") || strings.Contains(r, "/transactions") {
					n++
				}
			}
			return n
		}
		before := reads()
		w.clock.Advance(24 * time.Hour)
		if n := w.svc.RefreshAll(ctx); n != 0 {
			t.Errorf("the schedule read %d accounts for a viewer", n)
		}
		if got := reads(); got != before {
			t.Errorf("%d reads of the bank for a linker who is a viewer now", got-before)
		}
		if _, err := w.svc.Refresh(ctx, owner, c.ID); code(err) != core.EFORBIDDEN {
			t.Errorf("the owner's refresh of the viewer's connection: %v", err)
		}
		if got := reads(); got != before {
			t.Errorf("%d reads of the bank for a linker who is a viewer now", got-before)
		}
		got, err := w.svc.Get(ctx, owner, c.ID)
		if err != nil || got.LastError != "write_failed" {
			t.Errorf("the connection: %+v %v", got, err)
		}
	})
}

// Only the member who linked a connection may renew it: a renewal reuses their provider identity
// (SnapTrade's user and secret).
func TestOnlyTheMemberWhoLinkedAConnectionRenewsIt(t *testing.T) {
	testkit.Stores(t, func(t *testing.T, db *store.DB) {
		w := setup(t, db, "snaptrade")
		c := w.link(t, context.Background(), connect.StartRequest{WorkspaceID: w.w, Provider: "snaptrade", InstitutionID: "DEGIRO"})
		other := w.member(t, "editor")
		mine, _ := w.svc.Get(context.Background(), w.editor, c.ID)
		theirs, _ := w.svc.Get(context.Background(), other, c.ID)
		if !c.LinkedByMe || !mine.LinkedByMe || theirs.LinkedByMe {
			t.Errorf("linkedByMe: on completion %v, to the linker %v, to another editor %v", c.LinkedByMe, mine.LinkedByMe, theirs.LinkedByMe)
		}
		for lang, want := range map[string]string{"es": "Solo el miembro que vinculó", "en": "Only the member who linked"} {
			ctx := core.WithLanguage(context.Background(), lang)
			_, err := w.svc.Start(ctx, other, connect.StartRequest{WorkspaceID: w.w, RenewConnectionID: c.ID})
			if code(err) != core.EFORBIDDEN || !strings.Contains(core.ErrorMessage(err), want) {
				t.Errorf("another editor renews (%s): %v", lang, err)
			}
		}
		if _, err := w.svc.Start(context.Background(), w.editor, connect.StartRequest{WorkspaceID: w.w, RenewConnectionID: c.ID}); err != nil {
			t.Errorf("the member who linked it renews: %v", err)
		}
	})
}

// liveAssets counts the workspace's assets not deleted.
func (w *world) liveAssets(t *testing.T) int {
	t.Helper()
	n := 0
	for _, a := range w.records(t, "assets") {
		if !a.Deleted() {
			n++
		}
	}
	return n
}

// The same account chosen twice in one request, or in two requests at once (a double submit),
// makes one asset.
func TestAnAccountChosenTwiceMakesOneAsset(t *testing.T) {
	testkit.Stores(t, func(t *testing.T, db *store.DB) {
		w := setup(t, db, "enablebanking")
		ctx := context.Background()
		req := bank
		req.WorkspaceID = w.w
		c := w.link(t, ctx, req)
		accounts := accountsByName(c)
		twice := connect.Choice{AccountID: accounts["Cuenta Dólares"].ID, AssetClass: "bank_accounts"}
		if _, err := w.svc.Adopt(ctx, w.editor, c.ID, []connect.Choice{twice, twice}); err != nil {
			t.Fatal(err)
		}
		if n := w.liveAssets(t); n != 1 {
			t.Errorf("%d assets for one account chosen twice", n)
		}

		once := []connect.Choice{{AccountID: accounts["Cuenta Nómina"].ID, AssetClass: "bank_accounts"}}
		w.writer.mu.Lock()
		w.writer.pairAssets, w.writer.pairWait = make(chan struct{}), 0
		w.writer.mu.Unlock()
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for i := range errs {
			wg.Add(1)
			go func() { defer wg.Done(); _, errs[i] = w.svc.Adopt(ctx, w.editor, c.ID, once) }()
		}
		wg.Wait()
		if (errs[0] == nil) == (errs[1] == nil) || (code(errs[0]) != core.ECONFLICT && code(errs[1]) != core.ECONFLICT) {
			t.Errorf("a double submit: %v, %v; want one to succeed and one refused", errs[0], errs[1])
		}
		if n := w.liveAssets(t); n != 2 {
			t.Errorf("%d assets after a double submit, want 2 (one per account)", n)
		}
		got, _ := w.svc.Get(ctx, w.editor, c.ID)
		for _, a := range got.Accounts {
			if a.AssetID == nil || w.records(t, "assets")[*a.AssetID].Deleted() {
				t.Errorf("account %s feeds %v", a.Name, a.AssetID)
			}
		}
	})
}
