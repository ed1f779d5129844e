package httpapi

import (
	"context"
	"testing"

	"github.com/google/uuid"
)

// TestWorkspaceDevices: the devices that pushed to a workspace, each with its member, for members
// only (viewers included); another workspace's devices, a stranger's and a former member's are not
// listed; a non-member or an unknown workspace gets 404, an id that is not a UUID 400. On SQLite and Postgres, answers checked against the OpenAPI document.
func TestWorkspaceDevices(t *testing.T) {
	eachTeamFixture(t, func(t *testing.T, f *teamFixture) {
		ana, bea, vic, eve := f.signUp("ana@example.com"), f.signUp("bea@example.com"), f.signUp("vic@example.com"), f.signUp("eve@example.com")
		var created struct{ Workspace workspaceJSON }
		f.expect(f.call(ana, "POST", "/api/v1/workspaces", map[string]string{"name": "Familia"}), "POST", "/api/v1/workspaces", 201, &created)
		team := created.Workspace.ID
		wsPath := "/api/v1/workspaces/" + team
		for _, m := range []struct {
			p    person
			role string
		}{{bea, "editor"}, {vic, "viewer"}} {
			var inv struct{ Invitation invitationJSON }
			f.expect(f.call(ana, "POST", wsPath+"/invitations", map[string]string{"email": m.p.email, "role": m.role}), "POST", "/api/v1/workspaces/{id}/invitations", 201, &inv)
			f.expect(f.call(m.p, "POST", "/api/v1/invitations/"+inv.Invitation.ID+"/accept", nil), "POST", "/api/v1/invitations/{id}/accept", 200, nil)
		}
		if _, err := f.db.Exec(context.Background(), `UPDATE users SET first_name = 'Bea', last_name = 'García' WHERE id = ?`, bea.id); err != nil {
			t.Fatal(err)
		}
		// Devices as the sync engine records them: a client bound to its user, and a row per
		// workspace it pushed to.
		device := func(clientID string, p person, workspaces ...string) {
			t.Helper()
			now := f.clock()
			if _, err := f.db.Exec(context.Background(), `INSERT INTO sync_clients (client_id, user_id, created_at, last_seen_at) VALUES (?, ?, ?, ?)`, clientID, p.id, now, now); err != nil {
				t.Fatal(err)
			}
			for _, ws := range workspaces {
				if _, err := f.db.Exec(context.Background(), `INSERT INTO sync_client_workspaces (client_id, workspace_id, last_mutation_id, updated_at) VALUES (?, ?, 1, ?)`, clientID, ws, now); err != nil {
					t.Fatal(err)
				}
			}
		}
		device("c-ana-laptop", ana, team)
		device("c-ana-phone", ana, team)
		device("c-bea", bea, team)
		device("c-bea-quiet", bea) // never pushed to the team: not listed
		device("c-eve", eve, "personal-of-eve")
		device("c-vic", vic, team)

		var got struct{ Devices []deviceJSON }
		f.expect(f.call(vic, "GET", wsPath+"/devices", nil), "GET", "/api/v1/workspaces/{id}/devices", 200, &got)
		want := []deviceJSON{
			{ClientID: "c-ana-laptop", UserID: ana.id, Email: "ana@example.com"},
			{ClientID: "c-ana-phone", UserID: ana.id, Email: "ana@example.com"},
			{ClientID: "c-bea", UserID: bea.id, Email: "bea@example.com", FirstName: "Bea", LastName: "García"},
			{ClientID: "c-vic", UserID: vic.id, Email: "vic@example.com"},
		}
		if len(got.Devices) != len(want) {
			t.Fatalf("devices %+v, want %+v", got.Devices, want)
		}
		for i := range want {
			if got.Devices[i] != want[i] {
				t.Errorf("device %d = %+v, want %+v", i, got.Devices[i], want[i])
			}
		}

		// A stranger and an unknown workspace: 404; nobody signed in: 401.
		f.expect(f.call(eve, "GET", wsPath+"/devices", nil), "GET", "/api/v1/workspaces/{id}/devices", 404, nil)
		f.expect(f.call(ana, "GET", "/api/v1/workspaces/"+uuid.NewString()+"/devices", nil), "GET", "/api/v1/workspaces/{id}/devices", 404, nil)
		f.expect(f.call(ana, "GET", "/api/v1/workspaces/nope/devices", nil), "GET", "/api/v1/workspaces/{id}/devices", 400, nil)
		f.expect(f.call(person{}, "GET", wsPath+"/devices", nil), "GET", "/api/v1/workspaces/{id}/devices", 401, nil)

		// Vic leaves: his device is no longer named, and he no longer sees the list.
		f.expect(f.call(vic, "DELETE", wsPath+"/members/"+vic.id, nil), "DELETE", "/api/v1/workspaces/{id}/members/{userId}", 204, nil)
		f.expect(f.call(ana, "GET", wsPath+"/devices", nil), "GET", "/api/v1/workspaces/{id}/devices", 200, &got)
		if len(got.Devices) != 3 || got.Devices[2].ClientID != "c-bea" {
			t.Errorf("after vic left: %+v", got.Devices)
		}
		f.expect(f.call(vic, "GET", wsPath+"/devices", nil), "GET", "/api/v1/workspaces/{id}/devices", 404, nil)
	})
}
