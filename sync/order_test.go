package psync_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"patrimonio/core"
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
		m := newTwoMembers(t, db)
		clock, e, w, ana, a, b := m.clock, m.e, m.w, m.ana, m.a, m.b
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

// A resend is found through its run (migration 0017): a client's consecutive ids applied one
// after the other in one group, whose first change alone carries the run's length and is indexed.
// Every resend is answered with its change's own seq and stamp, whether it starts a run, ends one,
// sits in the middle of one, follows a rejection (which ends a run) or arrived out of order.
func TestEveryResendIsFoundThroughItsRunWithItsOwnSeqAndStamp(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		clock := newFakeClock()
		e := newEngine(t, db, psync.Options{Now: clock.Now})
		user, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, user, "owner")
		d := newDevice(t, e, user, clock.Now)
		var muts []psync.ClientMutation
		for i := range 10 {
			fields := task(fmt.Sprintf("tarea %d", i+1))
			if i == 3 {
				fields = map[string]any{"title": "sin estado"} // invalid: rejected, no change
			}
			muts = append(muts, d.Put(w, newRecordID(t), fields, nil))
		}
		// Ids 1-7 in one push (3 and 4 around the rejection), then 10 before 8 and 9.
		first := map[int64]psync.Outcome{}
		for _, push := range [][]psync.ClientMutation{muts[:7], muts[9:], muts[7:9]} {
			for _, o := range apply(t, e, d, push...) {
				first[o.MutationID] = o
			}
		}
		want := map[int64]int64{1: 3, 2: 0, 3: 0, 5: 3, 6: 0, 7: 0, 10: 1, 8: 2, 9: 0} // id: run_length
		rows, err := db.Query(ctx, `SELECT mutation_id, run_length FROM sync_changes WHERE workspace_id = ?`, w)
		if err != nil {
			t.Fatal(err)
		}
		got := map[int64]int64{}
		for rows.Next() {
			var id, run int64
			if err := rows.Scan(&id, &run); err != nil {
				t.Fatal(err)
			}
			got[id] = run
		}
		rows.Close()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("run lengths by mutation id %v, want %v", got, want)
		}

		// Each resent alone (the verdicts of its own group cannot answer it), then all at once.
		for _, m := range muts {
			again := apply(t, e, d, m)
			sameAnswer(t, first[m.MutationID], again[0])
		}
		for i, o := range apply(t, e, d, muts...) {
			sameAnswer(t, first[muts[i].MutationID], o)
		}
		if head, _, err := e.Head(ctx, w); err != nil || head != 9 {
			t.Fatalf("head %d (%v): want the 9 applied mutations, none twice", head, err)
		}
	})
}

// sameAnswer: a resend gets the answer its mutation got the first time (applied becomes duplicate).
func sameAnswer(t *testing.T, first, again psync.Outcome) {
	t.Helper()
	if first.Status == psync.StatusApplied {
		first.Status = psync.StatusDuplicate
	}
	first.Restamped = false
	if fmt.Sprint(again) != fmt.Sprint(first) {
		t.Errorf("mutation %d resent: %+v, first answered %+v", first.MutationID, again, first)
	}
}

// A run whose first change garbage collection removes while its later ones stay (a collection
// point inside a run, as a server clock stepping back could make) is collected whole: a resend of
// a change that stays is a duplicate, never applied again, and the next new id still applies.
func TestAResendOfARunWhoseStartWasCollectedIsNotAppliedAgain(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		clock := newFakeClock()
		e := newEngine(t, db, psync.Options{Now: clock.Now, Retention: 24 * time.Hour, GCInterval: -1})
		user, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, user, "owner")
		d := newDevice(t, e, user, clock.Now)
		var muts []psync.ClientMutation
		for i := range 4 {
			muts = append(muts, d.Put(w, newRecordID(t), task(fmt.Sprintf("tarea %d", i+1)), nil))
		}
		wantStatus(t, apply(t, e, d, muts...), psync.StatusApplied, psync.StatusApplied, psync.StatusApplied, psync.StatusApplied)
		// The run's first two changes look old: collection stops at seq 2, inside the run.
		if _, err := db.Exec(ctx, `UPDATE sync_changes SET created_at = ? WHERE workspace_id = ? AND seq <= 2`, clock.Now().Add(-48*time.Hour), w); err != nil {
			t.Fatal(err)
		}
		if stats, err := e.CollectGarbage(ctx); err != nil || stats.Changes != 2 {
			t.Fatalf("collected %+v (%v), want the run's first 2 changes", stats, err)
		}
		next := d.Put(w, newRecordID(t), task("nueva"), nil)
		got := apply(t, e, d, append(muts, next)...)
		wantStatus(t, got, psync.StatusDuplicate, psync.StatusDuplicate, psync.StatusDuplicate, psync.StatusDuplicate, psync.StatusApplied)
		if head, _, err := e.Head(ctx, w); err != nil || head != 5 {
			t.Fatalf("head %d (%v): want 5 (no resend applied again)", head, err)
		}
	})
}

