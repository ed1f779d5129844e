package workspace_test

// The workspace service against both databases: every test runs on a SQLite file and on a fresh
// Postgres database. Users and their personal workspaces are inserted the way sign-up leaves them.

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"patrimonio/core"
	"patrimonio/internal/pgtest"
	"patrimonio/internal/testkit"
	"patrimonio/server/authz"
	"patrimonio/server/store"
	"patrimonio/server/workspace"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

type env struct {
	t   *testing.T
	db  *store.DB
	svc *workspace.Service
	now time.Time
}

func eachDialect(t *testing.T, f func(t *testing.T, e *env)) {
	t.Helper()
	testkit.Stores(t, func(t *testing.T, db *store.DB) {
		e := &env{t: t, db: db, svc: workspace.NewService(db), now: time.Date(2030, 3, 1, 12, 0, 0, 0, time.UTC)}
		e.svc.Now = func() time.Time { return e.now }
		f(t, e)
	})
}

var ctx = context.Background()

// user inserts a user with a verified e-mail address and a personal workspace, as sign-up and
// e-mail verification leave them, and returns the user id.
func (e *env) user(email string) string {
	return e.userVerified(email, true)
}

func (e *env) userVerified(email string, verified bool) string {
	e.t.Helper()
	id := uuid.NewString()
	var verifiedAt any
	if verified {
		verifiedAt = e.now
	}
	if _, err := e.db.Exec(ctx, `INSERT INTO users (id, email, email_verified_at, onboarding_step, created_at, updated_at)
		VALUES (?, ?, ?, 'done', ?, ?)`, id, email, verifiedAt, e.now, e.now); err != nil {
		e.t.Fatal(err)
	}
	ws := uuid.NewString()
	if _, err := e.db.Exec(ctx, `INSERT INTO workspaces (id, name, kind, created_at) VALUES (?, 'Personal', 'personal', ?)`, ws, e.now); err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.db.Exec(ctx, `INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES (?, ?, 'owner', ?)`, ws, id, e.now); err != nil {
		e.t.Fatal(err)
	}
	return id
}

func (e *env) personal(userID string) string {
	e.t.Helper()
	for _, w := range e.list(userID) {
		if w.Kind == authz.Personal {
			return w.ID
		}
	}
	e.t.Fatalf("user %s has no personal workspace", userID)
	return ""
}

func (e *env) list(userID string) []workspace.Workspace {
	e.t.Helper()
	ws, err := e.svc.List(ctx, userID)
	if err != nil {
		e.t.Fatal(err)
	}
	return ws
}

func (e *env) create(userID, name string) string {
	e.t.Helper()
	w, err := e.svc.Create(ctx, userID, name)
	if err != nil {
		e.t.Fatal(err)
	}
	return w.ID
}

// join invites email with role and has the user accept.
func (e *env) join(ownerID, workspaceID, userID, email string, role authz.Role) {
	e.t.Helper()
	inv, err := e.svc.Invite(ctx, ownerID, workspaceID, email, role)
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.svc.Accept(ctx, userID, inv.ID); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) role(userID, workspaceID string) authz.Role {
	e.t.Helper()
	r, err := e.svc.Role(ctx, userID, workspaceID)
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := core.ErrorCode(err); got != code {
		t.Fatalf("error = %v (code %q), want code %q", err, got, code)
	}
}

func TestCreatingATeamWorkspaceMakesTheCallerItsOwner(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		ana := e.user("ana@example.com")
		w, err := e.svc.Create(ctx, ana, "  Familia García  ")
		if err != nil {
			t.Fatal(err)
		}
		if w.Name != "Familia García" || w.Kind != authz.Team || w.Role != authz.Owner || !w.CreatedAt.Equal(e.now) {
			t.Errorf("created %+v", w)
		}
		e.create(ana, "aa first by name")
		got := e.list(ana)
		var summary []string
		for _, w := range got {
			summary = append(summary, string(w.Kind)+":"+w.Name+":"+string(w.Role))
		}
		want := "personal:Personal:owner team:aa first by name:owner team:Familia García:owner"
		if strings.Join(summary, " ") != want {
			t.Errorf("List = %v, want %s", summary, want)
		}
		if r := e.role(ana, w.ID); r != authz.Owner {
			t.Errorf("Role = %q, want owner", r)
		}
	})
}

