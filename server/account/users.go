package account

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"

	"patrimonio/core"
	"patrimonio/server/authz"
	"patrimonio/server/members"
	"patrimonio/server/store"
)

// queryer is what both *store.DB and *store.Tx offer.
type queryer interface {
	Exec(ctx context.Context, query string, args ...any) (sql.Result, error)
	Query(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRow(ctx context.Context, query string, args ...any) *sql.Row
}

const userSelect = `SELECT u.id, u.email, u.email_verified_at, u.password_hash, u.clerk_user_id, u.is_admin,
	u.first_name, u.last_name, u.birthday, u.gender, u.country, u.state, u.onboarding_step,
	u.created_at, u.updated_at, COALESCE(t.enabled, false), u.username,
	EXISTS (SELECT 1 FROM user_avatars a WHERE a.user_id = u.id), u.disabled_at
	FROM users u LEFT JOIN totp t ON t.user_id = u.id `

type rowScanner interface{ Scan(dest ...any) error }

func (s *base) scanUser(row rowScanner) (*User, error) {
	var u User
	var verified, disabled sql.NullTime
	var hash, clerk, first, last, birthday, gender, country, state, username sql.NullString
	err := row.Scan(&u.ID, &u.Email, &verified, &hash, &clerk, &u.IsAdmin, &first, &last, &birthday,
		&gender, &country, &state, &u.OnboardingStep, &u.CreatedAt, &u.UpdatedAt, &u.TOTPEnabled, &username, &u.HasAvatar, &disabled)
	if err != nil {
		return nil, err
	}
	if verified.Valid {
		u.EmailVerifiedAt = verified.Time.UTC()
	}
	if disabled.Valid {
		u.DisabledAt = disabled.Time.UTC()
	}
	u.CreatedAt, u.UpdatedAt = u.CreatedAt.UTC(), u.UpdatedAt.UTC()
	u.passwordHash = hash.String
	u.HasPassword = hash.Valid && hash.String != ""
	u.ClerkUserID = clerk.String
	u.Username = username.String
	u.Identity = Identity{first.String, last.String, birthday.String, gender.String, country.String, state.String}
	// A configured admin address counts only once verified: whoever signs up first with it does
	// not own it until the e-mailed code proves it.
	u.IsAdmin = u.IsAdmin || (u.EmailVerified() && s.isConfiguredAdmin(u.Email))
	return &u, nil
}

// user returns the user with id, or an ENOTFOUND error.
func (s *base) user(ctx context.Context, id string) (*User, error) {
	return s.userWhere(ctx, s.db, "u.id = ?", id)
}

// userByEmail returns the user with the address (any case), or an ENOTFOUND error.
func (s *base) userByEmail(ctx context.Context, email string) (*User, error) {
	return s.userWhere(ctx, s.db, "u.email = ?", NormalizeEmail(email))
}

func (s *base) userWhere(ctx context.Context, q queryer, where string, arg any) (*User, error) {
	if v, ok := arg.(string); ok && !validText(v) {
		return nil, core.Refuse(ctx, core.ENOTFOUND, "account.user.notFound") // Postgres refuses NUL bytes
	}
	u, err := s.scanUser(q.QueryRow(ctx, userSelect+"WHERE "+where, arg))
	if isNoRows(err) {
		return nil, core.Refuse(ctx, core.ENOTFOUND, "account.user.notFound")
	}
	if err != nil {
		return nil, fmt.Errorf("load user: %w", err)
	}
	return u, nil
}

// NormalizeEmail trims and lower-cases an address; addresses are stored and compared this way.
func NormalizeEmail(e string) string { return strings.ToLower(strings.TrimSpace(e)) }

// maxEmailLength is the longest address SMTP can carry (RFC 5321 path limit minus the brackets).
const maxEmailLength = 254

// checkEmail normalises an address and checks it is a plain addr-spec with a dotted domain.
func checkEmail(ctx context.Context, email string) (string, error) {
	e := NormalizeEmail(email)
	bad := core.Refuse(ctx, core.EINVALID, "account.email.invalid")
	if e == "" || len(e) > maxEmailLength || strings.ContainsAny(e, " \t\r\n<>\"(),;:\\[]") {
		return "", bad
	}
	addr, err := mail.ParseAddress(e)
	if err != nil || addr.Name != "" || addr.Address != e {
		return "", bad
	}
	local, domain, ok := strings.Cut(e, "@")
	if !ok || local == "" || !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") {
		return "", bad
	}
	return e, nil
}

// newUser is a user to create with its personal workspace.
type newUser struct {
	email        string
	passwordHash string // "" for none
	clerkUserID  string // "" for none
	verifiedAt   time.Time
	step         string
}

