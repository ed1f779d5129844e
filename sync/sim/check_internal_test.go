package sim

import (
	"fmt"
	"strings"
	"testing"

	psync "patrimonio/sync"
	"patrimonio/sync/device"
)

// The checks must be able to fail: each case builds a small, consistent history, breaks one
// promise in it, and expects the check to say so (and to stay quiet on the unbroken history).

const (
	wsA   = "0a0a0a0a-0000-4000-8000-00000000000a"
	wsB   = "0b0b0b0b-0000-4000-8000-00000000000b"
	recID = "01900000-0000-7000-8000-000000000001"
	devX  = "11111111-1111-4111-8111-111111111111"
	devY  = "22222222-2222-4222-8222-222222222222"
)

func stamp(ms int64, node string) psync.Stamp {
	return psync.Stamp{Millis: 1_700_000_000_000 + ms, Node: node}
}

var (
	nodeX = "aaaaaaaaaaaaaaaa"
	nodeY = "bbbbbbbbbbbbbbbb"
)

// history: X creates the record; then X and Y both change its title without seeing each other's
// change (Y's stamp is later, so Y wins and X's title is a conflict); unless onTop, in which case
// Y edited X's title knowingly.
func history(onTop bool) []dbChange {
	create := psync.Mutation{Op: psync.OpPut, Stamp: stamp(1, nodeX), Author: devX,
		Fields: map[string]any{"title": "Pagar el IBI", "status": "todo"}, Base: map[string]psync.Stamp{}}
	x := psync.Mutation{Op: psync.OpPut, Stamp: stamp(2, nodeX), Author: devX,
		Fields: map[string]any{"title": "Pagar el IBI ya"}, Base: map[string]psync.Stamp{"title": stamp(1, nodeX)}}
	yBase := stamp(1, nodeX)
	if onTop {
		yBase = stamp(2, nodeX)
	}
	y := psync.Mutation{Op: psync.OpPut, Stamp: stamp(3, nodeY), Author: devY,
		Fields: map[string]any{"title": "Pagar el IBI en junio"}, Base: map[string]psync.Stamp{"title": yBase}}
	return []dbChange{
		{workspace: wsA, collection: collection, record: recID, client: devX, seq: 1, mutationID: 1, m: create},
		{workspace: wsA, collection: collection, record: recID, client: devX, seq: 2, mutationID: 2, m: x},
		{workspace: wsA, collection: collection, record: recID, client: devY, seq: 3, mutationID: 1, m: y},
	}
}

// serverOf builds what a correct server stores for a history.
func serverOf(t *testing.T, changes []dbChange) *database {
	t.Helper()
	db := &database{heads: map[string]int64{wsA: int64(len(changes))}, byMutation: map[mutKey][]dbChange{},
		records: map[string]*dbRecord{}, rejections: map[mutKey]dbRejection{}, last: map[string]int64{}}
	st := psync.NewRecordState()
	for _, c := range changes {
		if _, err := st.Apply(c.m); err != nil {
			t.Fatal(err)
		}
		db.changes = append(db.changes, c)
		k := mutKey{c.client, c.mutationID}
		db.byMutation[k] = append(db.byMutation[k], c)
	}
	key := recordKey(collection, recID)
	db.records[wsA+"|"+key] = &dbRecord{workspace: wsA, key: key, seq: int64(len(changes)), deleted: st.Deleted(),
		conflicts: len(st.Conflicts), state: st}
	for _, c := range st.Conflicts {
		db.conflicts = append(db.conflicts, dbConflict{workspace: wsA, key: key, field: c.Field, stamp: c.Stamp.String(), value: valueJSON(c.Value), author: c.Author})
	}
	return db
}

func testScenario() *Scenario {
	return &Scenario{world: &World{A: wsA, B: wsB}, ledger: newLedger(), stats: &Stats{}}
}

func collect(run func(fail func(string, ...any))) []string {
	var fails []string
	run(func(format string, args ...any) { fails = append(fails, fmt.Sprintf(format, args...)) })
	return fails
}