func TestWorkspaceNamesAreChecked(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		ana := e.user("ana@example.com")
		for _, name := range []string{"", "   ", strings.Repeat("ñ", workspace.MaxNameLength+1), "tab\tinside", "bad\x00byte"} {
			_, err := e.svc.Create(ctx, ana, name)
			wantCode(t, err, core.EINVALID)
		}
		if _, err := e.svc.Create(ctx, ana, strings.Repeat("ñ", workspace.MaxNameLength)); err != nil {
			t.Errorf("a name of exactly %d characters: %v", workspace.MaxNameLength, err)
		}
		w := e.create(ana, "Old")
		_, err := e.svc.Rename(ctx, ana, w, " ")
		wantCode(t, err, core.EINVALID)
		renamed, err := e.svc.Rename(ctx, ana, w, "New")
		if err != nil || renamed.Name != "New" {
			t.Fatalf("Rename = %+v, %v", renamed, err)
		}
		d, err := e.svc.Get(ctx, ana, w)
		if err != nil || d.Name != "New" {
			t.Errorf("after rename Get = %+v, %v", d, err)
		}
	})
}

// TestANonMemberLearnsNothing: every call about a workspace the caller is not in answers exactly
// like a call about a workspace that does not exist.
func TestANonMemberLearnsNothing(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		ana, eve := e.user("ana@example.com"), e.user("eve@example.com")
		team := e.create(ana, "Team")
		missing := uuid.NewString()
		calls := map[string]func(id string) error{
			"get":    func(id string) error { _, err := e.svc.Get(ctx, eve, id); return err },
			"rename": func(id string) error { _, err := e.svc.Rename(ctx, eve, id, "Mine now"); return err },
			"delete": func(id string) error { return e.svc.Delete(ctx, eve, id) },
			"invite": func(id string) error {
				_, err := e.svc.Invite(ctx, eve, id, "eve2@example.com", authz.Viewer)
				return err
			},
			"remove":      func(id string) error { return e.svc.RemoveMember(ctx, eve, id, ana) },
			"leave":       func(id string) error { return e.svc.RemoveMember(ctx, eve, id, eve) },
			"change role": func(id string) error { _, err := e.svc.ChangeRole(ctx, eve, id, eve, authz.Owner); return err },
			"revoke":      func(id string) error { return e.svc.RevokeInvitation(ctx, eve, id, uuid.NewString()) },
		}
		for name, call := range calls {
			errTeam, errMissing := call(team), call(missing)
			if core.ErrorCode(errTeam) != core.ENOTFOUND || core.ErrorMessage(errTeam) != core.ErrorMessage(errMissing) ||
				core.ErrorCode(errMissing) != core.ENOTFOUND {
				t.Errorf("%s: on a foreign workspace %v, on a missing one %v; want the same not-found", name, errTeam, errMissing)
			}
		}
		if r := e.role(eve, team); r != authz.None {
			t.Errorf("eve's role = %q, want none", r)
		}
		if d, err := e.svc.Get(ctx, ana, team); err != nil || d.Name != "Team" || len(d.Members) != 1 {
			t.Errorf("the workspace changed: %+v, %v", d, err)
		}
	})
}

