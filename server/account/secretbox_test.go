package account_test

import (
	"bytes"
	"database/sql"
	"encoding/base32"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"patrimonio/core"
	"patrimonio/server/account"
	"patrimonio/server/store"
)

// storedTOTP reads the user's totp row as stored.
func (e *env) storedTOTP(t *testing.T, userID string) (secret, pending string) {
	t.Helper()
	var s, p sql.NullString
	if err := e.db.QueryRow(e.ctx, `SELECT secret, pending_secret FROM totp WHERE user_id = ?`, userID).Scan(&s, &p); err != nil {
		t.Fatal(err)
	}
	return s.String, p.String
}

func TestTOTPSecretsAreNotReadableInTheDatabase(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, token := e.signUpVerified(t, "ana@example.com")
		sess, _ := e.authenticate(t, token)
		setup, err := e.svc.SecondFactors.SetupTOTP(e.ctx, u, sess)
		if err != nil {
			t.Fatal(err)
		}
		_, pending := e.storedTOTP(t, u.ID)
		if !strings.HasPrefix(pending, "enc1:") || strings.Contains(pending, setup.Secret) {
			t.Fatalf("the pending secret is stored as %q (secret %s)", pending, setup.Secret)
		}
		if _, err := e.svc.SecondFactors.EnableTOTP(e.ctx, u, sess, totpOf(t, setup.Secret, e.clock.Now())); err != nil {
			t.Fatal(err)
		}
		active, _ := e.storedTOTP(t, u.ID)
		if !strings.HasPrefix(active, "enc1:") || strings.Contains(active, setup.Secret) {
			t.Fatalf("the active secret is stored as %q (pending was %q)", active, pending)
		}
		// Nowhere in the database: the SQLite files hold no trace of the secret.
		if e.db.Dialect() == store.SQLite {
			dir := filepath.Dir(sqlitePath(t, e))
			files, _ := filepath.Glob(filepath.Join(dir, "*"))
			for _, f := range files {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if bytes.Contains(b, []byte(setup.Secret)) {
					t.Fatalf("%s contains the TOTP secret", f)
				}
			}
		}
		// And the sealed secret still works.
		e.clock.Advance(30 * time.Second)
		if _, err := e.svc.Reverify.Reverify(e.ctx, u, sess, account.MethodTOTP, totpOf(t, setup.Secret, e.clock.Now()), meta.IP); err != nil {
			t.Fatal(err)
		}
	})
}

// sqlitePath is the file of the env's SQLite database.
func sqlitePath(t *testing.T, e *env) string {
	t.Helper()
	var seq int
	var name, file string
	if err := e.db.QueryRow(e.ctx, `SELECT seq, name, file FROM pragma_database_list WHERE name = 'main'`).Scan(&seq, &name, &file); err != nil {
		t.Fatal(err)
	}
	return file
}

func TestAWrongSecretKeyFailsClosed(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, token := e.signUpVerified(t, "ana@example.com")
		secret, _ := e.enableTOTP(t, token)
		sess, _ := e.authenticate(t, token)
		if err := e.svc.SecondFactors.CheckSecretKey(e.ctx); err != nil {
			t.Fatalf("the first check with the right key: %v", err)
		}

		other := e.service(t, func(c *account.Config) { c.SecretKey = randomKey(t) })
		_, err := other.Reverify.Reverify(e.ctx, u, sess, account.MethodTOTP, totpOf(t, secret, e.clock.Now()), meta.IP)
		if !errors.Is(err, account.ErrWrongSecretKey) || core.ErrorCode(err) != core.EINTERNAL {
			t.Fatalf("a right code checked with the wrong key: %v, want an internal error wrapping ErrWrongSecretKey", err)
		}
		if err := other.SecondFactors.CheckSecretKey(e.ctx); !errors.Is(err, account.ErrWrongSecretKey) ||
			!strings.Contains(err.Error(), "PATRIMONIO_SECRET_KEY") {
			t.Fatalf("CheckSecretKey with another key: %v", err)
		}
		// The stored secret was left alone, and the right key still opens it.
		if _, err := e.svc.Reverify.Reverify(e.ctx, u, sess, account.MethodTOTP, totpOf(t, secret, e.clock.Now()), meta.IP); err != nil {
			t.Fatalf("the right key after the refusals: %v", err)
		}
	})
}

