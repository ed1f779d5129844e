package sync_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"patrimonio/server/store"
	psync "patrimonio/sync"
)

// A device's mutation ids reach the server out of order when two of its pushes commit in the
// other order (two in flight, a resend racing the original, one client on two instances). Each id
// must then be applied or rejected with a reason: acknowledging an id that was never applied as a
// duplicate drops it from the device's outbox, a silent loss.
func TestMutationIdsArrivingOutOfOrderAreEachAppliedNeverAcknowledgedUnapplied(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		clock := newFakeClock()
		e := newEngine(t, db, psync.Options{Now: clock.Now})
		user, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, user, "editor")
		d := newDevice(t, e, user, clock.Now)
		recs := []string{newRecordID(t), newRecordID(t), newRecordID(t), newRecordID(t)}
		m1 := d.Put(w, recs[0], task("uno"), nil)
		m2 := d.Put(w, recs[1], task("dos"), nil)
		m3 := d.Put(w, recs[2], map[string]any{"title": "sin estado"}, nil) // invalid: no status
		m4 := d.Put(w, recs[3], task("cuatro"), nil)

		// The later push (4) commits first; then the earlier one (1, 2, 3).
		wantStatus(t, apply(t, e, d, m4), psync.StatusApplied)
		got := apply(t, e, d, m1, m2, m3)
		wantStatus(t, got, psync.StatusApplied, psync.StatusApplied, psync.StatusRejected)
		if got[2].Code != psync.RejectInvalid || len(got[2].Issues) == 0 {
			t.Fatalf("the invalid one was rejected without a reason: %+v", got[2])
		}
		state := serverState(t, e, user, w)
		for i, title := range []string{"uno", "dos", "", "cuatro"} {
			rec := state["tasks/"+recs[i]]
			if title == "" {
				if rec != nil {
					t.Errorf("the rejected record is stored: %+v", rec.Fields)
				}
				continue
			}
			if rec == nil || rec.Fields["title"] != title {
				t.Errorf("record %d: %+v, want title %q", i, rec, title)
			}
		}

		// Now a true resend of all four: each gets the answer it got, nothing applied twice.
		again := apply(t, e, d, m1, m2, m3, m4)
		wantStatus(t, again, psync.StatusDuplicate, psync.StatusDuplicate, psync.StatusRejected, psync.StatusDuplicate)
		for i, o := range again {
			if o.Status == psync.StatusDuplicate && o.Seq == 0 {
				t.Errorf("resend %d answered without its seq: %+v", i, o)
			}
		}
		if head, _, err := e.Head(context.Background(), w); err != nil || head != 3 {
			t.Fatalf("head %d (%v): want 3 applied mutations", head, err)
		}
		r := newReplica()
		r.PullAll(t, e, user, w, 0)
		sameStates(t, r.Records, serverState(t, e, user, w))
	})
}

// The same on two instances sharing one Postgres: the device's pushes land on both, the later
// one first.
func TestMutationIdsOutOfOrderAcrossTwoInstancesAreEachApplied(t *testing.T) {
	url := postgresURL(t)
	dbA := openStore(t, store.Postgres, url)
	dbB := openStore(t, store.Postgres, url)
	clock := newFakeClock()
	a := newEngine(t, dbA, psync.Options{Now: clock.Now})
	b := newEngine(t, dbB, psync.Options{Now: clock.Now})
	user, w := addUser(t, dbA), addWorkspace(t, dbA)
	addMember(t, dbA, w, user, "owner")
	d := newDevice(t, a, user, clock.Now)
	recs := []string{newRecordID(t), newRecordID(t), newRecordID(t)}
	muts := []psync.ClientMutation{d.Put(w, recs[0], task("a"), nil), d.Put(w, recs[1], task("b"), nil), d.Put(w, recs[2], task("c"), nil)}

	wantStatus(t, apply(t, b, d, muts[2]), psync.StatusApplied)
	wantStatus(t, apply(t, a, d, muts[0], muts[1]), psync.StatusApplied, psync.StatusApplied)
	wantStatus(t, apply(t, b, d, muts...), psync.StatusDuplicate, psync.StatusDuplicate, psync.StatusDuplicate)
	state := serverState(t, a, user, w)
	for i, title := range []string{"a", "b", "c"} {
		if rec := state["tasks/"+recs[i]]; rec == nil || rec.Fields["title"] != title {
			t.Errorf("record %d: %+v", i, rec)
		}
	}
}

