package passkey_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"patrimonio/core"
	"patrimonio/internal/pgtest"
	"patrimonio/internal/testkit"
	"patrimonio/server/config"
	"patrimonio/server/passkey"
	"patrimonio/server/passkey/passkeytest"
	"patrimonio/server/store"
)

// newClock is the tests' clock, standing at their start time.
func newClock() *testkit.Clock { return testkit.NewClock(time.Date(2030, 5, 1, 12, 0, 0, 0, time.UTC)) }

func TestMain(m *testing.M) { pgtest.Main(m) }

const origin = "https://patrimonio.example"

// databases runs a test against a fresh SQLite file and a fresh Postgres database.
func databases(t *testing.T, test func(t *testing.T, db *store.DB)) {
	t.Run("on SQLite", func(t *testing.T) {
		test(t, openDB(t, config.Config{SQLitePath: filepath.Join(t.TempDir(), "passkey.db")}))
	})
	t.Run("on Postgres", func(t *testing.T) {
		test(t, openDB(t, config.Config{DatabaseURL: pgtest.URL(t)}))
	})
}

func openDB(t *testing.T, cfg config.Config) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), cfg.Dialect(), cfg.DatabaseSource())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func newService(t *testing.T, db *store.DB, c *testkit.Clock) *passkey.Service {
	t.Helper()
	s, err := passkey.New(db, passkey.Options{PublicURL: origin})
	if err != nil {
		t.Fatal(err)
	}
	s.Now = c.Now
	return s
}

