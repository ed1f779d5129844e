package psync_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"patrimonio/internal/testkit"
	"patrimonio/server/store"
	psync "patrimonio/sync"
)

// A live edit is decided from what its instance remembers of the workspace (cached.go), and still
// sees everything any other writer did since: another instance's edit of the same record, a
// role taken away and given back, a push of the same client whose mutations were all rejected on
// the other instance. Each time the database changed, the guards send the push the general way,
// and the outcome is the one the general way alone gives.
func TestALiveEditDecidedFromMemorySeesEveryWriteSince(t *testing.T) {
	dbA, a, b, clock := twoInstances(t)
	owner, editor, w := addUser(t, dbA), addUser(t, dbA), addWorkspace(t, dbA)
	addMember(t, dbA, w, owner, "owner")
	addMember(t, dbA, w, editor, "editor")
	d := newDevice(t, a, owner, clock.Now)
	other := newDevice(t, b, editor, clock.Now)
	rec := newRecordID(t)
	wantHits := func(hits, stale int64) { t.Helper(); wantCached(t, a, hits, stale) }

	create := d.Put(w, rec, task("Renovar el seguro"), nil)
	wantStatus(t, apply(t, a, d, create), psync.StatusApplied)
	wantHits(0, 0) // nothing remembered yet
	edit := d.Put(w, rec, map[string]any{"status": "in_progress"}, map[string]psync.Stamp{"status": create.Mutation.Stamp})
	first := apply(t, a, d, edit)
	wantStatus(t, first, psync.StatusApplied)
	wantHits(1, 0)
	if first[0].Seq != 2 {
		t.Fatalf("the edit decided from memory got seq %d, want 2", first[0].Seq)
	}

	// Another instance edits the record: A's memory is out of date, and its guard says so.
	clock.Advance(time.Second)
	wantStatus(t, apply(t, b, other, other.Put(w, rec, map[string]any{"title": "Renovar el seguro del coche"},
		map[string]psync.Stamp{"title": create.Mutation.Stamp})), psync.StatusApplied)
	clock.Advance(time.Second)
	done := d.Put(w, rec, map[string]any{"status": "done"}, map[string]psync.Stamp{"status": edit.Mutation.Stamp})
	got := apply(t, a, d, done)
	wantStatus(t, got, psync.StatusApplied)
	wantHits(2, 1)
	if got[0].Seq != 4 {
		t.Fatalf("seq %d, want 4 (after the other instance's 3)", got[0].Seq)
	}
	state := serverState(t, a, owner, w)["tasks/"+rec]
	if state.Fields["title"] != "Renovar el seguro del coche" || state.Fields["status"] != "done" {
		t.Fatalf("record %v: want the other instance's title and this device's status", state.Fields)
	}

	// The role is taken away, with no push in between: the guard sees it, the edit is refused.
	setRole(t, dbA, w, owner, "viewer")
	refused := apply(t, a, d, d.Put(w, rec, map[string]any{"title": "Nada"}, nil))
	wantStatus(t, refused, psync.StatusRejected)
	if refused[0].Code != psync.RejectForbidden {
		t.Fatalf("refused with %s, want %s", refused[0].Code, psync.RejectForbidden)
	}
	wantHits(3, 2)
	setRole(t, dbA, w, owner, "owner")
	again := d.Put(w, rec, map[string]any{"priority": "high"}, nil)
	wantStatus(t, apply(t, a, d, again), psync.StatusApplied)
	wantHits(4, 3)

	// The same client's next mutation, invalid, is rejected on B first: its last id moves and
	// no seq does. Sent again to A, it is answered as it was, not decided a second time.
	bad := d.Put(w, rec, map[string]any{"status": "perhaps"}, nil)
	wantStatus(t, apply(t, b, d, bad), psync.StatusRejected)
	wantStatus(t, apply(t, a, d, bad), psync.StatusRejected)
	wantHits(5, 4) // A remembered the id before it as the last: the guard found the one B decided
	if head, _, err := a.Head(context.Background(), w); err != nil || head != 5 {
		t.Fatalf("head %d (%v), want 5", head, err)
	}

	r := newReplica()
	r.PullAll(t, b, editor, w, 0)
	sameStates(t, r.Records, serverState(t, a, owner, w))
}

// Garbage collection removes a tombstone this instance remembers: the guard (gc_seq) sends the
// next write of that record the general way, which finds no record, as it would without memory.
func TestALiveEditAfterItsTombstoneWasCollectedTakesTheGeneralWay(t *testing.T) {
	db := openStore(t, store.Postgres, postgresURL(t))
	clock := newFakeClock()
	e := newEngine(t, db, psync.Options{Now: clock.Now, Retention: 24 * time.Hour, GCInterval: -1})
	user, w := addUser(t, db), addWorkspace(t, db)
	addMember(t, db, w, user, "owner")
	d := newDevice(t, e, user, clock.Now)
	rec := newRecordID(t)
	create := d.Put(w, rec, task("Vender la moto"), nil)
	wantStatus(t, apply(t, e, d, create), psync.StatusApplied)
	del := d.Mutation(psync.OpDelete, w, "tasks", rec, nil, map[string]psync.Stamp{"title": create.Mutation.Stamp, "status": create.Mutation.Stamp})
	wantStatus(t, apply(t, e, d, del), psync.StatusApplied)
	wantCached(t, e, 1, 0) // the delete
	clock.Advance(25 * time.Hour)
	if stats, err := e.CollectGarbage(context.Background()); err != nil || stats.Records != 1 {
		t.Fatalf("collected %+v (%v), want the tombstone", stats, err)
	}
	wantStatus(t, apply(t, e, d, d.Put(w, rec, task("Vender la moto, otra vez"), nil)), psync.StatusApplied)
	wantCached(t, e, 2, 1)
	got := serverState(t, e, user, w)["tasks/"+rec]
	if got == nil || got.Deleted() || got.Fields["title"] != "Vender la moto, otra vez" {
		t.Fatalf("record %+v: want it written anew, as the general way writes a record that is not there", got)
	}
}