func TestAnInviteeSeesAndAcceptsTheInvitation(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		ana, bea, carl := e.user("ana@example.com"), e.user("bea@example.com"), e.user("carl@example.com")
		team := e.create(ana, "Family")

		inv, err := e.svc.Invite(ctx, ana, team, "  Bea@Example.COM ", authz.Editor)
		if err != nil {
			t.Fatal(err)
		}
		if inv.Email != "bea@example.com" || inv.Role != authz.Editor || inv.WorkspaceName != "Family" ||
			inv.InvitedBy != ana || inv.InvitedByEmail != "ana@example.com" ||
			!inv.ExpiresAt.Equal(e.now.Add(workspace.DefaultInvitationTTL)) || inv.AcceptedAt != nil {
			t.Errorf("invitation = %+v", inv)
		}

		mine, err := e.svc.MyInvitations(ctx, bea)
		if err != nil || len(mine) != 1 || mine[0].ID != inv.ID || mine[0].WorkspaceName != "Family" {
			t.Fatalf("bea's invitations = %+v, %v", mine, err)
		}
		if others, _ := e.svc.MyInvitations(ctx, carl); len(others) != 0 {
			t.Errorf("carl sees %+v", others)
		}
		_, err = e.svc.Accept(ctx, carl, inv.ID)
		wantCode(t, err, core.ENOTFOUND)
		_, err = e.svc.Accept(ctx, ana, inv.ID)
		wantCode(t, err, core.ENOTFOUND)

		d, _ := e.svc.Get(ctx, ana, team)
		if len(d.Invitations) != 1 || d.Invitations[0].ID != inv.ID {
			t.Errorf("the owner sees pending invitations %+v", d.Invitations)
		}

		e.now = e.now.Add(time.Hour)
		w, err := e.svc.Accept(ctx, bea, inv.ID)
		if err != nil {
			t.Fatal(err)
		}
		if w.ID != team || w.Role != authz.Editor || w.Name != "Family" {
			t.Errorf("accepted into %+v", w)
		}
		if r := e.role(bea, team); r != authz.Editor {
			t.Errorf("bea's role = %q", r)
		}
		if mine, _ := e.svc.MyInvitations(ctx, bea); len(mine) != 0 {
			t.Errorf("after accepting, bea still sees %+v", mine)
		}
		// Accepting again answers the same, and changes nothing.
		if again, err := e.svc.Accept(ctx, bea, inv.ID); err != nil || again.Role != authz.Editor {
			t.Errorf("accepting again = %+v, %v", again, err)
		}
		d, _ = e.svc.Get(ctx, bea, team)
		if len(d.Members) != 2 || d.Members[0].UserID != ana || d.Members[0].Role != authz.Owner ||
			d.Members[1].UserID != bea || d.Members[1].Role != authz.Editor || !d.Members[1].JoinedAt.Equal(e.now) {
			t.Errorf("members = %+v", d.Members)
		}
		if len(d.Invitations) != 0 {
			t.Errorf("the accepted invitation is still pending: %+v", d.Invitations)
		}
		// Bea's list has the team workspace with her role.
		ws := e.list(bea)
		if len(ws) != 2 || ws[1].ID != team || ws[1].Role != authz.Editor {
			t.Errorf("bea's workspaces = %+v", ws)
		}
	})
}

func TestInvitationsNeedAVerifiedAddressAndExpire(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		ana := e.user("ana@example.com")
		unverified := e.userVerified("dan@example.com", false)
		late := e.user("lea@example.com")
		team := e.create(ana, "Team")

		toDan, err := e.svc.Invite(ctx, ana, team, "dan@example.com", authz.Viewer)
		if err != nil {
			t.Fatal(err)
		}
		if mine, _ := e.svc.MyInvitations(ctx, unverified); len(mine) != 0 {
			t.Errorf("an unverified address sees %+v", mine)
		}
		_, err = e.svc.Accept(ctx, unverified, toDan.ID)
		wantCode(t, err, core.ENOTFOUND)

		toLea, err := e.svc.Invite(ctx, ana, team, "lea@example.com", authz.Viewer)
		if err != nil {
			t.Fatal(err)
		}
		e.now = e.now.Add(workspace.DefaultInvitationTTL)
		if mine, _ := e.svc.MyInvitations(ctx, late); len(mine) != 0 {
			t.Errorf("an expired invitation is listed: %+v", mine)
		}
		_, err = e.svc.Accept(ctx, late, toLea.ID)
		wantCode(t, err, core.ECONFLICT)
		if r := e.role(late, team); r != authz.None {
			t.Errorf("an expired invitation made lea %q", r)
		}
		// Inviting again gives a fresh invitation that replaces the expired one.
		again, err := e.svc.Invite(ctx, ana, team, "lea@example.com", authz.Editor)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Accept(ctx, late, toLea.ID); core.ErrorCode(err) != core.ENOTFOUND {
			t.Errorf("the replaced invitation: %v, want not found", err)
		}
		if _, err := e.svc.Accept(ctx, late, again.ID); err != nil {
			t.Fatal(err)
		}
		if r := e.role(late, team); r != authz.Editor {
			t.Errorf("lea's role = %q, want editor", r)
		}
		_, err = e.svc.Accept(ctx, late, "not-a-uuid")
		wantCode(t, err, core.ENOTFOUND)
	})
}

