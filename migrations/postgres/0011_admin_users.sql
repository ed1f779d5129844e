-- The admin area's user management (issue 10): disabling an account, the last sign-in, the
-- subscription status shown to admins, and the audit log of what admins changed on users.

-- disabled_at: when an admin disabled the account (NULL: enabled). A disabled user cannot sign in;
-- disabling deleted their sessions.
ALTER TABLE users ADD COLUMN disabled_at TIMESTAMPTZ NULL;
-- last_sign_in_at: the user's last completed sign-in (any method); NULL: never since this column.
ALTER TABLE users ADD COLUMN last_sign_in_at TIMESTAMPTZ NULL;
-- subscription_status: the billing provider's status of the user's subscription (active, trialing,
-- past_due, canceled, ...), kept by billing (issue 14); NULL: none.
ALTER TABLE users ADD COLUMN subscription_status TEXT NULL;

-- Every change an admin made to a user: who (actor), when, which user, what (disable, enable,
-- grant_admin, revoke_admin), and the user's state before and after as JSON text
-- ({"disabled":…,"isAdmin":…}). The e-mail addresses keep who it was after an account is deleted.
CREATE TABLE user_audit (
    id          TEXT      NOT NULL PRIMARY KEY,
    user_id     TEXT      NULL REFERENCES users (id) ON DELETE SET NULL,
    user_email  TEXT      NOT NULL,
    action      TEXT      NOT NULL CHECK (action IN ('disable', 'enable', 'grant_admin', 'revoke_admin')),
    actor_id    TEXT      NULL REFERENCES users (id) ON DELETE SET NULL,
    actor_email TEXT      NOT NULL,
    at          TIMESTAMPTZ NOT NULL,
    before      TEXT      NOT NULL,
    after       TEXT      NOT NULL
);
CREATE INDEX user_audit_at ON user_audit (at, id);
CREATE INDEX user_audit_user ON user_audit (user_id, at);
