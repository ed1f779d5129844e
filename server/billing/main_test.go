package billing_test

// Every Stripe call billing makes runs against a real stripe-mock (started by the tests, like the
// throwaway Postgres), reached through a small recording proxy: the tests read what was sent, and a
// few of them have the proxy answer as Stripe does when it refuses (a wrong key, a rate limit),
// which stripe-mock cannot be asked to do. Every database test runs on SQLite and on Postgres.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"

	"patrimonio/core"
	"patrimonio/internal/pgtest"
	"patrimonio/server/billing"
	"patrimonio/server/billing/stripemock"
	"patrimonio/server/config"
	"patrimonio/server/store"
)

func TestMain(m *testing.M) {
	code := pgtest.Run(m)
	stripemock.Stop()
	os.Exit(code)
}

var ctx = context.Background()

const webhookSecret = "whsec_patrimonio_test"

// The fixture product and its monthly price in stripe-mock.
const (
	mockProduct = "prod_QXg1hqf4jFNsqG"
	mockPrice   = "price_1PgafmB7WZ01zgkW6dKueIc5"
)

// request is one call the proxy saw: method, path and the decoded form body.
type request struct {
	Method, Path string
	Form         url.Values
	Header       http.Header
}

// proxy forwards to stripe-mock and records the calls; refuse, when set, answers instead.
type proxy struct {
	mu       sync.Mutex
	calls    []request
	refuseBy func(r *http.Request) (status int, body string, ok bool)
}

func (p *proxy) record(r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	form, _ := url.ParseQuery(string(body))
	if r.Method == http.MethodGet {
		form = r.URL.Query()
	}
	p.mu.Lock()
	p.calls = append(p.calls, request{r.Method, r.URL.Path, form, r.Header.Clone()})
	p.mu.Unlock()
}

// seen returns the calls to path with method.
func (p *proxy) seen(method, path string) []request {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []request
	for _, c := range p.calls {
		if c.Method == method && c.Path == path {
			out = append(out, c)
		}
	}
	return out
}

func (p *proxy) refuse(f func(r *http.Request) (int, string, bool)) {
	p.mu.Lock()
	p.refuseBy = f
	p.mu.Unlock()
}

type env struct {
	db    *store.DB
	svc   *billing.Service
	proxy *proxy
	now   time.Time
}

func startProxy(t *testing.T) (*proxy, string) {
	target, err := url.Parse(stripemock.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{}
	rp := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.record(r)
		p.mu.Lock()
		refuse := p.refuseBy
		p.mu.Unlock()
		if refuse != nil {
			if status, body, ok := refuse(r); ok {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(status)
				_, _ = io.WriteString(w, body)
				return
			}
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return p, srv.URL
}

// eachDialect runs f on SQLite and on Postgres, each with a billing service on stripe-mock.
func eachDialect(t *testing.T, f func(t *testing.T, e *env), change ...func(*billing.Config)) {
	t.Helper()
	run := func(t *testing.T, cfg config.Config) {
		db, err := store.Open(ctx, cfg.Dialect(), cfg.DatabaseSource())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		p, apiURL := startProxy(t)
		bc := billing.Config{SecretKey: stripemock.TestKey, WebhookSecrets: []string{webhookSecret}, APIURL: apiURL,
			PublicURL: "http://localhost:8080"}
		for _, c := range change {
			c(&bc)
		}
		e := &env{db: db, proxy: p, svc: billing.New(db, bc, nil), now: time.Now()}
		e.svc.Now = func() time.Time { return e.now }
		f(t, e)
	}
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		run(t, config.Config{SQLitePath: filepath.Join(t.TempDir(), "patrimonio.db")})
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		run(t, config.Config{DatabaseURL: pgtest.URL(t)})
	})
}

// addUser inserts a user at the onboarding's billing step.
func (e *env) addUser(t *testing.T, id string) billing.User {
	t.Helper()
	if _, err := e.db.Exec(ctx, `INSERT INTO users (id, email, onboarding_step, created_at, updated_at) VALUES (?, ?, 'billing', ?, ?)`,
		id, id+"@example.com", e.now.UTC(), e.now.UTC()); err != nil {
		t.Fatal(err)
	}
	return billing.User{ID: id, Email: id + "@example.com"}
}

// customer makes the user's Stripe customer (through a card-check Checkout) and returns its id.
func (e *env) customer(t *testing.T, u billing.User) string {
	t.Helper()
	if _, err := e.svc.CreateCheckout(ctx, u, billing.CheckoutRequest{Kind: billing.KindCardCheck}); err != nil {
		t.Fatal(err)
	}
	var id string
	if err := e.db.QueryRow(ctx, `SELECT customer_id FROM billing_customers WHERE user_id = ?`, u.ID).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// event is a Stripe event's JSON.
func event(id, typ string, created int64, object map[string]any) []byte {
	b, err := json.Marshal(map[string]any{"id": id, "object": "event", "api_version": "2026-03-25.dahlia", "created": created,
		"type": typ, "livemode": false, "pending_webhooks": 1, "data": map[string]any{"object": object}})
	if err != nil {
		panic(err)
	}
	return b
}

// sign is the Stripe-Signature header of payload at time at with each secret (one v1 each).
func sign(payload []byte, at time.Time, secrets ...string) string {
	parts := []string{fmt.Sprintf("t=%d", at.Unix())}
	for _, s := range secrets {
		parts = append(parts, "v1="+fmt.Sprintf("%x", webhook.ComputeSignature(at, payload, s)))
	}
	return strings.Join(parts, ",")
}

// subscription is a subscription object as Stripe sends it in events.
func subscription(id, customer, status string, created int64) map[string]any {
	return map[string]any{"id": id, "object": "subscription", "customer": customer, "status": status, "currency": "usd",
		"created": created, "cancel_at_period_end": false, "metadata": map[string]string{},
		"items": map[string]any{"object": "list", "data": []any{map[string]any{
			"id": "si_1", "object": "subscription_item", "current_period_start": created, "current_period_end": created + 30*86400,
			"price": map[string]any{"id": mockPrice, "object": "price", "product": mockProduct, "currency": "usd", "unit_amount": 2000,
				"recurring": map[string]any{"interval": "month", "interval_count": 1}},
		}}}}
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := core.ErrorCode(err); got != code {
		t.Fatalf("error code = %q (%v), want %q", got, err, code)
	}
}
