package psync_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"patrimonio/core"
	"patrimonio/server/store"
	psync "patrimonio/sync"
)

func TestAResendIsAcknowledgedAsADuplicateAndNotAppliedTwice(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		clock := newFakeClock()
		e := newEngine(t, db, psync.Options{Now: clock.Now})
		user, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, user, "editor")
		d := newDevice(t, e, user, clock.Now)
		rec := newRecordID(t)

		create := d.Put(w, rec, task("Pagar el IBI"), nil)
		edit := d.Put(w, rec, map[string]any{"status": "done"}, map[string]psync.Stamp{"status": create.Mutation.Stamp})
		first := apply(t, e, d, create, edit)
		wantStatus(t, first, psync.StatusApplied, psync.StatusApplied)

		// The connection dropped before the ack: the device sends the same batch again, plus one.
		more := d.Put(w, rec, map[string]any{"title": "Pagar el IBI de 2025"}, map[string]psync.Stamp{"title": create.Mutation.Stamp})
		second := apply(t, e, d, create, edit, more)
		wantStatus(t, second, psync.StatusDuplicate, psync.StatusDuplicate, psync.StatusApplied)
		for i := range 2 {
			if second[i].Seq != first[i].Seq || second[i].Stamp != first[i].Stamp {
				t.Errorf("resend %d answered seq %d stamp %s, first answer was seq %d stamp %s",
					i, second[i].Seq, second[i].Stamp, first[i].Seq, first[i].Stamp)
			}
		}
		if second[2].Seq != 3 {
			t.Errorf("the new mutation got seq %d, want 3", second[2].Seq)
		}
		// A resend within one push of a mutation applied earlier in that very push.
		again := apply(t, e, d, more)
		wantStatus(t, again, psync.StatusDuplicate)

		head, _, err := e.Head(context.Background(), w)
		if err != nil {
			t.Fatal(err)
		}
		if head != 3 {
			t.Fatalf("head %d: something was applied twice", head)
		}
		r := newReplica()
		r.PullAll(t, e, user, w, 0)
		sameStates(t, r.Records, serverState(t, e, user, w))
		got := r.Records["tasks/"+rec]
		if got.Fields["title"] != "Pagar el IBI de 2025" || got.Fields["status"] != "done" {
			t.Fatalf("record %v", got.Fields)
		}
	})
}

