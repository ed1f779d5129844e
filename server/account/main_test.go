package account_test

import (
	"context"
	"crypto/rand"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"patrimonio/core"
	"patrimonio/internal/pgtest"
	"patrimonio/internal/testkit"
	"patrimonio/server/account"
	"patrimonio/server/config"
	"patrimonio/server/store"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// clock is the injected time of a test.
type clock = testkit.Clock

func newClock() *clock { return testkit.NewClock(time.Date(2025, 3, 10, 10, 0, 0, 0, time.UTC)) }

// env is one service over a real database, with a real outbox mailer in a temporary directory.
type env struct {
	db     *store.DB
	svc    *account.Services
	clock  *clock
	outbox string
	ctx    context.Context
	// key is the secret key of the services (a random one per test).
	key []byte
	// change is the test's change of the rules (nil: cheapConfig as it is).
	change func(*account.Config)
}

// cheapConfig is DefaultConfig with argon2id parameters that take well under a millisecond.
func cheapConfig() account.Config {
	cfg := account.DefaultConfig()
	cfg.Password = account.PasswordParams{Memory: 64, Time: 1, Threads: 1}
	return cfg
}

// dialects runs f once on a fresh SQLite file and once on a fresh Postgres database.
func dialects(t *testing.T, f func(t *testing.T, e *env)) {
	t.Helper()
	dialectsWith(t, nil, f)
}

func dialectsWith(t *testing.T, change func(*account.Config), f func(t *testing.T, e *env)) {
	t.Helper()
	t.Parallel() // every test has its own databases, clock and outbox
	for _, d := range []store.Dialect{store.SQLite, store.Postgres} {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			f(t, newEnv(t, d, change))
		})
	}
}

func openDB(t *testing.T, d store.Dialect) *store.DB {
	t.Helper()
	var cfg config.Config
	if d == store.Postgres {
		cfg.DatabaseURL = pgtest.URL(t)
	} else {
		cfg.SQLitePath = filepath.Join(t.TempDir(), "accounts.db")
	}
	db, err := store.Open(context.Background(), cfg.Dialect(), cfg.DatabaseSource())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func newEnv(t *testing.T, d store.Dialect, change func(*account.Config)) *env {
	t.Helper()
	db := openDB(t, d)
	e := &env{db: db, clock: newClock(), outbox: t.TempDir(), ctx: context.Background(), key: randomKey(t), change: change}
	e.svc = e.service(t, change)
	return e
}

// service makes another service over the same database and clock (a second server instance).
func (e *env) service(t *testing.T, change func(*account.Config)) *account.Services {
	t.Helper()
	return e.serviceWith(t, change, account.Hooks{})
}

// serviceWith makes services over the same database and clock with the given hooks.
func (e *env) serviceWith(t *testing.T, change func(*account.Config), hooks account.Hooks) *account.Services {
	t.Helper()
	cfg := cheapConfig()
	cfg.SecretKey = e.key
	if change != nil {
		change(&cfg)
	}
	svc, err := account.New(e.db, cfg, account.Options{Mailer: &account.LogMailer{OutboxDir: e.outbox},
		Logger: slog.New(slog.DiscardHandler), Now: e.clock.Now, Hooks: hooks})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// withHooks replaces the env's services with ones (same database, clock and rules) that have hooks.
func (e *env) withHooks(t *testing.T, hooks account.Hooks) {
	t.Helper()
	e.svc = e.serviceWith(t, e.change, hooks)
}

func randomKey(t *testing.T) []byte {
	t.Helper()
	key := make([]byte, config.SecretKeyLen)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	return key
}

var meta = account.SessionMeta{UserAgent: "test-agent", IP: "192.0.2.10"}

const goodPassword = "lentejas con chorizo 42"

// signUp creates a user and returns it with its session token.
func (e *env) signUp(t *testing.T, email string) (*account.User, string) {
	t.Helper()
	u, token, err := e.svc.Signup.SignUp(e.ctx, email, goodPassword, meta)
	if err != nil {
		t.Fatalf("SignUp(%s): %v", email, err)
	}
	return u, token
}

// signUpVerified is signUp followed by the e-mailed code's verification: second factors need a
// verified address.
func (e *env) signUpVerified(t *testing.T, email string) (*account.User, string) {
	t.Helper()
	u, token := e.signUp(t, email)
	return e.verify(t, u), token
}

// lastCode is the code of the newest mail of the outbox to the address.
func (e *env) lastCode(t *testing.T, to, purpose string) string {
	t.Helper()
	mails, err := account.ReadOutbox(e.outbox, to)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(mails) - 1; i >= 0; i-- {
		if mails[i].Purpose == purpose {
			if !strings.Contains(mails[i].Text, mails[i].Code) {
				t.Fatalf("the mail text does not hold its code: %+v", mails[i])
			}
			return mails[i].Code
		}
	}
	t.Fatalf("no %s mail to %s in the outbox (%d mails)", purpose, to, len(mails))
	return ""
}

func (e *env) authenticate(t *testing.T, token string) (*account.Session, *account.User) {
	t.Helper()
	s, u, err := e.svc.Sessions.Authenticate(e.ctx, token)
	if err != nil {
		t.Fatalf("Authenticate: %v", err)
	}
	return s, u
}

// wantCode fails unless err carries the error code.
func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := core.ErrorCode(err); got != code {
		t.Fatalf("error code = %q (%v), want %q", got, err, code)
	}
}

func en(ctx context.Context) context.Context { return core.WithLanguage(ctx, core.LangEN) }

// verify confirms the user's address with the e-mailed code and returns the updated user.
func (e *env) verify(t *testing.T, u *account.User) *account.User {
	t.Helper()
	v, err := e.svc.Signup.VerifyEmail(e.ctx, u, e.lastCode(t, u.Email, "verify_email"), meta.IP)
	if err != nil {
		t.Fatalf("VerifyEmail(%s): %v", u.Email, err)
	}
	return v
}
