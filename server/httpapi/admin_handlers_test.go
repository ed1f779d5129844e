package httpapi

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"patrimonio/core"
	"patrimonio/server/account"
	"patrimonio/server/config"
)

// adminRoutes are the routes of the table under /api/v1/admin, found by walking the router, so a
// new admin route is covered by the tests below without being named in them.
func adminRoutes(t *testing.T, f *teamFixture) [][2]string {
	t.Helper()
	var out [][2]string
	for _, route := range apiRoutes(t, f.api.mux) {
		method, path, _ := strings.Cut(route, " ")
		if path == "/api/v1/admin" || strings.HasPrefix(path, "/api/v1/admin/") {
			out = append(out, [2]string{method, path})
		}
	}
	if len(out) == 0 {
		t.Fatal("the route table has no /api/v1/admin routes")
	}
	return out
}

func TestEveryAdminRouteRefusesNonAdmins(t *testing.T) {
	eachTeamFixture(t, func(t *testing.T, f *teamFixture) {
		user := f.signUp("user@example.com")
		// An admin of a team workspace is still not an app admin.
		rec := f.call(user, "POST", "/api/v1/workspaces", map[string]string{"name": "Mine"})
		if rec.Code != 201 {
			t.Fatalf("create workspace: %d %s", rec.Code, rec.Body)
		}
		for _, r := range adminRoutes(t, f) {
			method, path := r[0], r[1]
			target := fillParams(path)
			t.Run("anonymous "+method+" "+path, func(t *testing.T) {
				f.expect(f.call(person{}, method, target, map[string]string{}), method, path, 401, nil)
			})
			t.Run("non-admin "+method+" "+path, func(t *testing.T) {
				rec := f.call(user, method, target, map[string]string{})
				f.expect(rec, method, path, 403, nil)
				if msg := errorOf(t, rec).Message; msg != "This area is for administrators only." {
					t.Errorf("message %q", msg)
				}
			})
		}
		rec = f.call(user, "GET", "/api/v1/admin/users", nil, "es")
		if msg := errorOf(t, rec).Message; msg != "Esta sección es solo para administradores." {
			t.Errorf("Spanish message %q", msg)
		}
	})
}

func TestAdminsListUsers(t *testing.T) {
	eachTeamFixture(t, func(t *testing.T, f *teamFixture) {
		// boss@example.com is an admin by configuration (PATRIMONIO_ADMIN_EMAILS); root by the
		// stored flag.
		boss := f.signUp("boss@example.com")
		f.advance(time.Second)
		root := f.signUp("root@example.com")
		if _, err := f.db.Exec(context.Background(), `UPDATE users SET is_admin = ? WHERE id = ?`, true, root.id); err != nil {
			t.Fatal(err)
		}
		for _, e := range []string{"ana@example.com", "bea@example.com", "carl@corp.example"} {
			f.advance(time.Second)
			f.signUp(e)
		}
		for _, admin := range []person{boss, root} {
			var users []adminUserJSON
			rec := f.call(admin, "GET", "/api/v1/admin/users", nil)
			f.expect(rec, "GET", "/api/v1/admin/users", 200, &users)
			if len(users) != 5 || rec.Header().Get("X-Total-Count") != "5" || rec.Header().Get("Link") != "" {
				t.Fatalf("users %+v, headers %v", users, rec.Header())
			}
		}

		var page []adminUserJSON
		rec := f.call(root, "GET", "/api/v1/admin/users?search=EXAMPLE.com&limit=2", nil)
		f.expect(rec, "GET", "/api/v1/admin/users", 200, &page)
		if len(page) != 2 || page[0].Email != "bea@example.com" || page[1].Email != "ana@example.com" {
			t.Fatalf("first page %+v", page)
		}
		if got := rec.Header().Get("X-Total-Count"); got != "4" {
			t.Errorf("X-Total-Count %s", got)
		}
		next := rec.Header().Get("Link")
		if next != `</api/v1/admin/users?limit=2&offset=2&search=EXAMPLE.com>; rel="next"` {
			t.Fatalf("Link %q", next)
		}
		target := strings.TrimSuffix(strings.TrimPrefix(next, "<"), `>; rel="next"`)
		rec = f.call(root, "GET", target, nil)
		f.expect(rec, "GET", "/api/v1/admin/users", 200, &page)
		if len(page) != 2 || page[1].Email != "boss@example.com" || !page[1].IsAdmin || !page[0].IsAdmin || rec.Header().Get("Link") != "" {
			t.Fatalf("second page %+v, Link %q", page, rec.Header().Get("Link"))
		}
		if !page[0].EmailVerified || page[0].CreatedAt.IsZero() {
			t.Errorf("root as listed: %+v", page[0])
		}

		for _, bad := range []string{"?limit=abc", "?limit=0x10", "?limit=500", "?offset=-1"} {
			t.Run("bad query "+bad, func(t *testing.T) {
				f.expect(f.call(root, "GET", "/api/v1/admin/users"+bad, nil), "GET", "/api/v1/admin/users", 400, nil)
			})
		}
		var none []adminUserJSON
		f.expect(f.call(root, "GET", "/api/v1/admin/users?search=nobody", nil), "GET", "/api/v1/admin/users", 200, &none)
		if b, _ := json.Marshal(none); string(b) != "[]" {
			t.Errorf("no match answers %s, want []", b)
		}
	})
}

