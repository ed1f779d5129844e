// Package device is the device side of the sync protocol (sync/PROTOCOL.md) in Go: what clientdb
// does in TypeScript, for Go programs that play devices against a real server — the seeded
// simulation (sync/sim) and the benchmarks (bench/cmd/syncbench).
//
//   - Conn: one socket, dialled with a session cookie and an Origin; writes from several
//     goroutines, reads from one.
//   - Identity: a device's client id, hybrid logical clock and mutation ids.
//   - The messages a device sends (Hello, Push, PullChanges, PullSnapshot, Ping) and reads
//     (Type, DecodeWelcome, DecodeAcks, DecodeReject, DecodePage, PageTail).
//   - Space: what a device holds of one workspace (confirmed record states, its cursor, a
//     snapshot in progress) and the rules to apply pages to it.
package device
