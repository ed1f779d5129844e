// Package testkit holds what the Go tests of every package share: the loop that runs a test on both
// databases (a fresh SQLite file and a fresh database on a real Postgres, see internal/pgtest), a
// clock the test moves by hand, and a buffer that handler goroutines may write to while the test
// reads it. A package's tests use these instead of their own copies.
package testkit

import (
	"bytes"
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"patrimonio/internal/pgtest"
	"patrimonio/server/store"
)

// Dialects runs f as two parallel subtests, "sqlite" and "postgres", each with the dialect and URL
// (for SQLite, the file path) of a database of its own: a new SQLite file, and a new database on the
// test Postgres server. The
// package's TestMain must be pgtest.Main (or call pgtest.Run).
func Dialects(t *testing.T, f func(t *testing.T, dialect store.Dialect, url string)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		f(t, store.SQLite, filepath.Join(t.TempDir(), "patrimonio.db"))
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		f(t, store.Postgres, pgtest.URL(t))
	})
}

// Stores runs f as two parallel subtests, "sqlite" and "postgres", each on a store of its own opened
// with the migrations applied (see Dialects), closed when the subtest ends. It is the contract every
// package's store tests run on: the same test, the same expectations, both databases.
func Stores(t *testing.T, f func(t *testing.T, db *store.DB)) {
	t.Helper()
	Dialects(t, func(t *testing.T, dialect store.Dialect, url string) { f(t, Open(t, dialect, url)) })
}

// Open opens the store of dialect at url (migrations applied) and closes it when the test ends.
func Open(t testing.TB, dialect store.Dialect, url string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), dialect, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Clock is a time the test sets and moves by hand; Now is safe to call from any goroutine.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a clock standing at start (in UTC).
func NewClock(start time.Time) *Clock { return &Clock{t: start.UTC()} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Set puts the clock at t (in UTC).
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t.UTC()
}

// Buffer collects output written from several goroutines (a server's log) for the test to read.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// String is everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
