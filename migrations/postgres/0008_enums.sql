-- Enumerations: the reference lists people pick from (countries, their subdivisions, currencies,
-- asset classes and categories, structure types, liability kinds, relationships) and the values
-- admins add. One table for every list: a value has a number id (stable: asset routes and records
-- keep it), a type (which list), a code (stable within its type), an optional parent (a province's
-- country or region, a category's asset class), a level (the kind of subdivision, e.g. province;
-- the type for other lists), both labels, a sort position within its parent and an active flag
-- (inactive values stay readable on old records and are not offered for new ones).
--
-- The rows are seeded by the enums service at start from the data files embedded in
-- server/enums/data (see its README); enum_meta records which seed version was applied and hands
-- out the ids of the values admins create (from 1000000 up, above every seeded id) and of the
-- audit rows.
CREATE TABLE enums (
    id         BIGINT NOT NULL PRIMARY KEY,
    type       TEXT NOT NULL CHECK (type <> ''),
    code       TEXT NOT NULL CHECK (code <> ''),
    parent_id  BIGINT NULL REFERENCES enums (id),
    level      TEXT NOT NULL CHECK (level <> ''),
    label_es   TEXT NOT NULL CHECK (label_es <> ''),
    label_en   TEXT NOT NULL CHECK (label_en <> ''),
    sort_order BIGINT NOT NULL,
    active     BOOLEAN NOT NULL DEFAULT true,
    updated_at TIMESTAMPTZ NOT NULL
);

-- A code names one value of its type.
CREATE UNIQUE INDEX enums_type_code ON enums (type, code);
-- Children of a value, in order.
CREATE INDEX enums_parent ON enums (parent_id, sort_order);

CREATE TABLE enum_meta (
    id            INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    seed_version  INTEGER NOT NULL,
    next_id       BIGINT NOT NULL,
    next_audit_id BIGINT NOT NULL
);
INSERT INTO enum_meta (id, seed_version, next_id, next_audit_id) VALUES (1, 0, 1000000, 1);

-- Every change an admin makes to an enumeration: who, when, what (create, update, deactivate,
-- activate, reorder) and the value before and after, as JSON text (before is NULL for a create).
-- actor_email keeps who it was after their account is deleted.
CREATE TABLE enum_audit (
    id          BIGINT NOT NULL PRIMARY KEY,
    enum_id     BIGINT NOT NULL REFERENCES enums (id),
    action      TEXT NOT NULL CHECK (action IN ('create', 'update', 'deactivate', 'activate', 'reorder')),
    actor_id    TEXT NULL REFERENCES users (id) ON DELETE SET NULL,
    actor_email TEXT NOT NULL,
    at          TIMESTAMPTZ NOT NULL,
    before      TEXT NULL,
    after       TEXT NOT NULL
);
CREATE INDEX enum_audit_at ON enum_audit (at, id);
CREATE INDEX enum_audit_enum ON enum_audit (enum_id, at);
