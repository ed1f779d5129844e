// Package admin is the service behind the /admin area: what app admins may see and manage across
// all users: the user list, disabling and enabling accounts, granting and revoking the app admin
// role, and the audit log of those changes. Every method asks authz.AuthorizeAdmin first (the
// HTTP layer also lets only admins reach it); the acting admin's re-verification for the admin
// role is the HTTP layer's (it holds the session).
package admin

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"patrimonio/core"
	"patrimonio/server/authz"
	"patrimonio/server/store"
)

// Paging limits of ListUsers.
const (
	DefaultLimit = 50
	MaxLimit     = 200
	// MaxSearchLength bounds the e-mail search text.
	MaxSearchLength = 254
)

// Service answers the admin area's questions.
type Service struct {
	db *store.DB
	// adminEmails are the addresses made admins by configuration (PATRIMONIO_ADMIN_EMAILS), lower
	// case; a user with one of them is listed as admin even before their next sign-in records it.
	adminEmails []string

	// Now tells the time; tests replace it.
	Now func() time.Time
	// OnUserEnded, when set, is told the id of a user whose account was disabled, so that every
	// live connection of the user (the sync sockets, on every instance) closes at once. The app
	// wires it to the sync engine's EndUser.
	OnUserEnded func(userID string)
}

// NewService returns the service over db. adminEmails are the configured admin addresses.
func NewService(db *store.DB, adminEmails []string) *Service {
	s := &Service{db: db, Now: time.Now}
	for _, e := range adminEmails {
		if e = strings.ToLower(strings.TrimSpace(e)); e != "" {
			s.adminEmails = append(s.adminEmails, e)
		}
	}
	return s
}

// User is a user as the admin area lists them.
type User struct {
	ID            string
	Email         string
	EmailVerified bool
	IsAdmin       bool
	// AdminByConfig: the verified address is in PATRIMONIO_ADMIN_EMAILS, so the admin role cannot
	// be revoked here (only by changing the configuration).
	AdminByConfig bool
	FirstName     string
	LastName      string
	CreatedAt     time.Time
	// DisabledAt is when an admin disabled the account; zero when enabled.
	DisabledAt time.Time
	// LastSignInAt is the last completed sign-in; zero when none was recorded.
	LastSignInAt time.Time
	// SubscriptionStatus is the stored status of the user's subscription (billing keeps it:
	// active, trialing, past_due, canceled, ...); "" when there is none.
	SubscriptionStatus string
}

// Actor is the admin who acts: the signed-in user.
type Actor struct {
	UserID  string
	Email   string
	IsAdmin bool
	// Reverified: the actor proved their identity recently (the HTTP layer asks the session).
	// Actions on the admin role need it (NeedsReverification); without it they are refused with
	// EREVERIFY.
	Reverified bool
}

func allow(actor Actor, action authz.Action) error {
	return authz.AuthorizeAdmin(authz.AdminRequest{SignedIn: actor.UserID != "", IsAdmin: actor.IsAdmin, Action: action})
}

// UserQuery selects a page of users.
type UserQuery struct {
	// Search keeps the users whose e-mail address contains it (case-insensitive); "" keeps all.
	Search string
	// Limit is the page size: 0 means DefaultLimit; at most MaxLimit.
	Limit int
	// Offset skips that many users of the whole, ordered list.
	Offset int
}

// UserPage is one page of users, newest first, with the number of users that match in all.
type UserPage struct {
	Users  []User
	Total  int
	Limit  int
	Offset int
}