// createUser inserts the user, a personal workspace and the owner membership, inside tx.
func (s *base) createUser(ctx context.Context, tx queryer, n newUser, now time.Time) (string, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return "", fmt.Errorf("new user id: %w", err)
	}
	var verified, hash, clerk any
	if !n.verifiedAt.IsZero() {
		verified = n.verifiedAt
	}
	if n.passwordHash != "" {
		hash = n.passwordHash
	}
	if n.clerkUserID != "" {
		clerk = n.clerkUserID
	}
	if _, err := tx.Exec(ctx, `INSERT INTO users (id, email, email_verified_at, password_hash, clerk_user_id, is_admin,
		onboarding_step, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		id.String(), n.email, verified, hash, clerk, !n.verifiedAt.IsZero() && s.isConfiguredAdmin(n.email), n.step, now, now); err != nil {
		if isUniqueViolation(err) {
			return "", core.Refuse(ctx, core.ECONFLICT, "account.email.taken")
		}
		return "", fmt.Errorf("insert user: %w", err)
	}
	ws, err := uuid.NewV7()
	if err != nil {
		return "", fmt.Errorf("new workspace id: %w", err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO workspaces (id, name, kind, created_at) VALUES (?, ?, ?, ?)`,
		ws.String(), core.Text(ctx, "account.workspace.personalName"), string(authz.Personal), now); err != nil {
		return "", fmt.Errorf("insert personal workspace: %w", err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)`,
		ws.String(), id.String(), string(authz.Owner), now); err != nil {
		return "", fmt.Errorf("insert personal membership: %w", err)
	}
	return id.String(), nil
}

// isUniqueViolation recognises a unique constraint failure of either database.
func isUniqueViolation(err error) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code == "23505"
	}
	return strings.Contains(err.Error(), "UNIQUE constraint failed")
}

// applyConfiguredAdmin stores the admin flag of a configured admin address, so that queries on
// users.is_admin (the admin user list) agree with the configuration.
func (s *base) applyConfiguredAdmin(ctx context.Context, u *User) error {
	if !u.EmailVerified() || !s.isConfiguredAdmin(u.Email) {
		return nil
	}
	if _, err := s.db.Exec(ctx, `UPDATE users SET is_admin = ? WHERE id = ? AND is_admin = ?`, true, u.ID, false); err != nil {
		return fmt.Errorf("apply configured admin: %w", err)
	}
	return nil
}

// ErrLastAdmin refuses to revoke the admin role of the last enabled admin (SetAdmin): nobody would
// be left to run the admin area. The admin area refuses the same (an admin acts on nobody but
// others, and only while an enabled admin).
var ErrLastAdmin = errors.New("account: the last enabled admin keeps the role")

// SetAdmin grants (admin true) or revokes the app admin flag of the user with the address. It
// answers ENOTFOUND for an unknown address. A revoked address that is still in
// PATRIMONIO_ADMIN_EMAILS stays an admin; the caller should say so. Revoking the role of the last
// enabled admin (no other enabled user is an admin, stored or configured) is refused with
// ErrLastAdmin; the admin rows are read locked (Postgres; SQLite's write lock at BEGIN), so two
// revokes at once cannot each leave the other as the last.
func (s *Users) SetAdmin(ctx context.Context, email string, admin bool) (*User, error) {
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return nil, fmt.Errorf("set admin: %w", err)
	}
	defer tx.Rollback()
	if !admin {
		target, err := s.userWhere(ctx, tx, "u.email = ?", NormalizeEmail(email))
		if err != nil {
			return nil, err
		}
		if target.IsAdmin && target.DisabledAt.IsZero() && !s.isConfiguredAdmin(target.Email) {
			lock := ""
			if s.db.Dialect() == store.Postgres {
				lock = " FOR UPDATE"
			}
			rows, err := tx.Query(ctx, `SELECT id FROM users WHERE disabled_at IS NULL AND (is_admin = ? OR id = ?) ORDER BY id`+lock,
				true, target.ID)
			if err != nil {
				return nil, fmt.Errorf("set admin: read admins: %w", err)
			}
			admins := map[string]bool{} // the other enabled admins
			for rows.Next() {
				var id string
				if err := rows.Scan(&id); err != nil {
					rows.Close()
					return nil, fmt.Errorf("set admin: read admins: %w", err)
				}
				if id != target.ID {
					admins[id] = true
				}
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return nil, fmt.Errorf("set admin: read admins: %w", err)
			}
			// Configured addresses are admins once verified, even before their flag is stored.
			for _, addr := range s.cfg.AdminEmails {
				u, err := s.userWhere(ctx, tx, "u.email = ?", addr)
				if core.ErrorCode(err) == core.ENOTFOUND {
					continue
				}
				if err != nil {
					return nil, err
				}
				if u.ID != target.ID && u.IsAdmin && u.DisabledAt.IsZero() {
					admins[u.ID] = true
				}
			}
			if len(admins) == 0 {
				return nil, ErrLastAdmin
			}
		}
	}
	res, err := tx.Exec(ctx, `UPDATE users SET is_admin = ?, updated_at = ? WHERE email = ?`, admin, s.now(), NormalizeEmail(email))
	if err != nil {
		return nil, fmt.Errorf("set admin: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, fmt.Errorf("set admin: %w", err)
	} else if n == 0 {
		return nil, core.Refuse(ctx, core.ENOTFOUND, "account.user.notFound")
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("set admin: commit: %w", err)
	}
	return s.userByEmail(ctx, email)
}

// Enable clears the disabled mark of the user with the address (the operator's way back when every
// admin was disabled: patrimonio admin enable). It answers ENOTFOUND for an unknown address and
// the user unchanged when the account was not disabled.
func (s *Users) Enable(ctx context.Context, email string) (*User, error) {
	u, err := s.userByEmail(ctx, email)
	if err != nil {
		return nil, err
	}
	if !u.Disabled() {
		return u, nil
	}
	if _, err := s.db.Exec(ctx, `UPDATE users SET disabled_at = NULL, updated_at = ? WHERE id = ?`, s.now(), u.ID); err != nil {
		return nil, fmt.Errorf("enable user: %w", err)
	}
	return s.userByEmail(ctx, email)
}

// Workspaces lists the user's workspaces with the user's role: the personal one first, then by name.
func (s *Users) Workspaces(ctx context.Context, userID string) ([]members.Workspace, error) {
	return members.OfUser(ctx, s.db, userID, false)
}
