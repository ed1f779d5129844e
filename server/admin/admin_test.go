package admin_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"patrimonio/core"
	"patrimonio/internal/pgtest"
	"patrimonio/internal/testkit"
	"patrimonio/server/admin"
	"patrimonio/server/store"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

var ctx = context.Background()

// root acts in these tests: an app admin (the service asks authz; who is signed in is the HTTP
// layer's business). u01 is the admin the seed stores; they proved their identity recently.
var root = admin.Actor{UserID: "u01", Email: "bob@example.com", IsAdmin: true, Reverified: true}

// eachDialect runs f on a fresh database of each dialect.
func eachDialect(t *testing.T, f func(t *testing.T, db *store.DB)) { testkit.Stores(t, f) }

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
				p, err := svc.ListUsers(ctx, root, tt.q)
				if err != nil {
					t.Fatal(err)
				}
				if ids(p) != tt.wantIDs || p.Total != tt.wantTotal {
					t.Errorf("got [%s] of %d, want [%s] of %d", ids(p), p.Total, tt.wantIDs, tt.wantTotal)
				}
			})
		}

		p, err := svc.ListUsers(ctx, root, admin.UserQuery{})
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
		if u := byID["u03"]; !u.IsAdmin || !u.EmailVerified || !u.AdminByConfig {
			t.Errorf("u03 (admin by configuration, verified) = %+v", u)
		}
		if u := byID["u01"]; u.AdminByConfig || !u.DisabledAt.IsZero() || !u.LastSignInAt.IsZero() || u.SubscriptionStatus != "" {
			t.Errorf("u01 (stored admin, enabled, never signed in, no subscription) = %+v", u)
		}
	})
}

func TestListUsersRefusesBadPaging(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *store.DB) {
		svc := admin.NewService(db, nil)
		for _, q := range []admin.UserQuery{
			{Limit: -1}, {Limit: admin.MaxLimit + 1}, {Offset: -1}, {Search: strings.Repeat("a", admin.MaxSearchLength+1)},
		} {
			if _, err := svc.ListUsers(ctx, root, q); core.ErrorCode(err) != core.EINVALID {
				t.Errorf("%+v: %v, want invalid", q, err)
			}
		}
		if p, err := svc.ListUsers(ctx, root, admin.UserQuery{Limit: admin.MaxLimit}); err != nil || p.Total != 0 || len(p.Users) != 0 {
			t.Errorf("an empty database: %+v, %v", p, err)
		}
	})
}

func TestOnlyAdminsListUsers(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *store.DB) {
		svc := admin.NewService(db, nil)
		if _, err := svc.ListUsers(ctx, admin.Actor{UserID: "u00", Email: "ana@example.com"}, admin.UserQuery{}); core.ErrorCode(err) != core.EFORBIDDEN {
			t.Errorf("a user: %v, want forbidden", err)
		}
		if _, err := svc.ListUsers(ctx, admin.Actor{}, admin.UserQuery{}); core.ErrorCode(err) != core.EUNAUTHORIZED {
			t.Errorf("nobody: %v, want unauthorized", err)
		}
		if _, _, err := svc.Audit(ctx, admin.Actor{UserID: "u00"}, admin.AuditQuery{}); core.ErrorCode(err) != core.EFORBIDDEN {
			t.Errorf("a user reads the audit: %v, want forbidden", err)
		}
	})
}

