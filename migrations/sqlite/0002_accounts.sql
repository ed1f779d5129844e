-- Accounts (issue 4): users, their server-side sessions, workspaces with memberships, and what the
-- local auth provider keeps: e-mailed codes, TOTP second factor, recovery codes and the failure
-- log behind sign-in throttling. Secrets are stored hashed (session tokens, e-mailed codes,
-- recovery codes, passwords with argon2id); the TOTP secret must be readable to check codes.
-- E-mail addresses are stored lower case (the server normalises them).

CREATE TABLE users (
    id                TEXT      NOT NULL PRIMARY KEY,
    email             TEXT      NOT NULL UNIQUE,
    email_verified_at TIMESTAMP NULL,
    -- argon2id PHC string; NULL for users who sign in with Clerk or passkeys only.
    password_hash     TEXT      NULL,
    clerk_user_id     TEXT      NULL UNIQUE,
    is_admin          BOOLEAN   NOT NULL DEFAULT false,
    -- Personal identity; birthday is YYYY-MM-DD, country ISO 3166-1 alpha-2.
    first_name        TEXT      NULL,
    last_name         TEXT      NULL,
    birthday          TEXT      NULL,
    gender            TEXT      NULL,
    country           TEXT      NULL,
    state             TEXT      NULL,
    -- verify_email, security_totp, security_passkey, personal_info, billing or done.
    onboarding_step   TEXT      NOT NULL,
    created_at        TIMESTAMP NOT NULL,
    updated_at        TIMESTAMP NOT NULL
);

-- A session is identified by the hex SHA-256 of the random token in the cookie; the token itself is
-- never stored. expires_at is the absolute expiry; idle expiry is computed from last_seen_at.
CREATE TABLE sessions (
    id            TEXT      NOT NULL PRIMARY KEY,
    user_id       TEXT      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at    TIMESTAMP NOT NULL,
    last_seen_at  TIMESTAMP NOT NULL,
    expires_at    TIMESTAMP NOT NULL,
    reverified_at TIMESTAMP NULL,
    -- The password was right but the second factor is still due.
    mfa_pending   BOOLEAN   NOT NULL,
    user_agent    TEXT      NOT NULL DEFAULT '',
    ip            TEXT      NOT NULL DEFAULT ''
);
CREATE INDEX sessions_user_id ON sessions (user_id);
CREATE INDEX sessions_expires_at ON sessions (expires_at);

CREATE TABLE workspaces (
    id         TEXT      NOT NULL PRIMARY KEY,
    name       TEXT      NOT NULL,
    kind       TEXT      NOT NULL CHECK (kind IN ('personal', 'team')),
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE memberships (
    workspace_id TEXT      NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    user_id      TEXT      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role         TEXT      NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
    created_at   TIMESTAMP NOT NULL,
    PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX memberships_user_id ON memberships (user_id);

-- The one live e-mailed code of a user per purpose (a new code replaces the old one). code_hash is
-- the hex SHA-256 of user id, purpose and code; attempts counts wrong tries.
CREATE TABLE email_codes (
    user_id    TEXT      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose    TEXT      NOT NULL CHECK (purpose IN ('verify_email', 'reverify')),
    code_hash  TEXT      NOT NULL,
    attempts   INTEGER   NOT NULL DEFAULT 0,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    used_at    TIMESTAMP NULL,
    PRIMARY KEY (user_id, purpose)
);

-- TOTP second factor (RFC 6238). secret is the active base32 secret (enabled), pending_secret the
-- one being set up until a code confirms it. last_used_step is the time step of the last accepted
-- code: a code is accepted only for a later step, so each code works once.
CREATE TABLE totp (
    user_id            TEXT      NOT NULL PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    secret             TEXT      NULL,
    enabled            BOOLEAN   NOT NULL DEFAULT false,
    pending_secret     TEXT      NULL,
    pending_created_at TIMESTAMP NULL,
    last_used_step     INTEGER   NOT NULL DEFAULT 0,
    enabled_at         TIMESTAMP NULL,
    updated_at         TIMESTAMP NOT NULL
);

-- Single-use recovery codes of the second factor, hex SHA-256 of the normalised code.
CREATE TABLE recovery_codes (
    user_id    TEXT      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash  TEXT      NOT NULL,
    created_at TIMESTAMP NOT NULL,
    used_at    TIMESTAMP NULL,
    PRIMARY KEY (user_id, code_hash)
);

-- One row per failed attempt (sign-in, second factor, re-verification), keyed by the hex SHA-256 of
-- what is throttled ("signin-account:<email>", "signin-ip:<ip>", ...), so no address is stored.
-- Counting rows of the last window gives a limit that holds across server instances.
CREATE TABLE auth_throttle (
    id        TEXT      NOT NULL PRIMARY KEY,
    key       TEXT      NOT NULL,
    failed_at TIMESTAMP NOT NULL
);
CREATE INDEX auth_throttle_key_failed_at ON auth_throttle (key, failed_at);