// TestRevokedAdminLosesAccessAtOnce: admin rights are read from the user on every request.
func TestRevokedAdminLosesAccessAtOnce(t *testing.T) {
	f := newTeamFixture(t, config.Config{SQLitePath: filepath.Join(t.TempDir(), "patrimonio.db")})
	root := f.signUp("root@example.com")
	ctx := context.Background()
	if _, err := f.accounts.Users.SetAdmin(ctx, root.email, true); err != nil {
		t.Fatal(err)
	}
	f.expect(f.call(root, "GET", "/api/v1/admin/users", nil), "GET", "/api/v1/admin/users", 200, nil)
	// Another admin remains: the last enabled one cannot be revoked.
	if _, err := f.accounts.Users.SetAdmin(ctx, f.signUp("other@example.com").email, true); err != nil {
		t.Fatal(err)
	}
	if _, err := f.accounts.Users.SetAdmin(ctx, root.email, false); err != nil {
		t.Fatal(err)
	}
	f.expect(f.call(root, "GET", "/api/v1/admin/users", nil), "GET", "/api/v1/admin/users", 403, nil)
}

func (f *teamFixture) act(admin person, userID, action string) *httptest.ResponseRecorder {
	f.t.Helper()
	return f.call(admin, "POST", "/api/v1/admin/users/"+userID+"/action", map[string]string{"action": action})
}

func (f *teamFixture) signIn(email string) *httptest.ResponseRecorder {
	f.t.Helper()
	return f.call(person{}, "POST", "/api/v1/auth/signin", map[string]string{"email": email, "password": "lentejas con chorizo 42"})
}

