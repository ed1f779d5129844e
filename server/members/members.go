// Package members reads memberships: who belongs to which workspace, with which role. It is the one
// place that knows how a membership is stored; the workspace service, the account service and the
// sync engine read roles, member lists and owner counts through it, and authz applies the rules to
// what it reads. DeleteWorkspace is the one way to delete a workspace (the account and workspace
// services call it), so that what does not go with its row goes too.
package members

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"patrimonio/server/authz"
	"patrimonio/server/store"
)

// Querier is a database handle or a transaction of the store (*store.DB, *store.Tx): queries
// written with ? placeholders.
type Querier interface {
	Query(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRow(ctx context.Context, query string, args ...any) *sql.Row
	Dialect() store.Dialect
}

// Scanner is one row of a result, from database/sql or from pgx.
type Scanner interface{ Scan(dest ...any) error }

// RoleQuery reads one user's role in one workspace; its arguments are the workspace id and the user
// id. The sync engine runs it on its own transactions (pgx on Postgres) and reads the row with
// ScanRole; everyone else calls Role.
const RoleQuery = `SELECT role FROM memberships WHERE workspace_id = ? AND user_id = ?`

// ScanRole reads the row of RoleQuery: authz.None when there is no row (not a member, or no such
// workspace).
func ScanRole(row Scanner) (authz.Role, error) {
	var role string
	err := row.Scan(&role)
	if errors.Is(err, sql.ErrNoRows) {
		return authz.None, nil
	}
	if err != nil {
		return authz.None, fmt.Errorf("read role: %w", err)
	}
	return authz.Role(role), nil
}

// Role returns the user's role in the workspace, authz.None when they are not a member.
func Role(ctx context.Context, q Querier, workspaceID, userID string) (authz.Role, error) {
	return ScanRole(q.QueryRow(ctx, RoleQuery, workspaceID, userID))
}

// Workspace is one workspace of a user, with the user's role in it.
type Workspace struct {
	ID        string
	Name      string
	Kind      authz.Kind
	Role      authz.Role
	CreatedAt time.Time
}

// OfUser lists the user's workspaces with the user's role: the personal one first, then the team
// workspaces by name (case-insensitive), then by id. With lock (a transaction), the workspace rows
// stay locked until it ends, so that changes to their members wait (SQLite transactions hold the
// write lock from their start already).
func OfUser(ctx context.Context, q Querier, userID string, lock bool) ([]Workspace, error) {
	query := `SELECT w.id, w.name, w.kind, w.created_at, m.role
		FROM memberships m JOIN workspaces w ON w.id = m.workspace_id
		WHERE m.user_id = ?
		ORDER BY CASE w.kind WHEN 'personal' THEN 0 ELSE 1 END, lower(w.name), w.id`
	if lock && q.Dialect() == store.Postgres {
		query += ` FOR UPDATE OF w`
	}
	rows, err := q.Query(ctx, query, userID)
	if err != nil {
		return nil, fmt.Errorf("workspaces of %s: %w", userID, err)
	}
	defer rows.Close()
	out := []Workspace{}
	for rows.Next() {
		var w Workspace
		if err := rows.Scan(&w.ID, &w.Name, &w.Kind, &w.CreatedAt, &w.Role); err != nil {
			return nil, fmt.Errorf("workspaces of %s: %w", userID, err)
		}
		w.CreatedAt = w.CreatedAt.UTC()
		out = append(out, w)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("workspaces of %s: %w", userID, err)
	}
	return out, nil
}

// Member is one member of a workspace.
type Member struct {
	UserID    string
	Email     string
	FirstName string
	LastName  string
	Role      authz.Role
	JoinedAt  time.Time
}

// List lists the workspace's members: owners first, then editors, then viewers, each by e-mail.
func List(ctx context.Context, q Querier, workspaceID string) ([]Member, error) {
	rows, err := q.Query(ctx, `SELECT u.id, u.email, COALESCE(u.first_name, ''), COALESCE(u.last_name, ''), m.role, m.created_at
		FROM memberships m JOIN users u ON u.id = m.user_id
		WHERE m.workspace_id = ?
		ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'editor' THEN 1 ELSE 2 END, u.email`, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("members of %s: %w", workspaceID, err)
	}
	defer rows.Close()
	out := []Member{}
	for rows.Next() {
		var m Member
		if err := rows.Scan(&m.UserID, &m.Email, &m.FirstName, &m.LastName, &m.Role, &m.JoinedAt); err != nil {
			return nil, fmt.Errorf("members of %s: %w", workspaceID, err)
		}
		m.JoinedAt = m.JoinedAt.UTC()
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("members of %s: %w", workspaceID, err)
	}
	return out, nil
}

// Count says how many members the workspace has, and how many of them are owners.
func Count(ctx context.Context, q Querier, workspaceID string) (members, owners int, err error) {
	err = q.QueryRow(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN role = ? THEN 1 ELSE 0 END), 0)
		FROM memberships WHERE workspace_id = ?`, string(authz.Owner), workspaceID).Scan(&members, &owners)
	if err != nil {
		return 0, 0, fmt.Errorf("members of %s: count: %w", workspaceID, err)
	}
	return members, owners, nil
}

// Execer runs a statement with ? placeholders in the caller's transaction (*store.Tx).
type Execer interface {
	Exec(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// DeleteWorkspace deletes a workspace in the caller's transaction and reports whether it existed.
// What refers to the workspace through a foreign key goes with its row (memberships, invitations,
// the sync head sync_workspaces, ...); the sync engine's record states and change log do not
// (migration 0016: a push would check the workspace once per row it writes), so they are deleted
// here, after the row. The order matters on Postgres: deleting the row cascades to the workspace's
// sync_workspaces row, which every push in progress in the workspace holds locked until it
// commits, so the deletion waits for those pushes and the statements after it see their rows; a
// push that starts later finds no workspace (its mutations are rejected, not_found). Open
// conflicts (sync_conflicts) go with their records.
func DeleteWorkspace(ctx context.Context, tx Execer, workspaceID string) (bool, error) {
	res, err := tx.Exec(ctx, `DELETE FROM workspaces WHERE id = ?`, workspaceID)
	if err != nil {
		return false, fmt.Errorf("delete workspace %s: %w", workspaceID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("delete workspace %s: %w", workspaceID, err)
	}
	for _, q := range []string{
		`DELETE FROM sync_records WHERE workspace_id = ?`,
		`DELETE FROM sync_changes WHERE workspace_id = ?`,
	} {
		if _, err := tx.Exec(ctx, q, workspaceID); err != nil {
			return false, fmt.Errorf("delete workspace %s: its sync rows: %w", workspaceID, err)
		}
	}
	return n > 0, nil
}

// EndConnections ends a member's bank and broker connections in a workspace they are leaving (or
// are removed from, or where they were made a viewer and may no longer write): the connections are deleted as a member's "remove connection" does
// (connect.Service.Delete), with their accounts and sealed credentials, so nothing reads their
// institution any more and nobody renews them with the departed member's identity. The assets and
// valuations they wrote stay: they are the workspace's records. Call it in the transaction that
// ends the membership. (Deleting a user takes every connection of theirs along by foreign key.)
func EndConnections(ctx context.Context, tx Execer, workspaceID, userID string) error {
	if _, err := tx.Exec(ctx, `DELETE FROM connections WHERE workspace_id = ? AND user_id = ?`, workspaceID, userID); err != nil {
		return fmt.Errorf("end the connections of %s in %s: %w", userID, workspaceID, err)
	}
	return nil
}
