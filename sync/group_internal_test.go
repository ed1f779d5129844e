package psync

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"patrimonio/core"
	"patrimonio/internal/testkit"
	"patrimonio/server/store"
)

// A group commit reads everything its pushes need before it decides any of them (read: in one
// round trip on Postgres). Each push is still answered on its own: a client id not bound to its
// user fails alone, a member without write rights is rejected per mutation, another workspace's
// push of the same group applies, and none of them sees or changes another's records.
func TestAGroupCommitAnswersEachPushOnItsOwn(t *testing.T) {
	testkit.Stores(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e, err := New(db, Options{GCInterval: -1})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := db.Exec(ctx, q, args...); err != nil {
				t.Fatal(err)
			}
		}
		now := time.Now().UTC()
		user := func() string {
			id := uuid.NewString()
			exec(`INSERT INTO users (id, email, onboarding_step, created_at, updated_at) VALUES (?, ?, 'done', ?, ?)`, id, id+"@example.com", now, now)
			return id
		}
		workspace := func() string {
			id := uuid.NewString()
			exec(`INSERT INTO workspaces (id, name, kind, created_at) VALUES (?, 'W', 'team', ?)`, id, now)
			return id
		}
		member := func(w, u, role string) {
			exec(`INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)`, w, u, role, now)
		}
		clock, err := NewClock(ClockConfig{Node: NewNodeID(), Now: time.Now})
		if err != nil {
			t.Fatal(err)
		}
		next := int64(0)
		put := func(w, record, title string) ClientMutation {
			next++
			return ClientMutation{MutationID: next, WorkspaceID: w, Collection: "tasks", RecordID: record,
				Mutation: Mutation{Op: OpPut, Stamp: clock.Now(), Fields: map[string]any{"title": title, "status": "todo"}, Base: map[string]Stamp{}}}
		}
		recordID := func() string { return uuid.Must(uuid.NewV7()).String() }

		ana, luis, marta := user(), user(), user()
		w1, w2 := workspace(), workspace()
		member(w1, ana, "editor")
		member(w2, luis, "viewer")
		member(w1, marta, "editor")
		anaDevice, luisDevice := Client{UserID: ana, ClientID: uuid.NewString()}, Client{UserID: luis, ClientID: uuid.NewString()}
		for _, c := range []Client{anaDevice, luisDevice} {
			if err := e.BindClient(ctx, c.UserID, c.ClientID); err != nil {
				t.Fatal(err)
			}
		}
		// Marta's device never said hello; it names Ana's record and Ana's client id is not hers.
		unbound := Client{UserID: marta, ClientID: uuid.NewString()}
		stolen := Client{UserID: marta, ClientID: anaDevice.ClientID}

		shared := recordID()
		group := []*job{
			{client: unbound, muts: []ClientMutation{put(w1, shared, "De Marta")}},
			{client: anaDevice, muts: []ClientMutation{put(w1, shared, "Revisar la hipoteca"), put(w1, recordID(), "Pagar el IBI")}},
			{client: luisDevice, muts: []ClientMutation{put(w2, recordID(), "Solo lectura")}},
			{client: stolen, muts: []ClientMutation{put(w1, shared, "Con el id de Ana")}},
		}
		// The test's commits share their buffers, as one committer's do.
		var bufs groupBuffers
		results, commits, err := e.commit(ctx, group, &bufs)
		if err != nil {
			t.Fatal(err)
		}
		// The buffers come back empty and hold on to nothing of the commit.
		if len(bufs.records) != 0 || len(bufs.verdicts) != 0 || len(bufs.entries) != 0 || len(bufs.changes) != 0 || len(bufs.scratch) != 0 {
			t.Errorf("the group's buffers came back holding %d records, %d verdicts, %d entries, %d changes, %d bytes",
				len(bufs.records), len(bufs.verdicts), len(bufs.entries), len(bufs.changes), len(bufs.scratch))
		}
		if bufs.arena.InUse() != 0 || bufs.arena.Held() == 0 {
			t.Errorf("the group's arena holds %d bytes in %d chunks after the commit, want none in its kept chunks", bufs.arena.InUse(), bufs.arena.Held())
		}
		if cap(bufs.entries) == 0 || cap(bufs.changes) == 0 || cap(bufs.scratch) == 0 {
			t.Errorf("the group's buffers were not kept: room for %d entries, %d changes, %d bytes", cap(bufs.entries), cap(bufs.changes), cap(bufs.scratch))
		}
		for i, entry := range bufs.entries[:cap(bufs.entries)] {
			if !reflect.DeepEqual(entry, recordEntry{}) {
				t.Errorf("record entry %d kept after the commit: %+v", i, entry)
			}
		}
		for i, ch := range bufs.changes[:cap(bufs.changes)] {
			if !reflect.DeepEqual(ch, changeRow{}) {
				t.Errorf("change %d kept after the commit: %+v", i, ch)
			}
		}
		for _, i := range []int{0, 3} {
			if core.ErrorCode(results[i].err) != core.EFORBIDDEN || results[i].outcomes != nil {
				t.Errorf("push %d of a client not bound to its user: %v %v, want only EFORBIDDEN", i, results[i].err, results[i].outcomes)
			}
		}
		if err := results[1].err; err != nil || len(results[1].outcomes) != 2 ||
			results[1].outcomes[0].Status != StatusApplied || results[1].outcomes[1].Status != StatusApplied {
			t.Errorf("the editor's push: %v %+v, want both applied", err, results[1].outcomes)
		}
		if err := results[2].err; err != nil || len(results[2].outcomes) != 1 || results[2].outcomes[0].Code != RejectForbidden {
			t.Errorf("the viewer's push: %v %+v, want rejected %s", err, results[2].outcomes, RejectForbidden)
		}
		if len(commits) != 1 || commits[0].Workspace != w1 || commits[0].Seq != 2 {
			t.Errorf("commits %+v, want one, of the first workspace, at seq 2", commits)
		}
		var title string
		if err := db.QueryRow(ctx, `SELECT state FROM sync_records WHERE workspace_id = ? AND record_id = ?`, w1, shared).Scan(&title); err != nil {
			t.Fatal(err)
		}
		state, err := decodeState([]byte(title))
		if err != nil {
			t.Fatal(err)
		}
		if got := state.Fields["title"]; got != "Revisar la hipoteca" {
			t.Errorf("the shared record's title is %v, want the editor's", got)
		}
		var rows int
		if err := db.QueryRow(ctx, `SELECT count(*) FROM sync_records WHERE workspace_id = ?`, w2).Scan(&rows); err != nil || rows != 0 {
			t.Errorf("the read-only workspace holds %d records (%v), want none", rows, err)
		}

		// The next group: the editor's resend of its first mutation is a duplicate with its seq,
		// and its next one applies on top of what the first group stored.
		resend := group[1].muts[0]
		results, _, err = e.commit(ctx, []*job{{client: anaDevice, muts: []ClientMutation{resend, put(w1, shared, "Revisar la hipoteca y el seguro")}}}, &bufs)
		if err != nil {
			t.Fatal(err)
		}
		got := results[0].outcomes
		if results[0].err != nil || len(got) != 2 || got[0].Status != StatusDuplicate || got[0].Seq != 1 || got[1].Status != StatusApplied || got[1].Seq != 3 {
			t.Errorf("second group: %v %+v, want duplicate at seq 1 and applied at seq 3", results[0].err, got)
		}

		// New records start from one shared empty state, which a group only ever reads: not when
		// a new record's mutation is refused, nor when a second one writes the same new record.
		bad := put(w1, recordID(), "")
		bad.Mutation.Fields["status"] = "perhaps"
		twice := recordID()
		results, _, err = e.commit(ctx, []*job{{client: anaDevice, muts: []ClientMutation{bad, put(w1, twice, "Uno"), put(w1, twice, "Dos")}}}, &bufs)
		if err != nil {
			t.Fatal(err)
		}
		got = results[0].outcomes
		if len(got) != 3 || got[0].Status != StatusRejected || got[1].Status != StatusApplied || got[2].Status != StatusApplied {
			t.Errorf("third group: %+v, want rejected, applied, applied", got)
		}
		if !reflect.DeepEqual(noRecordState, RecordState{}) {
			t.Errorf("the shared empty state of new records was written: %+v", noRecordState)
		}

		// Pushes through the committers leave no route behind once answered.
		for _, w := range []string{w1, w2, w1} {
			if _, err := e.Apply(ctx, anaDevice, []ClientMutation{put(w, recordID(), "Otra")}); err != nil {
				t.Fatal(err)
			}
		}
		e.routeMu.Lock()
		left, load := len(e.routes), slices.Clone(e.load)
		e.routeMu.Unlock()
		if left != 0 || slices.ContainsFunc(load, func(n int) bool { return n != 0 }) {
			t.Errorf("after the pushes were answered: %d routes, loads %v; want none", left, load)
		}
	})
}

