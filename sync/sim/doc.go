// Package sim is the seeded simulation of sync (issue 5): many short scenarios, each replayable
// from its seed, in which 3 to 8 simulated devices speak the real protocol over real WebSockets to
// the real server, through fault-injecting proxies, and after which every promise of
// shared/DESIGN.md "Sync — what it must guarantee" is checked.
//
// A scenario (scenario.go) picks, from its seed, where the server runs (Kind: the server of
// server/app in this process on a SQLite file or on Postgres, the server binary killed with
// SIGKILL and started again on its database, or Postgres itself restarted under a running server),
// the devices (users of two workspaces with different members: some in A only, some in B only,
// some in both, a viewer; world.go), their clock skews (some far ahead, so that the server
// re-stamps their edits), and a script: local creates, edits, deletes, restores and conflict
// resolutions on a few shared records; devices going offline for long stretches, crashing (only
// their durable state survives), reconnecting; frames delayed, duplicated, dropped; connections
// cut, also right after a commit and before its ack; probes of workspaces a user may not read or
// write; wall-clock jumps; server and database restarts. Then every fault is healed, every device
// comes online, and the scenario waits (a bounded number of polls) until every outbox is empty
// and every cursor is at the server's head.
//
// The devices (client.go) are a Go model of clientdb: a durable state (confirmed records merged
// with sync's RecordState, cursors, snapshot page tokens, the outbox, the clock) and a volatile one
// (the socket). What every Go device does — the socket, the messages, applying pages to a
// workspace's state (device.Space) — is package sync/device, shared with the benchmarks; client.go
// adds the simulation's choices (how to sync, batch sizes, faults) and its checks. The proxies (proxy.go) sit between each device and the server. The checks
// (check.go) read the database at rest and every replica: server order, exactly once, refusals,
// the stored state as the merge of the change log, no silent loss, convergence, no leak between
// workspaces, and no protocol anomaly seen on the way.
//
// The tests run it: `go test ./sync/sim` runs 200 scenarios from a new seed base each time;
// `-seeds`, `-seedbase`, `-seed` (replay one), `-kind`, `-workers`, `-each` and `-events`
// control it, and `make sim SEEDS=1000` runs more.
package sim