// Anyone may sign up and in with an address they do not own; until it is verified, its account
// may not send invitations, which show that address as who sent them.
func TestAnInviterNeedsAVerifiedAddress(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		squatter := e.userVerified("boss@example.com", false)
		team := e.create(squatter, "Team")
		_, err := e.svc.Invite(ctx, squatter, team, "bea@example.com", authz.Viewer)
		wantCode(t, err, core.EFORBIDDEN)
		if !strings.Contains(core.ErrorMessage(err), "Verifica primero tu correo") {
			t.Errorf("the refusal says %q", core.ErrorMessage(err))
		}
		var n int
		if err := e.db.QueryRow(ctx, `SELECT COUNT(*) FROM invitations WHERE workspace_id = ?`, team).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("%d invitations were stored", n)
		}
		// Once the address is verified, the same owner invites.
		if _, err := e.db.Exec(ctx, `UPDATE users SET email_verified_at = ? WHERE id = ?`, e.now, squatter); err != nil {
			t.Fatal(err)
		}
		inv, err := e.svc.Invite(ctx, squatter, team, "bea@example.com", authz.Viewer)
		if err != nil {
			t.Fatal(err)
		}
		if inv.InvitedByEmail != "boss@example.com" {
			t.Errorf("invited by %q", inv.InvitedByEmail)
		}
	})
}

func TestWhoMayInviteWhom(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		ana, ed, vic := e.user("ana@example.com"), e.user("ed@example.com"), e.user("vic@example.com")
		team := e.create(ana, "Team")
		e.join(ana, team, ed, "ed@example.com", authz.Editor)
		e.join(ana, team, vic, "vic@example.com", authz.Viewer)

		tests := []struct {
			name  string
			by    string
			email string
			role  authz.Role
			want  string
		}{
			{"an owner invites an owner", ana, "o@example.com", authz.Owner, ""},
			{"an editor invites an editor", ed, "e@example.com", authz.Editor, ""},
			{"an editor invites a viewer", ed, "v@example.com", authz.Viewer, ""},
			{"an editor cannot invite an owner", ed, "o2@example.com", authz.Owner, core.EFORBIDDEN},
			{"a viewer cannot invite", vic, "v2@example.com", authz.Viewer, core.EFORBIDDEN},
			{"a member cannot be invited again", ana, "ED@example.com", authz.Viewer, core.ECONFLICT},
			{"an unknown role is refused", ana, "x@example.com", "admin", core.EINVALID},
			{"a malformed address is refused", ana, "not an address", authz.Viewer, core.EINVALID},
			{"a display name is refused", ana, "Bob <bob@example.com>", authz.Viewer, core.EINVALID},
			{"an address without a domain dot is refused", ana, "bob@localhost", authz.Viewer, core.EINVALID},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, err := e.svc.Invite(ctx, tt.by, team, tt.email, tt.role)
				wantCode(t, err, tt.want)
			})
		}
		_, err := e.svc.Invite(ctx, ana, e.personal(ana), "friend@example.com", authz.Viewer)
		wantCode(t, err, core.EFORBIDDEN)

		// Viewers see the members but not the pending invitations.
		d, err := e.svc.Get(ctx, vic, team)
		if err != nil || len(d.Members) != 3 || d.Invitations != nil {
			t.Errorf("a viewer's view = %+v, %v", d, err)
		}
		d, _ = e.svc.Get(ctx, ed, team)
		if len(d.Invitations) != 3 {
			t.Errorf("an editor sees %d pending invitations, want 3", len(d.Invitations))
		}
	})
}

