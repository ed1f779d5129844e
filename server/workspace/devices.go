package workspace

// Devices: which member each device (sync client id) of a workspace belongs to, so that a device
// can say who made a change that replaced a value ("another device of yours", "Bea García") when
// the sync engine's conflict records name only the client id that wrote the losing value.

import (
	"context"
	"fmt"

	"patrimonio/server/authz"
)

// Device is one sync client (a device database) that has written to the workspace, with the
// member it belongs to.
type Device struct {
	ClientID  string
	UserID    string
	Email     string
	FirstName string
	LastName  string
}

// Devices lists the devices that have pushed changes to the workspace and belong to one of its
// current members (a former member's devices are left out: they are "another device"), ordered
// by user then client id. Every member may ask (authz.WorkspaceRead, as for the member list); a
// caller who is not a member is told the workspace does not exist.
func (s *Service) Devices(ctx context.Context, userID, workspaceID string) ([]Device, error) {
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := s.authorize(ctx, tx, userID, workspaceID, false, authz.Request{Action: authz.WorkspaceRead}); err != nil {
		return nil, err
	}
	rows, err := tx.Query(ctx, `SELECT c.client_id, u.id, u.email, COALESCE(u.first_name, ''), COALESCE(u.last_name, '')
		FROM sync_client_workspaces cw
		JOIN sync_clients c ON c.client_id = cw.client_id
		JOIN memberships m ON m.workspace_id = cw.workspace_id AND m.user_id = c.user_id
		JOIN users u ON u.id = c.user_id
		WHERE cw.workspace_id = ?
		ORDER BY u.email, c.client_id`, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("devices of %s: %w", workspaceID, err)
	}
	defer rows.Close()
	out := []Device{}
	for rows.Next() {
		var d Device
		if err := rows.Scan(&d.ClientID, &d.UserID, &d.Email, &d.FirstName, &d.LastName); err != nil {
			return nil, fmt.Errorf("devices of %s: %w", workspaceID, err)
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("devices of %s: %w", workspaceID, err)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("devices of %s: commit: %w", workspaceID, err)
	}
	return out, nil
}
