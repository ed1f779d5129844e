package sync_test

// The engine fixtures (sync/internal/enginetest) under the names these tests use.

import (
	"testing"

	"patrimonio/internal/pgtest"
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