func TestRevokingAndDecliningInvitations(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		ana, ed, bea := e.user("ana@example.com"), e.user("ed@example.com"), e.user("bea@example.com")
		team := e.create(ana, "Team")
		other := e.create(ana, "Other")
		e.join(ana, team, ed, "ed@example.com", authz.Editor)

		asOwner, _ := e.svc.Invite(ctx, ana, team, "o@example.com", authz.Owner)
		asViewer, _ := e.svc.Invite(ctx, ana, team, "v@example.com", authz.Viewer)
		toBea, _ := e.svc.Invite(ctx, ana, team, "bea@example.com", authz.Viewer)

		wantCode(t, e.svc.RevokeInvitation(ctx, ed, team, asOwner.ID), core.EFORBIDDEN)
		wantCode(t, e.svc.RevokeInvitation(ctx, ana, other, asViewer.ID), core.ENOTFOUND)
		wantCode(t, e.svc.RevokeInvitation(ctx, ed, team, asViewer.ID), "")
		wantCode(t, e.svc.RevokeInvitation(ctx, ed, team, asViewer.ID), core.ENOTFOUND)
		wantCode(t, e.svc.RevokeInvitation(ctx, ana, team, asOwner.ID), "")

		wantCode(t, e.svc.Decline(ctx, ed, toBea.ID), core.ENOTFOUND)
		wantCode(t, e.svc.Decline(ctx, bea, toBea.ID), "")
		if mine, _ := e.svc.MyInvitations(ctx, bea); len(mine) != 0 {
			t.Errorf("declined but listed: %+v", mine)
		}
		_, err := e.svc.Accept(ctx, bea, toBea.ID)
		wantCode(t, err, core.ENOTFOUND)
		if d, _ := e.svc.Get(ctx, ana, team); len(d.Invitations) != 0 {
			t.Errorf("pending after revoking and declining: %+v", d.Invitations)
		}
	})
}

func TestRemovingMembersAndLeaving(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		ana, ed, vic, olga := e.user("ana@example.com"), e.user("ed@example.com"), e.user("vic@example.com"), e.user("olga@example.com")
		team := e.create(ana, "Team")
		e.join(ana, team, ed, "ed@example.com", authz.Editor)
		e.join(ana, team, vic, "vic@example.com", authz.Viewer)

		wantCode(t, e.svc.RemoveMember(ctx, ed, team, vic), core.EFORBIDDEN)
		wantCode(t, e.svc.RemoveMember(ctx, vic, team, ed), core.EFORBIDDEN)
		wantCode(t, e.svc.RemoveMember(ctx, ana, team, olga), core.ENOTFOUND)
		wantCode(t, e.svc.RemoveMember(ctx, ana, team, ana), core.ECONFLICT) // the last owner cannot leave
		wantCode(t, e.svc.RemoveMember(ctx, ana, e.personal(ana), ana), core.EFORBIDDEN)

		wantCode(t, e.svc.RemoveMember(ctx, ana, team, vic), "")
		if r := e.role(vic, team); r != authz.None {
			t.Errorf("removed viewer still has %q", r)
		}
		_, err := e.svc.Get(ctx, vic, team)
		wantCode(t, err, core.ENOTFOUND)

		wantCode(t, e.svc.RemoveMember(ctx, ed, team, ed), "") // an editor leaves
		if r := e.role(ed, team); r != authz.None {
			t.Errorf("editor who left still has %q", r)
		}

		// With a second owner, one owner can remove the other and then the last one stays.
		e.join(ana, team, olga, "olga@example.com", authz.Owner)
		wantCode(t, e.svc.RemoveMember(ctx, olga, team, ana), "")
		wantCode(t, e.svc.RemoveMember(ctx, olga, team, olga), core.ECONFLICT)
		d, _ := e.svc.Get(ctx, olga, team)
		if len(d.Members) != 1 || d.Members[0].UserID != olga || d.Members[0].Role != authz.Owner {
			t.Errorf("members = %+v", d.Members)
		}
	})
}

