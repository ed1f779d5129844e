-- Passkeys (issue 4): the WebAuthn credentials of the local provider, the WebAuthn user handle of
-- each user who has begun registering one, and the state of ceremonies in flight.

-- The user handle is a random 32-byte value given to authenticators instead of the user id; a
-- discoverable credential returns it at sign-in, and it leads back to the user here.
CREATE TABLE passkey_users (
    user_id     TEXT      NOT NULL PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    user_handle BLOB      NOT NULL UNIQUE,
    created_at  TIMESTAMP NOT NULL
);

-- One registered credential. credential_id and public_key (COSE) come from the authenticator;
-- sign_count, clone_warning, user_verified and backup_state are updated at every sign-in;
-- transports is a comma list; rp_id is the relying party id the credential is bound to.
CREATE TABLE passkeys (
    id                 TEXT      NOT NULL PRIMARY KEY,
    user_id            TEXT      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    credential_id      BLOB      NOT NULL UNIQUE,
    public_key         BLOB      NOT NULL,
    sign_count         INTEGER   NOT NULL DEFAULT 0,
    clone_warning      BOOLEAN   NOT NULL DEFAULT false,
    transports         TEXT      NOT NULL DEFAULT '',
    aaguid             BLOB      NOT NULL,
    attestation_format TEXT      NOT NULL,
    attachment         TEXT      NOT NULL DEFAULT '',
    user_verified      BOOLEAN   NOT NULL,
    backup_eligible    BOOLEAN   NOT NULL,
    backup_state       BOOLEAN   NOT NULL,
    rp_id              TEXT      NOT NULL,
    name               TEXT      NOT NULL,
    created_at         TIMESTAMP NOT NULL,
    last_used_at       TIMESTAMP NULL
);
CREATE INDEX passkeys_user_id ON passkeys (user_id);

-- A registration or sign-in ceremony between its begin and finish calls, found by its challenge
-- (base64url, as the client echoes it in clientDataJSON) and deleted at the first finish attempt,
-- so each challenge is used once. data is the library's SessionData as JSON. A registration is
-- bound to the user and the session that began it; a sign-in records the client's IP, which
-- bounds the sign-ins in flight per IP.
CREATE TABLE passkey_ceremonies (
    challenge  TEXT      NOT NULL PRIMARY KEY,
    kind       TEXT      NOT NULL CHECK (kind IN ('register', 'login')),
    user_id    TEXT      NULL REFERENCES users (id) ON DELETE CASCADE,
    session_id TEXT      NULL REFERENCES sessions (id) ON DELETE CASCADE,
    ip         TEXT      NOT NULL DEFAULT '',
    data       TEXT      NOT NULL,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL
);
CREATE INDEX passkey_ceremonies_kind_expires_at ON passkey_ceremonies (kind, expires_at);