func TestAdminsDisableAndEnableUsers(t *testing.T) {
	eachTeamFixture(t, func(t *testing.T, f *teamFixture) {
		var ended []string
		f.api.admin.OnUserEnded = func(id string) { ended = append(ended, id) }
		boss, ana, bea := f.signUp("boss@example.com"), f.signUp("ana@example.com"), f.signUp("bea@example.com")
		const route = "/api/v1/admin/users/{id}/action"

		var got adminUserJSON
		f.expect(f.act(boss, ana.id, "disable"), "POST", route, 200, &got)
		if got.ID != ana.id || !got.Disabled || got.DisabledAt == nil || got.IsAdmin {
			t.Fatalf("disabled ana: %+v", got)
		}
		if !slices.Equal(ended, []string{ana.id}) {
			t.Errorf("the sync engine was told %v, want ana's id", ended)
		}
		// Her session is gone at once; bea's is not.
		if rec := f.call(ana, "GET", "/api/v1/workspaces", nil); rec.Code != 401 {
			t.Errorf("ana's old session: %d", rec.Code)
		}
		if rec := f.call(bea, "GET", "/api/v1/workspaces", nil); rec.Code != 200 {
			t.Errorf("bea's session: %d", rec.Code)
		}
		// She cannot sign in again: the right password says why, a wrong one says nothing more.
		rec := f.signIn("ana@example.com")
		if rec.Code != 403 || errorOf(t, rec).Message != "This account is disabled. Contact the administrator." || rec.Header().Get("Set-Cookie") != "" {
			t.Errorf("sign-in of a disabled user: %d %s %q", rec.Code, rec.Body, rec.Header().Get("Set-Cookie"))
		}
		rec = f.call(person{}, "POST", "/api/v1/auth/signin", map[string]string{"email": "ana@example.com", "password": "not her password 123"})
		if rec.Code != 401 {
			t.Errorf("wrong password of a disabled user: %d %s", rec.Code, rec.Body)
		}
		// A session that slipped in anyway (started in the same instant) is refused.
		token, err := f.accounts.Sessions.StartSession(context.Background(), bea.id, account.SessionMeta{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.db.Exec(context.Background(), `UPDATE sessions SET user_id = ? WHERE id = ?`, ana.id, account.SessionID(token)); err != nil {
			t.Fatal(err)
		}
		if rec := f.call(person{cookie: SessionCookie + "=" + token}, "GET", "/api/v1/workspaces", nil); rec.Code != 401 {
			t.Errorf("a late session of a disabled user: %d", rec.Code)
		}

		f.advance(time.Minute)
		f.expect(f.act(boss, ana.id, "enable"), "POST", route, 200, &got)
		if got.Disabled || got.DisabledAt != nil {
			t.Fatalf("enabled ana: %+v", got)
		}
		f.expect(f.signIn("ana@example.com"), "POST", "/api/v1/auth/signin", 200, nil)
		var users []adminUserJSON
		f.expect(f.call(boss, "GET", "/api/v1/admin/users?search=ana@", nil), "GET", "/api/v1/admin/users", 200, &users)
		if len(users) != 1 || users[0].LastSignInAt == nil || !users[0].LastSignInAt.Equal(f.clock()) || users[0].SubscriptionStatus != nil {
			t.Errorf("ana as listed after signing in: %+v", users)
		}

		// Nobody disables themself; an unknown user is 404; bad bodies and ids are 400.
		rec = f.act(boss, boss.id, "disable")
		f.expect(rec, "POST", route, 403, nil)
		if msg := errorOf(t, rec).Message; msg != "You cannot disable your own account or change your own admin role." {
			t.Errorf("self: %q", msg)
		}
		f.expect(f.act(boss, "0190aaaa-0000-7000-8000-000000000000", "disable"), "POST", route, 404, nil)
		f.expect(f.act(boss, "not-a-uuid", "disable"), "POST", route, 400, nil)
		rec = f.act(boss, ana.id, "delete")
		f.expect(rec, "POST", route, 400, nil)
		var bad invalidAnswer
		if err := json.Unmarshal(rec.Body.Bytes(), &bad); err != nil || len(bad.Error.Fields) != 1 || bad.Error.Fields[0].Path != "action" || bad.Error.Fields[0].Key != "validation.enum" {
			t.Errorf("unknown action: %s", rec.Body)
		}
		f.expect(f.call(boss, "POST", "/api/v1/admin/users/"+ana.id+"/action", map[string]any{"action": "disable", "why": 1}), "POST", route, 400, nil)
	})
}

func TestGrantingAndRevokingAdminNeedsARecentProof(t *testing.T) {
	eachTeamFixture(t, func(t *testing.T, f *teamFixture) {
		boss, ana := f.signUp("boss@example.com"), f.signUp("ana@example.com")
		const route = "/api/v1/admin/users/{id}/action"
		// Signing in counts as a proof for 10 minutes.
		var got adminUserJSON
		f.expect(f.act(boss, ana.id, "grant_admin"), "POST", route, 200, &got)
		if !got.IsAdmin || got.AdminByConfig {
			t.Fatalf("granted: %+v", got)
		}
		f.expect(f.call(ana, "GET", "/api/v1/admin/users", nil), "GET", "/api/v1/admin/users", 200, nil)

		f.advance(11 * time.Minute)
		rec := f.act(boss, ana.id, "revoke_admin")
		f.expect(rec, "POST", route, 403, nil)
		if d := errorOf(t, rec); d.Code != core.EREVERIFY {
			t.Fatalf("revoke without a recent proof: %+v", d)
		}
		// Disabling an admin takes the role away in effect: it needs the proof too (audit finding 3).
		rec = f.act(boss, ana.id, "disable")
		f.expect(rec, "POST", route, 403, nil)
		if d := errorOf(t, rec); d.Code != core.EREVERIFY {
			t.Fatalf("disable an admin without a recent proof: %+v", d)
		}

		f.expect(f.call(boss, "POST", "/api/v1/auth/reverify", map[string]string{"method": "password", "password": "lentejas con chorizo 42"}),
			"POST", "/api/v1/auth/reverify", 200, nil)
		f.expect(f.act(boss, ana.id, "disable"), "POST", route, 200, nil)
		f.expect(f.act(boss, ana.id, "enable"), "POST", route, 200, nil)
		f.expect(f.act(boss, ana.id, "revoke_admin"), "POST", route, 200, &got)
		if got.IsAdmin {
			t.Fatalf("revoked: %+v", got)
		}
		ana = f.signUpAgain(ana)
		f.expect(f.call(ana, "GET", "/api/v1/admin/users", nil), "GET", "/api/v1/admin/users", 403, nil)

		// An admin by configuration is not revoked here; nobody revokes themself.
		if _, err := f.accounts.Users.SetAdmin(context.Background(), ana.email, true); err != nil {
			t.Fatal(err)
		}
		rec = f.act(ana, boss.id, "revoke_admin")
		f.expect(rec, "POST", route, 409, nil)
		if msg := errorOf(t, rec).Message; !strings.Contains(msg, "PATRIMONIO_ADMIN_EMAILS") {
			t.Errorf("configured admin: %q", msg)
		}
		// Nor disabled (audit finding 3).
		rec = f.act(ana, boss.id, "disable")
		f.expect(rec, "POST", route, 409, nil)
		if msg := errorOf(t, rec).Message; !strings.Contains(msg, "PATRIMONIO_ADMIN_EMAILS") {
			t.Errorf("disable a configured admin: %q", msg)
		}
		f.expect(f.act(ana, ana.id, "revoke_admin"), "POST", route, 403, nil)

		// The audit log, newest first.
		var entries []adminUserAuditJSON
		rec = f.call(boss, "GET", "/api/v1/admin/users/audit", nil)
		f.expect(rec, "GET", "/api/v1/admin/users/audit", 200, &entries)
		var actions []string
		for _, e := range entries {
			actions = append(actions, e.Action+" "+e.UserEmail+" by "+e.ActorEmail)
		}
		want := []string{"revoke_admin ana@example.com by boss@example.com", "enable ana@example.com by boss@example.com",
			"disable ana@example.com by boss@example.com", "grant_admin ana@example.com by boss@example.com"}
		if !slices.Equal(actions, want) || rec.Header().Get("X-Total-Count") != "4" {
			t.Errorf("audit %v (total %s), want %v", actions, rec.Header().Get("X-Total-Count"), want)
		}
		if e := entries[0]; !e.Before.IsAdmin || e.After.IsAdmin || e.Before.Disabled || e.UserID == nil || *e.UserID != ana.id {
			t.Errorf("revoke entry %+v", e)
		}
		f.expect(f.call(boss, "GET", "/api/v1/admin/users/audit?userId="+boss.id, nil), "GET", "/api/v1/admin/users/audit", 200, &entries)
		if len(entries) != 0 {
			t.Errorf("boss's own audit: %+v", entries)
		}
		f.expect(f.call(boss, "GET", "/api/v1/admin/users/audit?limit=x", nil), "GET", "/api/v1/admin/users/audit", 400, nil)
	})
}

// signUpAgain signs p in anew (a fresh session) and returns p with its new cookie.
func (f *teamFixture) signUpAgain(p person) person {
	f.t.Helper()
	rec := f.signIn(p.email)
	if rec.Code != 200 {
		f.t.Fatalf("sign in %s: %d %s", p.email, rec.Code, rec.Body)
	}
	for _, c := range rec.Result().Cookies() {
		if c.Name == SessionCookie {
			p.cookie = SessionCookie + "=" + c.Value
		}
	}
	return p
}
