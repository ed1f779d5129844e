package psync_test

// The engine fixtures (sync/internal/enginetest) under the names these tests use.

import (
	"testing"

	"patrimonio/internal/pgtest"
	"patrimonio/internal/testkit"
	"patrimonio/server/store"
	psync "patrimonio/sync"
	"patrimonio/sync/internal/enginetest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

type (
	device  = enginetest.Device
	replica = enginetest.Replica
)

var (
	newFakeClock = enginetest.NewFakeClock
	postgresURL  = enginetest.PostgresURL
	forEachStore = enginetest.ForEachStore
	openStore    = enginetest.OpenStore
	benchStores  = enginetest.BenchStores
	newEngine    = enginetest.NewEngine
	addUser      = enginetest.AddUser
	addWorkspace = enginetest.AddWorkspace
	addMember    = enginetest.AddMember
	setRole      = enginetest.SetRole
	removeMember = enginetest.RemoveMember
	newDevice    = enginetest.NewDevice
	newRecordID  = enginetest.NewRecordID
	task         = enginetest.Task
	apply        = enginetest.Apply
	wantStatus   = enginetest.WantStatus
	newReplica   = enginetest.NewReplica
	serverState  = enginetest.ServerState
	sameStates   = enginetest.SameStates
)

// twoMembers is an engine over db with a workspace of two members, Ana (owner) and Luis
// (editor), each with a device, on the clock the engine and both devices read.
type twoMembers struct {
	e            *psync.Engine
	w, ana, luis string
	a, b         *device
	clock        *testkit.Clock
}

func newTwoMembers(t *testing.T, db *store.DB) twoMembers {
	t.Helper()
	clock := newFakeClock()
	e := newEngine(t, db, psync.Options{Now: clock.Now})
	ana, luis, w := addUser(t, db), addUser(t, db), addWorkspace(t, db)
	addMember(t, db, w, ana, "owner")
	addMember(t, db, w, luis, "editor")
	return twoMembers{e: e, w: w, ana: ana, luis: luis, clock: clock,
		a: newDevice(t, e, ana, clock.Now), b: newDevice(t, e, luis, clock.Now)}
}
