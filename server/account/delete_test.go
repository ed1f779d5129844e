package account_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"patrimonio/core"
	"patrimonio/server/account"
	"patrimonio/server/authz"
)

// teamWorkspace creates a team workspace with the members and their roles, straight in the
// database (the workspace service is another package's), and returns its id.
func (e *env) teamWorkspace(t *testing.T, name string, roles map[string]string) string {
	t.Helper()
	id := uuid.NewString()
	if _, err := e.db.Exec(e.ctx, `INSERT INTO workspaces (id, name, kind, created_at) VALUES (?, ?, 'team', ?)`, id, name, e.clock.Now()); err != nil {
		t.Fatal(err)
	}
	for userID, role := range roles {
		if _, err := e.db.Exec(e.ctx, `INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)`,
			id, userID, role, e.clock.Now()); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

func (e *env) personalWorkspace(t *testing.T, userID string) string {
	t.Helper()
	ms, err := e.svc.Users.Workspaces(e.ctx, userID)
	if err != nil || len(ms) == 0 || ms[0].Kind != authz.Personal {
		t.Fatalf("workspaces of %s: %+v, %v", userID, ms, err)
	}
	return ms[0].ID
}

func (e *env) count(t *testing.T, query string, args ...any) int {
	t.Helper()
	var n int
	if err := e.db.QueryRow(e.ctx, query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// userRows counts the rows that belong to the user in every table that keeps user data.
func (e *env) userRows(t *testing.T, userID string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, table := range []string{"users", "sessions", "memberships", "email_codes", "totp", "recovery_codes",
		"passkey_users", "passkeys", "passkey_ceremonies", "sync_clients"} {
		col := "user_id"
		if table == "users" {
			col = "id"
		}
		out[table] = e.count(t, `SELECT COUNT(*) FROM `+table+` WHERE `+col+` = ?`, userID)
	}
	return out
}

// addPasskey stores a passkey of the user as the passkey service would (its package is another).
func (e *env) addPasskey(t *testing.T, userID, sessionToken string) {
	t.Helper()
	now := e.clock.Now()
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO passkey_users (user_id, user_handle, created_at) VALUES (?, ?, ?)`, []any{userID, []byte(userID), now}},
		{`INSERT INTO passkeys (id, user_id, credential_id, public_key, aaguid, attestation_format, user_verified, backup_eligible,
			backup_state, rp_id, name, created_at) VALUES (?, ?, ?, ?, ?, 'none', ?, ?, ?, 'localhost', 'Llave', ?)`,
			[]any{uuid.NewString(), userID, []byte("cred-" + userID), []byte("key"), []byte{}, true, false, false, now}},
		{`INSERT INTO passkey_ceremonies (challenge, kind, user_id, session_id, data, created_at, expires_at) VALUES (?, 'register', ?, ?, '{}', ?, ?)`,
			[]any{"challenge-" + userID, userID, account.SessionID(sessionToken), now, now.Add(5 * time.Minute)}},
	} {
		if _, err := e.db.Exec(e.ctx, q.sql, q.args...); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDeletingTheAccountNeedsARecentProof(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		u, token := e.signUp(t, "ana@example.com")
		e.clock.Advance(10 * time.Minute)
		sess, u := e.authenticate(t, token)
		wantCode(t, e.svc.Profile.DeleteAccount(e.ctx, u, sess), core.EREVERIFY)
		if n := e.userRows(t, u.ID)["users"]; n != 1 {
			t.Fatal("the user was deleted without a proof")
		}
		// A fresh proof opens it.
		if _, err := e.svc.Reverify.Reverify(e.ctx, u, sess, account.MethodPassword, goodPassword, meta.IP); err != nil {
			t.Fatal(err)
		}
		sess, u = e.authenticate(t, token)
		if err := e.svc.Profile.DeleteAccount(e.ctx, u, sess); err != nil {
			t.Fatal(err)
		}
	})
}

func TestDeletingTheAccountDeletesEverythingOfTheUserAndNothingElse(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		bob, bobToken := e.signUpVerified(t, "bob@example.com")
		e.enableTOTP(t, bobToken)
		e.addPasskey(t, bob.ID, bobToken)
		ana, token := e.signUpVerified(t, "ana@example.com")
		e.enableTOTP(t, token)
		e.addPasskey(t, ana.ID, token)
		second := mustSignIn(t, e, "ana@example.com") // waiting for its second factor
		sess, ana := e.authenticate(t, token)
		if err := e.svc.Reverify.SendReverifyCode(e.ctx, ana); err != nil {
			t.Fatal(err)
		}

		personal := e.personalWorkspace(t, ana.ID)
		bobsPersonal := e.personalWorkspace(t, bob.ID)
		alone := e.teamWorkspace(t, "Solo yo", map[string]string{ana.ID: "owner"})
		shared := e.teamWorkspace(t, "Compartido", map[string]string{ana.ID: "owner", bob.ID: "owner"})
		bobs := e.teamWorkspace(t, "De Bob", map[string]string{bob.ID: "owner", ana.ID: "editor"})
		if _, err := e.db.Exec(e.ctx, `INSERT INTO invitations (id, workspace_id, email, role, invited_by, created_at, expires_at)
			VALUES (?, ?, 'cid@example.com', 'viewer', ?, ?, ?), (?, ?, 'dan@example.com', 'viewer', ?, ?, ?)`,
			uuid.NewString(), alone, ana.ID, e.clock.Now(), e.clock.Now().Add(time.Hour),
			uuid.NewString(), shared, ana.ID, e.clock.Now(), e.clock.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		bobBefore := e.userRows(t, bob.ID)
		if rows := e.userRows(t, ana.ID); rows["sessions"] != 2 || rows["memberships"] != 4 || rows["totp"] != 1 || rows["recovery_codes"] != 10 ||
			rows["email_codes"] != 2 || rows["passkeys"] != 1 || rows["passkey_ceremonies"] != 1 {
			t.Fatalf("Ana's rows before the deletion %v", rows)
		}

		if err := e.svc.Profile.DeleteAccount(e.ctx, ana, sess); err != nil {
			t.Fatal(err)
		}

		for table, n := range e.userRows(t, ana.ID) {
			if n != 0 {
				t.Errorf("%d rows of Ana are left in %s", n, table)
			}
		}
		for _, id := range []string{personal, alone} {
			if n := e.count(t, `SELECT COUNT(*) FROM workspaces WHERE id = ?`, id); n != 0 {
				t.Errorf("workspace %s of Ana alone was kept", id)
			}
		}
		if n := e.count(t, `SELECT COUNT(*) FROM invitations WHERE workspace_id = ?`, alone); n != 0 {
			t.Errorf("the invitations of a deleted workspace were kept")
		}
		// Bob keeps everything: his account, his workspaces, the shared one (he owns it too), with
		// its invitation, whose inviter is now unknown.
		if got := e.userRows(t, bob.ID); fmt.Sprint(got) != fmt.Sprint(bobBefore) || got["recovery_codes"] != 10 || got["memberships"] != 3 {
			t.Errorf("Bob's rows changed: before %v, after %v", bobBefore, got)
		}
		for _, id := range []string{bobsPersonal, shared, bobs} {
			if n := e.count(t, `SELECT COUNT(*) FROM workspaces WHERE id = ?`, id); n != 1 {
				t.Errorf("Bob's workspace %s was deleted", id)
			}
		}
		if n := e.count(t, `SELECT COUNT(*) FROM invitations WHERE workspace_id = ? AND invited_by IS NULL`, shared); n != 1 {
			t.Errorf("the shared workspace's invitation was not kept with its inviter cleared")
		}
		// Every session of Ana has ended.
		for _, tok := range []string{token, second} {
			_, _, err := e.svc.Sessions.Authenticate(e.ctx, tok)
			wantCode(t, err, core.EUNAUTHORIZED)
		}
		// The address is free again.
		if _, _, err := e.svc.Signup.SignUp(e.ctx, "ana@example.com", goodPassword, meta); err != nil {
			t.Fatalf("signing up again with the address: %v", err)
		}
	})
}

func TestDeletingTheAccountDeletesTheSyncDataOfItsWorkspaces(t *testing.T) {
	// The sync tables (migration 0005) hang off workspaces and users with ON DELETE CASCADE, but for
	// the record states and the change log, which members.DeleteWorkspace deletes (0016); this
	// test writes a row in each, as the sync engine would, and checks that none is left.
	dialects(t, func(t *testing.T, e *env) {
		ana, token := e.signUp(t, "ana@example.com")
		bob, _ := e.signUp(t, "bob@example.com")
		personal := e.personalWorkspace(t, ana.ID)
		bobsPersonal := e.personalWorkspace(t, bob.ID)
		now := e.clock.Now()
		for _, w := range []struct{ workspace, client, user string }{{personal, "client-ana", ana.ID}, {bobsPersonal, "client-bob", bob.ID}} {
			for _, q := range []struct {
				sql  string
				args []any
			}{
				{`INSERT INTO sync_workspaces (workspace_id, seq, gc_seq, updated_at) VALUES (?, 1, 0, ?)`, []any{w.workspace, now}},
				{`INSERT INTO sync_records (workspace_id, collection, record_id, seq, deleted, conflicts, state, updated_at)
					VALUES (?, 'assets', 'r1', 1, ?, 1, '{}', ?)`, []any{w.workspace, false, now}},
				{`INSERT INTO sync_changes (workspace_id, seq, collection, record_id, client_id, mutation_id, mutation, created_at)
					VALUES (?, 1, 'assets', 'r1', ?, 1, '{}', ?)`, []any{w.workspace, w.client, now}},
				{`INSERT INTO sync_conflicts (workspace_id, collection, record_id, field, stamp, value, author, seq, created_at)
					VALUES (?, 'assets', 'r1', 'name', 's1', '"Casa"', ?, 1, ?)`, []any{w.workspace, w.client, now}},
				{`INSERT INTO sync_clients (client_id, user_id, created_at, last_seen_at) VALUES (?, ?, ?, ?)`, []any{w.client, w.user, now, now}},
				{`INSERT INTO sync_client_workspaces (client_id, workspace_id, last_mutation_id, updated_at) VALUES (?, ?, 1, ?)`, []any{w.client, w.workspace, now}},
				{`INSERT INTO sync_rejections (client_id, mutation_id, workspace_id, code, issues, created_at) VALUES (?, 2, ?, 'invalid', '[]', ?)`, []any{w.client, w.workspace, now}},
			} {
				if _, err := e.db.Exec(e.ctx, q.sql, q.args...); err != nil {
					t.Fatalf("%s: %v", strings.Fields(q.sql)[2], err)
				}
			}
		}
		sess, ana := e.authenticate(t, token)
		if err := e.svc.Profile.DeleteAccount(e.ctx, ana, sess); err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct {
			table, where string
			arg          string
		}{
			{"sync_workspaces", "workspace_id", personal}, {"sync_records", "workspace_id", personal},
			{"sync_changes", "workspace_id", personal}, {"sync_conflicts", "workspace_id", personal},
			{"sync_clients", "client_id", "client-ana"}, {"sync_client_workspaces", "client_id", "client-ana"},
			{"sync_rejections", "client_id", "client-ana"},
		} {
			if n := e.count(t, `SELECT COUNT(*) FROM `+tt.table+` WHERE `+tt.where+` = ?`, tt.arg); n != 0 {
				t.Errorf("%d rows of Ana's are left in %s", n, tt.table)
			}
			other := bobsPersonal
			if tt.where == "client_id" {
				other = "client-bob"
			}
			if n := e.count(t, `SELECT COUNT(*) FROM `+tt.table+` WHERE `+tt.where+` = ?`, other); n != 1 {
				t.Errorf("Bob's row in %s is gone (%d left)", tt.table, n)
			}
		}
	})
}

func TestTheLastOwnerOfAWorkspaceWithOtherMembersCannotDeleteTheAccount(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		ana, token := e.signUp(t, "ana@example.com")
		bob, _ := e.signUp(t, "bob@example.com")
		family := e.teamWorkspace(t, "Familia García", map[string]string{ana.ID: "owner", bob.ID: "viewer"})
		sess, ana := e.authenticate(t, token)

		err := e.svc.Profile.DeleteAccount(e.ctx, ana, sess)
		wantCode(t, err, core.ECONFLICT)
		if got, want := core.ErrorMessage(err), "No puedes eliminar tu cuenta: eres el único propietario de «Familia García», que tiene otros miembros. "+
			"Haz propietario a otro miembro o elimina ese espacio de trabajo antes."; got != want {
			t.Fatalf("message %q, want %q", got, want)
		}
		// Nothing was deleted.
		if rows := e.userRows(t, ana.ID); rows["users"] != 1 || rows["sessions"] != 1 || rows["memberships"] != 2 {
			t.Fatalf("Ana's rows after the refusal %v", rows)
		}
		e.authenticate(t, token)

		// Two such workspaces are both named, in English too.
		e.teamWorkspace(t, "Club", map[string]string{ana.ID: "owner", bob.ID: "editor"})
		err = e.svc.Profile.DeleteAccount(en(e.ctx), ana, sess)
		if got, want := core.ErrorMessage(err), "You cannot delete your account: you are the only owner of these workspaces, which have other members: "+
			"\u201cClub\u201d, \u201cFamilia Garc\u00eda\u201d. Make another member an owner or delete those workspaces first."; got != want {
			t.Fatalf("message %q, want %q", got, want)
		}

		// Once Bob owns them too, Ana may go; the workspaces stay with Bob.
		if _, err := e.db.Exec(e.ctx, `UPDATE memberships SET role = 'owner' WHERE user_id = ?`, bob.ID); err != nil {
			t.Fatal(err)
		}
		if err := e.svc.Profile.DeleteAccount(e.ctx, ana, sess); err != nil {
			t.Fatal(err)
		}
		if n := e.count(t, `SELECT COUNT(*) FROM memberships WHERE workspace_id = ? AND user_id = ? AND role = 'owner'`, family, bob.ID); n != 1 {
			t.Fatal("the family workspace did not stay with Bob")
		}
	})
}
