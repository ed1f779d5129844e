-- Facts about this installation, as key/value pairs: the installation id and, later, settings
-- that belong to the server rather than to a user or workspace.
CREATE TABLE app_meta (
    key        TEXT        NOT NULL PRIMARY KEY,
    value      TEXT        NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);