func TestConcurrentEditsOfAFieldKeepTheLoserAsAConflictRecord(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		m := newTwoMembers(t, db)
		clock, e, w, ana, luis, a, b := m.clock, m.e, m.w, m.ana, m.luis, m.a, m.b
		rec := newRecordID(t)
		ctx := context.Background()

		create := a.Put(w, rec, map[string]any{"title": "Revisar hipoteca", "status": "todo", "notes": "banco A"}, nil)
		wantStatus(t, apply(t, e, a, create), psync.StatusApplied)
		seen := map[string]psync.Stamp{"title": create.Mutation.Stamp, "notes": create.Mutation.Stamp, "status": create.Mutation.Stamp}

		// Both edit the title having seen the same value, offline; b edits later (wins), and b
		// edits notes, which a does not touch.
		clock.Advance(time.Second)
		aEdit := a.Put(w, rec, map[string]any{"title": "Revisar hipoteca (Ana)"}, seen)
		clock.Advance(time.Second)
		bEdit := b.Put(w, rec, map[string]any{"title": "Revisar hipoteca (Luis)", "notes": "banco B"}, seen)
		// b's edit reaches the server first; a's older one arrives later and loses.
		wantStatus(t, apply(t, e, b, bEdit), psync.StatusApplied)
		wantStatus(t, apply(t, e, a, aEdit), psync.StatusApplied)

		state := serverState(t, e, ana, w)["tasks/"+rec]
		if state.Fields["title"] != "Revisar hipoteca (Luis)" || state.Fields["notes"] != "banco B" {
			t.Fatalf("fields %v", state.Fields)
		}
		if len(state.Conflicts) != 1 || state.Conflicts[0].Value != "Revisar hipoteca (Ana)" ||
			state.Conflicts[0].Author != a.ClientID || state.Conflicts[0].Stamp != aEdit.Mutation.Stamp {
			t.Fatalf("conflicts %+v", state.Conflicts)
		}
		records, err := e.Conflicts(ctx, luis, w)
		if err != nil {
			t.Fatal(err)
		}
		if len(records) != 1 || records[0].Field != "title" || records[0].Value != "Revisar hipoteca (Ana)" ||
			records[0].Author != a.ClientID || records[0].RecordID != rec || records[0].Seq != 3 {
			t.Fatalf("conflict records %+v", records)
		}

		// Ana restores her value: a restore of the losing value that settles the conflict.
		clock.Advance(time.Second)
		restore := a.Mutation(psync.OpPut, w, "tasks", rec, map[string]any{"title": "Revisar hipoteca (Ana)"},
			map[string]psync.Stamp{"title": bEdit.Mutation.Stamp})
		restore.Mutation.Resolves = []psync.ConflictKey{{Field: "title", Stamp: aEdit.Mutation.Stamp}}
		wantStatus(t, apply(t, e, a, restore), psync.StatusApplied)
		state = serverState(t, e, ana, w)["tasks/"+rec]
		if state.Fields["title"] != "Revisar hipoteca (Ana)" || len(state.Conflicts) != 0 {
			t.Fatalf("after the restore: fields %v, conflicts %+v", state.Fields, state.Conflicts)
		}
		if records, err = e.Conflicts(ctx, luis, w); err != nil || len(records) != 0 {
			t.Fatalf("conflict records after the restore: %+v, %v", records, err)
		}

		// A replica built from the change log alone holds exactly the server's state.
		r := newReplica()
		r.PullAll(t, e, luis, w, 2)
		sameStates(t, r.Records, serverState(t, e, luis, w))
	})
}

func TestChangesComeInSeqOrderWithoutGapsUnderConcurrentPushes(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		e := newEngine(t, db, psync.Options{})
		w := addWorkspace(t, db)
		const devices, batches, perBatch = 4, 6, 40
		records := []string{newRecordID(t), newRecordID(t), newRecordID(t)}
		var ds []*device
		for range devices {
			u := addUser(t, db)
			addMember(t, db, w, u, "editor")
			ds = append(ds, newDevice(t, e, u, time.Now))
		}
		// Everyone creates the shared records first, so that later partial edits are valid.
		for _, rec := range records {
			apply(t, e, ds[0], ds[0].Put(w, rec, task("compartida"), nil))
		}
		var mu sync.Mutex
		seqs := map[int64]bool{}
		var wg sync.WaitGroup
		errs := make(chan error, devices)
		for i, d := range ds {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for b := range batches {
					var muts []psync.ClientMutation
					for k := range perBatch {
						rec := records[(b+k+i)%len(records)]
						if k%5 == 0 {
							rec = newRecordID(t)
							muts = append(muts, d.Put(w, rec, task(fmt.Sprintf("d%d b%d k%d", i, b, k)), nil))
							continue
						}
						muts = append(muts, d.Put(w, rec, map[string]any{"notes": fmt.Sprintf("d%d b%d k%d", i, b, k)}, nil))
					}
					out, err := e.Apply(context.Background(), d.Client, muts)
					if err != nil {
						errs <- err
						return
					}
					mu.Lock()
					for _, o := range out {
						if o.Status != psync.StatusApplied {
							errs <- fmt.Errorf("mutation %d: %s %+v", o.MutationID, o.Status, o.Issues)
						} else if seqs[o.Seq] {
							errs <- fmt.Errorf("seq %d given twice", o.Seq)
						}
						seqs[o.Seq] = true
					}
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		total := int64(len(records) + devices*batches*perBatch)
		if int64(len(seqs)) != total-int64(len(records)) {
			t.Fatalf("%d seqs acknowledged", len(seqs))
		}
		head, _, err := e.Head(context.Background(), w)
		if err != nil || head != total {
			t.Fatalf("head %d (%v), want %d", head, err, total)
		}
		// Pages of 37: contiguous seqs from 1 to the head (replica.applyChanges checks each step).
		r := newReplica()
		r.PullAll(t, e, ds[0].UserID, w, 37)
		if r.Cursor != total {
			t.Fatalf("replica at %d, want %d", r.Cursor, total)
		}
		sameStates(t, r.Records, serverState(t, e, ds[0].UserID, w))
	})
}

