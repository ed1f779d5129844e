// Package sync is Patrimonio's sync engine. This part is its deterministic core, shared rule for
// rule with the device side (clientdb/src/hlc.ts and clientdb/src/merge.ts) and pinned by the
// vectors in testdata/:
//
//   - Stamp and Clock: the hybrid logical clock that stamps every edit, and Clock.Bound, the
//     server's policy for clocks that run ahead (CLOCK.md).
//   - RecordState.Apply: the per-field last-writer-wins merge with tombstones and conflict records,
//     commutative and idempotent (MERGE.md).
//
// Callers import it as psync "patrimonio/sync"; inside, the standard library's sync is gosync.
package sync
