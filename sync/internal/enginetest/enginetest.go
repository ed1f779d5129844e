// Package enginetest holds the fixtures of the sync engine's tests, shared by the engine's own
// tests (package sync_test) and the WebSocket transport's (sync/socket), which drive the engine
// too: stores, an engine, accounts written straight into their tables, test devices and
// replicas built only from what the engine serves. Imported by test files only.
package enginetest

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"patrimonio/internal/pgtest"
	"patrimonio/internal/testkit"
	"patrimonio/server/store"
	psync "patrimonio/sync"
)

// NewFakeClock is the tests' clock, standing at their start time.
func NewFakeClock() *testkit.Clock {
	return testkit.NewClock(time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC))
}

// The engine suites run against both stores: a SQLite file and a fresh database of a real
// Postgres (TEST_DATABASE_URL, or a throwaway cluster for the run: internal/pgtest).

// PostgresURL creates a fresh database on the test Postgres server and drops it afterwards.
func PostgresURL(t testing.TB) string { return pgtest.URL(t) }

// ForEachStore runs f once per store, as subtests named after the store.
func ForEachStore(t *testing.T, f func(t *testing.T, db *store.DB)) { testkit.Stores(t, f) }

// PushInParallel is the timed part of the ingest benchmarks: push(d) once per iteration on each
// of devices goroutines, all at once after the timer is reset; it reports the mutations applied
// per second (devices × perPush × b.N over the time taken).
func PushInParallel(b *testing.B, devices, perPush int, push func(d int)) {
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for d := range devices {
		wg.Go(func() {
			for range b.N {
				push(d)
			}
		})
	}
	wg.Wait()
	b.ReportMetric(float64(devices*perPush*b.N)/time.Since(start).Seconds(), "mutations/s")
}

// AssetFields are the fields of the benchmarks' k-th asset creation (6 fields, a valid asset).
func AssetFields(k int) map[string]any {
	return map[string]any{"name": fmt.Sprintf("Activo %d", k), "assetClass": "real_estate", "category": "residential",
		"currency": "EUR", "participation": "100", "currentValue": "250000.50"}
}

// BenchStores runs the benchmark f once on each store: a new SQLite file, and Postgres (a
// throwaway cluster when TEST_DATABASE_URL is unset).
func BenchStores(b *testing.B, f func(b *testing.B, db *store.DB)) {
	for _, name := range []string{"sqlite", "postgres"} {
		b.Run(name, func(b *testing.B) {
			dialect, url := store.SQLite, b.TempDir()+"/bench.db"
			if name == "postgres" {
				dialect, url = store.Postgres, PostgresURL(b)
			}
			f(b, OpenStore(b, dialect, url))
		})
	}
}

func OpenStore(t testing.TB, dialect store.Dialect, url string) *store.DB {
	return testkit.Open(t, dialect, url)
}

