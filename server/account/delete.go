package account

import (
	"context"
	"fmt"
	"strings"

	"patrimonio/server"
)

// DeleteAccount deletes the user for good, in one transaction: their personal workspace with
// everything in it, every team workspace of which they are the only member, and then the user row,
// whose foreign keys take along the sessions, passkeys, TOTP and recovery codes, e-mailed codes,
// memberships and sync clients (a workspace's foreign keys take along its invitations and its sync
// data). It needs a recent proof (EREVERIFY).
//
// It refuses (ECONFLICT, naming the workspaces) while the user is the last owner of a team
// workspace that has other members: they must first make another member an owner, or delete the
// workspace, so that nobody is left in a workspace no one can manage.
func (s *Service) DeleteAccount(ctx context.Context, u *User, sess *Session) error {
	if err := s.RequireRecentProof(ctx, sess); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	// Lock the user's workspaces, so that members added or removed meanwhile (an invitation
	// accepted, another owner leaving) wait for this decision; SQLite transactions hold the write
	// lock from their start already.
	q := `SELECT w.id, w.name, w.kind, m.role FROM memberships m JOIN workspaces w ON w.id = m.workspace_id
		WHERE m.user_id = ? ORDER BY w.name, w.id`
	if s.db.Dialect() == server.Postgres {
		q += ` FOR UPDATE OF w`
	}
	rows, err := tx.Query(ctx, q, u.ID)
	if err != nil {
		return fmt.Errorf("delete account %s: list workspaces: %w", u.ID, err)
	}
	var mine []Membership
	for rows.Next() {
		var m Membership
		if err := rows.Scan(&m.WorkspaceID, &m.Name, &m.Kind, &m.Role); err != nil {
			rows.Close()
			return fmt.Errorf("delete account %s: list workspaces: %w", u.ID, err)
		}
		mine = append(mine, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("delete account %s: list workspaces: %w", u.ID, err)
	}

	var doomed, blocking []string // workspace ids to delete; names of workspaces that forbid it
	for _, m := range mine {
		if m.Role != RoleOwner {
			continue // the membership goes with the user
		}
		if m.Kind == KindPersonal {
			doomed = append(doomed, m.WorkspaceID)
			continue
		}
		var others, otherOwners int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN role = ? THEN 1 ELSE 0 END), 0)
			FROM memberships WHERE workspace_id = ? AND user_id <> ?`, RoleOwner, m.WorkspaceID, u.ID).Scan(&others, &otherOwners); err != nil {
			return fmt.Errorf("delete account %s: members of %s: %w", u.ID, m.WorkspaceID, err)
		}
		switch {
		case others == 0:
			doomed = append(doomed, m.WorkspaceID) // nobody else would ever see it
		case otherOwners == 0:
			blocking = append(blocking, m.Name)
		}
	}
	if len(blocking) > 0 {
		return s.lastOwnerError(ctx, blocking)
	}
	for _, id := range doomed {
		if _, err := tx.Exec(ctx, `DELETE FROM workspaces WHERE id = ?`, id); err != nil {
			return fmt.Errorf("delete account %s: delete workspace %s: %w", u.ID, id, err)
		}
	}
	res, err := tx.Exec(ctx, `DELETE FROM users WHERE id = ?`, u.ID)
	if err != nil {
		return fmt.Errorf("delete account %s: %w", u.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("delete account %s: %w", u.ID, err)
	} else if n == 0 {
		return errorf(ctx, server.ENOTFOUND, "user.notFound")
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("delete account %s: commit: %w", u.ID, err)
	}
	// The sessions went with the user row; their live connections go now.
	if s.OnUserEnded != nil {
		s.OnUserEnded(u.ID)
	}
	return nil
}

// lastOwnerError names the team workspaces that stop the deletion, quoted in the way of the
// language of ctx.
func (s *Service) lastOwnerError(ctx context.Context, names []string) error {
	left, right := "«", "»"
	if server.LanguageFrom(ctx) == LangEN {
		left, right = "\u201c", "\u201d"
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = left + n + right
	}
	if len(names) == 1 {
		return errorf(ctx, server.ECONFLICT, "account.lastOwner", quoted[0])
	}
	return errorf(ctx, server.ECONFLICT, "account.lastOwnerMany", strings.Join(quoted, ", "))
}