func expectFailure(t *testing.T, fails []string, want string) {
	t.Helper()
	if want == "" {
		if len(fails) > 0 {
			t.Fatalf("the unbroken history fails the check: %v", fails)
		}
		return
	}
	for _, f := range fails {
		if strings.Contains(f, want) {
			return
		}
	}
	t.Fatalf("no failure mentions %q: %v", want, fails)
}

func TestTheChecksCatchBrokenPromises(t *testing.T) {
	cases := []struct {
		name   string
		onTop  bool
		break_ func(db *database)
		check  func(sc *Scenario, db *database) []string
		want   string
	}{
		{
			name: "a concurrent write kept as a conflict record passes the loss check",
			check: func(sc *Scenario, db *database) []string {
				return collect(func(f func(string, ...any)) { sc.checkNoLoss(db, nil, f) })
			},
		},
		{
			name:   "a concurrent write that lost without a conflict record is reported as lost",
			break_: func(db *database) { db.records[wsA+"|"+recordKey(collection, recID)].state.Conflicts = nil },
			check: func(sc *Scenario, db *database) []string {
				return collect(func(f func(string, ...any)) { sc.checkNoLoss(db, nil, f) })
			},
			want: "loss:",
		},
		{
			name:   "a write superseded knowingly needs no conflict record",
			onTop:  true,
			break_: func(db *database) { db.records[wsA+"|"+recordKey(collection, recID)].state.Conflicts = nil },
			check: func(sc *Scenario, db *database) []string {
				return collect(func(f func(string, ...any)) { sc.checkNoLoss(db, nil, f) })
			},
		},
		{
			name: "a stored state that is not the merge of the change log is reported",
			break_: func(db *database) {
				db.records[wsA+"|"+recordKey(collection, recID)].state.Fields["title"] = "otra cosa"
			},
			check: func(sc *Scenario, db *database) []string {
				return collect(func(f func(string, ...any)) { sc.checkState(db, f) })
			},
			want: "state: record",
		},
		{
			name:   "a conflict missing from the conflicts table is reported",
			break_: func(db *database) { db.conflicts = nil },
			check: func(sc *Scenario, db *database) []string {
				return collect(func(f func(string, ...any)) { sc.checkState(db, f) })
			},
			want: "not in the conflicts table",
		},
		{
			name: "a mutation applied twice is reported",
			break_: func(db *database) {
				again := db.changes[1]
				again.seq = 4
				db.changes = append(db.changes, again)
				db.heads[wsA] = 4
				k := mutKey{again.client, again.mutationID}
				db.byMutation[k] = append(db.byMutation[k], again)
			},
			check: func(sc *Scenario, db *database) []string {
				return collect(func(f func(string, ...any)) { sc.checkExactlyOnce(db, f) })
			},
			want: "applied 2 times",
		},
		{
			name:   "a gap in the change log is reported",
			break_: func(db *database) { db.changes = append(db.changes[:1], db.changes[2:]...) },
			check: func(sc *Scenario, db *database) []string {
				return collect(func(f func(string, ...any)) { sc.checkOrder(db, f) })
			},
			want: "order:",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			db := serverOf(t, history(tc.onTop))
			if tc.break_ != nil {
				tc.break_(db)
			}
			expectFailure(t, tc.check(testScenario(), db), tc.want)
		})
	}
}

