-- Sync (issue 17): a resend is found through runs, not through an index entry per change.
--
-- A run is a client's consecutive mutation ids applied one after the other in one group commit
-- (consecutive seqs of one workspace): a device's push of 500 is one run. Only the first change of
-- a run carries its length (run_length; 0 on the others), and only those changes are indexed, so a
-- push of 500 writes one index entry where it wrote 500 (about 1.4 µs of Postgres's 12 per
-- mutation in the bench's ingest). A resend of mutation id t finds the run that starts at or below
-- t, and, when it covers t, the change at seq start + (t - start id) (sync/apply.go,
-- previousVerdict). Runs never overlap (an id is applied once), so the nearest start below t is
-- the only one that can cover it.
--
-- Every row written before this migration is a run of its own (the column's default, which also
-- stands for any row written by hand). Garbage collection notes as collected the whole of a run
-- whose first change it removes (sync/gc.go).
ALTER TABLE sync_changes ADD COLUMN run_length INTEGER NOT NULL DEFAULT 1;
CREATE INDEX sync_changes_client_runs ON sync_changes (client_id, workspace_id, mutation_id) WHERE run_length > 0;
DROP INDEX sync_changes_client_mutation;