// Once garbage collection has removed a mutation's change, a resend of it is a duplicate (not
// applied again); an id above every collected one that was never decided is still applied.
func TestAfterGarbageCollectionResendsAreDuplicatesAndUndecidedIdsStillApply(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		clock := newFakeClock()
		e := newEngine(t, db, psync.Options{Now: clock.Now, Retention: 24 * time.Hour, GCInterval: -1})
		user, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, user, "owner")
		d := newDevice(t, e, user, clock.Now)
		rec := newRecordID(t)
		old := d.Put(w, rec, task("antigua"), nil)
		wantStatus(t, apply(t, e, d, old), psync.StatusApplied)
		clock.Advance(25 * time.Hour)
		if stats, err := e.CollectGarbage(context.Background()); err != nil || stats.Changes != 1 {
			t.Fatalf("collected %+v (%v), want the one change", stats, err)
		}
		late := d.Put(w, newRecordID(t), task("tardía"), nil)
		newer := d.Put(w, newRecordID(t), task("nueva"), nil)
		wantStatus(t, apply(t, e, d, newer), psync.StatusApplied)
		got := apply(t, e, d, old, late)
		wantStatus(t, got, psync.StatusDuplicate, psync.StatusApplied)
		if head, _, err := e.Head(context.Background(), w); err != nil || head != 3 {
			t.Fatalf("head %d (%v): want 3 (the collected resend not applied again)", head, err)
		}
	})
}

// Every value a mutation writes is validated, whatever the merge makes of it: a value that loses
// the merge would otherwise be kept as an open conflict, copied to every device, and restoring it
// refused.
func TestAnInvalidValueThatLosesTheMergeIsRejectedNotKept(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		clock := newFakeClock()
		e := newEngine(t, db, psync.Options{Now: clock.Now})
		ana, luis, w := addUser(t, db), addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, ana, "owner")
		addMember(t, db, w, luis, "editor")
		a, b := newDevice(t, e, ana, clock.Now), newDevice(t, e, luis, clock.Now)
		rec := newRecordID(t)
		create := a.Put(w, rec, task("Revisar"), nil)
		wantStatus(t, apply(t, e, a, create), psync.StatusApplied)
		seen := map[string]psync.Stamp{"title": create.Mutation.Stamp}

		clock.Advance(time.Second)
		tooLong := b.Put(w, rec, map[string]any{"title": strings.Repeat("x", 141)}, seen) // older: loses
		clock.Advance(time.Second)
		wantStatus(t, apply(t, e, a, a.Put(w, rec, map[string]any{"title": "Revisado"}, seen)), psync.StatusApplied)
		got := apply(t, e, b, tooLong)
		wantStatus(t, got, psync.StatusRejected)
		if got[0].Code != psync.RejectInvalid || len(got[0].Issues) != 1 || got[0].Issues[0].Path != "title" ||
			got[0].Issues[0].Key != "validation.string.max" {
			t.Fatalf("rejection %+v", got[0])
		}
		state := serverState(t, e, ana, w)["tasks/"+rec]
		if state.Fields["title"] != "Revisado" || len(state.Conflicts) != 0 {
			t.Fatalf("fields %v conflicts %+v", state.Fields, state.Conflicts)
		}
		if records, err := e.Conflicts(context.Background(), ana, w); err != nil || len(records) != 0 {
			t.Fatalf("conflict records %+v (%v)", records, err)
		}

		// A valid losing value is still kept as a conflict.
		clock.Advance(time.Second)
		fine := b.Put(w, rec, map[string]any{"title": "Revisar (Luis)"}, seen)
		wantStatus(t, apply(t, e, b, fine), psync.StatusApplied)
		if state := serverState(t, e, ana, w)["tasks/"+rec]; len(state.Conflicts) != 1 {
			t.Fatalf("the valid loser is not a conflict: %+v", state.Conflicts)
		}
	})
}