func TestChangingRoles(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		ana, ed, vic := e.user("ana@example.com"), e.user("ed@example.com"), e.user("vic@example.com")
		team := e.create(ana, "Team")
		e.join(ana, team, ed, "ed@example.com", authz.Editor)
		e.join(ana, team, vic, "vic@example.com", authz.Viewer)

		_, err := e.svc.ChangeRole(ctx, ed, team, vic, authz.Editor)
		wantCode(t, err, core.EFORBIDDEN)
		_, err = e.svc.ChangeRole(ctx, ed, team, vic, authz.Owner)
		wantCode(t, err, core.EFORBIDDEN)
		_, err = e.svc.ChangeRole(ctx, ana, team, ana, authz.Editor) // the last owner steps down
		wantCode(t, err, core.ECONFLICT)
		_, err = e.svc.ChangeRole(ctx, ana, e.personal(ana), ana, authz.Owner)
		wantCode(t, err, core.EFORBIDDEN)
		_, err = e.svc.ChangeRole(ctx, ana, team, vic, "boss")
		wantCode(t, err, core.EINVALID)

		m, err := e.svc.ChangeRole(ctx, ana, team, vic, authz.Owner)
		if err != nil || m.UserID != vic || m.Role != authz.Owner || m.Email != "vic@example.com" {
			t.Fatalf("ChangeRole = %+v, %v", m, err)
		}
		// Now that there are two owners, ana can step down, and vic can demote ed.
		if m, err := e.svc.ChangeRole(ctx, ana, team, ana, authz.Viewer); err != nil || m.Role != authz.Viewer {
			t.Fatalf("stepping down = %+v, %v", m, err)
		}
		if _, err := e.svc.ChangeRole(ctx, vic, team, ed, authz.Viewer); err != nil {
			t.Fatal(err)
		}
		for user, want := range map[string]authz.Role{ana: authz.Viewer, ed: authz.Viewer, vic: authz.Owner} {
			if r := e.role(user, team); r != want {
				t.Errorf("role of %s = %q, want %q", user, r, want)
			}
		}
	})
}

func TestDeletingAWorkspace(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		ana, ed, bea := e.user("ana@example.com"), e.user("ed@example.com"), e.user("bea@example.com")
		team := e.create(ana, "Team")
		e.join(ana, team, ed, "ed@example.com", authz.Editor)
		inv, _ := e.svc.Invite(ctx, ana, team, "bea@example.com", authz.Viewer)

		wantCode(t, e.svc.Delete(ctx, ed, team), core.EFORBIDDEN)
		wantCode(t, e.svc.Delete(ctx, ana, e.personal(ana)), core.EFORBIDDEN)
		wantCode(t, e.svc.Delete(ctx, ana, team), "")

		_, err := e.svc.Get(ctx, ana, team)
		wantCode(t, err, core.ENOTFOUND)
		if ws := e.list(ed); len(ws) != 1 || ws[0].Kind != authz.Personal {
			t.Errorf("ed's workspaces after the deletion = %+v", ws)
		}
		_, err = e.svc.Accept(ctx, bea, inv.ID)
		wantCode(t, err, core.ENOTFOUND)
		var left int
		if err := e.db.QueryRow(ctx, `SELECT (SELECT COUNT(*) FROM memberships WHERE workspace_id = ?) +
			(SELECT COUNT(*) FROM invitations WHERE workspace_id = ?)`, team, team).Scan(&left); err != nil || left != 0 {
			t.Errorf("rows left behind: %d, %v", left, err)
		}
		if _, err := e.svc.Get(ctx, ana, e.personal(ana)); err != nil {
			t.Errorf("the personal workspace: %v", err)
		}
	})
}

