package members_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"patrimonio/internal/pgtest"
	"patrimonio/internal/testkit"
	"patrimonio/server/authz"
	"patrimonio/server/members"
	"patrimonio/server/store"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

var ctx = context.Background()

func TestReadingMemberships(t *testing.T) {
	testkit.Stores(t, func(t *testing.T, db *store.DB) {
		now := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
		user := func(email string) string {
			id := uuid.NewString()
			if _, err := db.Exec(ctx, `INSERT INTO users (id, email, onboarding_step, created_at, updated_at) VALUES (?, ?, 'done', ?, ?)`, id, email, now, now); err != nil {
				t.Fatal(err)
			}
			return id
		}
		workspace := func(name string, kind authz.Kind) string {
			id := uuid.NewString()
			if _, err := db.Exec(ctx, `INSERT INTO workspaces (id, name, kind, created_at) VALUES (?, ?, ?, ?)`, id, name, string(kind), now); err != nil {
				t.Fatal(err)
			}
			return id
		}
		join := func(ws, user string, role authz.Role) {
			if _, err := db.Exec(ctx, `INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)`, ws, user, string(role), now); err != nil {
				t.Fatal(err)
			}
		}
		ana, bea, carl := user("ana@example.com"), user("bea@example.com"), user("carl@example.com")
		personal, zeta, alpha := workspace("Ana", authz.Personal), workspace("zeta", authz.Team), workspace("Alpha", authz.Team)
		join(personal, ana, authz.Owner)
		join(zeta, ana, authz.Editor)
		join(alpha, ana, authz.Owner)
		join(alpha, carl, authz.Viewer)
		join(alpha, bea, authz.Owner)

		if r, err := members.Role(ctx, db, zeta, ana); err != nil || r != authz.Editor {
			t.Errorf("Role = %q, %v; want editor", r, err)
		}
		if r, err := members.Role(ctx, db, zeta, bea); err != nil || r != authz.None {
			t.Errorf("Role of a non-member = %q, %v; want none", r, err)
		}
		if r, err := members.Role(ctx, db, uuid.NewString(), ana); err != nil || r != authz.None {
			t.Errorf("Role in no workspace = %q, %v; want none", r, err)
		}

		// The personal workspace first, then the teams by name whatever their case.
		tx, err := db.BeginTx(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		ws, err := members.OfUser(ctx, tx, ana, true)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, w := range ws {
			got = append(got, w.Name+":"+string(w.Role))
		}
		if want := []string{"Ana:owner", "Alpha:owner", "zeta:editor"}; len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
			t.Errorf("OfUser = %v, want %v", got, want)
		}
		if !ws[0].CreatedAt.Equal(now) || ws[0].Kind != authz.Personal {
			t.Errorf("OfUser's first = %+v", ws[0])
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}

		// Owners first, then editors, then viewers; each by e-mail.
		list, err := members.List(ctx, db, alpha)
		if err != nil {
			t.Fatal(err)
		}
		var emails []string
		for _, m := range list {
			emails = append(emails, m.Email)
		}
		if want := []string{"ana@example.com", "bea@example.com", "carl@example.com"}; len(emails) != 3 || emails[0] != want[0] || emails[1] != want[1] || emails[2] != want[2] {
			t.Errorf("List = %v, want %v", emails, want)
		}
		if n, owners, err := members.Count(ctx, db, alpha); err != nil || n != 3 || owners != 2 {
			t.Errorf("Count = %d, %d, %v; want 3 members, 2 owners", n, owners, err)
		}
		if n, owners, err := members.Count(ctx, db, uuid.NewString()); err != nil || n != 0 || owners != 0 {
			t.Errorf("Count of nothing = %d, %d, %v", n, owners, err)
		}
	})
}