// ListUsers returns a page of the users that match q, newest first.
func (s *Service) ListUsers(ctx context.Context, actor Actor, q UserQuery) (UserPage, error) {
	if err := allow(actor, authz.UserList); err != nil {
		return UserPage{}, err
	}
	if q.Limit == 0 {
		q.Limit = DefaultLimit
	}
	if q.Limit < 1 || q.Limit > MaxLimit {
		return UserPage{}, core.Refuse(ctx, core.EINVALID, "admin.limit", MaxLimit)
	}
	if q.Offset < 0 {
		return UserPage{}, core.Refuse(ctx, core.EINVALID, "admin.offset")
	}
	search := strings.ToLower(strings.TrimSpace(q.Search))
	if len(search) > MaxSearchLength {
		return UserPage{}, core.Refuse(ctx, core.EINVALID, "admin.search", MaxSearchLength)
	}
	// E-mail addresses are stored lower case, so a lower-case pattern is a case-insensitive search
	// on both databases. % and _ in the search are matched literally.
	pattern := "%" + likeEscaper.Replace(search) + "%"

	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return UserPage{}, err
	}
	defer tx.Rollback()

	page := UserPage{Users: []User{}, Limit: q.Limit, Offset: q.Offset}
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM users WHERE email LIKE ? ESCAPE '\'`, pattern).Scan(&page.Total); err != nil {
		return UserPage{}, fmt.Errorf("count users: %w", err)
	}
	rows, err := tx.Query(ctx, `SELECT `+userColumns+` FROM users WHERE email LIKE ? ESCAPE '\'
		ORDER BY created_at DESC, id DESC
		LIMIT ? OFFSET ?`, pattern, q.Limit, q.Offset)
	if err != nil {
		return UserPage{}, fmt.Errorf("list users: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		u, err := s.scanUser(rows)
		if err != nil {
			return UserPage{}, fmt.Errorf("list users: %w", err)
		}
		page.Users = append(page.Users, u)
	}
	if err := rows.Err(); err != nil {
		return UserPage{}, fmt.Errorf("list users: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return UserPage{}, fmt.Errorf("list users: commit: %w", err)
	}
	return page, nil
}

const userColumns = `id, email, email_verified_at, is_admin, COALESCE(first_name, ''), COALESCE(last_name, ''), created_at,
	disabled_at, last_sign_in_at, COALESCE(subscription_status, '')`

type rowScanner interface{ Scan(dest ...any) error }

func (s *Service) scanUser(row rowScanner) (User, error) {
	var u User
	var verified, disabled, lastSignIn sql.NullTime
	if err := row.Scan(&u.ID, &u.Email, &verified, &u.IsAdmin, &u.FirstName, &u.LastName, &u.CreatedAt,
		&disabled, &lastSignIn, &u.SubscriptionStatus); err != nil {
		return User{}, err
	}
	u.EmailVerified = verified.Valid
	u.AdminByConfig = u.EmailVerified && slices.Contains(s.adminEmails, u.Email) // a configured address counts once verified
	u.IsAdmin = u.IsAdmin || u.AdminByConfig
	u.CreatedAt = u.CreatedAt.UTC()
	if disabled.Valid {
		u.DisabledAt = disabled.Time.UTC()
	}
	if lastSignIn.Valid {
		u.LastSignInAt = lastSignIn.Time.UTC()
	}
	return u, nil
}

// Actions an admin takes on a user (the audit log's names; shared-schema ADMIN_USER_ACTIONS).
const (
	ActionDisable     = "disable"
	ActionEnable      = "enable"
	ActionGrantAdmin  = "grant_admin"
	ActionRevokeAdmin = "revoke_admin"
)

// Actions lists them in the order of the constants.
var Actions = []string{ActionDisable, ActionEnable, ActionGrantAdmin, ActionRevokeAdmin}

// actionRights is the authz action each needs.
var actionRights = map[string]authz.Action{ActionDisable: authz.UserDisable, ActionEnable: authz.UserEnable,
	ActionGrantAdmin: authz.UserGrantAdmin, ActionRevokeAdmin: authz.UserRevokeAdmin}

// NeedsReverification says whether the acting admin must have proved their identity recently to
// take the action on target: everything that touches the admin role, that is granting and
// revoking it, and disabling or enabling an admin (disabling an admin takes the role away in
// effect, enabling one gives it back).
func NeedsReverification(action string, target User) bool {
	switch action {
	case ActionGrantAdmin, ActionRevokeAdmin:
		return true
	case ActionDisable, ActionEnable:
		return target.IsAdmin
	}
	return false
}

// userState is what the audit log records before and after a change.
type userState struct {
	Disabled bool `json:"disabled"`
	IsAdmin  bool `json:"isAdmin"`
}

func stateOf(u User) userState {
	return userState{Disabled: !u.DisabledAt.IsZero(), IsAdmin: u.IsAdmin}
}

// Act applies action to the user with userID and returns the user as they are now. Nobody acts on
// themself (EFORBIDDEN: an admin cannot disable or demote themself, and the rest would be no-ops);
// an admin by configuration can be neither revoked nor disabled here (ECONFLICT); the actions on
// the admin role need actor.Reverified (EREVERIFY; NeedsReverification); an unknown user is
// ENOTFOUND; an action that changes nothing (disabling a disabled user) answers the user unchanged
// and writes no audit row. Disabling deletes every session of the user in the same transaction
// and then calls OnUserEnded, which closes their sync sockets on every instance.
//
// The actor's own row is read again in the transaction, locked with the user's: an actor who is
// no longer an enabled admin (disabled or demoted since they signed in) is refused (EFORBIDDEN).
// So the last enabled admin can be neither disabled nor demoted: whoever does it must be another
// enabled admin, who remains. Two admins disabling each other at once take the two locks in the
// same order (SQLite takes the write lock at BEGIN); the second waits, then finds itself disabled.
func (s *Service) Act(ctx context.Context, actor Actor, userID, action string) (User, error) {
	if !slices.Contains(Actions, action) {
		return User{}, core.Refuse(ctx, core.EINVALID, "admin.action")
	}
	if err := allow(actor, actionRights[action]); err != nil {
		return User{}, err
	}
	if userID == actor.UserID {
		return User{}, &core.Error{Code: core.EFORBIDDEN, Message: core.Text(ctx, "admin.self")}
	}
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return User{}, err
	}
	defer tx.Rollback()
	lock := ""
	if s.db.Dialect() == store.Postgres {
		lock = " FOR UPDATE" // two admins at once: the second sees the first's change
	}
	rows, err := tx.Query(ctx, `SELECT `+userColumns+` FROM users WHERE id IN (?, ?) ORDER BY id`+lock, userID, actor.UserID)
	if err != nil {
		return User{}, fmt.Errorf("admin %s: load users: %w", action, err)
	}
	var before, self User
	for rows.Next() {
		u, err := s.scanUser(rows)
		if err != nil {
			rows.Close()
			return User{}, fmt.Errorf("admin %s: load users: %w", action, err)
		}
		if u.ID == userID {
			before = u
		} else {
			self = u
		}
	}
	if err := rows.Err(); err != nil {
		rows.Close()
		return User{}, fmt.Errorf("admin %s: load users: %w", action, err)
	}
	rows.Close()
	if self.ID == "" || !self.IsAdmin || !self.DisabledAt.IsZero() {
		return User{}, core.Refuse(ctx, core.EFORBIDDEN, "authz.adminOnly")
	}
	if before.ID == "" {
		return User{}, &core.Error{Code: core.ENOTFOUND, Message: core.Text(ctx, "admin.notFound")}
	}
	if before.AdminByConfig && action == ActionRevokeAdmin {
		return User{}, &core.Error{Code: core.ECONFLICT, Message: core.Text(ctx, "admin.configured")}
	}
	if before.AdminByConfig && action == ActionDisable {
		return User{}, &core.Error{Code: core.ECONFLICT, Message: core.Text(ctx, "admin.configuredDisable")}
	}
	if NeedsReverification(action, before) && !actor.Reverified {
		return User{}, core.Refuse(ctx, core.EREVERIFY, "account.reverify.required")
	}
	now := s.Now().UTC().Truncate(time.Microsecond)
	after := before
	var update string
	var args []any
	switch action {
	case ActionDisable:
		if !before.DisabledAt.IsZero() {
			return before, tx.Commit()
		}
		after.DisabledAt = now
		update, args = `UPDATE users SET disabled_at = ?, updated_at = ? WHERE id = ?`, []any{now, now, userID}
	case ActionEnable:
		if before.DisabledAt.IsZero() {
			return before, tx.Commit()
		}
		after.DisabledAt = time.Time{}
		update, args = `UPDATE users SET disabled_at = NULL, updated_at = ? WHERE id = ?`, []any{now, userID}
	case ActionGrantAdmin:
		if before.IsAdmin {
			return before, tx.Commit()
		}
		after.IsAdmin = true
		update, args = `UPDATE users SET is_admin = ?, updated_at = ? WHERE id = ?`, []any{true, now, userID}
	case ActionRevokeAdmin:
		if !before.IsAdmin {
			return before, tx.Commit()
		}
		after.IsAdmin = false
		update, args = `UPDATE users SET is_admin = ?, updated_at = ? WHERE id = ?`, []any{false, now, userID}
	}
	if _, err := tx.Exec(ctx, update, args...); err != nil {
		return User{}, fmt.Errorf("admin %s: %w", action, err)
	}
	if action == ActionDisable {
		if _, err := tx.Exec(ctx, `DELETE FROM sessions WHERE user_id = ?`, userID); err != nil {
			return User{}, fmt.Errorf("admin disable: end sessions: %w", err)
		}
	}
	if err := s.audit(ctx, tx, actor, action, before, after, now); err != nil {
		return User{}, err
	}
	if err := tx.Commit(); err != nil {
		return User{}, fmt.Errorf("admin %s: commit: %w", action, err)
	}
	if action == ActionDisable && s.OnUserEnded != nil {
		s.OnUserEnded(userID)
	}
	return after, nil
}

