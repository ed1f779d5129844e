-- Sync (issue 17): the record states and the change log keep no foreign key to workspaces. Each
-- was checked per row written (two per applied mutation). Nothing is lost by it: a push writes a
-- workspace's rows only while it holds the workspace's sync_workspaces row, and that row keeps its
-- foreign key with ON DELETE CASCADE; the deletion of a workspace removes the workspace's records
-- and changes itself, in its own transaction, after the workspace row (members.DeleteWorkspace).
-- sync_conflicts still goes with its record.
--
-- SQLite cannot drop a constraint: both tables are rebuilt. With foreign keys enforced, DROP TABLE
-- first deletes every row (cascading to the tables that reference it) and RENAME rewrites the
-- references of other tables, so sync_conflicts (which references sync_records) is set aside in a
-- plain copy, and made again once sync_records is back under its name.

CREATE TABLE sync_changes_rebuilt (
    workspace_id TEXT      NOT NULL,
    seq          INTEGER   NOT NULL,
    collection   TEXT      NOT NULL,
    record_id    TEXT      NOT NULL,
    client_id    TEXT      NOT NULL,
    mutation_id  INTEGER   NOT NULL,
    mutation     TEXT      NOT NULL,
    created_at   TIMESTAMP NOT NULL,
    PRIMARY KEY (workspace_id, seq)
);
INSERT INTO sync_changes_rebuilt (workspace_id, seq, collection, record_id, client_id, mutation_id, mutation, created_at)
    SELECT workspace_id, seq, collection, record_id, client_id, mutation_id, mutation, created_at FROM sync_changes;
DROP TABLE sync_changes;
ALTER TABLE sync_changes_rebuilt RENAME TO sync_changes;
CREATE INDEX sync_changes_client_mutation ON sync_changes (client_id, mutation_id);

CREATE TABLE sync_conflicts_kept AS SELECT * FROM sync_conflicts;
DROP TABLE sync_conflicts;

CREATE TABLE sync_records_rebuilt (
    workspace_id TEXT      NOT NULL,
    collection   TEXT      NOT NULL,
    record_id    TEXT      NOT NULL,
    seq          INTEGER   NOT NULL,
    deleted      BOOLEAN   NOT NULL,
    conflicts    INTEGER   NOT NULL,
    state        TEXT      NOT NULL,
    updated_at   TIMESTAMP NOT NULL,
    PRIMARY KEY (workspace_id, collection, record_id)
);
INSERT INTO sync_records_rebuilt (workspace_id, collection, record_id, seq, deleted, conflicts, state, updated_at)
    SELECT workspace_id, collection, record_id, seq, deleted, conflicts, state, updated_at FROM sync_records;
DROP TABLE sync_records;
ALTER TABLE sync_records_rebuilt RENAME TO sync_records;
CREATE INDEX sync_records_tombstones ON sync_records (workspace_id, updated_at) WHERE deleted;

CREATE TABLE sync_conflicts (
    workspace_id TEXT      NOT NULL,
    collection   TEXT      NOT NULL,
    record_id    TEXT      NOT NULL,
    field        TEXT      NOT NULL,
    stamp        TEXT      NOT NULL,
    value        TEXT      NOT NULL,
    author       TEXT      NOT NULL,
    seq          INTEGER   NOT NULL,
    created_at   TIMESTAMP NOT NULL,
    PRIMARY KEY (workspace_id, collection, record_id, field, stamp),
    FOREIGN KEY (workspace_id, collection, record_id)
        REFERENCES sync_records (workspace_id, collection, record_id) ON DELETE CASCADE
);
INSERT INTO sync_conflicts (workspace_id, collection, record_id, field, stamp, value, author, seq, created_at)
    SELECT workspace_id, collection, record_id, field, stamp, value, author, seq, created_at FROM sync_conflicts_kept;
DROP TABLE sync_conflicts_kept;
