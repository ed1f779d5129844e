// Package workspace is the service of workspaces, their members and invitations. Every public
// method runs in its own transaction, looks up the caller's role and asks authz.Authorize before
// it reads or changes anything; a caller who is not a member is told the workspace does not
// exist. Personal workspaces are created by the account service at sign-up; this package creates
// team workspaces.
package workspace

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"patrimonio/core"
	"patrimonio/server/authz"
	"patrimonio/server/members"
	"patrimonio/server/store"
)

// DefaultInvitationTTL is how long an invitation can be accepted.
const DefaultInvitationTTL = 14 * 24 * time.Hour

// MaxNameLength is the longest workspace name, in characters.
const MaxNameLength = 80

// Service manages workspaces, memberships and invitations.
type Service struct {
	db *store.DB
	// Now tells the time; tests replace it.
	Now func() time.Time
	// InvitationTTL is how long a new invitation stays valid.
	InvitationTTL time.Duration
}

// NewService returns the service over db.
func NewService(db *store.DB) *Service {
	return &Service{db: db, Now: time.Now, InvitationTTL: DefaultInvitationTTL}
}

// Workspace is a workspace as one of its members sees it.
type Workspace struct {
	ID        string
	Name      string
	Kind      authz.Kind
	Role      authz.Role // the caller's role
	CreatedAt time.Time
}

// Detail is a workspace with its members and, for those who may invite, its pending invitations,
// each with what the caller may do to it (asked of authz, so that the screens need no copy of the
// rules).
type Detail struct {
	Workspace
	Offer       authz.WorkspaceOffer
	Members     []OfferedMember
	Invitations []OfferedInvitation // nil when the caller may not see them (viewers)
}

// Member is one member of a workspace.
type Member = members.Member

// OfferedMember is a member with what the caller may do to them.
type OfferedMember struct {
	Member
	Offer authz.MemberOffer
}

// OfferedInvitation is a pending invitation with whether the caller may withdraw it.
type OfferedInvitation struct {
	Invitation
	Withdraw bool
}

// Invitation is an invitation to a team workspace.
type Invitation struct {
	ID             string
	WorkspaceID    string
	WorkspaceName  string
	Email          string
	Role           authz.Role
	InvitedBy      string // user id; "" when that user no longer exists
	InvitedByEmail string
	CreatedAt      time.Time
	ExpiresAt      time.Time
	AcceptedAt     *time.Time
}

// Expired says whether the invitation can no longer be accepted at now.
func (inv Invitation) Expired(now time.Time) bool { return !now.Before(inv.ExpiresAt) }

