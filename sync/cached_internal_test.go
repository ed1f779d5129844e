package psync

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"patrimonio/server/authz"
)

// A group of several pushes, of several clients and workspaces, is decided from memory when all
// its reads are remembered (guards for each workspace, in id order, and each client), with the
// verdicts and seqs the general way gives: each workspace's next seqs, in queue order.
func TestAGroupOfSeveralClientsAndWorkspacesIsDecidedFromMemory(t *testing.T) {
	db, e := postgresEngine(t)
	ctx := context.Background()
	now := time.Now().UTC()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	ana, luis, w1, w2 := uuid.NewString(), uuid.NewString(), uuid.NewString(), uuid.NewString()
	for _, u := range []string{ana, luis} {
		exec(`INSERT INTO users (id, email, onboarding_step, created_at, updated_at) VALUES (?, ?, 'done', ?, ?)`, u, u+"@example.com", now, now)
	}
	for _, w := range []string{w1, w2} {
		exec(`INSERT INTO workspaces (id, name, kind, created_at) VALUES (?, 'W', 'team', ?)`, w, now)
	}
	for _, m := range [][2]string{{w1, ana}, {w1, luis}, {w2, luis}} {
		exec(`INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES (?, ?, 'editor', ?)`, m[0], m[1], now)
	}
	anaDevice, luisDevice := Client{UserID: ana, ClientID: uuid.NewString()}, Client{UserID: luis, ClientID: uuid.NewString()}
	for _, c := range []Client{anaDevice, luisDevice} {
		if err := e.BindClient(ctx, c.UserID, c.ClientID); err != nil {
			t.Fatal(err)
		}
	}
	clock, err := NewClock(ClockConfig{Node: NewNodeID(), Now: time.Now})
	if err != nil {
		t.Fatal(err)
	}
	next := map[string]int64{}
	create := func(c Client, w string) ClientMutation {
		next[c.ClientID]++
		return ClientMutation{MutationID: next[c.ClientID], WorkspaceID: w, Collection: "tasks", RecordID: uuid.Must(uuid.NewV7()).String(),
			Mutation: Mutation{Op: OpPut, Stamp: clock.Now(), Fields: map[string]any{"title": "Tarea", "status": "todo"}, Base: map[string]Stamp{}}}
	}
	var bufs groupBuffers
	commit := func(group ...*job) ([]jobResult, []Commit) {
		t.Helper()
		results, commits, err := e.commit(ctx, group, &bufs)
		if err != nil {
			t.Fatal(err)
		}
		return results, commits
	}
	// Each client's first push in each workspace takes the general way, and is remembered.
	commit(&job{client: anaDevice, muts: []ClientMutation{create(anaDevice, w1)}})
	commit(&job{client: luisDevice, muts: []ClientMutation{create(luisDevice, w1)}})
	commit(&job{client: luisDevice, muts: []ClientMutation{create(luisDevice, w2)}})
	if hits, _ := e.CachedCommits(); hits != 0 {
		t.Fatalf("%d groups decided from memory before anything was remembered", hits)
	}

	results, commits := commit(
		&job{client: luisDevice, muts: []ClientMutation{create(luisDevice, w2), create(luisDevice, w1)}},
		&job{client: anaDevice, muts: []ClientMutation{create(anaDevice, w1), create(anaDevice, w1)}},
	)
	if hits, stale := e.CachedCommits(); hits != 1 || stale != 0 {
		t.Fatalf("%d groups decided from memory, %d stale; want the group, not stale", hits, stale)
	}
	want := [][]int64{{2, 3}, {4, 5}} // w2 then w1 for Luis; w1 for Ana after him
	for i, r := range results {
		if r.err != nil || len(r.outcomes) != 2 {
			t.Fatalf("push %d: %v %+v", i, r.err, r.outcomes)
		}
		for k, o := range r.outcomes {
			if o.Status != StatusApplied || o.Seq != want[i][k] {
				t.Errorf("push %d, mutation %d: %s at seq %d, want applied at %d", i, k, o.Status, o.Seq, want[i][k])
			}
		}
	}
	heads := map[string]int64{}
	for _, c := range commits {
		heads[c.Workspace] = c.Seq
	}
	for w, head := range map[string]int64{w1: 5, w2: 2} {
		var seq, records int64
		if err := db.QueryRow(ctx, `SELECT seq, (SELECT count(*) FROM sync_records WHERE workspace_id = ?) FROM sync_workspaces WHERE workspace_id = ?`, w, w).Scan(&seq, &records); err != nil {
			t.Fatal(err)
		}
		if seq != head || records != head || heads[w] != head {
			t.Errorf("workspace head %d with %d records, announced at %d; want all %d", seq, records, heads[w], head)
		}
	}

	// A batch written with COPY (32 rows or more) that creates a record another instance created
	// meanwhile: the COPY fails on its key, and the group takes the general way, which merges it.
	// (Ana's edit in between finds the other instance's commit through the guard, and brings this
	// instance's head up to date without the record.)
	other, err := New(db, Options{GCInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	taken := create(luisDevice, w1)
	var otherBufs groupBuffers
	if _, _, err := other.commit(ctx, []*job{{client: luisDevice, muts: []ClientMutation{taken}}}, &otherBufs); err != nil {
		t.Fatal(err)
	}
	commit(&job{client: anaDevice, muts: []ClientMutation{create(anaDevice, w1)}})
	if hits, stale := e.CachedCommits(); hits != 2 || stale != 1 {
		t.Fatalf("%d groups decided from memory, %d stale; want 2 and 1 (the edit after the other instance's)", hits, stale)
	}
	var batch []ClientMutation
	for range 40 {
		batch = append(batch, create(anaDevice, w1))
	}
	batch[20].RecordID = taken.RecordID
	results, _ = commit(&job{client: anaDevice, muts: batch})
	if hits, stale := e.CachedCommits(); hits != 3 || stale != 2 {
		t.Fatalf("%d groups decided from memory, %d stale; want 3 and 2 (the batch)", hits, stale)
	}
	for k, o := range results[0].outcomes {
		if o.Status != StatusApplied || o.Seq != int64(8+k) {
			t.Fatalf("batch mutation %d: %s at seq %d, want applied at %d", k, o.Status, o.Seq, 8+k)
		}
	}
	var authors string
	if err := db.QueryRow(ctx, `SELECT state FROM sync_records WHERE workspace_id = ? AND record_id = ?`, w1, taken.RecordID).Scan(&authors); err != nil {
		t.Fatal(err)
	}
	if state, err := decodeState([]byte(authors)); err != nil || len(state.Conflicts) == 0 {
		t.Errorf("the record both created: %+v (%v), want the two writes merged (the earlier kept as a conflict)", state, err)
	}
}

// What an instance remembers stays within its bounds: a record too large is not remembered, and a
// workspace's records are forgotten (and counted again from nothing) rather than exceed
// cachedRecordsPerWorkspace or cachedRecordBytes.
func TestRememberedRecordsStayWithinTheirBounds(t *testing.T) {
	var c commitCache
	head := int64(0)
	group := func(sizes ...int) *groupTxn {
		g := &groupTxn{group: []*job{{client: Client{UserID: "u", ClientID: "c"}, muts: make([]ClientMutation, len(sizes))}},
			results: make([]jobResult, 1), workspaces: map[string]*workspaceEntry{}, roles: map[userWorkspace]authz.Role{},
			last: map[clientWorkspace]int64{}, records: map[recordKey]*recordEntry{}}
		g.workspaces["w"] = &workspaceEntry{exists: true, startAt: head, head: head + int64(len(sizes))}
		for _, size := range sizes {
			head++
			g.records[recordKey{"w", "tasks", uuid.NewString()}] = &recordEntry{state: &RecordState{}, seq: head, exists: true, size: size}
		}
		return g
	}
	check := func(records, bytes int) {
		t.Helper()
		cw := c.workspaces["w"]
		total := 0
		for _, r := range cw.records {
			total += r.size
		}
		if len(cw.records) != records || cw.bytes != bytes || total != bytes {
			t.Fatalf("%d records of %d bytes remembered (counted %d); want %d of %d", len(cw.records), total, cw.bytes, records, bytes)
		}
	}
	c.remember(group(1000, 2000))
	check(2, 3000)
	c.remember(group(cachedRecordBytes + 1)) // too large: not remembered, the others kept
	check(2, 3000)
	c.remember(group(cachedRecordBytes - 3000)) // exactly the bytes allowed: kept with the others
	check(3, cachedRecordBytes)
	c.remember(group(2100)) // over the bytes: the others forgotten
	check(1, 2100)
	for range cachedRecordsPerWorkspace - 1 {
		c.remember(group(100))
	}
	check(cachedRecordsPerWorkspace, 2100+(cachedRecordsPerWorkspace-1)*100)
	c.remember(group(100))
	check(1, 100) // over the count: the others forgotten
}
