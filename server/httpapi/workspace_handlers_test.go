package httpapi

// The workspace, invitation and admin endpoints through the real router, with real sessions of the
// local provider, on SQLite and on Postgres. Every answer is checked against the OpenAPI document.

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"patrimonio/core"
	"patrimonio/internal/pgtest"
	"patrimonio/server/account"
	"patrimonio/server/admin"
	"patrimonio/server/config"
	"patrimonio/server/store"
	"patrimonio/server/workspace"
)

// teamFixture is the real handler with the accounts, workspace and admin services over one
// database, and a clock shared by the services.
type teamFixture struct {
	t        *testing.T
	cfg      config.Config
	db       *store.DB
	accounts *account.Services
	api      *api

	mu  sync.Mutex
	now time.Time
}

func (f *teamFixture) clock() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *teamFixture) advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
}

// eachTeamFixture runs body on SQLite and on Postgres.
func eachTeamFixture(t *testing.T, body func(t *testing.T, f *teamFixture)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		body(t, newTeamFixture(t, config.Config{SQLitePath: filepath.Join(t.TempDir(), "patrimonio.db")}))
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		body(t, newTeamFixture(t, config.Config{DatabaseURL: pgtest.URL(t)}))
	})
}

func newTeamFixture(t *testing.T, cfg config.Config) *teamFixture {
	t.Helper()
	cfg.Addr, cfg.PublicURL, cfg.WebDir = "localhost:8080", "http://localhost:8080", t.TempDir()
	cfg.AdminEmails = "boss@example.com"
	db, err := store.Open(context.Background(), cfg.Dialect(), cfg.DatabaseSource())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f := &teamFixture{t: t, cfg: cfg, db: db, now: time.Date(2030, 5, 1, 9, 0, 0, 0, time.UTC)}

	acfg := account.DefaultConfig()
	acfg.Password = account.PasswordParams{Memory: 64, Time: 1, Threads: 1}
	acfg.AdminEmails = cfg.AdminEmailList()
	acfg.SecretKey = testSecretKey(t)
	outbox := cfg.DevOutbox
	if outbox == "" {
		outbox = t.TempDir()
	}
	accounts, err := account.New(db, acfg, account.Options{Mailer: &account.LogMailer{OutboxDir: outbox},
		Logger: slog.New(slog.DiscardHandler), Now: f.clock})
	if err != nil {
		t.Fatal(err)
	}
	workspaces := workspace.NewService(db)
	workspaces.Now = f.clock
	f.accounts = accounts
	f.api = newAPI(cfg, Deps{DB: db, Accounts: accounts, Workspaces: workspaces, Admin: admin.NewService(db, cfg.AdminEmailList())})
	return f
}

// person is a signed-up user with a verified e-mail address and a session.
type person struct {
	id, email, cookie string
}

func (f *teamFixture) signUp(email string) person {
	f.t.Helper()
	u, token, err := f.accounts.Signup.SignUp(context.Background(), email, "lentejas con chorizo 42", account.SessionMeta{IP: "192.0.2.1"})
	if err != nil {
		f.t.Fatalf("sign up %s: %v", email, err)
	}
	if _, err := f.db.Exec(context.Background(), `UPDATE users SET email_verified_at = ?, onboarding_step = 'done' WHERE id = ?`, f.clock(), u.ID); err != nil {
		f.t.Fatal(err)
	}
	return person{id: u.ID, email: u.Email, cookie: SessionCookie + "=" + token}
}

// call sends a request as p (anonymous when p.cookie is empty), from the app's own origin, with
// Accept-Language: en unless lang says otherwise.
func (f *teamFixture) call(p person, method, target string, body any, lang ...string) *httptest.ResponseRecorder {
	f.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			f.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req := httptest.NewRequest(method, target, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Origin", f.cfg.PublicURL)
	req.Header.Set("Accept-Language", "en")
	if len(lang) > 0 {
		req.Header.Set("Accept-Language", lang[0])
	}
	if p.cookie != "" {
		req.Header.Set("Cookie", p.cookie)
	}
	rec := httptest.NewRecorder()
	f.api.mux.ServeHTTP(rec, req)
	return rec
}

// expect checks the status, checks the answer against the OpenAPI operation of route, and decodes
// the body into out (when not nil).
func (f *teamFixture) expect(rec *httptest.ResponseRecorder, method, route string, status int, out any) {
	f.t.Helper()
	if rec.Code != status {
		f.t.Fatalf("%s %s: status %d, want %d; body %s", method, route, rec.Code, status, rec.Body)
	}
	conformsToOpenAPI(f.t, method, route, rec)
	if out != nil {
		if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil {
			f.t.Fatal(err)
		}
	}
}

func errorOf(t *testing.T, rec *httptest.ResponseRecorder) errorDetail {
	t.Helper()
	var body errorBody
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("not an error body: %s", rec.Body)
	}
	return body.Error
}

