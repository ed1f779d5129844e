-- Invitations to team workspaces. An invitation is addressed to an e-mail address (stored lower
-- case) with the role the invitee will get; the invitee, signed in with that address verified,
-- sees it and accepts it (accepted_at set, membership created) or declines it (row deleted). A
-- workspace has at most one pending invitation per address; inviting again replaces it.
-- There is no token: acceptance is by the signed-in invitee's verified address, so no secret
-- travels in a link.
CREATE TABLE invitations (
    id           TEXT      NOT NULL PRIMARY KEY,
    workspace_id TEXT      NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    email        TEXT      NOT NULL CHECK (email = lower(email) AND email <> ''),
    role         TEXT      NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
    invited_by   TEXT      NULL REFERENCES users (id) ON DELETE SET NULL,
    created_at   TIMESTAMP NOT NULL,
    expires_at   TIMESTAMP NOT NULL,
    accepted_at  TIMESTAMP NULL
);

-- One pending invitation per workspace and address.
CREATE UNIQUE INDEX invitations_pending ON invitations (workspace_id, email) WHERE accepted_at IS NULL;
-- "My invitations": the pending ones addressed to an address.
CREATE INDEX invitations_email ON invitations (email);