func TestAdminsDisableEnableGrantAndRevokeWithAnAuditRow(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *store.DB) {
		seed(t, db, []string{"ana@example.com", "bob@example.com", "carla@corp.example", "dan@example.com"})
		// dan (u03, verified) is an admin by configuration.
		svc := admin.NewService(db, []string{"dan@example.com"})
		now := time.Date(2031, 2, 3, 4, 5, 6, 0, time.UTC)
		svc.Now = func() time.Time { now = now.Add(time.Second); return now }
		var ended []string
		svc.OnUserEnded = func(id string) { ended = append(ended, id) }
		start := time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)
		for i, id := range []string{"s1", "s2"} {
			if _, err := db.Exec(ctx, `INSERT INTO sessions (id, user_id, created_at, last_seen_at, expires_at, mfa_pending) VALUES (?, ?, ?, ?, ?, ?)`,
				id, []string{"u00", "u02"}[i], start, start, start.Add(24*time.Hour), false); err != nil {
				t.Fatal(err)
			}
		}
		sessions := func(user string) int {
			var n int
			if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM sessions WHERE user_id = ?`, user).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}

		u, err := svc.Act(ctx, root, "u00", admin.ActionDisable)
		if err != nil || u.DisabledAt.IsZero() || u.Email != "ana@example.com" {
			t.Fatalf("disable: %+v, %v", u, err)
		}
		if sessions("u00") != 0 || sessions("u02") != 1 || !slices.Equal(ended, []string{"u00"}) {
			t.Errorf("disabling ends only that user's sessions: u00 %d, u02 %d, ended %v", sessions("u00"), sessions("u02"), ended)
		}
		// Again: nothing changes, no audit row, nobody is told.
		if again, err := svc.Act(ctx, root, "u00", admin.ActionDisable); err != nil || !again.DisabledAt.Equal(u.DisabledAt) || len(ended) != 1 {
			t.Errorf("disable twice: %+v, %v, ended %v", again, err, ended)
		}
		if u, err := svc.Act(ctx, root, "u00", admin.ActionEnable); err != nil || !u.DisabledAt.IsZero() {
			t.Errorf("enable: %+v, %v", u, err)
		}
		if u, err := svc.Act(ctx, root, "u02", admin.ActionGrantAdmin); err != nil || !u.IsAdmin {
			t.Errorf("grant: %+v, %v", u, err)
		}
		if u, err := svc.Act(ctx, root, "u02", admin.ActionRevokeAdmin); err != nil || u.IsAdmin {
			t.Errorf("revoke: %+v, %v", u, err)
		}
		var stored bool
		if err := db.QueryRow(ctx, `SELECT is_admin FROM users WHERE id = ?`, "u02").Scan(&stored); err != nil || stored {
			t.Errorf("u02's stored flag after revoke: %v %v", stored, err)
		}

		refusals := []struct {
			name, user, action, code string
		}{
			{"disable oneself", "u01", admin.ActionDisable, core.EFORBIDDEN},
			{"revoke oneself", "u01", admin.ActionRevokeAdmin, core.EFORBIDDEN},
			{"an admin by configuration", "u03", admin.ActionRevokeAdmin, core.ECONFLICT},
			{"an unknown user", "nobody", admin.ActionDisable, core.ENOTFOUND},
			{"an unknown action", "u00", "delete", core.EINVALID},
		}
		for _, r := range refusals {
			if _, err := svc.Act(ctx, root, r.user, r.action); core.ErrorCode(err) != r.code {
				t.Errorf("%s: %v, want %s", r.name, err, r.code)
			}
		}
		if _, err := svc.Act(ctx, admin.Actor{UserID: "u00", Email: "ana@example.com"}, "u02", admin.ActionGrantAdmin); core.ErrorCode(err) != core.EFORBIDDEN {
			t.Errorf("a non-admin grants: %v", err)
		}

		entries, total, err := svc.Audit(ctx, root, admin.AuditQuery{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range entries {
			got = append(got, fmt.Sprintf("%s %s by %s %v/%v→%v/%v", e.Action, e.UserEmail, e.ActorEmail, e.BeforeDisabled, e.BeforeAdmin, e.AfterDisabled, e.AfterAdmin))
			if e.At.IsZero() || e.ActorID != "u01" || e.UserID == "" {
				t.Errorf("entry %+v", e)
			}
		}
		want := []string{ // newest first
			"revoke_admin carla@corp.example by bob@example.com false/true→false/false",
			"grant_admin carla@corp.example by bob@example.com false/false→false/true",
			"enable ana@example.com by bob@example.com true/false→false/false",
			"disable ana@example.com by bob@example.com false/false→true/false",
		}
		if total != 4 || !slices.Equal(got, want) {
			t.Errorf("audit (%d):\n%s\nwant\n%s", total, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if one, n, err := svc.Audit(ctx, root, admin.AuditQuery{UserID: "u00", Limit: 1}); err != nil || n != 2 || len(one) != 1 || one[0].Action != "enable" {
			t.Errorf("one user's audit: %+v %d %v", one, n, err)
		}
		// The audit keeps who it was after the account is gone.
		if _, err := db.Exec(ctx, `DELETE FROM users WHERE id = ?`, "u00"); err != nil {
			t.Fatal(err)
		}
		if entries, _, err := svc.Audit(ctx, root, admin.AuditQuery{}); err != nil || entries[3].UserID != "" || entries[3].UserEmail != "ana@example.com" {
			t.Errorf("after deleting ana: %+v %v", entries, err)
		}
	})
}

func TestTheListShowsLastSignInAndSubscriptionStatus(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *store.DB) {
		seed(t, db, []string{"ana@example.com", "bob@example.com"})
		at := time.Date(2031, 5, 6, 7, 8, 9, 0, time.UTC)
		if _, err := db.Exec(ctx, `UPDATE users SET last_sign_in_at = ?, subscription_status = ? WHERE id = ?`, at, "past_due", "u00"); err != nil {
			t.Fatal(err)
		}
		p, err := admin.NewService(db, nil).ListUsers(ctx, root, admin.UserQuery{})
		if err != nil {
			t.Fatal(err)
		}
		ana := p.Users[1]
		if ana.ID != "u00" || !ana.LastSignInAt.Equal(at) || ana.SubscriptionStatus != "past_due" {
			t.Errorf("ana %+v", ana)
		}
		if bob := p.Users[0]; !bob.LastSignInAt.IsZero() || bob.SubscriptionStatus != "" {
			t.Errorf("bob %+v", bob)
		}
	})
}

// Audit finding 3: disabling an admin is guarded like revoking the role.
func TestDisablingAnAdminIsGuardedLikeRevokingTheRole(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *store.DB) {
		seed(t, db, []string{"ana@example.com", "bob@example.com", "carla@corp.example", "dan@example.com"})
		// dan (u03, verified) is an admin by configuration.
		svc := admin.NewService(db, []string{"dan@example.com"})
		if _, err := svc.Act(ctx, root, "u03", admin.ActionDisable); core.ErrorCode(err) != core.ECONFLICT || !strings.Contains(err.Error(), "PATRIMONIO_ADMIN_EMAILS") {
			t.Errorf("disable an admin by configuration: %v, want conflict", err)
		}
		if _, err := svc.Act(ctx, root, "u02", admin.ActionGrantAdmin); err != nil {
			t.Fatal(err)
		}
		stale := root
		stale.Reverified = false
		for _, action := range []string{admin.ActionDisable, admin.ActionRevokeAdmin, admin.ActionGrantAdmin} {
			if _, err := svc.Act(ctx, stale, "u02", action); core.ErrorCode(err) != core.EREVERIFY {
				t.Errorf("%s an admin without a recent proof: %v, want reverify", action, err)
			}
		}
		// A user who is not an admin is disabled and enabled without one.
		if _, err := svc.Act(ctx, stale, "u00", admin.ActionDisable); err != nil {
			t.Errorf("disable a user without a proof: %v", err)
		}
		if _, err := svc.Act(ctx, stale, "u00", admin.ActionEnable); err != nil {
			t.Errorf("enable a user without a proof: %v", err)
		}
		if u, err := svc.Act(ctx, root, "u02", admin.ActionDisable); err != nil || u.DisabledAt.IsZero() {
			t.Fatalf("disable an admin with a proof: %+v %v", u, err)
		}
		// Enabling a disabled admin gives the role back: it needs the proof too.
		if _, err := svc.Act(ctx, stale, "u02", admin.ActionEnable); core.ErrorCode(err) != core.EREVERIFY {
			t.Errorf("enable an admin without a proof: %v, want reverify", err)
		}

		// carla (u02) signed in before she was disabled: her stale session says admin, but she acts
		// no more, so she cannot disable or demote bob, the last enabled admin in the database.
		carla := admin.Actor{UserID: "u02", Email: "carla@corp.example", IsAdmin: true, Reverified: true}
		for _, action := range []string{admin.ActionDisable, admin.ActionRevokeAdmin, admin.ActionEnable} {
			if _, err := svc.Act(ctx, carla, "u01", action); core.ErrorCode(err) != core.EFORBIDDEN {
				t.Errorf("a disabled admin %ss bob: %v, want forbidden", action, err)
			}
		}
		if _, err := svc.Act(ctx, root, "u02", admin.ActionEnable); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Act(ctx, root, "u02", admin.ActionRevokeAdmin); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Act(ctx, carla, "u01", admin.ActionRevokeAdmin); core.ErrorCode(err) != core.EFORBIDDEN {
			t.Errorf("a demoted admin revokes bob: %v, want forbidden", err)
		}
		var disabled int
		if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM users WHERE disabled_at IS NOT NULL`).Scan(&disabled); err != nil || disabled != 0 {
			t.Errorf("disabled users: %d %v", disabled, err)
		}
	})
}