func TestWorkspaceEndpointsFromCreationToDeletion(t *testing.T) {
	eachTeamFixture(t, func(t *testing.T, f *teamFixture) {
		ana, bea, vic := f.signUp("ana@example.com"), f.signUp("bea@example.com"), f.signUp("vic@example.com")

		// Ana creates a team workspace and finds it after her personal one.
		var created struct{ Workspace workspaceJSON }
		f.expect(f.call(ana, "POST", "/api/v1/workspaces", map[string]string{"name": " Familia "}), "POST", "/api/v1/workspaces", 201, &created)
		team := created.Workspace
		if team.Name != "Familia" || team.Kind != "team" || team.Role != "owner" || team.ID == "" {
			t.Fatalf("created %+v", team)
		}
		var list []workspaceJSON
		f.expect(f.call(ana, "GET", "/api/v1/workspaces", nil), "GET", "/api/v1/workspaces", 200, &list)
		if len(list) != 2 || list[0].Kind != "personal" || list[1].ID != team.ID {
			t.Fatalf("list %+v", list)
		}
		wsPath := "/api/v1/workspaces/" + team.ID

		// She invites Bea as editor and Vic as viewer.
		var invited struct{ Invitation invitationJSON }
		f.expect(f.call(ana, "POST", wsPath+"/invitations", map[string]string{"email": "Bea@Example.com", "role": "editor"}),
			"POST", "/api/v1/workspaces/{id}/invitations", 201, &invited)
		if inv := invited.Invitation; inv.Email != "bea@example.com" || inv.Role != "editor" || inv.WorkspaceName != "Familia" ||
			inv.InvitedByEmail == nil || *inv.InvitedByEmail != "ana@example.com" || inv.Expired {
			t.Fatalf("invitation %+v", inv)
		}
		f.expect(f.call(ana, "POST", wsPath+"/invitations", map[string]string{"email": "vic@example.com", "role": "viewer"}),
			"POST", "/api/v1/workspaces/{id}/invitations", 201, nil)

		// Bea sees her invitation and accepts it; Vic too.
		var mine []invitationJSON
		f.expect(f.call(bea, "GET", "/api/v1/invitations", nil), "GET", "/api/v1/invitations", 200, &mine)
		if len(mine) != 1 || mine[0].ID != invited.Invitation.ID {
			t.Fatalf("bea's invitations %+v", mine)
		}
		var joined struct{ Workspace workspaceJSON }
		f.expect(f.call(bea, "POST", "/api/v1/invitations/"+mine[0].ID+"/accept", nil), "POST", "/api/v1/invitations/{id}/accept", 200, &joined)
		if joined.Workspace.ID != team.ID || joined.Workspace.Role != "editor" {
			t.Fatalf("joined %+v", joined.Workspace)
		}
		f.expect(f.call(vic, "GET", "/api/v1/invitations", nil), "GET", "/api/v1/invitations", 200, &mine)
		f.expect(f.call(vic, "POST", "/api/v1/invitations/"+mine[0].ID+"/accept", nil), "POST", "/api/v1/invitations/{id}/accept", 200, nil)

		// The owner's view has members and pending invitations; the viewer's has no invitations.
		f.expect(f.call(ana, "POST", wsPath+"/invitations", map[string]string{"email": "later@example.com", "role": "viewer"}),
			"POST", "/api/v1/workspaces/{id}/invitations", 201, nil)
		var detail workspaceDetailJSON
		f.expect(f.call(ana, "GET", wsPath, nil), "GET", "/api/v1/workspaces/{id}", 200, &detail)
		if len(detail.Members) != 3 || detail.Members[0].Email != "ana@example.com" || detail.Members[1].Role != "editor" ||
			detail.Invitations == nil || len(*detail.Invitations) != 1 {
			t.Fatalf("owner's detail %+v", detail)
		}
		rec := f.call(vic, "GET", wsPath, nil)
		f.expect(rec, "GET", "/api/v1/workspaces/{id}", 200, nil)
		if strings.Contains(rec.Body.String(), `"invitations"`) {
			t.Errorf("a viewer sees invitations: %s", rec.Body)
		}

		// Roles decide: the viewer cannot rename (403), the editor cannot make an owner (403),
		// the owner renames.
		f.expect(f.call(vic, "PATCH", wsPath, map[string]string{"name": "Mine"}), "PATCH", "/api/v1/workspaces/{id}", 403, nil)
		f.expect(f.call(bea, "POST", wsPath+"/invitations", map[string]string{"email": "o@example.com", "role": "owner"}),
			"POST", "/api/v1/workspaces/{id}/invitations", 403, nil)
		var renamed struct{ Workspace workspaceJSON }
		f.expect(f.call(ana, "PATCH", wsPath, map[string]string{"name": "Familia García"}), "PATCH", "/api/v1/workspaces/{id}", 200, &renamed)
		if renamed.Workspace.Name != "Familia García" {
			t.Errorf("renamed %+v", renamed.Workspace)
		}

		// The owner promotes Vic to editor, then removes him; Bea leaves on her own.
		var changed struct{ Member memberJSON }
		f.expect(f.call(ana, "PATCH", wsPath+"/members/"+vic.id, map[string]string{"role": "editor"}),
			"PATCH", "/api/v1/workspaces/{id}/members/{userId}", 200, &changed)
		if changed.Member.UserID != vic.id || changed.Member.Role != "editor" {
			t.Errorf("changed %+v", changed.Member)
		}
		f.expect(f.call(ana, "PATCH", wsPath+"/members/"+ana.id, map[string]string{"role": "viewer"}),
			"PATCH", "/api/v1/workspaces/{id}/members/{userId}", 409, nil)
		f.expect(f.call(ana, "DELETE", wsPath+"/members/"+vic.id, nil), "DELETE", "/api/v1/workspaces/{id}/members/{userId}", 204, nil)
		f.expect(f.call(bea, "DELETE", wsPath+"/members/"+bea.id, nil), "DELETE", "/api/v1/workspaces/{id}/members/{userId}", 204, nil)
		f.expect(f.call(vic, "GET", wsPath, nil), "GET", "/api/v1/workspaces/{id}", 404, nil)
		f.expect(f.call(ana, "DELETE", wsPath+"/members/"+ana.id, nil), "DELETE", "/api/v1/workspaces/{id}/members/{userId}", 409, nil)

		// Withdrawing the pending invitation.
		f.expect(f.call(ana, "GET", wsPath, nil), "GET", "/api/v1/workspaces/{id}", 200, &detail)
		pending := (*detail.Invitations)[0].ID
		f.expect(f.call(ana, "DELETE", wsPath+"/invitations/"+pending, nil), "DELETE", "/api/v1/workspaces/{id}/invitations/{invitationId}", 204, nil)
		f.expect(f.call(ana, "DELETE", wsPath+"/invitations/"+pending, nil), "DELETE", "/api/v1/workspaces/{id}/invitations/{invitationId}", 404, nil)

		// Deleting needs a recent proof of identity: signing up counted, ten minutes ago it no
		// longer does.
		f.advance(11 * time.Minute)
		rec = f.call(ana, "DELETE", wsPath, nil)
		f.expect(rec, "DELETE", "/api/v1/workspaces/{id}", 403, nil)
		if code := errorOf(t, rec).Code; code != core.EREVERIFY {
			t.Fatalf("deleting without a recent proof: code %q", code)
		}
		sess, _, err := f.accounts.Sessions.Authenticate(context.Background(), strings.TrimPrefix(ana.cookie, SessionCookie+"="))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.accounts.Reverify.MarkReverified(context.Background(), sess.ID); err != nil {
			t.Fatal(err)
		}
		f.expect(f.call(ana, "DELETE", wsPath, nil), "DELETE", "/api/v1/workspaces/{id}", 204, nil)
		f.expect(f.call(ana, "GET", wsPath, nil), "GET", "/api/v1/workspaces/{id}", 404, nil)
		personal := "/api/v1/workspaces/" + list[0].ID
		f.expect(f.call(ana, "DELETE", personal, nil), "DELETE", "/api/v1/workspaces/{id}", 403, nil)
	})
}

