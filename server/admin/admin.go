// Package admin is the service behind the /admin area: what app admins may see and manage across
// all users. It does not decide who is an admin; the HTTP layer lets only admins reach it.
package admin

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"patrimonio/server"
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
}

// NewService returns the service over db. adminEmails are the configured admin addresses.
func NewService(db *store.DB, adminEmails []string) *Service {
	s := &Service{db: db}
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
	FirstName     string
	LastName      string
	CreatedAt     time.Time
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
func (s *Service) ListUsers(ctx context.Context, q UserQuery) (UserPage, error) {
	if q.Limit == 0 {
		q.Limit = DefaultLimit
	}
	if q.Limit < 1 || q.Limit > MaxLimit {
		return UserPage{}, errorf(ctx, "limit", MaxLimit)
	}
	if q.Offset < 0 {
		return UserPage{}, errorf(ctx, "offset")
	}
	search := strings.ToLower(strings.TrimSpace(q.Search))
	if len(search) > MaxSearchLength {
		return UserPage{}, errorf(ctx, "search", MaxSearchLength)
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
	rows, err := tx.Query(ctx, `SELECT id, email, email_verified_at, is_admin, COALESCE(first_name, ''), COALESCE(last_name, ''), created_at
		FROM users WHERE email LIKE ? ESCAPE '\'
		ORDER BY created_at DESC, id DESC
		LIMIT ? OFFSET ?`, pattern, q.Limit, q.Offset)
	if err != nil {
		return UserPage{}, fmt.Errorf("list users: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var u User
		var verified sql.NullTime
		if err := rows.Scan(&u.ID, &u.Email, &verified, &u.IsAdmin, &u.FirstName, &u.LastName, &u.CreatedAt); err != nil {
			return UserPage{}, fmt.Errorf("list users: %w", err)
		}
		u.EmailVerified = verified.Valid
		u.IsAdmin = u.IsAdmin || (u.EmailVerified && slices.Contains(s.adminEmails, u.Email)) // a configured address counts once verified
		u.CreatedAt = u.CreatedAt.UTC()
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

// texts are the service's user-visible texts, {Spanish, English}.
var texts = map[string][2]string{
	"limit":  {"El límite debe estar entre 1 y %d.", "The limit must be between 1 and %d."},
	"offset": {"El desplazamiento no puede ser negativo.", "The offset must not be negative."},
	"search": {"El texto de búsqueda puede tener como máximo %d caracteres.", "The search text must be at most %d characters long."},
}

// errorf returns an EINVALID error with the text of key in the language of ctx.
func errorf(ctx context.Context, key string, args ...any) *server.Error {
	text := texts[key][0]
	if server.LanguageFrom(ctx) == server.LangEN {
		text = texts[key][1]
	}
	if len(args) > 0 {
		text = fmt.Sprintf(text, args...)
	}
	return &server.Error{Code: server.EINVALID, Message: text}
}

var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
