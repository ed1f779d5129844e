package sync_test

import (
	"context"
	"encoding/json"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/google/uuid"

	"patrimonio/internal/pgtest"
	"patrimonio/internal/testkit"
	"patrimonio/server/store"
	psync "patrimonio/sync"
)

// newFakeClock is the tests' clock, standing at their start time.
func newFakeClock() *testkit.Clock {
	return testkit.NewClock(time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC))
}

// The engine suite runs against both stores: a SQLite file and a fresh database of a real
// Postgres (TEST_DATABASE_URL, or a throwaway cluster for the run: internal/pgtest).

func TestMain(m *testing.M) { pgtest.Main(m) }

// postgresURL creates a fresh database on the test Postgres server and drops it afterwards.
func postgresURL(t testing.TB) string { return pgtest.URL(t) }

// forEachStore runs f once per store, as subtests named after the store.
func forEachStore(t *testing.T, f func(t *testing.T, db *store.DB)) { testkit.Stores(t, f) }

func openStore(t testing.TB, dialect store.Dialect, url string) *store.DB {
	return testkit.Open(t, dialect, url)
}

func newEngine(t testing.TB, db *store.DB, opts psync.Options) *psync.Engine {
	t.Helper()
	e, err := psync.New(db, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// ---------------------------------------------------------------- accounts fixtures
//
// Users, workspaces and memberships are written straight into the accounts tables (migration
// 0002): the engine only reads them.

func addUser(t testing.TB, db *store.DB) string {
	t.Helper()
	id := uuid.NewString()
	now := time.Now().UTC()
	if _, err := db.Exec(context.Background(), `INSERT INTO users (id, email, onboarding_step, created_at, updated_at)
		VALUES (?, ?, 'done', ?, ?)`, id, id+"@example.com", now, now); err != nil {
		t.Fatal(err)
	}
	return id
}

func addWorkspace(t testing.TB, db *store.DB) string {
	t.Helper()
	id := uuid.NewString()
	if _, err := db.Exec(context.Background(), `INSERT INTO workspaces (id, name, kind, created_at) VALUES (?, 'W', 'team', ?)`,
		id, time.Now().UTC()); err != nil {
		t.Fatal(err)
	}
	return id
}

func addMember(t testing.TB, db *store.DB, workspace, user, role string) {
	t.Helper()
	if _, err := db.Exec(context.Background(), `INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)`,
		workspace, user, role, time.Now().UTC()); err != nil {
		t.Fatal(err)
	}
}

func setRole(t testing.TB, db *store.DB, workspace, user, role string) {
	t.Helper()
	if _, err := db.Exec(context.Background(), `UPDATE memberships SET role = ? WHERE workspace_id = ? AND user_id = ?`, role, workspace, user); err != nil {
		t.Fatal(err)
	}
}

func removeMember(t testing.TB, db *store.DB, workspace, user string) {
	t.Helper()
	if _, err := db.Exec(context.Background(), `DELETE FROM memberships WHERE workspace_id = ? AND user_id = ?`, workspace, user); err != nil {
		t.Fatal(err)
	}
}

// ---------------------------------------------------------------- devices

// device is a test client: a client id bound to a user, its own HLC, and its mutation ids.
type device struct {
	psync.Client
	clock *psync.Clock
	next  int64
}

func newDevice(t testing.TB, e *psync.Engine, user string, now func() time.Time) *device {
	t.Helper()
	clock, err := psync.NewClock(psync.ClockConfig{Node: psync.NewNodeID(), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	d := &device{Client: psync.Client{UserID: user, ClientID: uuid.NewString()}, clock: clock}
	if err := e.BindClient(context.Background(), user, d.ClientID); err != nil {
		t.Fatal(err)
	}
	return d
}

func newRecordID(t testing.TB) string {
	t.Helper()
	id, err := uuid.NewV7()
	if err != nil {
		t.Fatal(err)
	}
	return id.String()
}

// mutation makes the device's next mutation.
func (d *device) mutation(op psync.Op, workspace, collection, record string, fields map[string]any, base map[string]psync.Stamp) psync.ClientMutation {
	d.next++
	if base == nil {
		base = map[string]psync.Stamp{}
	}
	return psync.ClientMutation{MutationID: d.next, WorkspaceID: workspace, Collection: collection, RecordID: record,
		Mutation: psync.Mutation{Op: op, Stamp: d.clock.Now(), Fields: fields, Base: base}}
}

func (d *device) put(workspace, record string, fields map[string]any, base map[string]psync.Stamp) psync.ClientMutation {
	return d.mutation(psync.OpPut, workspace, "tasks", record, fields, base)
}

func task(title string) map[string]any { return map[string]any{"title": title, "status": "todo"} }

func apply(t *testing.T, e *psync.Engine, d *device, muts ...psync.ClientMutation) []psync.Outcome {
	t.Helper()
	out, err := e.Apply(context.Background(), d.Client, muts)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(muts) {
		t.Fatalf("%d outcomes for %d mutations", len(out), len(muts))
	}
	return out
}

func wantStatus(t *testing.T, got []psync.Outcome, want ...psync.Status) {
	t.Helper()
	for i, o := range got {
		if o.Status != want[i] {
			t.Fatalf("outcome %d: %s (%s %+v), want %s", i, o.Status, o.Code, o.Issues, want[i])
		}
	}
}

// ---------------------------------------------------------------- replicas

// replica is a device's confirmed state of one workspace, built only from what the engine
// serves (snapshot pages and change pages) with the same merge the server runs.
type replica struct {
	records map[string]*psync.RecordState // collection/recordId
	cursor  int64
}

func newReplica() *replica { return &replica{records: map[string]*psync.RecordState{}} }

func (r *replica) applyChanges(t *testing.T, page psync.ChangesPage) {
	t.Helper()
	for _, c := range page.Changes {
		if c.Seq != r.cursor+1 {
			t.Fatalf("change %d follows cursor %d: a gap or a repeat", c.Seq, r.cursor)
		}
		m, err := c.Mutation()
		if err != nil {
			t.Fatal(err)
		}
		key := c.Collection + "/" + c.RecordID
		s := r.records[key]
		if s == nil {
			s = psync.NewRecordState()
			r.records[key] = s
		}
		if _, err := s.Apply(m); err != nil {
			t.Fatalf("change %d does not apply: %v", c.Seq, err)
		}
		r.cursor = c.Seq
	}
	if page.Cursor != r.cursor {
		t.Fatalf("page cursor %d, last change %d", page.Cursor, r.cursor)
	}
}

func (r *replica) applySnapshot(t *testing.T, page psync.SnapshotPage) {
	t.Helper()
	for _, rec := range page.Records {
		s, err := rec.Decode()
		if err != nil {
			t.Fatal(err)
		}
		r.records[rec.Collection+"/"+rec.RecordID] = s
	}
}

// pullAll catches a replica up with the change log.
func (r *replica) pullAll(t *testing.T, e *psync.Engine, user, workspace string, limit int) {
	t.Helper()
	for {
		page, err := e.ChangesPage(context.Background(), user, workspace, r.cursor, limit)
		if err != nil {
			t.Fatal(err)
		}
		r.applyChanges(t, page)
		if !page.HasMore {
			return
		}
	}
}

// serverState reads every record of a workspace through snapshot pages.
func serverState(t *testing.T, e *psync.Engine, user, workspace string) map[string]*psync.RecordState {
	t.Helper()
	r := newReplica()
	token := ""
	for {
		page, err := e.SnapshotPage(context.Background(), user, workspace, token, 0)
		if err != nil {
			t.Fatal(err)
		}
		r.applySnapshot(t, page)
		if !page.HasMore {
			return r.records
		}
		token = page.PageToken
	}
}

// sameStates compares record states by their JSON (the form replicas store).
func sameStates(t *testing.T, got, want map[string]*psync.RecordState) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d", len(got), len(want))
	}
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		g, ok := got[k]
		if !ok {
			t.Fatalf("record %s missing", k)
		}
		gj, _ := json.Marshal(g)
		wj, _ := json.Marshal(want[k])
		var gv, wv any
		_ = json.Unmarshal(gj, &gv)
		_ = json.Unmarshal(wj, &wv)
		if !reflect.DeepEqual(gv, wv) {
			t.Fatalf("record %s differs:\n got %s\nwant %s", k, gj, wj)
		}
	}
}