// TestANonMemberGetsTheAnswerOfAMissingWorkspace: status and body are the same as for an id that
// does not exist, on every workspace route.
func TestANonMemberGetsTheAnswerOfAMissingWorkspace(t *testing.T) {
	eachTeamFixture(t, func(t *testing.T, f *teamFixture) {
		ana, eve := f.signUp("ana@example.com"), f.signUp("eve@example.com")
		var created struct{ Workspace workspaceJSON }
		f.expect(f.call(ana, "POST", "/api/v1/workspaces", map[string]string{"name": "Secret"}), "POST", "/api/v1/workspaces", 201, &created)

		requests := []struct {
			method, route, suffix string
			body                  any
		}{
			{"GET", "/api/v1/workspaces/{id}", "", nil},
			{"PATCH", "/api/v1/workspaces/{id}", "", map[string]string{"name": "Mine"}},
			{"DELETE", "/api/v1/workspaces/{id}", "", nil},
			{"POST", "/api/v1/workspaces/{id}/invitations", "/invitations", map[string]string{"email": "x@example.com", "role": "viewer"}},
			{"DELETE", "/api/v1/workspaces/{id}/invitations/{invitationId}", "/invitations/" + uuid.NewString(), nil},
			{"PATCH", "/api/v1/workspaces/{id}/members/{userId}", "/members/" + ana.id, map[string]string{"role": "viewer"}},
			{"DELETE", "/api/v1/workspaces/{id}/members/{userId}", "/members/" + ana.id, nil},
		}
		for _, lang := range []string{"en", "es"} {
			for _, req := range requests {
				t.Run(lang+" "+req.method+" "+req.route, func(t *testing.T) {
					foreign := f.call(eve, req.method, "/api/v1/workspaces/"+created.Workspace.ID+req.suffix, req.body, lang)
					missing := f.call(eve, req.method, "/api/v1/workspaces/"+uuid.NewString()+req.suffix, req.body, lang)
					f.expect(foreign, req.method, req.route, 404, nil)
					if foreign.Body.String() != missing.Body.String() || missing.Code != 404 {
						t.Errorf("foreign %d %s, missing %d %s", foreign.Code, foreign.Body, missing.Code, missing.Body)
					}
				})
			}
		}
		want := map[string]string{"en": "Workspace not found.", "es": "No se ha encontrado el espacio de trabajo."}
		for lang, text := range want {
			if got := errorOf(t, f.call(eve, "GET", "/api/v1/workspaces/"+created.Workspace.ID, nil, lang)).Message; got != text {
				t.Errorf("%s message %q, want %q", lang, got, text)
			}
		}
	})
}

