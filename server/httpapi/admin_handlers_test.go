package httpapi

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"patrimonio/server"
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
	f := newTeamFixture(t, server.Config{SQLitePath: filepath.Join(t.TempDir(), "patrimonio.db")})
	root := f.signUp("root@example.com")
	ctx := context.Background()
	if _, err := f.accounts.SetAdmin(ctx, root.email, true); err != nil {
		t.Fatal(err)
	}
	f.expect(f.call(root, "GET", "/api/v1/admin/users", nil), "GET", "/api/v1/admin/users", 200, nil)
	if _, err := f.accounts.SetAdmin(ctx, root.email, false); err != nil {
		t.Fatal(err)
	}
	f.expect(f.call(root, "GET", "/api/v1/admin/users", nil), "GET", "/api/v1/admin/users", 403, nil)
}