// A device's earlier mutation of a record decided after its later one (ids out of order) used to
// count as a duplicate for the merge (its node was already seen later), so when its write lost to
// another device's concurrent one, no conflict kept it: a silent loss (MERGE.md, rules 6 and 7).
// The server now marks it late; every replica merges it as new, once.
func TestAMutationDecidedAfterItsDevicesLaterOneKeepsItsLosingWriteAsAConflict(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		m := newTwoMembers(t, db)
		clock, e, w, ana, luis, a, b := m.clock, m.e, m.w, m.ana, m.luis, m.a, m.b
		rec := newRecordID(t)
		create := a.Put(w, rec, task("uno"), nil)
		wantStatus(t, apply(t, e, a, create), psync.StatusApplied)
		created := map[string]psync.Stamp{"title": create.Mutation.Stamp, "status": create.Mutation.Stamp}

		// Ana retitles (6), then sets the status (7); Luis, who has not seen 6, retitles later.
		clock.Advance(time.Millisecond)
		m6 := a.Put(w, rec, map[string]any{"title": "de Ana"}, created)
		clock.Advance(time.Millisecond)
		m7 := a.Put(w, rec, map[string]any{"status": "done"}, created)
		clock.Advance(time.Millisecond)
		b.Clock.Observe(create.Mutation.Stamp)
		mb := b.Put(w, rec, map[string]any{"title": "de Luis"}, created)

		// The server decides Luis's, then Ana's 7, then her 6.
		wantStatus(t, apply(t, e, b, mb), psync.StatusApplied)
		wantStatus(t, apply(t, e, a, m7), psync.StatusApplied)
		wantStatus(t, apply(t, e, a, m6), psync.StatusApplied)

		state := serverState(t, e, ana, w)["tasks/"+rec]
		if state.Fields["title"] != "de Luis" || state.Fields["status"] != "done" {
			t.Fatalf("fields %v: want Luis's later title and Ana's status", state.Fields)
		}
		want := []psync.Conflict{{Field: "title", Value: "de Ana", Stamp: m6.Mutation.Stamp, Author: a.ClientID}}
		if !reflect.DeepEqual(state.Conflicts, want) {
			t.Fatalf("conflicts %+v, want Ana's losing title %+v", state.Conflicts, want)
		}
		page, err := e.ChangesPage(context.Background(), ana, w, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range page.Changes {
			m, err := c.Mutation()
			if err != nil {
				t.Fatal(err)
			}
			if late := c.MutationID == m6.MutationID && c.Author == a.ClientID; m.Late != late {
				t.Errorf("change %d (mutation %d): late %v, want %v", c.Seq, c.MutationID, m.Late, late)
			}
		}
		// Every replica merges the change log into the same state, the conflict included, and
		// merging it again changes nothing.
		r := newReplica()
		r.PullAll(t, e, luis, w, 0)
		sameStates(t, r.Records, serverState(t, e, luis, w))
		again := r.Records["tasks/"+rec].Clone()
		for _, c := range page.Changes {
			m, _ := c.Mutation()
			if eff, err := again.Apply(m); err != nil || !eff.Duplicate {
				t.Fatalf("change %d again: %+v, %v: want a duplicate", c.Seq, eff, err)
			}
		}
		sameStates(t, map[string]*psync.RecordState{"x": again}, map[string]*psync.RecordState{"x": r.Records["tasks/"+rec]})

		// A device cannot mark its own mutation late: the mark is the server's alone.
		forged := a.Put(w, rec, map[string]any{"title": "otra"}, created)
		forged.Mutation.Late = true
		wantStatus(t, apply(t, e, a, forged), psync.StatusApplied)
		last, err := e.ChangesPage(context.Background(), ana, w, page.Cursor, 0)
		if err != nil || len(last.Changes) != 1 {
			t.Fatalf("%v, %+v: want the forged change", err, last)
		}
		if m, _ := last.Changes[0].Mutation(); m.Late {
			t.Error("the server kept a device's own late mark")
		}
	})
}