func TestWithoutASecretKeyTOTPSecretsAreNeitherStoredNorRead(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, token := e.signUpVerified(t, "ana@example.com")
		secret, _ := e.enableTOTP(t, token)
		sess, _ := e.authenticate(t, token)
		keyless := e.service(t, func(c *account.Config) { c.SecretKey = nil })
		if _, err := keyless.SecondFactors.SetupTOTP(e.ctx, u, sess); !errors.Is(err, account.ErrNoSecretKey) {
			t.Fatalf("SetupTOTP without a key: %v", err)
		}
		if _, err := keyless.Reverify.Reverify(e.ctx, u, sess, account.MethodTOTP, totpOf(t, secret, e.clock.Now()), meta.IP); !errors.Is(err, account.ErrNoSecretKey) {
			t.Fatalf("a TOTP code without a key: %v", err)
		}
		if err := keyless.SecondFactors.CheckSecretKey(e.ctx); !errors.Is(err, account.ErrNoSecretKey) {
			t.Fatalf("CheckSecretKey without a key: %v", err)
		}
		if _, err := account.New(e.db, func() account.Config { c := cheapConfig(); c.SecretKey = []byte("too short"); return c }(), account.Options{}); err == nil {
			t.Fatal("New accepted a 9-byte key")
		}
	})
}

func TestASealedSecretMovedToAnotherUserDoesNotOpen(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		ana, anaToken := e.signUpVerified(t, "ana@example.com")
		anaSecret, _ := e.enableTOTP(t, anaToken)
		bob, bobToken := e.signUpVerified(t, "bob@example.com")
		e.enableTOTP(t, bobToken)
		anaSealed, _ := e.storedTOTP(t, ana.ID)
		if _, err := e.db.Exec(e.ctx, `UPDATE totp SET secret = ? WHERE user_id = ?`, anaSealed, bob.ID); err != nil {
			t.Fatal(err)
		}
		sess, _ := e.authenticate(t, bobToken)
		_, err := e.svc.Reverify.Reverify(e.ctx, bob, sess, account.MethodTOTP, totpOf(t, anaSecret, e.clock.Now()), meta.IP)
		if !errors.Is(err, account.ErrWrongSecretKey) {
			t.Fatalf("Ana's sealed secret in Bob's row: %v, want ErrWrongSecretKey", err)
		}
	})
}