func TestASnapshotStreamsInResumablePages(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		e := newEngine(t, db, psync.Options{})
		user, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, user, "owner")
		d := newDevice(t, e, user, time.Now)
		ctx := context.Background()
		var ids []string
		var muts []psync.ClientMutation
		for i := range 25 {
			rec := newRecordID(t)
			ids = append(ids, rec)
			muts = append(muts, d.Put(w, rec, task(fmt.Sprintf("tarea %d", i)), nil))
		}
		apply(t, e, d, muts...)
		// One of them deleted: tombstones are part of the snapshot.
		apply(t, e, d, d.Mutation(psync.OpDelete, w, "tasks", ids[3], nil, nil))

		r := newReplica()
		first, err := e.SnapshotPage(ctx, user, w, "", 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(first.Records) != 10 || !first.HasMore || first.PageToken == "" || first.Cursor != 26 {
			t.Fatalf("first page: %d records, hasMore %v, cursor %d", len(first.Records), first.HasMore, first.Cursor)
		}
		r.ApplySnapshot(t, first)

		// Meanwhile: an edit of a record already sent, and a new record.
		edit := d.Put(w, ids[0], map[string]any{"status": "done"}, nil)
		late := newRecordID(t)
		apply(t, e, d, edit, d.Put(w, late, task("nueva"), nil))

		// The device reconnects and resumes with the token (pages are independent of the socket).
		token := first.PageToken
		pages := 1
		for {
			page, err := e.SnapshotPage(ctx, user, w, token, 10)
			if err != nil {
				t.Fatal(err)
			}
			pages++
			if page.Cursor != first.Cursor {
				t.Fatalf("the snapshot's cursor moved: %d, then %d", first.Cursor, page.Cursor)
			}
			r.ApplySnapshot(t, page)
			if !page.HasMore {
				if page.PageToken != "" {
					t.Fatal("a last page with a token")
				}
				break
			}
			token = page.PageToken
		}
		if pages != 3 {
			t.Errorf("%d pages for 26 records in pages of 10", pages)
		}
		// Then the changes after the snapshot's cursor: the edit (re-applied where the page was
		// newer: a no-op) and the late record.
		r.Cursor = first.Cursor
		r.PullAll(t, e, user, w, 0)
		if r.Cursor != 28 {
			t.Fatalf("cursor %d, want 28", r.Cursor)
		}
		sameStates(t, r.Records, serverState(t, e, user, w))
		if !r.Records["tasks/"+ids[3]].Deleted() {
			t.Error("the tombstone is missing from the snapshot")
		}
		if r.Records["tasks/"+ids[0]].Fields["status"] != "done" {
			t.Error("the edit made during the snapshot is missing")
		}

		// A token this server did not write is refused.
		if _, err := e.SnapshotPage(ctx, user, w, "bm90LWEtdG9rZW4", 10); core.ErrorCode(err) != core.EINVALID {
			t.Fatalf("foreign token: %v", err)
		}
	})
}

