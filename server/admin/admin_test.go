package admin_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"patrimonio/server"
	"patrimonio/server/admin"
	"patrimonio/server/internal/pgtest"
	"patrimonio/server/store"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

var ctx = context.Background()

func eachDialect(t *testing.T, f func(t *testing.T, db *store.DB)) {
	t.Helper()
	run := func(t *testing.T, cfg server.Config) {
		db, err := store.Open(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		f(t, db)
	}
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		run(t, server.Config{SQLitePath: filepath.Join(t.TempDir(), "patrimonio.db")})
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		run(t, server.Config{DatabaseURL: pgtest.URL(t)})
	})
}

// seed inserts users u00 … u(n-1), one minute apart (u00 the oldest), with the given e-mail
// addresses; every third one has a verified address and u01 is an admin in the database.
func seed(t *testing.T, db *store.DB, emails []string) {
	t.Helper()
	start := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, email := range emails {
		at := start.Add(time.Duration(i) * time.Minute)
		var verified any
		if i%3 == 0 {
			verified = at
		}
		if _, err := db.Exec(ctx, `INSERT INTO users (id, email, email_verified_at, is_admin, first_name, onboarding_step, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, 'done', ?, ?)`, fmt.Sprintf("u%02d", i), email, verified, i == 1, fmt.Sprintf("Name%d", i), at, at); err != nil {
			t.Fatal(err)
		}
	}
}

func ids(p admin.UserPage) string {
	var out []string
	for _, u := range p.Users {
		out = append(out, u.ID)
	}
	return strings.Join(out, " ")
}

func TestListUsersPagesNewestFirstAndSearchesByEmail(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *store.DB) {
		seed(t, db, []string{
			"ana@example.com", "bob@example.com", "carla@corp.example", "dan_1@example.com",
			"dan11@example.com", "eve%x@example.com", "boss@example.com",
		})
		svc := admin.NewService(db, []string{" Carla@Corp.Example ", "dan_1@example.com"})
		tests := []struct {
			name      string
			q         admin.UserQuery
			wantIDs   string
			wantTotal int
		}{
			{"everyone, newest first", admin.UserQuery{}, "u06 u05 u04 u03 u02 u01 u00", 7},
			{"a first page", admin.UserQuery{Limit: 3}, "u06 u05 u04", 7},
			{"the next page", admin.UserQuery{Limit: 3, Offset: 3}, "u03 u02 u01", 7},
			{"the last page", admin.UserQuery{Limit: 3, Offset: 6}, "u00", 7},
			{"past the end", admin.UserQuery{Limit: 3, Offset: 9}, "", 7},
			{"search is a substring", admin.UserQuery{Search: "bo"}, "u06 u01", 2},
			{"search ignores case", admin.UserQuery{Search: " CORP "}, "u02", 1},
			{"underscore is literal", admin.UserQuery{Search: "dan_"}, "u03", 1},
			{"percent is literal", admin.UserQuery{Search: "%"}, "u05", 1},
			{"no match", admin.UserQuery{Search: "zzz"}, "", 0},
			{"search and page", admin.UserQuery{Search: "example.com", Limit: 2, Offset: 1}, "u05 u04", 6},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				p, err := svc.ListUsers(ctx, tt.q)
				if err != nil {
					t.Fatal(err)
				}
				if ids(p) != tt.wantIDs || p.Total != tt.wantTotal {
					t.Errorf("got [%s] of %d, want [%s] of %d", ids(p), p.Total, tt.wantIDs, tt.wantTotal)
				}
			})
		}

		p, err := svc.ListUsers(ctx, admin.UserQuery{})
		if err != nil {
			t.Fatal(err)
		}
		if p.Limit != admin.DefaultLimit || p.Offset != 0 {
			t.Errorf("page limit/offset = %d/%d", p.Limit, p.Offset)
		}
		byID := map[string]admin.User{}
		for _, u := range p.Users {
			byID[u.ID] = u
		}
		if u := byID["u00"]; u.Email != "ana@example.com" || !u.EmailVerified || u.IsAdmin || u.FirstName != "Name0" ||
			!u.CreatedAt.Equal(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("u00 = %+v", u)
		}
		if u := byID["u01"]; !u.IsAdmin || u.EmailVerified {
			t.Errorf("u01 (admin in the database, unverified) = %+v", u)
		}
		// A configured address counts once verified (issue 11): u03's is, u02's is not.
		if u := byID["u02"]; u.IsAdmin {
			t.Errorf("u02 (configured, unverified) = %+v", u)
		}
		if u := byID["u03"]; !u.IsAdmin || !u.EmailVerified {
			t.Errorf("u03 (admin by configuration, verified) = %+v", u)
		}
	})
}

func TestListUsersRefusesBadPaging(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *store.DB) {
		svc := admin.NewService(db, nil)
		for _, q := range []admin.UserQuery{
			{Limit: -1}, {Limit: admin.MaxLimit + 1}, {Offset: -1}, {Search: strings.Repeat("a", admin.MaxSearchLength+1)},
		} {
			if _, err := svc.ListUsers(ctx, q); server.ErrorCode(err) != server.EINVALID {
				t.Errorf("%+v: %v, want invalid", q, err)
			}
		}
		if p, err := svc.ListUsers(ctx, admin.UserQuery{Limit: admin.MaxLimit}); err != nil || p.Total != 0 || len(p.Users) != 0 {
			t.Errorf("an empty database: %+v, %v", p, err)
		}
	})
}