// TestTwoOwnersRemovingEachOtherAtOnceLeaveOne: the owner count is read under the workspace's lock,
// so concurrent removals cannot both pass the last-owner rule.
func TestTwoOwnersRemovingEachOtherAtOnceLeaveOne(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		for round := range 5 {
			ana, olga := e.user(uuid.NewString()+"@example.com"), e.user(uuid.NewString()+"@example.com")
			team := e.create(ana, "Team")
			var olgaEmail string
			if err := e.db.QueryRow(ctx, `SELECT email FROM users WHERE id = ?`, olga).Scan(&olgaEmail); err != nil {
				t.Fatal(err)
			}
			e.join(ana, team, olga, olgaEmail, authz.Owner)

			var wg sync.WaitGroup
			errs := make([]error, 2)
			for i, pair := range [][2]string{{ana, olga}, {olga, ana}} {
				wg.Go(func() { errs[i] = e.svc.RemoveMember(ctx, pair[0], team, pair[1]) })
			}
			wg.Wait()
			owners := 0
			for _, u := range []string{ana, olga} {
				if e.role(u, team) == authz.Owner {
					owners++
				}
			}
			if owners != 1 {
				t.Fatalf("round %d: %d owners left (errors %v, %v)", round, owners, errs[0], errs[1])
			}
			ok := 0
			for _, err := range errs {
				if err == nil {
					ok++
				} else if c := core.ErrorCode(err); c != core.ECONFLICT && c != core.ENOTFOUND {
					t.Fatalf("round %d: unexpected error %v", round, err)
				}
			}
			if ok != 1 {
				t.Fatalf("round %d: %d removals succeeded, want 1 (%v, %v)", round, ok, errs[0], errs[1])
			}
		}
	})
}

func TestCanAnswersLikeTheActionWould(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		ana, vic, eve := e.user("ana@example.com"), e.user("vic@example.com"), e.user("eve@example.com")
		team := e.create(ana, "Team")
		e.join(ana, team, vic, "vic@example.com", authz.Viewer)
		wantCode(t, e.svc.Can(ctx, ana, team, authz.WorkspaceDelete), "")
		wantCode(t, e.svc.Can(ctx, vic, team, authz.WorkspaceDelete), core.EFORBIDDEN)
		wantCode(t, e.svc.Can(ctx, vic, team, authz.RecordRead), "")
		wantCode(t, e.svc.Can(ctx, vic, team, authz.RecordWrite), core.EFORBIDDEN)
		wantCode(t, e.svc.Can(ctx, eve, team, authz.WorkspaceRead), core.ENOTFOUND)
		wantCode(t, e.svc.Can(ctx, ana, e.personal(ana), authz.WorkspaceDelete), core.EFORBIDDEN)
		wantCode(t, e.svc.Can(ctx, ana, uuid.NewString(), authz.WorkspaceRead), core.ENOTFOUND)
	})
}