func TestGarbageCollectionDropsOldChangesAndTombstonesAndOldCursorsMustResync(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		clock := newFakeClock()
		e := newEngine(t, db, psync.Options{Now: clock.Now, Retention: 24 * time.Hour, GCInterval: -1})
		user, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, user, "owner")
		d := newDevice(t, e, user, clock.Now)
		ctx := context.Background()
		kept, gone := newRecordID(t), newRecordID(t)
		apply(t, e, d, d.Put(w, kept, task("se queda"), nil), d.Put(w, gone, task("se borra"), nil))
		apply(t, e, d, d.Mutation(psync.OpDelete, w, "tasks", gone, nil, nil)) // seq 3
		// A resend-proof rejection, old too.
		bad := apply(t, e, d, d.Put(w, newRecordID(t), map[string]any{"title": "sin estado"}, nil))
		wantStatus(t, bad, psync.StatusRejected)

		clock.Advance(25 * time.Hour)
		apply(t, e, d, d.Put(w, kept, map[string]any{"notes": "después"}, nil)) // seq 4, recent

		stats, err := e.CollectGarbage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if stats.Changes != 3 || stats.Records != 1 || stats.Rejections != 1 {
			t.Fatalf("collected %+v, want 3 changes, 1 tombstone, 1 rejection", stats)
		}
		head, gc, err := e.Head(ctx, w)
		if err != nil || head != 4 || gc != 3 {
			t.Fatalf("head %d gc %d (%v)", head, gc, err)
		}
		var resync *psync.ResyncError
		if _, err := e.ChangesPage(ctx, user, w, 2, 0); !errors.As(err, &resync) || resync.Reason != "cursor_too_old" {
			t.Fatalf("cursor older than the oldest change kept: %v", err)
		}
		page, err := e.ChangesPage(ctx, user, w, 3, 0)
		if err != nil || len(page.Changes) != 1 || page.Changes[0].Seq != 4 {
			t.Fatalf("cursor at the collection point: %+v, %v", page, err)
		}
		state := serverState(t, e, user, w)
		if _, ok := state["tasks/"+gone]; ok || state["tasks/"+kept] == nil {
			t.Fatalf("after collection the snapshot holds %d records", len(state))
		}
		// Collecting again changes nothing.
		if again, err := e.CollectGarbage(ctx); err != nil || again != (psync.GCStats{}) {
			t.Fatalf("second collection: %+v, %v", again, err)
		}
	})
}

func TestAStampFarAheadOfTheServerIsReStampedAndKept(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		clock := newFakeClock()
		e := newEngine(t, db, psync.Options{Now: clock.Now})
		user, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, user, "editor")
		ahead := func() time.Time { return clock.Now().Add(365 * 24 * time.Hour) }
		fast := newDevice(t, e, user, ahead)
		honest := newDevice(t, e, user, clock.Now)
		rec := newRecordID(t)

		create := fast.Put(w, rec, task("del futuro"), nil)
		out := apply(t, e, fast, create)
		wantStatus(t, out, psync.StatusApplied)
		if !out[0].Restamped || out[0].Stamp.Node != e.Node() || out[0].Stamp.Millis != clock.Now().UnixMilli() {
			t.Fatalf("outcome %+v: want a re-stamp at the server's time and node %s", out[0], e.Node())
		}
		// A stamp within the drift bound is trusted as it is.
		clock.Advance(time.Second)
		near := honest.Put(w, rec, map[string]any{"notes": "hoy"}, nil)
		near.Mutation.Stamp.Millis += (4 * time.Minute).Milliseconds()
		out2 := apply(t, e, honest, near)
		if out2[0].Restamped || out2[0].Stamp != near.Mutation.Stamp {
			t.Fatalf("a stamp 4 minutes ahead: %+v", out2[0])
		}

		// The change log carries the effective stamp; a resend is answered with it, not re-stamped.
		page, err := e.ChangesPage(context.Background(), user, w, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		m, err := page.Changes[0].Mutation()
		if err != nil || m.Stamp != out[0].Stamp || m.Author != fast.ClientID {
			t.Fatalf("logged mutation %+v, %v", m, err)
		}
		clock.Advance(time.Minute)
		resent := apply(t, e, fast, create)
		if resent[0].Status != psync.StatusDuplicate || resent[0].Stamp != out[0].Stamp {
			t.Fatalf("resend %+v, first %+v", resent[0], out[0])
		}
		// An honest edit made after the re-stamped one (having seen it) wins, as it should.
		clock.Advance(time.Second)
		honest.Clock.Observe(out[0].Stamp)
		later := honest.Put(w, rec, map[string]any{"title": "corregido"}, map[string]psync.Stamp{"title": out[0].Stamp})
		apply(t, e, honest, later)
		state := serverState(t, e, user, w)["tasks/"+rec]
		if state.Fields["title"] != "corregido" || len(state.Conflicts) != 0 {
			t.Fatalf("fields %v conflicts %+v", state.Fields, state.Conflicts)
		}
	})
}