// A socket submits a device's next push while the one before it commits, and the engine retries a
// failed group's pushes one by one: when one of them fails (the database's trouble), the device's
// push queued behind it must not be applied before it, or the device's later mutations would be
// decided before its earlier ones. It is refused (unavailable), unapplied, and so is any later
// push of that connection (which closes); the device sends both again on a new connection, in
// order.
func TestAPushQueuedBehindAFailedOneOfItsDeviceIsNotAppliedBeforeIt(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		clock := newFakeClock()
		e := newEngine(t, db, psync.Options{Now: clock.Now})
		user, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, user, "editor")
		d := newDevice(t, e, user, clock.Now)
		r1, r2 := newRecordID(t), newRecordID(t)
		wantStatus(t, apply(t, e, d, d.Put(w, r1, task("uno"), nil)), psync.StatusApplied)

		// Record 1's stored state is unreadable: a push that writes it fails (not rejected), on an
		// instance that has not remembered it.
		var good string
		if err := db.QueryRow(ctx, `SELECT state FROM sync_records WHERE record_id = ?`, r1).Scan(&good); err != nil {
			t.Fatal(err)
		}
		setState := func(state string) {
			if _, err := db.Exec(ctx, `UPDATE sync_records SET state = ? WHERE record_id = ?`, state, r1); err != nil {
				t.Fatal(err)
			}
		}
		setState(`{"fields":`)
		e2 := newEngine(t, db, psync.Options{Now: clock.Now})
		conn1 := d.Client
		conn1.Conn = 1
		m2 := d.Put(w, r1, map[string]any{"title": "dos"}, nil)
		m3 := d.Put(w, r2, task("tres"), nil)
		p2, err := e2.Submit(ctx, conn1, []psync.ClientMutation{m2})
		if err != nil {
			t.Fatal(err)
		}
		p3, err := e2.Submit(ctx, conn1, []psync.ClientMutation{m3})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p2.Wait(ctx); err == nil {
			t.Fatal("the push of the unreadable record did not fail")
		}
		if out, err := p3.Wait(ctx); core.ErrorCode(err) != core.EUNAVAILABLE {
			t.Fatalf("the push behind it: %+v, %v; want it refused, unavailable", out, err)
		}
		// Submitted on that connection after the failure (before it closed): refused too.
		if _, err := e2.Apply(ctx, conn1, []psync.ClientMutation{m3}); core.ErrorCode(err) != core.EUNAVAILABLE {
			t.Fatalf("a later push of the failed one's connection: %v; want unavailable", err)
		}
		var n int
		if err := db.QueryRow(ctx, `SELECT count(*) FROM sync_changes WHERE record_id = ?`, r2).Scan(&n); err != nil || n != 0 {
			t.Fatalf("the push behind the failed one was applied (%d changes, %v)", n, err)
		}

		// The device's resend on a new connection applies both, in order.
		setState(good)
		conn2 := d.Client
		conn2.Conn = 2
		got, err := e2.Apply(ctx, conn2, []psync.ClientMutation{m2, m3})
		if err != nil {
			t.Fatal(err)
		}
		wantStatus(t, got, psync.StatusApplied, psync.StatusApplied)
		if got[0].Seq >= got[1].Seq {
			t.Fatalf("seqs %d, %d: want the earlier mutation first", got[0].Seq, got[1].Seq)
		}
	})
}
