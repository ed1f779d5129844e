-- Account security (issue 11): what the last proof of identity of a session included, password
-- resets, usernames and profile images.

-- reverified_mfa: the session's last proof (reverified_at) included a second factor (an
-- authenticator code, a passkey). Changing or removing a second factor or a passkey needs one when
-- the user has a second factor.
ALTER TABLE sessions ADD COLUMN reverified_mfa BOOLEAN NOT NULL DEFAULT false;

-- The one live password reset of a user: a link token and a 6-digit code, both e-mailed, stored
-- as hex SHA-256 only. attempts counts wrong codes; used_at is set by the reset.
CREATE TABLE password_resets (
    user_id    TEXT      NOT NULL PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    token_hash TEXT      NOT NULL UNIQUE,
    code_hash  TEXT      NOT NULL,
    attempts   INTEGER   NOT NULL DEFAULT 0,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    used_at    TIMESTAMP NULL
);

-- username: 3 to 20 characters as typed; username_key is its lower-case form (set by the server),
-- unique, so that usernames are unique without regard to case.
ALTER TABLE users ADD COLUMN username TEXT NULL;
ALTER TABLE users ADD COLUMN username_key TEXT NULL;
CREATE UNIQUE INDEX users_username_key ON users (username_key);

-- The profile image, checked by content and stored resized (PNG or JPEG).
CREATE TABLE user_avatars (
    user_id      TEXT      NOT NULL PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    content_type TEXT      NOT NULL,
    data         BLOB      NOT NULL,
    updated_at   TIMESTAMP NOT NULL
);

-- A configured admin address (PATRIMONIO_ADMIN_EMAILS) made an account admin before its address
-- was verified; the flag now counts only for verified addresses, so take it back from the rest.
UPDATE users SET is_admin = false WHERE email_verified_at IS NULL;