func TestWritesAreAuthorisedPerWorkspaceRole(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		e := newEngine(t, db, psync.Options{})
		editor, viewer, stranger := addUser(t, db), addUser(t, db), addUser(t, db)
		w, other := addWorkspace(t, db), addWorkspace(t, db)
		addMember(t, db, w, editor, "editor")
		addMember(t, db, w, viewer, "viewer")
		addMember(t, db, other, stranger, "owner")
		ctx := context.Background()

		v := newDevice(t, e, viewer, time.Now)
		viewerWrite := v.Put(w, newRecordID(t), task("no puedo"), nil)
		out := apply(t, e, v, viewerWrite)
		if out[0].Status != psync.StatusRejected || out[0].Code != "forbidden" || out[0].Issues[0].Key != "sync.reject.readOnly" ||
			out[0].Issues[0].Params["role"] != "viewer" {
			t.Fatalf("viewer's write: %+v", out[0])
		}

		// A stranger's push mixes their own workspace, one they are not in, and one that does
		// not exist: only the first applies.
		s := newDevice(t, e, stranger, time.Now)
		out = apply(t, e, s,
			s.Put(other, newRecordID(t), task("mía"), nil),
			s.Put(w, newRecordID(t), task("ajena"), nil),
			s.Put("11111111-2222-4333-8444-555555555555", newRecordID(t), task("inexistente"), nil))
		wantStatus(t, out, psync.StatusApplied, psync.StatusRejected, psync.StatusRejected)
		for _, o := range out[1:] {
			if o.Code != "not_found" || o.Issues[0].Key != "sync.reject.notMember" {
				t.Fatalf("non-member's write: %+v", o)
			}
		}
		if head, _, _ := e.Head(ctx, w); head != 0 {
			t.Fatalf("the workspace got %d changes from non-writers", head)
		}
		// The verdict is remembered: a resend gets the same rejection even after a promotion.
		setRole(t, db, w, viewer, "editor")
		resend := apply(t, e, v, viewerWrite, v.Put(w, newRecordID(t), task("ahora sí"), nil))
		wantStatus(t, resend, psync.StatusRejected, psync.StatusApplied)
		if resend[0].Code != "forbidden" {
			t.Fatalf("resend of the viewer's write: %+v", resend[0])
		}

		// Reading: a non-member learns nothing.
		if _, err := e.ChangesPage(ctx, stranger, w, 0, 0); core.ErrorCode(err) != core.ENOTFOUND {
			t.Fatalf("stranger reads changes: %v", err)
		}
		if _, err := e.SnapshotPage(ctx, stranger, w, "", 0); core.ErrorCode(err) != core.ENOTFOUND {
			t.Fatalf("stranger reads a snapshot: %v", err)
		}
		if _, err := e.Conflicts(ctx, stranger, w); core.ErrorCode(err) != core.ENOTFOUND {
			t.Fatalf("stranger reads conflicts: %v", err)
		}
		// A client id is bound to its first user.
		if err := e.BindClient(ctx, stranger, v.ClientID); core.ErrorCode(err) != core.EFORBIDDEN {
			t.Fatalf("another user's client id: %v", err)
		}
		if _, err := e.Apply(ctx, psync.Client{UserID: stranger, ClientID: v.ClientID}, []psync.ClientMutation{s.Put(other, newRecordID(t), task("x"), nil)}); core.ErrorCode(err) != core.EFORBIDDEN {
			t.Fatalf("pushing with another user's client id: %v", err)
		}
	})
}