// Create makes a team workspace with the caller as its owner.
func (s *Service) Create(ctx context.Context, userID, name string) (Workspace, error) {
	name, err := cleanName(ctx, name)
	if err != nil {
		return Workspace{}, err
	}
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return Workspace{}, err
	}
	defer tx.Rollback()

	if _, err := s.user(ctx, tx, userID); err != nil {
		return Workspace{}, err
	}
	w := Workspace{ID: uuid.NewString(), Name: name, Kind: authz.Team, Role: authz.Owner, CreatedAt: s.now()}
	if _, err := tx.Exec(ctx, `INSERT INTO workspaces (id, name, kind, created_at) VALUES (?, ?, ?, ?)`,
		w.ID, w.Name, string(w.Kind), w.CreatedAt); err != nil {
		return Workspace{}, fmt.Errorf("create workspace: %w", err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)`,
		w.ID, userID, string(authz.Owner), w.CreatedAt); err != nil {
		return Workspace{}, fmt.Errorf("create workspace: add owner: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return Workspace{}, fmt.Errorf("create workspace: commit: %w", err)
	}
	return w, nil
}

// List returns the caller's workspaces with their role: the personal one first, then the team
// workspaces by name.
func (s *Service) List(ctx context.Context, userID string) ([]Workspace, error) {
	ms, err := members.OfUser(ctx, s.db, userID, false)
	if err != nil {
		return nil, err
	}
	out := make([]Workspace, len(ms))
	for i, m := range ms {
		out[i] = Workspace(m)
	}
	return out, nil
}

// Role returns the user's role in the workspace, authz.None when they are not a member or the
// workspace does not exist. The sync engine uses it before authz.Authorize.
func (s *Service) Role(ctx context.Context, userID, workspaceID string) (authz.Role, error) {
	return members.Role(ctx, s.db, workspaceID, userID)
}

// Can says whether the caller may do action in the workspace, judged on their role and the
// workspace's kind alone (for actions that need more facts, the method doing them decides). It
// lets a caller check permission before asking for something else, such as a recent proof of
// identity before a deletion.
func (s *Service) Can(ctx context.Context, userID, workspaceID string, action authz.Action) error {
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := s.authorize(ctx, tx, userID, workspaceID, false, authz.Request{Action: action}); err != nil {
		return err
	}
	return tx.Commit()
}

// Get returns the workspace with its members; pending invitations are included for callers who
// may invite.
func (s *Service) Get(ctx context.Context, userID, workspaceID string) (Detail, error) {
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return Detail{}, err
	}
	defer tx.Rollback()

	w, err := s.authorize(ctx, tx, userID, workspaceID, false, authz.Request{Action: authz.WorkspaceRead})
	if err != nil {
		return Detail{}, err
	}
	d, err := s.detail(ctx, tx, userID, w)
	if err != nil {
		return Detail{}, err
	}
	if err := tx.Commit(); err != nil {
		return Detail{}, fmt.Errorf("get workspace: commit: %w", err)
	}
	return d, nil
}

// Rename changes the workspace's name.
func (s *Service) Rename(ctx context.Context, userID, workspaceID, name string) (Workspace, error) {
	name, err := cleanName(ctx, name)
	if err != nil {
		return Workspace{}, err
	}
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return Workspace{}, err
	}
	defer tx.Rollback()

	w, err := s.authorize(ctx, tx, userID, workspaceID, true, authz.Request{Action: authz.WorkspaceRename})
	if err != nil {
		return Workspace{}, err
	}
	if _, err := tx.Exec(ctx, `UPDATE workspaces SET name = ? WHERE id = ?`, name, w.ID); err != nil {
		return Workspace{}, fmt.Errorf("rename workspace %s: %w", w.ID, err)
	}
	if err := tx.Commit(); err != nil {
		return Workspace{}, fmt.Errorf("rename workspace %s: commit: %w", w.ID, err)
	}
	w.Name = name
	return w, nil
}

// Delete deletes a team workspace with its memberships and invitations (and, through their
// foreign keys and members.DeleteWorkspace, everything else that belongs to it).
func (s *Service) Delete(ctx context.Context, userID, workspaceID string) error {
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	w, err := s.authorize(ctx, tx, userID, workspaceID, true, authz.Request{Action: authz.WorkspaceDelete})
	if err != nil {
		return err
	}
	for _, q := range []string{
		`DELETE FROM invitations WHERE workspace_id = ?`,
		`DELETE FROM memberships WHERE workspace_id = ?`,
	} {
		if _, err := tx.Exec(ctx, q, w.ID); err != nil {
			return fmt.Errorf("delete workspace %s: %w", w.ID, err)
		}
	}
	if _, err := members.DeleteWorkspace(ctx, tx, w.ID); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("delete workspace %s: commit: %w", w.ID, err)
	}
	return nil
}

// Invite invites an e-mail address into the workspace with a role. An earlier pending invitation
// of the same address is replaced. Inviting someone who is already a member is a conflict. The
// inviter's address must be verified (403 otherwise): invitations show it as who sent them, and
// anyone may sign up and in with an address they do not own before it is verified.
func (s *Service) Invite(ctx context.Context, userID, workspaceID, email string, role authz.Role) (Invitation, error) {
	email, err := cleanEmail(ctx, email)
	if err != nil {
		return Invitation{}, err
	}
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return Invitation{}, err
	}
	defer tx.Rollback()

	w, err := s.authorize(ctx, tx, userID, workspaceID, true, authz.Request{Action: authz.MemberInvite, NewRole: role})
	if err != nil {
		return Invitation{}, err
	}
	inviter, err := s.user(ctx, tx, userID)
	if err != nil {
		return Invitation{}, err
	}
	if !inviter.verified {
		return Invitation{}, core.Refuse(ctx, core.EFORBIDDEN, "account.email.unverified")
	}
	var members int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM memberships m JOIN users u ON u.id = m.user_id
		WHERE m.workspace_id = ? AND u.email = ?`, w.ID, email).Scan(&members); err != nil {
		return Invitation{}, fmt.Errorf("invite to %s: %w", w.ID, err)
	}
	if members > 0 {
		return Invitation{}, core.Refuse(ctx, core.ECONFLICT, "workspace.member.exists", email)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM invitations WHERE workspace_id = ? AND email = ? AND accepted_at IS NULL`,
		w.ID, email); err != nil {
		return Invitation{}, fmt.Errorf("invite to %s: replace the pending invitation: %w", w.ID, err)
	}
	now := s.now()
	inv := Invitation{
		ID: uuid.NewString(), WorkspaceID: w.ID, WorkspaceName: w.Name, Email: email, Role: role,
		InvitedBy: userID, CreatedAt: now, ExpiresAt: now.Add(s.InvitationTTL),
	}
	if _, err := tx.Exec(ctx, `INSERT INTO invitations (id, workspace_id, email, role, invited_by, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`,
		inv.ID, inv.WorkspaceID, inv.Email, string(inv.Role), inv.InvitedBy, inv.CreatedAt, inv.ExpiresAt); err != nil {
		return Invitation{}, fmt.Errorf("invite to %s: %w", w.ID, err)
	}
	inv.InvitedByEmail = inviter.email
	if err := tx.Commit(); err != nil {
		return Invitation{}, fmt.Errorf("invite to %s: commit: %w", w.ID, err)
	}
	return inv, nil
}

// RevokeInvitation withdraws a pending invitation of the workspace.
func (s *Service) RevokeInvitation(ctx context.Context, userID, workspaceID, invitationID string) error {
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	w, err := s.authorize(ctx, tx, userID, workspaceID, true, authz.Request{Action: authz.WorkspaceRead})
	if err != nil {
		return err
	}
	inv, err := s.invitation(ctx, tx, invitationID)
	if err != nil {
		return err
	}
	if inv.WorkspaceID != w.ID || inv.AcceptedAt != nil {
		return core.Refuse(ctx, core.ENOTFOUND, "workspace.invitation.notFound")
	}
	if err := authorize(ctx, authz.Request{Role: w.Role, Action: authz.InvitationRevoke, Kind: w.Kind, NewRole: inv.Role}); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM invitations WHERE id = ?`, inv.ID); err != nil {
		return fmt.Errorf("revoke invitation %s: %w", inv.ID, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("revoke invitation %s: commit: %w", inv.ID, err)
	}
	return nil
}

// MyInvitations returns the pending, unexpired invitations addressed to the caller's e-mail
// address, newest first. A caller whose address is not verified has none.
func (s *Service) MyInvitations(ctx context.Context, userID string) ([]Invitation, error) {
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()

	u, err := s.user(ctx, tx, userID)
	if err != nil {
		return nil, err
	}
	out := []Invitation{}
	if !u.verified {
		return out, nil
	}
	all, err := s.invitations(ctx, tx, `i.email = ? AND i.accepted_at IS NULL`, u.email)
	if err != nil {
		return nil, err
	}
	now := s.now()
	for _, inv := range all {
		if !inv.Expired(now) {
			out = append(out, inv)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("my invitations: commit: %w", err)
	}
	return out, nil
}

// Accept makes the caller a member through an invitation addressed to their verified e-mail
// address, and returns the workspace. Accepting an invitation already accepted by the caller
// returns the workspace again.
func (s *Service) Accept(ctx context.Context, userID, invitationID string) (Workspace, error) {
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return Workspace{}, err
	}
	defer tx.Rollback()

	inv, err := s.answerable(ctx, tx, userID, invitationID, authz.InvitationAccept)
	if err != nil {
		return Workspace{}, err
	}
	if inv.AcceptedAt == nil {
		if inv.Expired(s.now()) {
			return Workspace{}, core.Refuse(ctx, core.ECONFLICT, "workspace.invitation.expired")
		}
		now := s.now()
		// Someone who became a member in the meantime keeps their role.
		if _, err := tx.Exec(ctx, `INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (workspace_id, user_id) DO NOTHING`, inv.WorkspaceID, userID, string(inv.Role), now); err != nil {
			return Workspace{}, fmt.Errorf("accept invitation %s: %w", inv.ID, err)
		}
		if _, err := tx.Exec(ctx, `UPDATE invitations SET accepted_at = ? WHERE id = ?`, now, inv.ID); err != nil {
			return Workspace{}, fmt.Errorf("accept invitation %s: %w", inv.ID, err)
		}
	}
	w, err := s.load(ctx, tx, userID, inv.WorkspaceID, false)
	if err != nil {
		return Workspace{}, err
	}
	if w.Role == authz.None {
		// Accepted earlier, and removed since: the invitation is spent.
		return Workspace{}, core.Refuse(ctx, core.ENOTFOUND, "workspace.invitation.notFound")
	}
	if err := tx.Commit(); err != nil {
		return Workspace{}, fmt.Errorf("accept invitation %s: commit: %w", inv.ID, err)
	}
	return w, nil
}

// Decline refuses a pending invitation addressed to the caller; it is deleted.
func (s *Service) Decline(ctx context.Context, userID, invitationID string) error {
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	inv, err := s.answerable(ctx, tx, userID, invitationID, authz.InvitationDecline)
	if err != nil {
		return err
	}
	if inv.AcceptedAt != nil {
		return core.Refuse(ctx, core.ENOTFOUND, "workspace.invitation.notFound")
	}
	if _, err := tx.Exec(ctx, `DELETE FROM invitations WHERE id = ?`, inv.ID); err != nil {
		return fmt.Errorf("decline invitation %s: %w", inv.ID, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("decline invitation %s: commit: %w", inv.ID, err)
	}
	return nil
}

// RemoveMember removes a member from the workspace. Removing oneself is leaving. The member's bank
// and broker connections in the workspace are deleted with the membership (their assets stay).
func (s *Service) RemoveMember(ctx context.Context, userID, workspaceID, memberID string) error {
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	w, err := s.authorize(ctx, tx, userID, workspaceID, true, authz.Request{Action: authz.WorkspaceRead})
	if err != nil {
		return err
	}
	target, err := s.memberRole(ctx, tx, w.ID, memberID)
	if err != nil {
		return err
	}
	_, owners, err := members.Count(ctx, tx, w.ID)
	if err != nil {
		return err
	}
	req := authz.Request{Role: w.Role, Action: authz.MemberRemove, Kind: w.Kind, TargetRole: target, Owners: owners}
	if memberID == userID {
		req.Action = authz.MemberLeave
	}
	if err := authorize(ctx, req); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM memberships WHERE workspace_id = ? AND user_id = ?`, w.ID, memberID); err != nil {
		return fmt.Errorf("remove member %s from %s: %w", memberID, w.ID, err)
	}
	// Their bank and broker connections end with the membership (the assets stay), and so do the
	// invitations they sent.
	if err := members.EndConnections(ctx, tx, w.ID, memberID); err != nil {
		return err
	}
	if err := withdrawInvitationsOf(ctx, tx, w, memberID, authz.None); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("remove member %s from %s: commit: %w", memberID, w.ID, err)
	}
	return nil
}

// ChangeRole gives a member another role and returns the member. A member made a viewer loses their
// bank and broker connections in the workspace (members.EndConnections).
func (s *Service) ChangeRole(ctx context.Context, userID, workspaceID, memberID string, role authz.Role) (Member, error) {
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return Member{}, err
	}
	defer tx.Rollback()

	w, err := s.authorize(ctx, tx, userID, workspaceID, true, authz.Request{Action: authz.WorkspaceRead})
	if err != nil {
		return Member{}, err
	}
	target, err := s.memberRole(ctx, tx, w.ID, memberID)
	if err != nil {
		return Member{}, err
	}
	_, owners, err := members.Count(ctx, tx, w.ID)
	if err != nil {
		return Member{}, err
	}
	if err := authorize(ctx, authz.Request{Role: w.Role, Action: authz.MemberChangeRole, Kind: w.Kind,
		TargetRole: target, NewRole: role, Owners: owners}); err != nil {
		return Member{}, err
	}
	if _, err := tx.Exec(ctx, `UPDATE memberships SET role = ? WHERE workspace_id = ? AND user_id = ?`,
		string(role), w.ID, memberID); err != nil {
		return Member{}, fmt.Errorf("change role of %s in %s: %w", memberID, w.ID, err)
	}
	if err := withdrawInvitationsOf(ctx, tx, w, memberID, role); err != nil {
		return Member{}, err
	}
	// A member who may no longer write here (made a viewer) keeps no bank or broker connection in
	// the workspace: they end as when the member leaves (their assets stay; an editor links the
	// institution again, and its accounts are matched to the same assets).
	if authz.Authorize(authz.Request{Role: role, Action: authz.ConnectionManage}) != nil {
		if err := members.EndConnections(ctx, tx, w.ID, memberID); err != nil {
			return Member{}, err
		}
	}
	list, err := members.List(ctx, tx, w.ID)
	if err != nil {
		return Member{}, err
	}
	if err := tx.Commit(); err != nil {
		return Member{}, fmt.Errorf("change role of %s in %s: commit: %w", memberID, w.ID, err)
	}
	i := slices.IndexFunc(list, func(m Member) bool { return m.UserID == memberID })
	return list[i], nil
}

// --- helpers that take the transaction ---

func (s *Service) now() time.Time { return s.Now().UTC() }

type userFacts struct {
	email    string
	verified bool
}

func (s *Service) user(ctx context.Context, tx *store.Tx, userID string) (userFacts, error) {
	var u userFacts
	var verifiedAt sql.NullTime
	err := tx.QueryRow(ctx, `SELECT email, email_verified_at FROM users WHERE id = ?`, userID).Scan(&u.email, &verifiedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return userFacts{}, core.Refuse(ctx, core.EUNAUTHORIZED, "workspace.account.gone")
	}
	if err != nil {
		return userFacts{}, fmt.Errorf("load user %s: %w", userID, err)
	}
	u.verified = verifiedAt.Valid
	return u, nil
}

// load reads the workspace and the caller's role in it (authz.None when not a member; a missing
// workspace reads as one the caller is not a member of). With lock, the workspace row is locked
// until the transaction ends, so that concurrent changes to its members queue (SQLite
// transactions hold the write lock from their start already).
func (s *Service) load(ctx context.Context, tx *store.Tx, userID, workspaceID string, lock bool) (Workspace, error) {
	q := `SELECT w.id, w.name, w.kind, w.created_at, COALESCE(m.role, '')
		FROM workspaces w LEFT JOIN memberships m ON m.workspace_id = w.id AND m.user_id = ?
		WHERE w.id = ?`
	if lock && s.db.Dialect() == store.Postgres {
		q += ` FOR UPDATE OF w`
	}
	var w Workspace
	err := tx.QueryRow(ctx, q, userID, workspaceID).Scan(&w.ID, &w.Name, &w.Kind, &w.CreatedAt, &w.Role)
	if errors.Is(err, sql.ErrNoRows) {
		return Workspace{ID: workspaceID, Kind: authz.Team, Role: authz.None}, nil
	}
	if err != nil {
		return Workspace{}, fmt.Errorf("load workspace %s: %w", workspaceID, err)
	}
	w.CreatedAt = w.CreatedAt.UTC()
	return w, nil
}

// authorize loads the workspace and asks authz whether the caller may do req.Action; req gets
// the caller's role and the workspace kind filled in.
func (s *Service) authorize(ctx context.Context, tx *store.Tx, userID, workspaceID string, lock bool, req authz.Request) (Workspace, error) {
	w, err := s.load(ctx, tx, userID, workspaceID, lock)
	if err != nil {
		return Workspace{}, err
	}
	req.Role, req.Kind = w.Role, w.Kind
	if err := authorize(ctx, req); err != nil {
		return Workspace{}, err
	}
	return w, nil
}

// answerable loads an invitation and checks that the caller may answer it (accept or decline).
func (s *Service) answerable(ctx context.Context, tx *store.Tx, userID, invitationID string, action authz.Action) (Invitation, error) {
	u, err := s.user(ctx, tx, userID)
	if err != nil {
		return Invitation{}, err
	}
	inv, err := s.invitation(ctx, tx, invitationID)
	if err != nil {
		return Invitation{}, err
	}
	w, err := s.load(ctx, tx, userID, inv.WorkspaceID, true)
	if err != nil {
		return Invitation{}, err
	}
	// Read it again under the workspace's lock: it may have been withdrawn or replaced meanwhile.
	if inv, err = s.invitation(ctx, tx, invitationID); err != nil {
		return Invitation{}, err
	}
	if err := authorize(ctx, authz.Request{Role: w.Role, Action: action, Kind: w.Kind,
		IsInvitee: u.verified && u.email == inv.Email}); err != nil {
		return Invitation{}, err
	}
	return inv, nil
}

func (s *Service) invitation(ctx context.Context, tx *store.Tx, invitationID string) (Invitation, error) {
	if uuid.Validate(invitationID) != nil {
		return Invitation{}, core.Refuse(ctx, core.ENOTFOUND, "workspace.invitation.notFound")
	}
	invs, err := s.invitations(ctx, tx, `i.id = ?`, invitationID)
	if err != nil {
		return Invitation{}, err
	}
	if len(invs) == 0 {
		return Invitation{}, core.Refuse(ctx, core.ENOTFOUND, "workspace.invitation.notFound")
	}
	return invs[0], nil
}

// invitations reads the invitations that match where (a condition on i, the invitations table),
// newest first.
func (s *Service) invitations(ctx context.Context, tx *store.Tx, where string, args ...any) ([]Invitation, error) {
	rows, err := tx.Query(ctx, `SELECT i.id, i.workspace_id, w.name, i.email, i.role, COALESCE(i.invited_by, ''),
			COALESCE(u.email, ''), i.created_at, i.expires_at, i.accepted_at
		FROM invitations i
		JOIN workspaces w ON w.id = i.workspace_id
		LEFT JOIN users u ON u.id = i.invited_by
		WHERE `+where+`
		ORDER BY i.created_at DESC, i.id`, args...)
	if err != nil {
		return nil, fmt.Errorf("read invitations: %w", err)
	}
	defer rows.Close()
	out := []Invitation{}
	for rows.Next() {
		var inv Invitation
		var accepted sql.NullTime
		if err := rows.Scan(&inv.ID, &inv.WorkspaceID, &inv.WorkspaceName, &inv.Email, &inv.Role, &inv.InvitedBy,
			&inv.InvitedByEmail, &inv.CreatedAt, &inv.ExpiresAt, &accepted); err != nil {
			return nil, fmt.Errorf("read invitations: %w", err)
		}
		inv.CreatedAt, inv.ExpiresAt = inv.CreatedAt.UTC(), inv.ExpiresAt.UTC()
		if accepted.Valid {
			t := accepted.Time.UTC()
			inv.AcceptedAt = &t
		}
		out = append(out, inv)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read invitations: %w", err)
	}
	return out, nil
}

func (s *Service) detail(ctx context.Context, tx *store.Tx, userID string, w Workspace) (Detail, error) {
	list, err := members.List(ctx, tx, w.ID)
	if err != nil {
		return Detail{}, err
	}
	owners := 0
	for _, m := range list {
		if m.Role == authz.Owner {
			owners++
		}
	}
	d := Detail{Workspace: w, Offer: authz.OfferWorkspace(w.Kind, w.Role, owners), Members: make([]OfferedMember, len(list))}
	for i, m := range list {
		d.Members[i] = OfferedMember{Member: m, Offer: authz.OfferMember(w.Kind, w.Role, owners, m.UserID == userID, m.Role)}
	}
	if d.Offer.SeeInvitations {
		invs, err := s.invitations(ctx, tx, `i.workspace_id = ? AND i.accepted_at IS NULL`, w.ID)
		if err != nil {
			return Detail{}, err
		}
		d.Invitations = make([]OfferedInvitation, len(invs))
		for i, inv := range invs {
			d.Invitations[i] = OfferedInvitation{Invitation: inv, Withdraw: authz.OfferWithdraw(w.Kind, w.Role, inv.Role)}
		}
	}
	return d, nil
}

// withdrawInvitationsOf withdraws the pending invitations a member sent to the workspace that their
// role (authz.None: no longer a member) would not let them send now: an invitation offers only what
// its sender can still give, so that an owner made an editor, or removed, cannot make someone an
// owner through an invitation sent before. (A deleted account's invitations stay: nobody took
// anything away from their sender.)
func withdrawInvitationsOf(ctx context.Context, tx *store.Tx, w Workspace, userID string, role authz.Role) error {
	q := `DELETE FROM invitations WHERE workspace_id = ? AND invited_by = ? AND accepted_at IS NULL`
	args := []any{w.ID, userID}
	if role.Valid() {
		// Inviting does not depend on how many owners there are.
		for _, r := range authz.OfferWorkspace(w.Kind, role, 1).InviteRoles {
			q += ` AND role <> ?`
			args = append(args, string(r))
		}
	}
	if _, err := tx.Exec(ctx, q, args...); err != nil {
		return fmt.Errorf("withdraw the invitations of %s in %s: %w", userID, w.ID, err)
	}
	return nil
}

// memberRole is the role of the member acted upon: ENOTFOUND when they are not a member.
func (s *Service) memberRole(ctx context.Context, tx *store.Tx, workspaceID, userID string) (authz.Role, error) {
	role, err := members.Role(ctx, tx, workspaceID, userID)
	if err == nil && role == authz.None {
		return authz.None, core.Refuse(ctx, core.ENOTFOUND, "workspace.member.notFound")
	}
	return role, err
}

// cleanName trims the name and checks it: not empty, at most MaxNameLength characters, no
// control characters.
func cleanName(ctx context.Context, name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", core.Refuse(ctx, core.EINVALID, "workspace.name.empty")
	}
	if !utf8.ValidString(name) || strings.ContainsFunc(name, unicode.IsControl) {
		return "", core.Refuse(ctx, core.EINVALID, "workspace.name.characters")
	}
	if utf8.RuneCountInString(name) > MaxNameLength {
		return "", core.Refuse(ctx, core.EINVALID, "workspace.name.tooLong", MaxNameLength)
	}
	return name, nil
}

// cleanEmail trims and lower-cases an address and checks that it is a plain address (no display
// name), at most 254 characters.
func cleanEmail(ctx context.Context, email string) (string, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	bad := core.Refuse(ctx, core.EINVALID, "account.email.invalid")
	if email == "" || len(email) > 254 {
		return "", bad
	}
	a, err := mail.ParseAddress(email)
	if err != nil || a.Address != email || a.Name != "" || !strings.Contains(email[strings.LastIndexByte(email, '@')+1:], ".") {
		return "", bad
	}
	return email, nil
}