func TestPlaintextSecretsFromBeforeEncryptionAreSealed(t *testing.T) {
	const legacy = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP" // base32, as stored before encryption
	raw := func(t *testing.T) []byte {
		b, err := base32NoPadding(legacy)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	t.Run("on read, when a code is checked", func(t *testing.T) {
		dialects(t, func(t *testing.T, e *env) {
			u, token := e.signUp(t, "ana@example.com")
			if _, err := e.db.Exec(e.ctx, `INSERT INTO totp (user_id, secret, enabled, last_used_step, updated_at) VALUES (?, ?, ?, 0, ?)`,
				u.ID, legacy, true, e.clock.Now()); err != nil {
				t.Fatal(err)
			}
			sess, u := e.authenticate(t, token)
			code := account.TOTPCode(raw(t), account.TOTPStep(e.clock.Now()))
			if _, err := e.svc.Reverify.Reverify(e.ctx, u, sess, account.MethodTOTP, code, meta.IP); err != nil {
				t.Fatalf("a code of the plaintext secret: %v", err)
			}
			if stored, _ := e.storedTOTP(t, u.ID); !strings.HasPrefix(stored, "enc1:") {
				t.Fatalf("after a read the secret is stored as %q", stored)
			}
			e.clock.Advance(30 * time.Second)
			code = account.TOTPCode(raw(t), account.TOTPStep(e.clock.Now()))
			if _, err := e.svc.Reverify.Reverify(e.ctx, u, sess, account.MethodTOTP, code, meta.IP); err != nil {
				t.Fatalf("a code of the now sealed secret: %v", err)
			}
		})
	})
	t.Run("at start, for every row", func(t *testing.T) {
		dialects(t, func(t *testing.T, e *env) {
			ana, _ := e.signUp(t, "ana@example.com")
			bob, bobToken := e.signUpVerified(t, "bob@example.com")
			cid, cidToken := e.signUpVerified(t, "cid@example.com")
			if _, err := e.db.Exec(e.ctx, `INSERT INTO totp (user_id, secret, enabled, pending_secret, pending_created_at, last_used_step, updated_at)
				VALUES (?, ?, ?, ?, ?, 0, ?), (?, NULL, ?, ?, ?, 0, ?)`,
				ana.ID, legacy, true, legacy, e.clock.Now(), e.clock.Now(),
				bob.ID, false, legacy, e.clock.Now(), e.clock.Now()); err != nil {
				t.Fatal(err)
			}
			e.enableTOTP(t, cidToken)
			n, err := e.svc.SecondFactors.SealPlaintextSecrets(e.ctx)
			if err != nil || n != 3 {
				t.Fatalf("SealPlaintextSecrets = %d, %v; want 3 values sealed", n, err)
			}
			for _, id := range []string{ana.ID, bob.ID, cid.ID} {
				secret, pending := e.storedTOTP(t, id)
				for _, v := range []string{secret, pending} {
					if v != "" && !strings.HasPrefix(v, "enc1:") {
						t.Fatalf("user %s still has %q stored", id, v)
					}
				}
			}
			if n, err := e.svc.SecondFactors.SealPlaintextSecrets(e.ctx); err != nil || n != 0 {
				t.Fatalf("a second run sealed %d, %v", n, err)
			}
			// Bob's sealed pending secret is confirmed with a code of the old plaintext one.
			sess, u := e.authenticate(t, bobToken)
			if _, err := e.svc.SecondFactors.EnableTOTP(e.ctx, u, sess, account.TOTPCode(raw(t), account.TOTPStep(e.clock.Now()))); err != nil {
				t.Fatalf("enable with the sealed pending secret: %v", err)
			}
		})
	})
}

func TestTheKeyCheckAdoptsANewKeyOnlyWhenNoSecretIsSealed(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		first := e.svc
		if err := first.SecondFactors.CheckSecretKey(e.ctx); err != nil {
			t.Fatal(err)
		}
		if err := first.SecondFactors.CheckSecretKey(e.ctx); err != nil {
			t.Fatalf("a second start with the same key: %v", err)
		}
		// No secret sealed yet: a new key is adopted (a deleted development key file).
		newKey := randomKey(t)
		second := e.service(t, func(c *account.Config) { c.SecretKey = newKey })
		if err := second.SecondFactors.CheckSecretKey(e.ctx); err != nil {
			t.Fatalf("a new key with nothing sealed: %v", err)
		}
		// Once a secret is sealed with the new key, another key is refused.
		e.svc = second
		_, token := e.signUpVerified(t, "ana@example.com")
		e.enableTOTP(t, token)
		third := e.service(t, func(c *account.Config) { c.SecretKey = randomKey(t) })
		if err := third.SecondFactors.CheckSecretKey(e.ctx); !errors.Is(err, account.ErrWrongSecretKey) || !strings.Contains(err.Error(), "1 stored authenticator secret(s)") {
			t.Fatalf("another key with a sealed secret: %v", err)
		}
	})
}

func base32NoPadding(s string) ([]byte, error) {
	return base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(s)
}
