package psync_test

// Deleting a workspace deletes its sync data. The record states and the change log have no foreign
// key to workspaces (migration 0016: a push would check the workspace once per row it writes), so
// the deletion (members.DeleteWorkspace, which the account and workspace services call) removes
// them itself; these tests check that nothing of a deleted workspace is left, on both stores, and
// on Postgres also with a push in progress in the workspace while it is deleted.

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"patrimonio/server/members"
	"patrimonio/server/store"
	psync "patrimonio/sync"
)

// syncRowsOf counts the rows a workspace has in each of the engine's per-workspace tables.
func syncRowsOf(t *testing.T, db *store.DB, workspace string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, table := range []string{"sync_workspaces", "sync_records", "sync_changes", "sync_conflicts"} {
		var n int
		if err := db.QueryRow(context.Background(), `SELECT COUNT(*) FROM `+table+` WHERE workspace_id = ?`, workspace).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out[table] = n
	}
	return out
}

func deleteWorkspace(t *testing.T, db *store.DB, workspace string) {
	t.Helper()
	ctx := context.Background()
	tx, err := db.BeginTx(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	existed, err := members.DeleteWorkspace(ctx, tx, workspace)
	if err != nil {
		t.Fatal(err)
	}
	if !existed {
		t.Fatalf("workspace %s did not exist", workspace)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func TestDeletingAWorkspaceLeavesNothingOfItsSyncData(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		clock := newFakeClock()
		e := newEngine(t, db, psync.Options{Now: clock.Now})
		ana, luis := addUser(t, db), addUser(t, db)
		doomed, kept := addWorkspace(t, db), addWorkspace(t, db)
		for _, w := range []string{doomed, kept} {
			addMember(t, db, w, ana, "editor")
			addMember(t, db, w, luis, "editor")
		}
		a, l := newDevice(t, e, ana, clock.Now), newDevice(t, e, luis, clock.Now)
		for _, w := range []string{doomed, kept} {
			// Records, changes, and a conflict: two concurrent edits of one title.
			rec := newRecordID(t)
			create := a.Put(w, rec, task("Pagar el IBI"), nil)
			wantStatus(t, apply(t, e, a, create), psync.StatusApplied)
			base := map[string]psync.Stamp{"title": create.Mutation.Stamp}
			aEdit := a.Put(w, rec, map[string]any{"title": "Pagar el IBI (Ana)"}, base)
			lEdit := l.Put(w, rec, map[string]any{"title": "Pagar el IBI (Luis)"}, base)
			wantStatus(t, apply(t, e, a, aEdit), psync.StatusApplied)
			wantStatus(t, apply(t, e, l, lEdit), psync.StatusApplied)
			wantStatus(t, apply(t, e, a, a.Put(w, newRecordID(t), task("Renovar el seguro"), nil)), psync.StatusApplied)
		}
		before := syncRowsOf(t, db, kept)
		for table, n := range before {
			if n == 0 {
				t.Fatalf("the pushes left no row in %s: the test checks nothing", table)
			}
		}
		if got := syncRowsOf(t, db, doomed); got["sync_conflicts"] == 0 || got["sync_records"] != 2 || got["sync_changes"] != 4 {
			t.Fatalf("rows of the workspace to delete before the deletion: %v", got)
		}

		deleteWorkspace(t, db, doomed)

		for table, n := range syncRowsOf(t, db, doomed) {
			if n != 0 {
				t.Errorf("%d rows of the deleted workspace are left in %s", n, table)
			}
		}
		if after := syncRowsOf(t, db, kept); after["sync_records"] != before["sync_records"] ||
			after["sync_changes"] != before["sync_changes"] || after["sync_conflicts"] != before["sync_conflicts"] ||
			after["sync_workspaces"] != before["sync_workspaces"] {
			t.Errorf("the other workspace's rows changed: %v, before %v", after, before)
		}
		// A push to the deleted workspace is refused and writes nothing.
		late := apply(t, e, a, a.Put(doomed, newRecordID(t), task("Tarde"), nil))
		wantStatus(t, late, psync.StatusRejected)
		if late[0].Code != psync.RejectNotFound {
			t.Errorf("a push to the deleted workspace got code %q, want %q", late[0].Code, psync.RejectNotFound)
		}
		for table, n := range syncRowsOf(t, db, doomed) {
			if n != 0 {
				t.Errorf("after a late push, %d rows of the deleted workspace in %s", n, table)
			}
		}
	})
}

// On Postgres a push in progress and the deletion of its workspace overlap: the deletion waits for
// the push (it holds the workspace's sync_workspaces row, which the deletion of the workspace row
// cascades to) and then removes what the push wrote. The push is held inside its transaction, after
// it locked the workspace, by an uncommitted row with the key of the record it creates.
func TestDeletingAWorkspaceWaitsForThePushInProgressAndRemovesItsRows(t *testing.T) {
	ctx := context.Background()
	db := openStore(t, store.Postgres, postgresURL(t))
	clock := newFakeClock()
	e := newEngine(t, db, psync.Options{Now: clock.Now})
	ana, w := addUser(t, db), addWorkspace(t, db)
	addMember(t, db, w, ana, "editor")
	d := newDevice(t, e, ana, clock.Now)
	wantStatus(t, apply(t, e, d, d.Put(w, newRecordID(t), task("Antes"), nil)), psync.StatusApplied)

	rec := newRecordID(t)
	blocker, err := db.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := blocker.Exec(ctx, `INSERT INTO sync_records (workspace_id, collection, record_id, seq, deleted, conflicts, state, updated_at)
		VALUES ($1, 'tasks', $2, 0, false, 0, '{}', now())`, w, rec); err != nil {
		t.Fatal(err)
	}
	waitForLockWaiters := func(n int) {
		t.Helper()
		for {
			var waiting int
			if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&waiting); err != nil {
				t.Fatal(err)
			}
			if waiting >= n {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}

	type pushResult struct {
		outcomes []psync.Outcome
		err      error
	}
	pushed := make(chan pushResult, 1)
	go func() {
		out, err := e.Apply(ctx, d.Client, []psync.ClientMutation{d.Put(w, rec, task("Durante"), nil)})
		pushed <- pushResult{out, err}
	}()
	waitForLockWaiters(1) // the push, on the blocker's row

	deleted := make(chan error, 1)
	go func() {
		tx, err := db.BeginTx(ctx)
		if err != nil {
			deleted <- err
			return
		}
		defer tx.Rollback()
		if _, err := members.DeleteWorkspace(ctx, tx, w); err != nil {
			var pe *pgconn.PgError
			if errors.As(err, &pe) {
				t.Logf("%s", pe.Detail) // a deadlock's cycle
			}
			deleted <- err
			return
		}
		deleted <- tx.Commit()
	}()
	waitForLockWaiters(2) // and the deletion, on the push's sync_workspaces row

	if err := blocker.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	r := <-pushed
	if r.err != nil {
		t.Fatal(r.err)
	}
	wantStatus(t, r.outcomes, psync.StatusApplied)
	if err := <-deleted; err != nil {
		t.Fatal(err)
	}
	for table, n := range syncRowsOf(t, db, w) {
		if n != 0 {
			t.Errorf("%d rows of the deleted workspace are left in %s", n, table)
		}
	}
}
