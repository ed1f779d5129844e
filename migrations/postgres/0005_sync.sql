-- Sync (issue 5): the server side of the sync engine (sync/). Every table is per workspace and
-- goes with it (ON DELETE CASCADE), except the per-client tables, which go with the user.
-- JSON documents are stored as TEXT: the engine reads and writes them whole.

-- The sync head of a workspace: the last sequence number allocated (seq; every applied mutation
-- takes the next one, under a lock on this row, so seqs commit in order and without gaps) and the
-- garbage-collection point (gc_seq: changes with seq <= gc_seq are no longer kept; a client whose
-- cursor is older must resync).
CREATE TABLE sync_workspaces (
    workspace_id TEXT      NOT NULL PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    seq          BIGINT    NOT NULL DEFAULT 0,
    gc_seq       BIGINT    NOT NULL DEFAULT 0,
    updated_at   TIMESTAMPTZ NOT NULL
);

-- The current merged state of every record (sync/MERGE.md RecordState as JSON: fields, clocks,
-- authors, life, seen, open conflicts), tombstones included until garbage collection. seq is the
-- seq of the record's latest change; deleted and conflicts (the number of open conflicts) mirror
-- the state for queries.
CREATE TABLE sync_records (
    workspace_id TEXT      NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    collection   TEXT      NOT NULL,
    record_id    TEXT      NOT NULL,
    seq          BIGINT    NOT NULL,
    deleted      BOOLEAN   NOT NULL,
    conflicts    BIGINT    NOT NULL,
    state        TEXT      NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (workspace_id, collection, record_id)
);
-- Tombstones whose last change is older than the retention period are collected (a partial
-- index: live records, almost all of them, cost it nothing).
CREATE INDEX sync_records_tombstones ON sync_records (workspace_id, updated_at) WHERE deleted;

-- The change log: one row per applied mutation, in seq order per workspace. mutation is the
-- mutation as applied (JSON: op, effective stamp, fields, base, resolves), author the client id
-- that sent it with its mutation id.
CREATE TABLE sync_changes (
    workspace_id TEXT      NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    seq          BIGINT    NOT NULL,
    collection   TEXT      NOT NULL,
    record_id    TEXT      NOT NULL,
    client_id    TEXT      NOT NULL,
    mutation_id  BIGINT    NOT NULL,
    mutation     TEXT      NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (workspace_id, seq)
);
-- Answering a resend with the seq and stamp of the first time. (Garbage collection walks each
-- workspace's changes in seq order through the primary key: no index on created_at to maintain.)
CREATE INDEX sync_changes_client_mutation ON sync_changes (client_id, mutation_id);

-- Every client (device database) that has said hello, bound to the user who first used its id:
-- another user presenting the same client id is refused.
CREATE TABLE sync_clients (
    client_id    TEXT      NOT NULL PRIMARY KEY,
    user_id      TEXT      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   TIMESTAMPTZ NOT NULL,
    last_seen_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX sync_clients_user_id ON sync_clients (user_id);

-- Exactly-once: the last mutation id of each client that the server has decided on (applied or
-- rejected) per workspace, written in the same transaction as the data. A mutation id at or below
-- it is a resend. No foreign key to workspaces: a mutation for a workspace that does not exist
-- gets a verdict (rejected) too.
CREATE TABLE sync_client_workspaces (
    client_id        TEXT      NOT NULL REFERENCES sync_clients (client_id) ON DELETE CASCADE,
    workspace_id     TEXT      NOT NULL,
    last_mutation_id BIGINT    NOT NULL,
    updated_at       TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (client_id, workspace_id)
);

-- Rejected mutations, so that a resend gets the same answer. issues is JSON [{path, key, params}]
-- (messages are resolved in the language of each answer).
CREATE TABLE sync_rejections (
    client_id    TEXT      NOT NULL REFERENCES sync_clients (client_id) ON DELETE CASCADE,
    mutation_id  BIGINT    NOT NULL,
    workspace_id TEXT      NOT NULL,
    code         TEXT      NOT NULL,
    issues       TEXT      NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (client_id, mutation_id)
);
CREATE INDEX sync_rejections_created_at ON sync_rejections (created_at);

-- Open conflict records (a field write that lost to a concurrent one), queryable; the same records
-- travel to devices inside the record state. value is JSON; author the client id of the losing
-- write; seq the change that opened it.
CREATE TABLE sync_conflicts (
    workspace_id TEXT      NOT NULL,
    collection   TEXT      NOT NULL,
    record_id    TEXT      NOT NULL,
    field        TEXT      NOT NULL,
    stamp        TEXT      NOT NULL,
    value        TEXT      NOT NULL,
    author       TEXT      NOT NULL,
    seq          BIGINT    NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (workspace_id, collection, record_id, field, stamp),
    FOREIGN KEY (workspace_id, collection, record_id)
        REFERENCES sync_records (workspace_id, collection, record_id) ON DELETE CASCADE
);