func TestASchemaInvalidRecordIsRejectedAloneAndTheRestOfItsBatchApplies(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		e := newEngine(t, db, psync.Options{})
		user, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, user, "editor")
		d := newDevice(t, e, user, time.Now)
		asset := newRecordID(t)
		out := apply(t, e, d,
			d.Put(w, newRecordID(t), task("bien"), nil),
			d.Put(w, newRecordID(t), task(strings.Repeat("x", 141)), nil),
			d.Put(w, newRecordID(t), map[string]any{"title": "sin estado"}, nil),
			d.Mutation(psync.OpPut, w, "assets", asset, map[string]any{
				"name": "Piso", "assetClass": "real_estate", "category": "residential", "currency": "EUR", "participation": "60"}, nil),
			d.Put(w, newRecordID(t), task("también bien"), nil),
		)
		wantStatus(t, out, psync.StatusApplied, psync.StatusRejected, psync.StatusRejected, psync.StatusRejected, psync.StatusApplied)
		if out[0].Seq != 1 || out[4].Seq != 2 {
			t.Fatalf("seqs %d and %d: rejected mutations must not take a seq", out[0].Seq, out[4].Seq)
		}
		check := func(o psync.Outcome, path, key string) {
			t.Helper()
			if o.Code != "invalid" || len(o.Issues) != 1 || o.Issues[0].Path != path || o.Issues[0].Key != key {
				t.Fatalf("rejection %+v, want %s at %q", o, key, path)
			}
		}
		check(out[1], "title", "validation.string.max")
		check(out[2], "status", "validation.required")
		check(out[3], "participation", "validation.percent.remaining")

		// A merge that makes the record invalid is rejected too: the shares no longer add up.
		create := d.Mutation(psync.OpPut, w, "assets", asset, map[string]any{
			"name": "Piso", "assetClass": "real_estate", "category": "residential", "currency": "EUR", "participation": "100"}, nil)
		wantStatus(t, apply(t, e, d, create), psync.StatusApplied)
		edit := d.Mutation(psync.OpPut, w, "assets", asset, map[string]any{"participation": "50"}, nil)
		check(apply(t, e, d, edit)[0], "participation", "validation.percent.remaining")
		// Clearing a required field (null) is a schema error of the merged record.
		clear := d.Put(w, newRecordID(t), map[string]any{"title": nil, "status": "todo"}, nil)
		check(apply(t, e, d, clear)[0], "title", "validation.required")
	})
}

// A sale is an ordinary field edit of the asset (disposal, one field): the server validates it like
// any other value of the merged record, and undoing it (null) clears it.
func TestAnAssetsDisposalIsValidatedOnTheServerAndUndoneWithNull(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		e := newEngine(t, db, psync.Options{})
		user, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, user, "editor")
		d := newDevice(t, e, user, time.Now)
		asset := newRecordID(t)
		wantStatus(t, apply(t, e, d, d.Mutation(psync.OpPut, w, "assets", asset, map[string]any{
			"name": "Piso", "assetClass": "real_estate", "category": "residential", "currency": "EUR", "participation": "100",
			"purchaseDate": "2020-05-01", "currentValue": "250000"}, nil)), psync.StatusApplied)
		check := func(fields map[string]any, path, key string) {
			t.Helper()
			o := apply(t, e, d, d.Mutation(psync.OpPut, w, "assets", asset, fields, nil))[0]
			if o.Status != psync.StatusRejected || o.Code != "invalid" || len(o.Issues) != 1 || o.Issues[0].Path != path || o.Issues[0].Key != key {
				t.Fatalf("disposal %v: %+v, want %s at %q", fields, o, key, path)
			}
		}
		check(map[string]any{"disposal": map[string]any{"kind": "sold", "date": "2025-03-01", "amount": "-100"}}, "disposal.amount", "validation.format.money")
		check(map[string]any{"disposal": map[string]any{"kind": "sold", "date": "2025-13-01", "amount": "100"}}, "disposal.date", "validation.format.date")
		check(map[string]any{"disposal": map[string]any{"kind": "sold", "date": "2025-03-01"}}, "disposal.amount", "validation.required")
		check(map[string]any{"disposal": map[string]any{"kind": "gifted", "date": "2020-04-30"}}, "disposal.date", "validation.date.disposalBeforePurchase")
		check(map[string]any{"disposal": map[string]any{"kind": "gifted", "date": "2999-01-01"}}, "disposal.date", "validation.date.disposalInFuture")
		// The merged record is checked: an older purchase date typed later cannot pass a sale by.
		wantStatus(t, apply(t, e, d, d.Mutation(psync.OpPut, w, "assets", asset, map[string]any{
			"disposal": map[string]any{"kind": "sold", "date": "2025-03-01", "amount": "310000.5", "note": "Notaría"}}, nil)), psync.StatusApplied)
		check(map[string]any{"purchaseDate": "2025-03-02"}, "disposal.date", "validation.date.disposalBeforePurchase")
		wantStatus(t, apply(t, e, d, d.Mutation(psync.OpPut, w, "assets", asset, map[string]any{"disposal": nil}, nil)), psync.StatusApplied)
		wantStatus(t, apply(t, e, d, d.Mutation(psync.OpPut, w, "assets", asset, map[string]any{"purchaseDate": "2025-03-02"}, nil)), psync.StatusApplied)
	})
}

