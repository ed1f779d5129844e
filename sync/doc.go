// Package psync is Patrimonio's sync engine.
//
// Its deterministic core is shared rule for rule with the device side (clientdb/src/hlc.ts and
// clientdb/src/merge.ts) and pinned by the vectors in testdata/:
//
//   - Stamp and Clock: the hybrid logical clock that stamps every edit, and Clock.Bound, the
//     server's policy for clocks that run ahead (CLOCK.md).
//   - RecordState.Apply: the per-field last-writer-wins merge with tombstones and conflict records,
//     commutative and idempotent (MERGE.md).
//
// Around it, the server (PROTOCOL.md describes the protocol for client authors):
//
//   - Engine (engine.go, apply.go): applies pushed mutations exactly once, in one transaction per
//     group of pushes, under a per-workspace lock that allocates the workspace's sequence; checks
//     every mutation against the shared schema and the user's role (server/authz); keeps the
//     change log, the records' merged states and the conflict records (migrations/*/0005_sync.sql).
//   - Reading (read.go): pages of the change log after a cursor, resumable snapshot pages, garbage
//     collection of old changes and tombstones (gc.go).
//   - Watchers (watch.go): whoever serves live readers hears every commit of this instance and, on
//     Postgres, of every instance sharing the database through LISTEN/NOTIFY (listen.go). The
//     engine knows nothing of sockets: the WebSocket transport is sync/socket, which reaches the
//     engine through its small socket.Engine interface and is one such watcher.
//
// The package is named psync, in the folder sync/ that the design's repository layout names: a
// package called sync would shadow the standard library's inside it and in every caller (issue 17).
// Callers import it as psync "patrimonio/sync" (goimports writes the alias, since the name differs
// from the folder's).
package psync
