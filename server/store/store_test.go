package store_test

// One suite, both databases: every test here runs once on a SQLite file and once on a fresh
// Postgres database (from pgtest: TEST_DATABASE_URL or a throwaway cluster).

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"patrimonio/core"
	"patrimonio/internal/pgtest"
	"patrimonio/internal/testkit"
	"patrimonio/migrations"
	"patrimonio/server/store"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// eachDialect runs f once per dialect with a configuration that points at a fresh, empty database
// (on SQLite, in a directory that does not exist yet: Open makes it).
func eachDialect(t *testing.T, f func(t *testing.T, d store.Dialect, url string)) {
	t.Helper()
	testkit.Dialects(t, func(t *testing.T, d store.Dialect, url string) {
		if d == store.SQLite {
			url = filepath.Join(filepath.Dir(url), "nested", "dir", "patrimonio.db")
		}
		f(t, d, url)
	})
}

func open(t *testing.T, d store.Dialect, url string) *store.DB { return testkit.Open(t, d, url) }

func countMigrations(t *testing.T, db *store.DB) int {
	t.Helper()
	var n int
	if err := db.QueryRow(context.Background(), `SELECT COUNT(DISTINCT version) FROM schema_migrations`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func embeddedCount(t *testing.T, d store.Dialect) int {
	t.Helper()
	ms, err := migrations.Embedded(string(d))
	if err != nil {
		t.Fatal(err)
	}
	return len(ms)
}

func TestOpenAppliesTheMigrationsOnceAndReopensCleanly(t *testing.T) {
	eachDialect(t, func(t *testing.T, d store.Dialect, url string) {
		db := open(t, d, url)
		if db.Dialect() != d {
			t.Errorf("Dialect() = %q, want %q", db.Dialect(), d)
		}
		want := embeddedCount(t, db.Dialect())
		if len(db.Applied) != want {
			t.Errorf("first Open applied %v, want %d migrations", db.Applied, want)
		}
		db.Close()

		again := open(t, d, url)
		if len(again.Applied) != 0 {
			t.Errorf("second Open applied %v, want none", again.Applied)
		}
		if got := countMigrations(t, again); got != want {
			t.Errorf("schema_migrations has %d versions, want %d", got, want)
		}
	})
}

func TestOpensStartingAtTheSameTimeMigrateOnce(t *testing.T) {
	eachDialect(t, func(t *testing.T, d store.Dialect, url string) {
		const n = 4
		dbs := make([]*store.DB, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				dbs[i], errs[i] = store.Open(context.Background(), d, url)
			}()
		}
		wg.Wait()
		applied := 0
		for i := range n {
			if errs[i] != nil {
				t.Errorf("Open %d: %v", i, errs[i])
				continue
			}
			applied += len(dbs[i].Applied)
			defer dbs[i].Close()
		}
		if t.Failed() {
			return
		}
		want := embeddedCount(t, d)
		if applied != want {
			t.Errorf("the Opens applied %d migrations in total, want %d (each once)", applied, want)
		}
		if got := countMigrations(t, dbs[0]); got != want {
			t.Errorf("schema_migrations has %d versions, want %d", got, want)
		}
	})
}

func TestMeta(t *testing.T) {
	eachDialect(t, func(t *testing.T, d store.Dialect, url string) {
		ctx := context.Background()
		db := open(t, d, url)
		now := time.Date(2026, 3, 1, 10, 30, 15, 123456000, time.UTC)
		db.Now = func() time.Time { return now }

		t.Run("a missing key is a not-found error", func(t *testing.T) {
			_, err := db.Meta(ctx, "nope")
			if core.ErrorCode(err) != core.ENOTFOUND {
				t.Fatalf("err = %v, want code %s", err, core.ENOTFOUND)
			}
		})
		t.Run("a stored value reads back with its time", func(t *testing.T) {
			if err := db.SetMeta(ctx, "greeting", "hola, ¿qué tal?"); err != nil {
				t.Fatal(err)
			}
			m, err := db.Meta(ctx, "greeting")
			if err != nil {
				t.Fatal(err)
			}
			if m.Value != "hola, ¿qué tal?" || !m.UpdatedAt.Equal(now) {
				t.Errorf("got %+v, want value and time %v", m, now)
			}
		})
		t.Run("setting a key again replaces value and time", func(t *testing.T) {
			now = now.Add(time.Hour)
			if err := db.SetMeta(ctx, "greeting", "hello"); err != nil {
				t.Fatal(err)
			}
			m, err := db.Meta(ctx, "greeting")
			if err != nil {
				t.Fatal(err)
			}
			if m.Value != "hello" || !m.UpdatedAt.Equal(now) {
				t.Errorf("got %+v, want hello at %v", m, now)
			}
		})
		t.Run("an empty key is invalid", func(t *testing.T) {
			if err := db.SetMeta(ctx, "", "x"); core.ErrorCode(err) != core.EINVALID {
				t.Fatalf("err = %v, want code %s", err, core.EINVALID)
			}
		})
	})
}

func TestInstallationIDIsCreatedOnceAndSurvivesRestarts(t *testing.T) {
	eachDialect(t, func(t *testing.T, d store.Dialect, url string) {
		ctx := context.Background()
		db := open(t, d, url)
		id, err := db.InstallationID(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(id) != 36 {
			t.Errorf("id %q is not a UUID", id)
		}
		same, err := db.InstallationID(ctx)
		if err != nil || same != id {
			t.Errorf("second call = %q, %v; want %q", same, err, id)
		}
		db.Close()

		reopened := open(t, d, url)
		after, err := reopened.InstallationID(ctx)
		if err != nil || after != id {
			t.Errorf("after reopening = %q, %v; want %q", after, err, id)
		}
	})
}

func TestForeignKeysAreEnforced(t *testing.T) {
	eachDialect(t, func(t *testing.T, d store.Dialect, url string) {
		ctx := context.Background()
		db := open(t, d, url)
		for _, q := range []string{
			`CREATE TABLE parent (id TEXT NOT NULL PRIMARY KEY)`,
			`CREATE TABLE child (id TEXT NOT NULL PRIMARY KEY, parent_id TEXT NOT NULL REFERENCES parent (id))`,
		} {
			if _, err := db.Exec(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := db.Exec(ctx, `INSERT INTO child (id, parent_id) VALUES (?, ?)`, "c1", "missing"); err == nil {
			t.Error("a child row with a missing parent was accepted")
		}
	})
}

func TestTransactionsRollBackAndCommit(t *testing.T) {
	eachDialect(t, func(t *testing.T, d store.Dialect, url string) {
		ctx := context.Background()
		db := open(t, d, url)

		tx, err := db.BeginTx(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO app_meta (key, value, updated_at) VALUES (?, ?, ?)`, "k", "v", time.Now().UTC()); err != nil {
			t.Fatal(err)
		}
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Meta(ctx, "k"); core.ErrorCode(err) != core.ENOTFOUND {
			t.Fatalf("after rollback err = %v, want not found", err)
		}

		tx, err = db.BeginTx(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO app_meta (key, value, updated_at) VALUES (?, ?, ?)`, "k", "v", time.Now().UTC()); err != nil {
			t.Fatal(err)
		}
		var value string
		if err := tx.QueryRow(ctx, `SELECT value FROM app_meta WHERE key = ? AND value = ?`, "k", "v").Scan(&value); err != nil {
			t.Fatalf("the transaction does not see its own write: %v", err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if m, err := db.Meta(ctx, "k"); err != nil || m.Value != "v" {
			t.Fatalf("after commit got %+v, %v", m, err)
		}
	})
}

func TestPingFailsOnceClosed(t *testing.T) {
	eachDialect(t, func(t *testing.T, d store.Dialect, url string) {
		ctx := context.Background()
		db := open(t, d, url)
		if err := db.Ping(ctx); err != nil {
			t.Fatalf("Ping on an open database: %v", err)
		}
		db.Close()
		if err := db.Ping(ctx); err == nil {
			t.Fatal("Ping succeeded on a closed database")
		}
	})
}

func TestSQLiteConnectionsUseWALAndABusyTimeout(t *testing.T) {
	db := open(t, store.SQLite, filepath.Join(t.TempDir(), "p.db"))
	ctx := context.Background()
	var mode string
	var timeout, fk int
	if err := db.QueryRow(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(ctx, `PRAGMA busy_timeout`).Scan(&timeout); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(ctx, `PRAGMA foreign_keys`).Scan(&fk); err != nil {
		t.Fatal(err)
	}
	if mode != "wal" || timeout <= 0 || fk != 1 {
		t.Errorf("journal_mode=%s busy_timeout=%d foreign_keys=%d; want wal, >0, 1", mode, timeout, fk)
	}
	if db.Pool() != nil {
		t.Error("SQLite has a pgx pool")
	}
}

func TestTheSQLiteFileIsCreatedWithItsDirectoryAndReadableByItsOwnerOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new", "data", "patrimonio.db")
	open(t, store.SQLite, path)
	for _, p := range []string{path, path + "-wal"} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if perm := st.Mode().Perm(); perm&0o077 != 0 {
			t.Errorf("%s has permissions %v, want none for group and others", filepath.Base(p), perm)
		}
	}
}

func TestOpenFailsClearlyWhenPostgresIsUnreachable(t *testing.T) {
	// Port 1 on the loopback refuses connections at once.
	_, err := store.Open(context.Background(), store.Postgres, "postgres://app:s3cret@127.0.0.1:1/patrimonio?sslmode=disable")
	if err == nil {
		t.Fatal("Open succeeded")
	}
	if !strings.Contains(err.Error(), "open postgres 127.0.0.1:1/patrimonio") {
		t.Errorf("error %q does not say which database", err)
	}
	if strings.Contains(err.Error(), "s3cret") {
		t.Errorf("error %q leaks the password", err)
	}
}

func TestRebind(t *testing.T) {
	tests := []struct {
		name    string
		dialect store.Dialect
		in      string
		want    string
	}{
		{"sqlite keeps question marks", store.SQLite, `SELECT * FROM t WHERE a = ? AND b = ?`, `SELECT * FROM t WHERE a = ? AND b = ?`},
		{"postgres numbers them in order", store.Postgres, `SELECT * FROM t WHERE a = ? AND b IN (?, ?)`, `SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)`},
		{"a question mark in a string literal stays", store.Postgres, `SELECT '¿qué?' FROM t WHERE a = ?`, `SELECT '¿qué?' FROM t WHERE a = $1`},
		{"an escaped quote does not end the literal", store.Postgres, `SELECT 'it''s ?' , ?`, `SELECT 'it''s ?' , $1`},
		{"a quoted identifier is left alone", store.Postgres, `SELECT "odd?name" FROM t WHERE x = ?`, `SELECT "odd?name" FROM t WHERE x = $1`},
		{"comments are left alone", store.Postgres, "SELECT ? -- why?\n, ? /* what? */ , ?", "SELECT $1 -- why?\n, $2 /* what? */ , $3"},
		{"an unterminated literal is copied as it is", store.Postgres, `SELECT ?, 'oops ?`, `SELECT $1, 'oops ?`},
		{"a query without placeholders is unchanged", store.Postgres, `SELECT 1`, `SELECT 1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := store.Rebind(tt.dialect, tt.in); got != tt.want {
				t.Errorf("Rebind(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}
