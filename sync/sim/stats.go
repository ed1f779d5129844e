package sim

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// Stats counts what the simulation did and which faults it injected. One Stats may be shared by
// many scenarios (the run's summary) and is safe for concurrent use.
type Stats struct {
	Scenarios atomic.Int64
	Clients   atomic.Int64
	// Mutations made by devices (probes of foreign workspaces and viewers' writes included).
	Mutations atomic.Int64
	Applied   atomic.Int64 // changes in the servers' change logs at the end
	Conflicts atomic.Int64 // open conflict records at the end
	Restamped atomic.Int64 // mutations whose effective stamp is the server's (clock far ahead)
	Late      atomic.Int64 // changes the server marked late (a device's ids decided out of order: MERGE.md, rule 7)

	// Faults.
	FramesDropped    atomic.Int64
	FramesDuplicated atomic.Int64
	FramesDelayed    atomic.Int64
	ConnectionsCut   atomic.Int64
	AckCuts          atomic.Int64 // connections cut after a commit, before its ack reached the device
	BlackHoles       atomic.Int64
	DeviceReconnects atomic.Int64 // a device closed its socket and opened a new one at once
	Offline          atomic.Int64 // offline stretches
	DeviceCrashes    atomic.Int64 // a device lost everything but its durable state
	ClockJumps       atomic.Int64
	ServerRestarts   atomic.Int64 // graceful restarts of an in-process server
	ServerKills      atomic.Int64 // SIGKILL of the server binary, then a restart on the same database
	DatabaseRestarts atomic.Int64 // Postgres restarted under a running server
	SmallPulls       atomic.Int64 // pulls with a small limit (paging, overlapping pages)

	// What the devices saw.
	Probes       atomic.Int64 // attempts to read or write a workspace one may not (all refused)
	Replaced     atomic.Int64 // close 4409
	GoingAway    atomic.Int64 // close 1001
	Internal     atomic.Int64 // close 1011
	Resends      atomic.Int64 // mutations sent again on a new socket
	DuplicateAck atomic.Int64 // acks with status duplicate
}

func (s *Stats) add(c *atomic.Int64, n int64) {
	if s != nil {
		c.Add(n)
	}
}

// Summary is the one-line summary of a run.
func (s *Stats) Summary() string {
	parts := []string{
		fmt.Sprintf("%d scenarios", s.Scenarios.Load()),
		fmt.Sprintf("%d devices", s.Clients.Load()),
		fmt.Sprintf("%d mutations (%d applied, %d resent, %d duplicate acks, %d re-stamped, %d late, %d refused probes)",
			s.Mutations.Load(), s.Applied.Load(), s.Resends.Load(), s.DuplicateAck.Load(), s.Restamped.Load(), s.Late.Load(), s.Probes.Load()),
		fmt.Sprintf("%d open conflicts", s.Conflicts.Load()),
		fmt.Sprintf("faults: %d frames dropped, %d duplicated, %d delayed, %d connections cut (%d after commit before ack, %d black holes), %d device reconnects, %d offline stretches, %d device crashes, %d clock jumps, %d server restarts, %d server kills, %d database restarts, %d small pulls",
			s.FramesDropped.Load(), s.FramesDuplicated.Load(), s.FramesDelayed.Load(), s.ConnectionsCut.Load(), s.AckCuts.Load(),
			s.BlackHoles.Load(), s.DeviceReconnects.Load(), s.Offline.Load(), s.DeviceCrashes.Load(), s.ClockJumps.Load(),
			s.ServerRestarts.Load(), s.ServerKills.Load(), s.DatabaseRestarts.Load(), s.SmallPulls.Load()),
		fmt.Sprintf("closes seen: %d replaced, %d going away, %d internal", s.Replaced.Load(), s.GoingAway.Load(), s.Internal.Load()),
	}
	return strings.Join(parts, "; ")
}