func (s *Service) audit(ctx context.Context, tx *store.Tx, actor Actor, action string, before, after User, at time.Time) error {
	id, err := uuid.NewV7()
	if err != nil {
		return fmt.Errorf("user audit: id: %w", err)
	}
	b, err := json.Marshal(stateOf(before))
	if err != nil {
		return err
	}
	a, err := json.Marshal(stateOf(after))
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO user_audit (id, user_id, user_email, action, actor_id, actor_email, at, before, after)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, id.String(), before.ID, before.Email, action, actor.UserID, actor.Email, at, string(b), string(a)); err != nil {
		return fmt.Errorf("user audit: %w", err)
	}
	return nil
}

// AuditEntry is one change an admin made to a user.
type AuditEntry struct {
	ID         string
	UserID     string // "" once the user's account was deleted
	UserEmail  string
	Action     string
	ActorID    string // "" once the admin's account was deleted
	ActorEmail string
	At         time.Time
	// Before and After are the user's state around the change.
	BeforeDisabled, BeforeAdmin bool
	AfterDisabled, AfterAdmin   bool
}

// AuditQuery selects a page of the audit log: UserID keeps one user's entries ("" all of them).
type AuditQuery struct {
	UserID string
	Limit  int // 0: DefaultLimit; at most MaxLimit
	Offset int
}