// Two admins disabling (or demoting) each other at the same moment: one wins, the other is
// refused, and an enabled admin always remains.
func TestTwoAdminsActingOnEachOtherAtOnceLeaveOneAdmin(t *testing.T) {
	eachDialect(t, func(t *testing.T, db *store.DB) {
		seed(t, db, []string{"ana@example.com", "bob@example.com"})
		svc := admin.NewService(db, nil)
		ana := admin.Actor{UserID: "u00", Email: "ana@example.com", IsAdmin: true, Reverified: true}
		for round := range 10 {
			if _, err := db.Exec(ctx, `UPDATE users SET is_admin = ?, disabled_at = NULL`, true); err != nil {
				t.Fatal(err)
			}
			action := []string{admin.ActionDisable, admin.ActionRevokeAdmin}[round%2]
			errs := make(chan error, 2)
			go func() { _, err := svc.Act(ctx, ana, "u01", action); errs <- err }()
			go func() { _, err := svc.Act(ctx, root, "u00", action); errs <- err }()
			var ok, forbidden int
			for range 2 {
				switch err := <-errs; core.ErrorCode(err) {
				case "":
					ok++
				case core.EFORBIDDEN:
					forbidden++
				default:
					t.Errorf("round %d: %v", round, err)
				}
			}
			var admins int
			if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM users WHERE is_admin = ? AND disabled_at IS NULL`, true).Scan(&admins); err != nil {
				t.Fatal(err)
			}
			if ok != 1 || forbidden != 1 || admins != 1 {
				t.Errorf("round %d (%s): %d done, %d refused, %d enabled admins left; want 1, 1, 1", round, action, ok, forbidden, admins)
			}
		}
	})
}