// TestWorkspaceRoutesNeedASession walks the route table: every route under /api/v1/workspaces and
// /api/v1/invitations answers 401 to an anonymous caller, including routes added later.
func TestWorkspaceRoutesNeedASession(t *testing.T) {
	f := newTeamFixture(t, config.Config{SQLitePath: filepath.Join(t.TempDir(), "patrimonio.db")})
	checked := 0
	for _, route := range apiRoutes(t, f.api.mux) {
		method, path, _ := strings.Cut(route, " ")
		if !strings.HasPrefix(path, "/api/v1/workspaces") && !strings.HasPrefix(path, "/api/v1/invitations") {
			continue
		}
		checked++
		t.Run(route, func(t *testing.T) {
			rec := f.call(person{}, method, fillParams(path), map[string]string{})
			f.expect(rec, method, path, 401, nil)
		})
	}
	if checked < 12 {
		t.Errorf("only %d workspace routes found", checked)
	}
}

func TestWorkspaceRequestsAreValidated(t *testing.T) {
	eachTeamFixture(t, func(t *testing.T, f *teamFixture) {
		ana := f.signUp("ana@example.com")
		tests := []struct {
			name, method, path, route string
			body                      any
			status                    int
		}{
			{"an empty name", "POST", "/api/v1/workspaces", "/api/v1/workspaces", map[string]string{"name": "  "}, 400},
			{"an unknown field", "POST", "/api/v1/workspaces", "/api/v1/workspaces", map[string]any{"name": "A", "kind": "personal"}, 400},
			{"a name that is not a string", "POST", "/api/v1/workspaces", "/api/v1/workspaces", map[string]any{"name": 5}, 400},
			{"no body", "POST", "/api/v1/workspaces", "/api/v1/workspaces", nil, 400},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				f.expect(f.call(ana, tt.method, tt.path, tt.body), tt.method, tt.route, tt.status, nil)
			})
		}
		var created struct{ Workspace workspaceJSON }
		f.expect(f.call(ana, "POST", "/api/v1/workspaces", map[string]string{"name": "T"}), "POST", "/api/v1/workspaces", 201, &created)
		inv := "/api/v1/workspaces/" + created.Workspace.ID + "/invitations"
		for _, body := range []map[string]string{
			{"email": "no-at-sign", "role": "viewer"},
			{"email": "x@example.com", "role": "admin"},
			{"email": "x@example.com"},
		} {
			f.expect(f.call(ana, "POST", inv, body), "POST", "/api/v1/workspaces/{id}/invitations", 400, nil)
		}
		rec := f.call(ana, "POST", "/api/v1/workspaces", map[string]string{"name": ""}, "es")
		if msg := errorOf(t, rec).Message; msg != "Datos no válidos: name: Escribe un nombre para el espacio de trabajo." {
			t.Errorf("Spanish message %q", msg)
		}
		// A cross-site request is refused before anything else.
		req := httptest.NewRequest("POST", "/api/v1/workspaces", strings.NewReader(`{"name":"X"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", "https://evil.example")
		req.Header.Set("Cookie", ana.cookie)
		cross := httptest.NewRecorder()
		f.api.mux.ServeHTTP(cross, req)
		f.expect(cross, "POST", "/api/v1/workspaces", 403, nil)
	})
}

// fillParams puts a fresh uuid in every {param} of a route.
func fillParams(path string) string {
	return chiParam.ReplaceAllStringFunc(path, func(string) string { return uuid.NewString() })
}