// A workspace's pushes all go to one committer while any is queued or committing; a workspace
// with none goes to the committer with the fewest such workspaces; an answered push ends its
// part of the route, and a workspace whose pushes are all answered has none left.
func TestPushesRouteToTheLeastBusyCommitterAndStayThere(t *testing.T) {
	e := &Engine{routes: map[string]*route{}, load: make([]int, 2)}
	got := []int{e.route("a"), e.route("b"), e.route("a"), e.route("c"), e.route("d"), e.route("b")}
	if want := []int{0, 1, 0, 0, 1, 1}; !reflect.DeepEqual(got, want) {
		t.Fatalf("queues %v, want %v", got, want)
	}
	e.unroute("a")
	// a still has a push pending: it keeps its queue, and the loads stay 2 and 2.
	if q := e.route("e"); q != 0 || e.load[0] != 3 || e.load[1] != 2 {
		t.Fatalf("e went to %d, loads %v; want 0 and [3 2]", q, e.load)
	}
	for _, w := range []string{"a", "b", "b", "c", "d", "e"} {
		e.unroute(w)
	}
	if len(e.routes) != 0 || e.load[0] != 0 || e.load[1] != 0 {
		t.Fatalf("after every push was answered: routes %v, loads %v; want none", e.routes, e.load)
	}
	if q := e.route("a"); q != 0 {
		t.Fatalf("a workspace routed afresh went to %d, want 0", q)
	}
}
