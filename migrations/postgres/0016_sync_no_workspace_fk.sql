-- Sync (issue 17): the record states and the change log keep no foreign key to workspaces. Each
-- was checked per row written (a SELECT ... FOR KEY SHARE on the workspace, two per applied
-- mutation: about 5 µs of Postgres CPU of 18). Nothing is lost by it: a push writes a workspace's
-- rows only while it holds the workspace's sync_workspaces row (locked at the start of the push),
-- and that row keeps its foreign key with ON DELETE CASCADE, so the deletion of a workspace waits
-- for the pushes in progress and a later push finds no workspace (rejected, not_found). The
-- deletion removes the workspace's records and changes itself, in its own transaction, after the
-- workspace row (members.DeleteWorkspace). sync_conflicts still goes with its record.
ALTER TABLE sync_records DROP CONSTRAINT sync_records_workspace_id_fkey;
ALTER TABLE sync_changes DROP CONSTRAINT sync_changes_workspace_id_fkey;