// Audit returns a page of the audit log, newest first, and how many entries match in all.
func (s *Service) Audit(ctx context.Context, actor Actor, q AuditQuery) ([]AuditEntry, int, error) {
	if err := allow(actor, authz.UserAuditRead); err != nil {
		return nil, 0, err
	}
	if q.Limit == 0 {
		q.Limit = DefaultLimit
	}
	if q.Limit < 1 || q.Limit > MaxLimit {
		return nil, 0, core.Refuse(ctx, core.EINVALID, "admin.limit", MaxLimit)
	}
	if q.Offset < 0 {
		return nil, 0, core.Refuse(ctx, core.EINVALID, "admin.offset")
	}
	where, args := "", []any{}
	if q.UserID != "" {
		where, args = " WHERE user_id = ?", append(args, q.UserID)
	}
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return nil, 0, err
	}
	defer tx.Rollback()
	var total int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM user_audit`+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("user audit: count: %w", err)
	}
	rows, err := tx.Query(ctx, `SELECT id, COALESCE(user_id, ''), user_email, action, COALESCE(actor_id, ''), actor_email, at, before, after
		FROM user_audit`+where+` ORDER BY at DESC, id DESC LIMIT ? OFFSET ?`, append(args, q.Limit, q.Offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("user audit: %w", err)
	}
	defer rows.Close()
	out := []AuditEntry{}
	for rows.Next() {
		var e AuditEntry
		var before, after string
		if err := rows.Scan(&e.ID, &e.UserID, &e.UserEmail, &e.Action, &e.ActorID, &e.ActorEmail, &e.At, &before, &after); err != nil {
			return nil, 0, fmt.Errorf("user audit: %w", err)
		}
		var b, a userState
		if err := json.Unmarshal([]byte(before), &b); err != nil {
			return nil, 0, fmt.Errorf("user audit %s: before: %w", e.ID, err)
		}
		if err := json.Unmarshal([]byte(after), &a); err != nil {
			return nil, 0, fmt.Errorf("user audit %s: after: %w", e.ID, err)
		}
		e.At = e.At.UTC()
		e.BeforeDisabled, e.BeforeAdmin, e.AfterDisabled, e.AfterAdmin = b.Disabled, b.IsAdmin, a.Disabled, a.IsAdmin
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("user audit: %w", err)
	}
	return out, total, tx.Commit()
}

var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