// A record this instance does not remember, written with no base (as a device creating it
// writes it), is taken for one that does not exist yet, and written as a new row: if it exists after all (another instance created it),
// the insert fails and the push takes the general way; if the push would only have been
// rejected (a partial write that is invalid on its own), nothing shows whether the record exists,
// and it takes the general way before writing anything.
func TestARecordNotRememberedIsTakenForNewOnlyWhereTheDatabaseAgrees(t *testing.T) {
	dbA, a, b, clock := twoInstances(t)
	user, w := addUser(t, dbA), addWorkspace(t, dbA)
	addMember(t, dbA, w, user, "owner")
	d := newDevice(t, a, user, clock.Now)
	other := newDevice(t, b, user, clock.Now)
	wantHits := func(hits, stale int64) { t.Helper(); wantCached(t, a, hits, stale) }
	wantStatus(t, apply(t, a, d, d.Put(w, newRecordID(t), task("primera"), nil)), psync.StatusApplied)
	wantStatus(t, apply(t, a, d, d.Put(w, newRecordID(t), task("nueva"), nil)), psync.StatusApplied)
	wantHits(1, 0)

	// B creates two records; A's head is out of date too, so each push below is stale by its
	// guard first: one of A's own edits brings A up to date in between.
	x, y := newRecordID(t), newRecordID(t)
	xCreate := other.Put(w, x, task("de B"), nil)
	wantStatus(t, apply(t, b, other, xCreate, other.Put(w, y, task("también de B"), nil)), psync.StatusApplied, psync.StatusApplied)
	wantStatus(t, apply(t, a, d, d.Put(w, newRecordID(t), task("al día"), nil)), psync.StatusApplied)
	wantHits(2, 1)

	// A partial write of x with no base (as a creation has): invalid on an empty record, valid on
	// B's. Applied. (With a base, a record not remembered is read first: the general way.)
	clock.Advance(time.Second)
	partial := apply(t, a, d, d.Put(w, x, map[string]any{"status": "done"}, nil))
	wantStatus(t, partial, psync.StatusApplied)
	wantHits(3, 2)
	// A whole write of y, valid as a new record: its insert finds B's row. Merged with it.
	clock.Advance(time.Second)
	wantStatus(t, apply(t, a, d, d.Put(w, y, map[string]any{"priority": "high", "title": "de A", "status": "todo"}, nil)), psync.StatusApplied)
	wantHits(4, 3)

	state := serverState(t, a, user, w)
	if got := state["tasks/"+x]; got.Fields["title"] != "de B" || got.Fields["status"] != "done" {
		t.Errorf("x: %v, want B's title and A's status", got.Fields)
	}
	// Merged into B's record, not written over it: B's title, which A's later write did not
	// see, is kept as an open conflict (a record written anew has none).
	got := state["tasks/"+y]
	keptB := slices.ContainsFunc(got.Conflicts, func(c psync.Conflict) bool { return c.Field == "title" && c.Value == "también de B" })
	if got.Fields["title"] != "de A" || !keptB {
		t.Errorf("y: %+v, want A's write merged into B's record", got)
	}
	if head, _, err := a.Head(context.Background(), w); err != nil || head != 7 {
		t.Fatalf("head %d (%v), want 7", head, err)
	}
	r := newReplica()
	r.PullAll(t, b, user, w, 0)
	sameStates(t, r.Records, state)
}

// wantCached: e decided hits pushes from memory, stale of which found the database changed.
func wantCached(t *testing.T, e *psync.Engine, hits, stale int64) {
	t.Helper()
	if h, s := e.CachedCommits(); h != hits || s != stale {
		t.Fatalf("%d pushes decided from memory, %d of them stale; want %d and %d", h, s, hits, stale)
	}
}

// twoInstances are two engines on one Postgres database, with one scripted clock, and the first
// one's store.
func twoInstances(t *testing.T) (*store.DB, *psync.Engine, *psync.Engine, *testkit.Clock) {
	t.Helper()
	url := postgresURL(t)
	dbA, dbB := openStore(t, store.Postgres, url), openStore(t, store.Postgres, url)
	clock := newFakeClock()
	return dbA, newEngine(t, dbA, psync.Options{Now: clock.Now}), newEngine(t, dbB, psync.Options{Now: clock.Now}), clock
}
