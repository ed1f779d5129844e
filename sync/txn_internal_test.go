package psync

import (
	"context"
	"testing"

	"patrimonio/internal/pgtest"
	"patrimonio/internal/testkit"
	"patrimonio/server/store"
)

// On Postgres the push transaction queues its writes and sends them with the next read or the
// commit (txn.go): a read sees the writes queued before it, the commit stores them, and a queued
// write that fails fails the read or the commit after it, storing nothing.
func TestThePipelinedPostgresTransactionKeepsItsWritesInOrderAndAllOrNothing(t *testing.T) {
	db, e := postgresEngine(t)
	ctx := context.Background()
	if _, err := db.Exec(ctx, `CREATE TABLE pipeline_probe (id INTEGER PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	stored := func() int {
		t.Helper()
		var n int
		if err := db.QueryRow(ctx, `SELECT count(*) FROM pipeline_probe`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	begin := func() txn {
		t.Helper()
		tx, err := e.beginTxn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := tx.(*pgTxn); !ok {
			t.Fatalf("the Postgres transaction is a %T", tx)
		}
		return tx
	}
	insert := func(tx txn, id int) {
		t.Helper()
		if err := tx.exec(ctx, `INSERT INTO pipeline_probe (id) VALUES (?)`, id); err != nil {
			t.Fatal(err)
		}
	}

	tx := begin()
	insert(tx, 1)
	insert(tx, 2)
	var n int
	if err := tx.queryRow(ctx, `SELECT count(*) FROM pipeline_probe`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("a read after two queued writes counts %d (%v), want 2", n, err)
	}
	insert(tx, 3)
	if stored() != 0 {
		t.Fatal("writes are visible outside before the commit")
	}
	if err := tx.commit(ctx); err != nil {
		t.Fatal(err)
	}
	tx.rollback(ctx) // after a commit: nothing
	if got := stored(); got != 3 {
		t.Fatalf("%d rows committed, want 3", got)
	}

	tx = begin()
	insert(tx, 4)
	insert(tx, 1) // a duplicate: fails
	insert(tx, 5)
	if err := tx.commit(ctx); err == nil {
		t.Fatal("a commit after a failed write succeeded")
	}
	if got := stored(); got != 3 {
		t.Fatalf("%d rows after a failed commit, want 3", got)
	}

	tx = begin()
	insert(tx, 2) // a duplicate: fails
	if err := tx.queryRow(ctx, `SELECT count(*) FROM pipeline_probe`).Scan(&n); err == nil {
		t.Fatal("a read after a failed write succeeded")
	}
	tx.rollback(ctx)

	tx = begin()
	insert(tx, 6)
	rows, err := tx.query(ctx, `SELECT id FROM pipeline_probe ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int
	for rows.Next() {
		var id int
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(ids) != 4 || ids[3] != 6 {
		t.Fatalf("rows %v (%v), want 1 2 3 6", ids, err)
	}
	tx.rollback(ctx)
	if got := stored(); got != 3 {
		t.Fatalf("%d rows after a rollback, want 3", got)
	}
	// Every connection went back to the pool usable.
	for range 8 {
		tx = begin()
		insert(tx, 100)
		tx.rollback(ctx)
	}
	if got := stored(); got != 3 {
		t.Fatalf("%d rows, want 3", got)
	}
}

// The push transaction's statements run with generic plans (txn.go, beginTxn): Postgres would
// otherwise plan the read of a push's records again at every push.
func TestThePostgresPushTransactionPlansItsStatementsOnce(t *testing.T) {
	_, e := postgresEngine(t)
	ctx := context.Background()
	tx, err := e.beginTxn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.rollback(ctx)
	var mode string
	if err := tx.queryRow(ctx, `SELECT current_setting('plan_cache_mode')`).Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if mode != "force_generic_plan" {
		t.Fatalf("plan_cache_mode in the push transaction is %q, want force_generic_plan", mode)
	}
}

// postgresEngine is an engine on a fresh Postgres database of the test cluster.
func postgresEngine(t *testing.T) (*store.DB, *Engine) {
	t.Helper()
	db := testkit.Open(t, store.Postgres, pgtest.URL(t))
	e, err := New(db, Options{GCInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return db, e
}