func TestACursorFromTheFutureAsksForAResync(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		e := newEngine(t, db, psync.Options{})
		user, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, user, "owner")
		d := newDevice(t, e, user, time.Now)
		apply(t, e, d, d.Put(w, newRecordID(t), task("una"), nil))
		var resync *psync.ResyncError
		if _, err := e.ChangesPage(context.Background(), user, w, 2, 0); !errors.As(err, &resync) || resync.Reason != "cursor_in_future" {
			t.Fatalf("cursor 2 of a workspace at 1: %v", err)
		}
		if page, err := e.ChangesPage(context.Background(), user, w, 1, 0); err != nil || len(page.Changes) != 0 || page.Cursor != 1 || page.HasMore {
			t.Fatalf("caught-up cursor: %+v, %v", page, err)
		}
	})
}

func TestAResolveClosesAConflictWithoutWritingAndDeletesKeepFieldsUnderTheTombstone(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		clock := newFakeClock()
		e := newEngine(t, db, psync.Options{Now: clock.Now})
		user, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, user, "owner")
		a, b := newDevice(t, e, user, clock.Now), newDevice(t, e, user, clock.Now)
		rec := newRecordID(t)
		create := a.Put(w, rec, task("original"), nil)
		apply(t, e, a, create)
		base := map[string]psync.Stamp{"title": create.Mutation.Stamp}
		clock.Advance(time.Millisecond)
		lose := a.Put(w, rec, map[string]any{"title": "de a"}, base)
		clock.Advance(time.Millisecond)
		win := b.Put(w, rec, map[string]any{"title": "de b"}, base)
		apply(t, e, b, win)
		apply(t, e, a, lose)
		if got, _ := e.Conflicts(context.Background(), user, w); len(got) != 1 {
			t.Fatalf("%d conflicts", len(got))
		}
		clock.Advance(time.Millisecond)
		dismiss := b.Mutation(psync.OpResolve, w, "tasks", rec, nil, nil)
		dismiss.Mutation.Resolves = []psync.ConflictKey{{Field: "title", Stamp: lose.Mutation.Stamp}}
		wantStatus(t, apply(t, e, b, dismiss), psync.StatusApplied)
		if got, _ := e.Conflicts(context.Background(), user, w); len(got) != 0 {
			t.Fatalf("%d conflicts after resolve", len(got))
		}
		clock.Advance(time.Millisecond)
		del := b.Mutation(psync.OpDelete, w, "tasks", rec, nil, map[string]psync.Stamp{"title": win.Mutation.Stamp, "status": create.Mutation.Stamp})
		apply(t, e, b, del)
		clock.Advance(time.Millisecond)
		restore := a.Mutation(psync.OpRestore, w, "tasks", rec, nil, nil)
		apply(t, e, a, restore)
		state := serverState(t, e, user, w)["tasks/"+rec]
		if state.Deleted() || state.Fields["title"] != "de b" {
			t.Fatalf("after delete and restore: %+v", state)
		}
		r := newReplica()
		r.PullAll(t, e, user, w, 0)
		sameStates(t, r.Records, serverState(t, e, user, w))
		raw, _ := json.Marshal(state)
		if strings.Contains(string(raw), `"conflicts":null`) {
			t.Fatal("empty conflicts must encode as []")
		}
	})
}