func TestTheLeakCheckCatchesARecordOfAForeignWorkspaceInAFrame(t *testing.T) {
	for _, tc := range []struct {
		name  string
		frame string
		want  string
	}{
		{"a page of its own workspace passes", `{"type":"changes","workspaceId":"` + wsB + `","changes":[],"cursor":0,"hasMore":false}`, ""},
		{"a record id of the foreign workspace anywhere in a frame is a leak", `{"type":"changes","workspaceId":"` + wsB + `","changes":[{"recordId":"` + recID + `"}],"cursor":1,"hasMore":false}`, "mentions record"},
		{"a page of the foreign workspace is a leak", `{"type":"snapshot","workspaceId":"` + wsA + `","records":[],"cursor":0,"hasMore":false}`, "got a snapshot page of workspace"},
		{"an ack of someone else's mutation is a leak", `{"type":"ack","acks":[{"mutationId":99,"status":"applied","seq":1}]}`, "did not make"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := testScenario()
			bruno := &User{Name: "bruno", Roles: map[string]string{wsB: "owner"}}
			sc.clients = []*Client{{Name: "d1-bruno", user: bruno, ws: []string{wsB}, foreign: []string{wsA}}}
			sc.ledger.records[recID] = wsA
			sc.ledger.addFrame("d1-bruno", []byte(tc.frame))
			expectFailure(t, collect(sc.checkLeaks), tc.want)
		})
	}
}

func TestTheReplicaCheckCatchesADeviceThatDiffersFromTheServer(t *testing.T) {
	for _, tc := range []struct {
		name   string
		break_ func(s *device.Space)
		want   string
	}{
		{"an equal replica at the head passes", func(*device.Space) {}, ""},
		{"a replica behind the head is reported", func(s *device.Space) { s.Cursor-- }, "cursor"},
		{"a replica with another value is reported", func(s *device.Space) {
			s.Records[recordKey(collection, recID)].Fields["status"] = "done"
		}, "the server's"},
		{"a replica that lost a conflict record is reported", func(s *device.Space) {
			s.Records[recordKey(collection, recID)].Conflicts = nil
		}, "the server's"},
		{"a replica without the record is reported", func(s *device.Space) { delete(s.Records, recordKey(collection, recID)) }, "lacks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := serverOf(t, history(false))
			sc := testScenario()
			carla := &User{Name: "carla", Roles: map[string]string{wsA: "editor", wsB: "editor"}}
			st := db.records[wsA+"|"+recordKey(collection, recID)].state.Clone()
			s := &device.Space{Cursor: db.heads[wsA], Held: true, Records: map[string]*psync.RecordState{recordKey(collection, recID): st}}
			tc.break_(s)
			c := &Client{Name: "d1-carla", user: carla, ws: []string{wsA}, d: &durable{ClientID: devX, Spaces: map[string]*device.Space{wsA: s}}}
			sc.clients = []*Client{c}
			expectFailure(t, collect(func(f func(string, ...any)) { sc.checkReplicas(db, f) }), tc.want)
		})
	}
}

// A failed no-loss check explains itself: the field's history says what the merge made of each
// write (a conflict opened, closed, or none because the write counted as a duplicate).
func TestAFieldsHistorySaysWhatTheMergeMadeOfEachWrite(t *testing.T) {
	got := fieldHistory(history(false), "title")
	for _, want := range []string{
		"seq 1 put by " + devX,
		`title="Pagar el IBI ya" base ` + stamp(1, nodeX).String(),
		"seq 3 put by " + devY + " stamp " + stamp(3, nodeY).String() + ` title="Pagar el IBI en junio"`,
		"opened " + stamp(2, nodeX).String() + " by " + devX,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("history lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "duplicate") || strings.Contains(got, "closed") {
		t.Errorf("history of edits that neither repeat nor close anything:\n%s", got)
	}
	// X writes the title again with a stamp its node had already passed: the merge counts it as a
	// duplicate and opens no conflict for it, which the history says.
	again := history(false)
	late := again[1]
	late.seq, late.mutationID = 4, 3
	late.m.Stamp = stamp(2, nodeX)
	late.m.Fields = map[string]any{"title": "Pagar el IBI mañana"}
	got = fieldHistory(append(again, late), "title")
	if !strings.Contains(got, `seq 4 put by `+devX+` stamp `+stamp(2, nodeX).String()+` title="Pagar el IBI mañana" base `+stamp(1, nodeX).String()+` duplicate`) {
		t.Errorf("history does not call the repeated stamp a duplicate:\n%s", got)
	}
}
