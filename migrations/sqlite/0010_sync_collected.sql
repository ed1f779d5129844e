-- Sync (issue 17): the highest mutation id of each client in each workspace whose change or
-- rejection garbage collection has removed. A mutation id at or below the last decided one with no
-- stored verdict is a resend of a collected mutation when at or below this, and otherwise one never
-- decided (its push committed after one with a higher id), which the engine then decides instead of
-- acknowledging it as a duplicate.
ALTER TABLE sync_client_workspaces ADD COLUMN collected_mutation_id INTEGER NOT NULL DEFAULT 0;