// A device away for longer than the retention period may still hold a record that another
// device deleted meanwhile, and edit it: once the tombstone is collected, the server no longer
// knows the record. An edit of it (a put or restore whose base names writes the device saw) used
// to be taken for the record's creation: a complete one brought the deleted record back alive
// (against MERGE.md rule 2: only a restore undoes a delete), a partial one was refused as invalid
// for the required fields it did not write. Both are refused as not_found, saying why.
func TestAnEditOfARecordWhoseTombstoneWasCollectedIsRefusedNotRevived(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		clock := newFakeClock()
		e := newEngine(t, db, psync.Options{Now: clock.Now, Retention: 24 * time.Hour, GCInterval: -1})
		owner, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, owner, "owner")
		away, here := newDevice(t, e, owner, clock.Now), newDevice(t, e, owner, clock.Now)
		rec := newRecordID(t)
		create := here.Put(w, rec, task("Renovar el DNI"), nil)
		wantStatus(t, apply(t, e, here, create), psync.StatusApplied)
		seen := map[string]psync.Stamp{"title": create.Mutation.Stamp, "status": create.Mutation.Stamp}
		wantStatus(t, apply(t, e, here, here.Mutation(psync.OpDelete, w, "tasks", rec, nil, seen)), psync.StatusApplied)
		clock.Advance(25 * time.Hour)
		if stats, err := e.CollectGarbage(context.Background()); err != nil || stats.Records != 1 {
			t.Fatalf("collected %+v (%v), want the tombstone", stats, err)
		}

		whole := away.Put(w, rec, map[string]any{"title": "Renovar el DNI y el pasaporte", "status": "in_progress"}, seen)
		partial := away.Put(w, rec, map[string]any{"notes": "pedir cita"}, seen)
		restore := away.Mutation(psync.OpRestore, w, "tasks", rec, map[string]any{"status": "todo"}, seen)
		got := apply(t, e, away, whole, partial, restore)
		wantStatus(t, got, psync.StatusRejected, psync.StatusRejected, psync.StatusRejected)
		for i, o := range got {
			if o.Code != psync.RejectNotFound || len(o.Issues) != 1 || o.Issues[0].Key != "sync.reject.recordGone" {
				t.Errorf("outcome %d: %s %+v, want not_found with sync.reject.recordGone", i, o.Code, o.Issues)
			}
		}
		if st, ok := serverState(t, e, owner, w)["tasks/"+rec]; ok {
			t.Fatalf("the deleted record is back: %+v", st.Fields)
		}

		// A creation (no base) with the same id is still a new record, and an edit whose base is
		// recent, on a record the server has not seen (its creation not decided yet), is judged
		// as before: invalid on its own.
		fresh := newRecordID(t)
		mine := map[string]psync.Stamp{"title": away.Clock.Now()}
		early := apply(t, e, away, away.Put(w, fresh, map[string]any{"notes": "antes de crearla"}, mine))
		wantStatus(t, early, psync.StatusRejected)
		if early[0].Code != psync.RejectInvalid {
			t.Fatalf("an edit with a recent base: %s %+v, want invalid", early[0].Code, early[0].Issues)
		}
		wantStatus(t, apply(t, e, away, away.Put(w, rec, task("Renovar el DNI, otra vez"), nil)), psync.StatusApplied)
	})
}
