-- Changing the e-mail address (issue 4): the new address waits beside the code e-mailed to it, in
-- email_codes with the purpose change_email, until that code confirms it. new_email is set for that
-- purpose only (lower case, like users.email).
--
-- SQLite cannot change a CHECK constraint in place, so the table is rebuilt; no table references
-- it, and its rows are copied as they are.
CREATE TABLE email_codes_new (
    user_id    TEXT      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose    TEXT      NOT NULL CHECK (purpose IN ('verify_email', 'reverify', 'change_email')),
    code_hash  TEXT      NOT NULL,
    attempts   INTEGER   NOT NULL DEFAULT 0,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    used_at    TIMESTAMP NULL,
    new_email  TEXT      NULL CHECK (new_email = lower(new_email)),
    PRIMARY KEY (user_id, purpose),
    CHECK ((purpose = 'change_email') = (new_email IS NOT NULL))
);
INSERT INTO email_codes_new (user_id, purpose, code_hash, attempts, created_at, expires_at, used_at)
    SELECT user_id, purpose, code_hash, attempts, created_at, expires_at, used_at FROM email_codes;
DROP TABLE email_codes;
ALTER TABLE email_codes_new RENAME TO email_codes;