func NewEngine(t testing.TB, db *store.DB, opts psync.Options) *psync.Engine {
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

func AddUser(t testing.TB, db *store.DB) string {
	t.Helper()
	id := uuid.NewString()
	now := time.Now().UTC()
	if _, err := db.Exec(context.Background(), `INSERT INTO users (id, email, onboarding_step, created_at, updated_at)
		VALUES (?, ?, 'done', ?, ?)`, id, id+"@example.com", now, now); err != nil {
		t.Fatal(err)
	}
	return id
}

func AddWorkspace(t testing.TB, db *store.DB) string {
	t.Helper()
	id := uuid.NewString()
	if _, err := db.Exec(context.Background(), `INSERT INTO workspaces (id, name, kind, created_at) VALUES (?, 'W', 'team', ?)`,
		id, time.Now().UTC()); err != nil {
		t.Fatal(err)
	}
	return id
}

func AddMember(t testing.TB, db *store.DB, workspace, user, role string) {
	t.Helper()
	if _, err := db.Exec(context.Background(), `INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)`,
		workspace, user, role, time.Now().UTC()); err != nil {
		t.Fatal(err)
	}
}

func SetRole(t testing.TB, db *store.DB, workspace, user, role string) {
	t.Helper()
	if _, err := db.Exec(context.Background(), `UPDATE memberships SET role = ? WHERE workspace_id = ? AND user_id = ?`, role, workspace, user); err != nil {
		t.Fatal(err)
	}
}

func RemoveMember(t testing.TB, db *store.DB, workspace, user string) {
	t.Helper()
	if _, err := db.Exec(context.Background(), `DELETE FROM memberships WHERE workspace_id = ? AND user_id = ?`, workspace, user); err != nil {
		t.Fatal(err)
	}
}

// ---------------------------------------------------------------- devices

// Device is a test client: a client id bound to a user, its own HLC, and its mutation ids.
type Device struct {
	psync.Client
	Clock *psync.Clock
	Next  int64
}

func NewDevice(t testing.TB, e *psync.Engine, user string, now func() time.Time) *Device {
	t.Helper()
	clock, err := psync.NewClock(psync.ClockConfig{Node: psync.NewNodeID(), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	d := &Device{Client: psync.Client{UserID: user, ClientID: uuid.NewString()}, Clock: clock}
	if err := e.BindClient(context.Background(), user, d.ClientID); err != nil {
		t.Fatal(err)
	}
	return d
}

func NewRecordID(t testing.TB) string {
	t.Helper()
	id, err := uuid.NewV7()
	if err != nil {
		t.Fatal(err)
	}
	return id.String()
}

// Mutation makes the device's next mutation.
func (d *Device) Mutation(op psync.Op, workspace, collection, record string, fields map[string]any, base map[string]psync.Stamp) psync.ClientMutation {
	d.Next++
	if base == nil {
		base = map[string]psync.Stamp{}
	}
	return psync.ClientMutation{MutationID: d.Next, WorkspaceID: workspace, Collection: collection, RecordID: record,
		Mutation: psync.Mutation{Op: op, Stamp: d.Clock.Now(), Fields: fields, Base: base}}
}

func (d *Device) Put(workspace, record string, fields map[string]any, base map[string]psync.Stamp) psync.ClientMutation {
	return d.Mutation(psync.OpPut, workspace, "tasks", record, fields, base)
}

func Task(title string) map[string]any { return map[string]any{"title": title, "status": "todo"} }

func Apply(t *testing.T, e *psync.Engine, d *Device, muts ...psync.ClientMutation) []psync.Outcome {
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

func WantStatus(t *testing.T, got []psync.Outcome, want ...psync.Status) {
	t.Helper()
	for i, o := range got {
		if o.Status != want[i] {
			t.Fatalf("outcome %d: %s (%s %+v), want %s", i, o.Status, o.Code, o.Issues, want[i])
		}
	}
}

// ---------------------------------------------------------------- replicas

// Replica is a device's confirmed state of one workspace, built only from what the engine
// serves (snapshot pages and change pages) with the same merge the server runs.
type Replica struct {
	Records map[string]*psync.RecordState // collection/recordId
	Cursor  int64
}

func NewReplica() *Replica { return &Replica{Records: map[string]*psync.RecordState{}} }

func (r *Replica) ApplyChanges(t *testing.T, page psync.ChangesPage) {
	t.Helper()
	for _, c := range page.Changes {
		if c.Seq != r.Cursor+1 {
			t.Fatalf("change %d follows cursor %d: a gap or a repeat", c.Seq, r.Cursor)
		}
		m, err := c.Mutation()
		if err != nil {
			t.Fatal(err)
		}
		key := c.Collection + "/" + c.RecordID
		s := r.Records[key]
		if s == nil {
			s = psync.NewRecordState()
			r.Records[key] = s
		}
		if _, err := s.Apply(m); err != nil {
			t.Fatalf("change %d does not Apply: %v", c.Seq, err)
		}
		r.Cursor = c.Seq
	}
	if page.Cursor != r.Cursor {
		t.Fatalf("page cursor %d, last change %d", page.Cursor, r.Cursor)
	}
}

func (r *Replica) ApplySnapshot(t *testing.T, page psync.SnapshotPage) {
	t.Helper()
	for _, rec := range page.Records {
		s, err := rec.Decode()
		if err != nil {
			t.Fatal(err)
		}
		r.Records[rec.Collection+"/"+rec.RecordID] = s
	}
}

// PullAll catches a replica up with the change log.
func (r *Replica) PullAll(t *testing.T, e *psync.Engine, user, workspace string, limit int) {
	t.Helper()
	for {
		page, err := e.ChangesPage(context.Background(), user, workspace, r.Cursor, limit)
		if err != nil {
			t.Fatal(err)
		}
		r.ApplyChanges(t, page)
		if !page.HasMore {
			return
		}
	}
}

// ServerState reads every record of a workspace through snapshot pages.
func ServerState(t *testing.T, e *psync.Engine, user, workspace string) map[string]*psync.RecordState {
	t.Helper()
	r := NewReplica()
	token := ""
	for {
		page, err := e.SnapshotPage(context.Background(), user, workspace, token, 0)
		if err != nil {
			t.Fatal(err)
		}
		r.ApplySnapshot(t, page)
		if !page.HasMore {
			return r.Records
		}
		token = page.PageToken
	}
}

// SameStates compares record states by their JSON (the form replicas store).
func SameStates(t *testing.T, got, want map[string]*psync.RecordState) {
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