// addUser inserts a user and a session the way the account package stores them.
func addUser(t *testing.T, db *store.DB, email string) (passkey.User, string) {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UTC()
	id := uuid.NewString()
	if _, err := db.Exec(ctx, `INSERT INTO users (id, email, onboarding_step, created_at, updated_at) VALUES (?, ?, 'done', ?, ?)`,
		id, email, now, now); err != nil {
		t.Fatal(err)
	}
	session := uuid.NewString()
	if _, err := db.Exec(ctx, `INSERT INTO sessions (id, user_id, created_at, last_seen_at, expires_at, mfa_pending) VALUES (?, ?, ?, ?, ?, false)`,
		session, id, now, now, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	return passkey.User{ID: id, Email: email, DisplayName: "Ana"}, session
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// register runs a whole registration with the software authenticator.
func register(t *testing.T, s *passkey.Service, a *passkeytest.Authenticator, u passkey.User, session string) *passkey.Passkey {
	t.Helper()
	ctx := context.Background()
	opts, err := s.BeginRegistration(ctx, u, session)
	if err != nil {
		t.Fatal(err)
	}
	cred, _, err := a.Create(mustJSON(t, opts), passkeytest.Tamper{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.FinishRegistration(ctx, u, session, cred, "")
	if err != nil {
		t.Fatalf("finish registration: %v", err)
	}
	return p
}

func wantCode(t *testing.T, err error, code, reason string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %s (%s)", code, reason)
	}
	if got := core.ErrorCode(err); got != code {
		t.Fatalf("error code %q, want %q: %v", got, code, err)
	}
	if reason != "" && !strings.Contains(err.Error(), reason) {
		t.Fatalf("error %q does not say %q", err, reason)
	}
}

func TestRegisteringAndSigningInWithAPasskey(t *testing.T) {
	databases(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := newClock()
		s := newService(t, db, c)
		u, session := addUser(t, db, "ana@example.com")
		a := passkeytest.New(origin)

		opts, err := s.BeginRegistration(ctx, u, session)
		if err != nil {
			t.Fatal(err)
		}
		if opts.RelyingParty.ID != "patrimonio.example" || opts.AuthenticatorSelection.ResidentKey != "required" ||
			opts.AuthenticatorSelection.UserVerification != "required" {
			t.Fatalf("creation options: rp %q, selection %+v", opts.RelyingParty.ID, opts.AuthenticatorSelection)
		}
		cred, _, err := a.Create(mustJSON(t, opts), passkeytest.Tamper{})
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.FinishRegistration(ctx, u, session, cred, "  Mi portátil ")
		if err != nil {
			t.Fatal(err)
		}
		if p.Name != "Mi portátil" {
			t.Errorf("name %q", p.Name)
		}

		c.Advance(time.Minute)
		login, err := s.BeginLogin(ctx, "192.0.2.1")
		if err != nil {
			t.Fatal(err)
		}
		if len(login.AllowedCredentials) != 0 || login.RelyingPartyID != "patrimonio.example" {
			t.Fatalf("request options: %+v", login)
		}
		assertion, err := a.Get(mustJSON(t, login), passkeytest.Tamper{})
		if err != nil {
			t.Fatal(err)
		}
		userID, err := s.FinishLogin(ctx, assertion)
		if err != nil {
			t.Fatal(err)
		}
		if userID != u.ID {
			t.Fatalf("signed in as %q, want %q", userID, u.ID)
		}
		list, err := s.List(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 1 || list[0].ID != p.ID || list[0].LastUsedAt == nil || !list[0].LastUsedAt.Equal(c.Now()) {
			t.Fatalf("list after sign-in: %+v", list)
		}
	})
}

func TestPasskeyCeremoniesRefuseBadAnswers(t *testing.T) {
	databases(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := newClock()
		s := newService(t, db, c)
		u, session := addUser(t, db, "ana@example.com")
		a := passkeytest.New(origin)
		register(t, s, a, u, session)

		regCases := []struct {
			name   string
			tamper passkeytest.Tamper
			reason string
		}{
			{"a registration from another origin is refused", passkeytest.Tamper{Origin: "https://evil.example"}, "origin"},
			{"a registration for another RP ID is refused", passkeytest.Tamper{RPID: "evil.example"}, "RP Hash"},
			{"a registration answering another challenge is refused", passkeytest.Tamper{Challenge: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}, "ha caducado o ya se ha usado"},
			{"a registration with a sign-in type is refused", passkeytest.Tamper{Type: "webauthn.get"}, "ceremony type"},
		}
		for _, tc := range regCases {
			t.Run(tc.name, func(t *testing.T) {
				opts, err := s.BeginRegistration(ctx, u, session)
				if err != nil {
					t.Fatal(err)
				}
				cred, _, err := passkeytest.New(origin).Create(mustJSON(t, opts), tc.tamper)
				if err != nil {
					t.Fatal(err)
				}
				_, err = s.FinishRegistration(ctx, u, session, cred, "")
				wantCode(t, err, core.EINVALID, tc.reason)
			})
		}

		t.Run("a registration challenge is used once", func(t *testing.T) {
			opts, err := s.BeginRegistration(ctx, u, session)
			if err != nil {
				t.Fatal(err)
			}
			b := passkeytest.New(origin)
			cred, _, err := b.Create(mustJSON(t, opts), passkeytest.Tamper{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.FinishRegistration(ctx, u, session, cred, ""); err != nil {
				t.Fatal(err)
			}
			_, err = s.FinishRegistration(ctx, u, session, cred, "")
			wantCode(t, err, core.EINVALID, "ha caducado o ya se ha usado")
		})

		t.Run("a registration begun in another session is refused", func(t *testing.T) {
			opts, err := s.BeginRegistration(ctx, u, session)
			if err != nil {
				t.Fatal(err)
			}
			cred, _, err := passkeytest.New(origin).Create(mustJSON(t, opts), passkeytest.Tamper{})
			if err != nil {
				t.Fatal(err)
			}
			other, otherSession := addUser(t, db, "eve@example.com")
			_, err = s.FinishRegistration(ctx, other, otherSession, cred, "")
			wantCode(t, err, core.EINVALID, "ha caducado o ya se ha usado")
		})

		t.Run("an expired registration is refused", func(t *testing.T) {
			opts, err := s.BeginRegistration(ctx, u, session)
			if err != nil {
				t.Fatal(err)
			}
			cred, _, err := passkeytest.New(origin).Create(mustJSON(t, opts), passkeytest.Tamper{})
			if err != nil {
				t.Fatal(err)
			}
			c.Advance(passkey.CeremonyTTL)
			_, err = s.FinishRegistration(ctx, u, session, cred, "")
			wantCode(t, err, core.EINVALID, "ha caducado o ya se ha usado")
		})

		t.Run("the same authenticator is not registered twice", func(t *testing.T) {
			opts, err := s.BeginRegistration(ctx, u, session)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := a.Create(mustJSON(t, opts), passkeytest.Tamper{}); err == nil || !strings.Contains(err.Error(), "excluded") {
				t.Fatalf("the authenticator was not told to exclude its credential: %v", err)
			}
		})

		unknown := &passkeytest.Credential{ID: []byte("an unknown credential id........"), UserHandle: a.Credentials[0].UserHandle}
		stranger := &passkeytest.Credential{ID: []byte("a credential of nobody.........."), UserHandle: []byte("no such user handle")}
		loginCases := []struct {
			name   string
			tamper passkeytest.Tamper
			reason string
		}{
			{"an assertion from another origin is refused", passkeytest.Tamper{Origin: "https://evil.example"}, "origin"},
			{"an assertion for another RP ID is refused", passkeytest.Tamper{RPID: "evil.example"}, "RP Hash"},
			{"an assertion with a bad signature is refused", passkeytest.Tamper{BadSignature: true}, "signature"},
			{"an assertion by an unknown credential is refused", passkeytest.Tamper{Credential: unknown}, "Unable to find the credential"},
			{"an assertion with an unknown user handle is refused", passkeytest.Tamper{Credential: stranger}, "lookup"},
			{"an assertion with a registration type is refused", passkeytest.Tamper{Type: "webauthn.create"}, "ceremony type"},
		}
		for _, tc := range loginCases {
			t.Run(tc.name, func(t *testing.T) {
				opts, err := s.BeginLogin(ctx, "192.0.2.1")
				if err != nil {
					t.Fatal(err)
				}
				assertion, err := a.Get(mustJSON(t, opts), tc.tamper)
				if err != nil {
					t.Fatal(err)
				}
				_, err = s.FinishLogin(ctx, assertion)
				wantCode(t, err, core.EUNAUTHORIZED, tc.reason)
			})
		}

		t.Run("a sign-in challenge is used once", func(t *testing.T) {
			opts, err := s.BeginLogin(ctx, "192.0.2.1")
			if err != nil {
				t.Fatal(err)
			}
			assertion, err := a.Get(mustJSON(t, opts), passkeytest.Tamper{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.FinishLogin(ctx, assertion); err != nil {
				t.Fatal(err)
			}
			_, err = s.FinishLogin(ctx, assertion)
			wantCode(t, err, core.EUNAUTHORIZED, "ha caducado o ya se ha usado")
		})

		t.Run("a failed sign-in uses up its challenge", func(t *testing.T) {
			opts, err := s.BeginLogin(ctx, "192.0.2.1")
			if err != nil {
				t.Fatal(err)
			}
			bad, err := a.Get(mustJSON(t, opts), passkeytest.Tamper{BadSignature: true})
			if err != nil {
				t.Fatal(err)
			}
			wantCode(t, func() error { _, err := s.FinishLogin(ctx, bad); return err }(), core.EUNAUTHORIZED, "signature")
			good, err := a.Get(mustJSON(t, opts), passkeytest.Tamper{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = s.FinishLogin(ctx, good)
			wantCode(t, err, core.EUNAUTHORIZED, "ha caducado o ya se ha usado")
		})

		t.Run("an expired sign-in is refused", func(t *testing.T) {
			opts, err := s.BeginLogin(ctx, "192.0.2.1")
			if err != nil {
				t.Fatal(err)
			}
			assertion, err := a.Get(mustJSON(t, opts), passkeytest.Tamper{})
			if err != nil {
				t.Fatal(err)
			}
			c.Advance(passkey.CeremonyTTL + time.Second)
			_, err = s.FinishLogin(ctx, assertion)
			wantCode(t, err, core.EUNAUTHORIZED, "ha caducado o ya se ha usado")
		})

		t.Run("an assertion that is not JSON is refused", func(t *testing.T) {
			_, err := s.FinishLogin(ctx, []byte(`{"id":"x"}`))
			wantCode(t, err, core.EUNAUTHORIZED, "")
		})
	})
}

func TestSignatureCounters(t *testing.T) {
	databases(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newService(t, db, newClock())
		u, session := addUser(t, db, "ana@example.com")
		signIn := func(a *passkeytest.Authenticator, count uint32) error {
			opts, err := s.BeginLogin(ctx, "192.0.2.1")
			if err != nil {
				t.Fatal(err)
			}
			assertion, err := a.Get(mustJSON(t, opts), passkeytest.Tamper{SignCount: &count})
			if err != nil {
				t.Fatal(err)
			}
			_, err = s.FinishLogin(ctx, assertion)
			return err
		}

		t.Run("an authenticator without a counter (always 0) signs in again and again", func(t *testing.T) {
			a := passkeytest.New(origin)
			register(t, s, a, u, session)
			for range 3 {
				if err := signIn(a, 0); err != nil {
					t.Fatal(err)
				}
			}
		})
		t.Run("an assertion whose counter did not grow is refused and the passkey flagged", func(t *testing.T) {
			a := passkeytest.New(origin)
			register(t, s, a, u, session)
			if err := signIn(a, 7); err != nil {
				t.Fatal(err)
			}
			wantCode(t, signIn(a, 7), core.EUNAUTHORIZED, "counter")
			wantCode(t, signIn(a, 3), core.EUNAUTHORIZED, "counter")
			var flagged int
			if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM passkeys WHERE user_id = ? AND clone_warning`, u.ID).Scan(&flagged); err != nil {
				t.Fatal(err)
			}
			if flagged != 1 {
				t.Fatalf("%d passkeys carry the clone warning, want 1", flagged)
			}
			// The original authenticator, whose counter keeps growing, still signs in.
			if err := signIn(a, 8); err != nil {
				t.Fatal(err)
			}
		})
	})
}

func TestRemovingPasskeys(t *testing.T) {
	databases(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newService(t, db, newClock())
		u, session := addUser(t, db, "ana@example.com")
		other, _ := addUser(t, db, "eve@example.com")
		a := passkeytest.New(origin)
		p := register(t, s, a, u, session)

		if err := s.Remove(ctx, other.ID, p.ID); core.ErrorCode(err) != core.ENOTFOUND {
			t.Fatalf("another user removed the passkey: %v", err)
		}
		if err := s.Remove(ctx, u.ID, p.ID); err != nil {
			t.Fatal(err)
		}
		if n, err := s.Count(ctx, u.ID); err != nil || n != 0 {
			t.Fatalf("count after removal: %d, %v", n, err)
		}
		// The removed passkey no longer signs in.
		opts, err := s.BeginLogin(ctx, "192.0.2.1")
		if err != nil {
			t.Fatal(err)
		}
		assertion, err := a.Get(mustJSON(t, opts), passkeytest.Tamper{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.FinishLogin(ctx, assertion)
		wantCode(t, err, core.EUNAUTHORIZED, "")
	})
}

func TestPasskeyNames(t *testing.T) {
	db := openDB(t, config.Config{SQLitePath: filepath.Join(t.TempDir(), "passkey.db")})
	ctx := context.Background()
	s := newService(t, db, newClock())
	u, session := addUser(t, db, "ana@example.com")
	for _, tc := range []struct {
		name, given, want, err string
	}{
		{"an empty name gets the default name", "", "Llave de acceso 1", ""},
		{"a name is trimmed", "  Llavero  ", "Llavero", ""},
		{"a name of 64 characters is accepted", strings.Repeat("ñ", 64), strings.Repeat("ñ", 64), ""},
		{"a name of 65 characters is refused", strings.Repeat("a", 65), "", "como máximo 64"},
		{"a name with a control character is refused", "a\x00b", "", "caracteres de control"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts, err := s.BeginRegistration(ctx, u, session)
			if err != nil {
				t.Fatal(err)
			}
			cred, _, err := passkeytest.New(origin).Create(mustJSON(t, opts), passkeytest.Tamper{})
			if err != nil {
				t.Fatal(err)
			}
			p, err := s.FinishRegistration(ctx, u, session, cred, tc.given)
			if tc.err != "" {
				wantCode(t, err, core.EINVALID, tc.err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Name != tc.want {
				t.Fatalf("name %q, want %q", p.Name, tc.want)
			}
		})
	}
}

func TestTheDefaultNameFollowsTheLanguage(t *testing.T) {
	db := openDB(t, config.Config{SQLitePath: filepath.Join(t.TempDir(), "passkey.db")})
	s := newService(t, db, newClock())
	u, session := addUser(t, db, "ana@example.com")
	for i, tc := range []struct{ lang, want string }{
		{"es", "Llave de acceso 1"},
		{"en", "Passkey 2"},
	} {
		ctx := core.WithLanguage(context.Background(), tc.lang)
		opts, err := s.BeginRegistration(ctx, u, session)
		if err != nil {
			t.Fatal(err)
		}
		cred, _, err := passkeytest.New(origin).Create(mustJSON(t, opts), passkeytest.Tamper{})
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.FinishRegistration(ctx, u, session, cred, "")
		if err != nil {
			t.Fatal(err)
		}
		if p.Name != tc.want {
			t.Errorf("passkey %d in %s is named %q, want %q", i+1, tc.lang, p.Name, tc.want)
		}
	}
}

func TestARelyingPartyNeedsAHostName(t *testing.T) {
	db := openDB(t, config.Config{SQLitePath: filepath.Join(t.TempDir(), "passkey.db")})
	for _, tc := range []struct {
		name, url string
		ok        bool
	}{
		{"localhost is a relying party id", "http://localhost:8080", true},
		{"a domain is a relying party id", "https://patrimonio.example", true},
		{"an IPv4 address is not", "http://127.0.0.1:8080", false},
		{"an IPv6 address is not", "http://[::1]:8080", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := passkey.New(db, passkey.Options{PublicURL: tc.url})
			if (err == nil) != tc.ok {
				t.Fatalf("New(%s): %v", tc.url, err)
			}
		})
	}
}

func TestSignInsInFlightAreBoundedPerIP(t *testing.T) {
	databases(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := newClock()
		s := newService(t, db, c)
		for range passkey.MaxLoginsPerIP {
			if _, err := s.BeginLogin(ctx, "192.0.2.1"); err != nil {
				t.Fatal(err)
			}
		}
		_, err := s.BeginLogin(ctx, "192.0.2.1")
		wantCode(t, err, core.ETOOMANY, "demasiados intentos")
		if _, err := s.BeginLogin(ctx, "192.0.2.2"); err != nil {
			t.Fatalf("another IP is refused too: %v", err)
		}
		c.Advance(passkey.CeremonyTTL)
		if _, err := s.BeginLogin(ctx, "192.0.2.1"); err != nil {
			t.Fatalf("once the old ones expired: %v", err)
		}
	})
}

// One IPv6 subscriber holds a whole /64 and can pick any address in it: its sign-ins in flight are
// bounded together, as the sign-in throttle counts them (core.IPBucket), or one /64 could fill the
// global bound and refuse everyone's passkey sign-ins.
func TestSignInsInFlightAreBoundedPerIPv6Subnet(t *testing.T) {
	databases(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newService(t, db, newClock())
		for i := range passkey.MaxLoginsPerIP {
			if _, err := s.BeginLogin(ctx, fmt.Sprintf("2001:db8:1:2::%x", i+1)); err != nil {
				t.Fatal(err)
			}
		}
		_, err := s.BeginLogin(ctx, "2001:db8:1:2:ffff::1")
		wantCode(t, err, core.ETOOMANY, "demasiados intentos")
		if _, err := s.BeginLogin(ctx, "2001:db8:1:3::1"); err != nil {
			t.Fatalf("another /64 is refused too: %v", err)
		}
	})
}

func TestTooManyPasskeysAreRefused(t *testing.T) {
	db := openDB(t, config.Config{SQLitePath: filepath.Join(t.TempDir(), "passkey.db")})
	ctx := context.Background()
	s := newService(t, db, newClock())
	u, session := addUser(t, db, "ana@example.com")
	for range passkey.MaxPerUser {
		register(t, s, passkeytest.New(origin), u, session)
	}
	_, err := s.BeginRegistration(ctx, u, session)
	if core.ErrorCode(err) != core.ECONFLICT {
		t.Fatalf("registration beyond the limit: %v", err)
	}
}