// The detail answers what the caller may do, and each offer holds: what is offered succeeds, what
// is not offered is refused.
func TestTheDetailOffersWhatTheCallerMayDo(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		ana, ed, vic := e.user("ana@example.com"), e.user("ed@example.com"), e.user("vic@example.com")
		team := e.create(ana, "Team")
		e.join(ana, team, ed, "ed@example.com", authz.Editor)
		e.join(ana, team, vic, "vic@example.com", authz.Viewer)
		if _, err := e.svc.Invite(ctx, ana, team, "olga@example.com", authz.Owner); err != nil {
			t.Fatal(err)
		}

		owner, err := e.svc.Get(ctx, ana, team)
		if err != nil {
			t.Fatal(err)
		}
		if !owner.Offer.Rename || !owner.Offer.Delete || owner.Offer.Leave || len(owner.Offer.InviteRoles) != 3 {
			t.Errorf("the only owner is offered %+v", owner.Offer)
		}
		for _, m := range owner.Members {
			switch m.UserID {
			case ana:
				if m.Offer.Leave || m.Offer.Remove {
					t.Errorf("the last owner is offered %+v on themselves", m.Offer)
				}
			case vic:
				if !m.Offer.Remove || len(m.Offer.Roles) != 2 {
					t.Errorf("the owner is offered %+v on the viewer", m.Offer)
				}
			}
		}
		if len(owner.Invitations) != 1 || !owner.Invitations[0].Withdraw {
			t.Errorf("the owner's invitations = %+v", owner.Invitations)
		}

		editor, err := e.svc.Get(ctx, ed, team)
		if err != nil {
			t.Fatal(err)
		}
		if editor.Offer.Rename || !editor.Offer.Leave || len(editor.Offer.InviteRoles) != 2 || len(editor.Invitations) != 1 || editor.Invitations[0].Withdraw {
			t.Errorf("the editor is offered %+v with invitations %+v", editor.Offer, editor.Invitations)
		}
		for _, m := range editor.Members {
			if m.UserID == vic && (m.Offer.Remove || len(m.Offer.Roles) > 0) {
				t.Errorf("the editor is offered %+v on the viewer", m.Offer)
			}
		}
		// What is not offered is refused, what is offered succeeds.
		wantCode(t, e.svc.RemoveMember(ctx, ed, team, vic), core.EFORBIDDEN)
		wantCode(t, e.svc.RevokeInvitation(ctx, ed, team, editor.Invitations[0].ID), core.EFORBIDDEN)

		viewer, err := e.svc.Get(ctx, vic, team)
		if err != nil {
			t.Fatal(err)
		}
		if viewer.Offer.WriteRecords || viewer.Invitations != nil || !viewer.Offer.Leave {
			t.Errorf("the viewer is offered %+v with invitations %+v", viewer.Offer, viewer.Invitations)
		}
		wantCode(t, e.svc.RemoveMember(ctx, vic, team, vic), "")
	})
}

// An invitation offers only what its sender can still give: when the sender is demoted, their
// pending invitations above what they may now invite are withdrawn; when they are removed or leave,
// all of them. Otherwise an owner demoted (or removed) by the others could still make someone an
// owner through an invitation sent before.
func TestAnInvitationOffersOnlyWhatItsSenderCanStillGive(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		ana, bob, ed := e.user("ana@example.com"), e.user("bob@example.com"), e.user("ed@example.com")
		mal := e.user("mal@example.com")
		team := e.create(ana, "Team")
		e.join(ana, team, bob, "bob@example.com", authz.Owner)
		e.join(ana, team, ed, "ed@example.com", authz.Editor)

		asOwner, err := e.svc.Invite(ctx, bob, team, "mal@example.com", authz.Owner)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Invite(ctx, bob, team, "eve@example.com", authz.Editor); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Invite(ctx, ana, team, "zoe@example.com", authz.Owner); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Invite(ctx, ed, team, "vic@example.com", authz.Viewer); err != nil {
			t.Fatal(err)
		}
		pending := func() []string {
			t.Helper()
			d, err := e.svc.Get(ctx, ana, team)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, inv := range d.Invitations {
				out = append(out, inv.Email)
			}
			slices.Sort(out)
			return out
		}

		// Bob is made an editor: his owner invitation goes, his editor one stays; Ana's stays.
		if _, err := e.svc.ChangeRole(ctx, ana, team, bob, authz.Editor); err != nil {
			t.Fatal(err)
		}
		if got, want := pending(), []string{"eve@example.com", "vic@example.com", "zoe@example.com"}; !slices.Equal(got, want) {
			t.Fatalf("pending after demoting bob = %v, want %v", got, want)
		}
		_, err = e.svc.Accept(ctx, mal, asOwner.ID)
		wantCode(t, err, core.ENOTFOUND)
		if r := e.role(mal, team); r != authz.None {
			t.Fatalf("mal's role = %q, want none", r)
		}

		// Bob is removed: his remaining invitation goes too. Ed leaves: his goes with him.
		if err := e.svc.RemoveMember(ctx, ana, team, bob); err != nil {
			t.Fatal(err)
		}
		if err := e.svc.RemoveMember(ctx, ed, team, ed); err != nil {
			t.Fatal(err)
		}
		if got, want := pending(), []string{"zoe@example.com"}; !slices.Equal(got, want) {
			t.Fatalf("pending after removing bob and ed leaving = %v, want %v", got, want)
		}
	})
}
