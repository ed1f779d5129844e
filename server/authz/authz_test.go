package authz_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"patrimonio/core"
	"patrimonio/server/authz"
)

// outcome is what Authorize answered, in the words of the tables below.
func outcome(err error) string {
	switch core.ErrorCode(err) {
	case "":
		return "yes"
	case core.ENOTFOUND:
		return "404"
	case core.EFORBIDDEN:
		return "403"
	case core.ECONFLICT:
		return "409"
	case core.EINVALID:
		return "400"
	}
	return "bug: " + err.Error()
}

// matrix is the whole permission table in a team workspace, with facts that trigger no special
// rule (the member acted upon and the role given are viewers, there are two owners, the invitation
// is the caller's own). "yes" allowed, "403" forbidden, "404" the caller is told the workspace
// does not exist. The special rules are in TestRules.
const matrix = `
action               owner  editor  viewer  none
workspace.read       yes    yes     yes     404
workspace.rename     yes    403     403     404
workspace.delete     yes    403     403     404
member.invite        yes    yes     403     404
member.remove        yes    403     403     404
member.change_role   yes    403     403     404
member.leave         yes    yes     yes     404
invitation.revoke    yes    yes     403     404
invitation.accept    yes    yes     yes     yes
invitation.decline   yes    yes     yes     yes
record.read          yes    yes     yes     404
record.write         yes    yes     403     404
vault_key.delete     403    403     403     404
connection.read      yes    yes     yes     404
connection.manage    yes    yes     403     404
`

func TestRoleByActionMatrix(t *testing.T) {
	lines := strings.Split(strings.TrimSpace(matrix), "\n")
	header := strings.Fields(lines[0])
	roles := []authz.Role{authz.Owner, authz.Editor, authz.Viewer, authz.None}
	if want := []string{"action", "owner", "editor", "viewer", "none"}; !slices.Equal(header, want) {
		t.Fatalf("matrix header = %v, want %v", header, want)
	}
	var seen []authz.Action
	for _, line := range lines[1:] {
		cells := strings.Fields(line)
		if len(cells) != len(header) {
			t.Fatalf("matrix line %q has %d cells, want %d", line, len(cells), len(header))
		}
		action := authz.Action(cells[0])
		seen = append(seen, action)
		for i, role := range roles {
			want := cells[i+1]
			t.Run(fmt.Sprintf("%s may %s: %s", role, action, want), func(t *testing.T) {
				got := outcome(authz.Authorize(authz.Request{
					Role: role, Action: action, Kind: authz.Team,
					TargetRole: authz.Viewer, NewRole: authz.Viewer, Owners: 2, IsInvitee: true,
				}))
				if got != want {
					t.Errorf("got %s, want %s", got, want)
				}
			})
		}
	}
	if !slices.Equal(seen, authz.Actions) {
		t.Errorf("the matrix lists %v,\nthe package has %v: every action needs its line, in order", seen, authz.Actions)
	}
}

func TestRules(t *testing.T) {
	team := func(r authz.Request) authz.Request { r.Kind = authz.Team; return r }
	personal := func(r authz.Request) authz.Request { r.Kind = authz.Personal; return r }
	tests := []struct {
		name string
		req  authz.Request
		want string
	}{
		// The last owner stays.
		{"an owner cannot remove the last owner", team(authz.Request{Role: authz.Owner, Action: authz.MemberRemove, TargetRole: authz.Owner, Owners: 1}), "409"},
		{"an owner can remove another owner while one remains", team(authz.Request{Role: authz.Owner, Action: authz.MemberRemove, TargetRole: authz.Owner, Owners: 2}), "yes"},
		{"an owner can remove an editor even as the only owner", team(authz.Request{Role: authz.Owner, Action: authz.MemberRemove, TargetRole: authz.Editor, Owners: 1}), "yes"},
		{"the last owner cannot step down to editor", team(authz.Request{Role: authz.Owner, Action: authz.MemberChangeRole, TargetRole: authz.Owner, NewRole: authz.Editor, Owners: 1}), "409"},
		{"one of two owners can step down to viewer", team(authz.Request{Role: authz.Owner, Action: authz.MemberChangeRole, TargetRole: authz.Owner, NewRole: authz.Viewer, Owners: 2}), "yes"},
		{"making the last owner owner again changes nothing and is allowed", team(authz.Request{Role: authz.Owner, Action: authz.MemberChangeRole, TargetRole: authz.Owner, NewRole: authz.Owner, Owners: 1}), "yes"},
		{"the last owner cannot leave", team(authz.Request{Role: authz.Owner, Action: authz.MemberLeave, Owners: 1}), "409"},
		{"an owner can leave when another owner remains", team(authz.Request{Role: authz.Owner, Action: authz.MemberLeave, Owners: 2}), "yes"},
		{"an editor can leave a workspace with a single owner", team(authz.Request{Role: authz.Editor, Action: authz.MemberLeave, Owners: 1}), "yes"},

		// Personal workspaces are never shared and never deleted.
		{"a personal workspace cannot be deleted", personal(authz.Request{Role: authz.Owner, Action: authz.WorkspaceDelete}), "403"},
		{"a personal workspace cannot get members", personal(authz.Request{Role: authz.Owner, Action: authz.MemberInvite, NewRole: authz.Viewer}), "403"},
		{"a personal workspace cannot be left", personal(authz.Request{Role: authz.Owner, Action: authz.MemberLeave, Owners: 2}), "403"},
		{"a personal workspace's owner cannot be removed", personal(authz.Request{Role: authz.Owner, Action: authz.MemberRemove, TargetRole: authz.Editor, Owners: 2}), "403"},
		{"a personal workspace's roles cannot change", personal(authz.Request{Role: authz.Owner, Action: authz.MemberChangeRole, TargetRole: authz.Owner, NewRole: authz.Owner, Owners: 1}), "403"},
		{"an invitation to a personal workspace cannot be accepted", personal(authz.Request{Action: authz.InvitationAccept, IsInvitee: true}), "403"},
		{"a personal workspace can be renamed", personal(authz.Request{Role: authz.Owner, Action: authz.WorkspaceRename}), "yes"},
		{"its owner writes records in a personal workspace", personal(authz.Request{Role: authz.Owner, Action: authz.RecordWrite}), "yes"},

		// Nobody grants more than they hold.
		{"an editor cannot invite an owner", team(authz.Request{Role: authz.Editor, Action: authz.MemberInvite, NewRole: authz.Owner}), "403"},
		{"an editor can invite an editor", team(authz.Request{Role: authz.Editor, Action: authz.MemberInvite, NewRole: authz.Editor}), "yes"},
		{"an owner can invite an owner", team(authz.Request{Role: authz.Owner, Action: authz.MemberInvite, NewRole: authz.Owner}), "yes"},
		{"an editor cannot make anyone owner", team(authz.Request{Role: authz.Editor, Action: authz.MemberChangeRole, TargetRole: authz.Viewer, NewRole: authz.Owner, Owners: 1}), "403"},
		{"an owner can make a viewer owner", team(authz.Request{Role: authz.Owner, Action: authz.MemberChangeRole, TargetRole: authz.Viewer, NewRole: authz.Owner, Owners: 1}), "yes"},
		{"an editor cannot withdraw an invitation as owner", team(authz.Request{Role: authz.Editor, Action: authz.InvitationRevoke, NewRole: authz.Owner}), "403"},
		{"an owner withdraws an invitation as owner", team(authz.Request{Role: authz.Owner, Action: authz.InvitationRevoke, NewRole: authz.Owner}), "yes"},
		{"an invitation needs a real role", team(authz.Request{Role: authz.Owner, Action: authz.MemberInvite, NewRole: "admin"}), "400"},
		{"a role change needs a real role", team(authz.Request{Role: authz.Owner, Action: authz.MemberChangeRole, TargetRole: authz.Viewer, NewRole: "", Owners: 1}), "400"},

		// Invitations are answered by their invitee only.
		{"someone else's invitation cannot be accepted, and is not even found", team(authz.Request{Action: authz.InvitationAccept, IsInvitee: false}), "404"},
		{"an owner cannot accept an invitation addressed to someone else", team(authz.Request{Role: authz.Owner, Action: authz.InvitationAccept, IsInvitee: false}), "404"},
		{"someone else's invitation cannot be declined", team(authz.Request{Action: authz.InvitationDecline, IsInvitee: false}), "404"},
		{"the invitee accepts without being a member yet", team(authz.Request{Action: authz.InvitationAccept, IsInvitee: true}), "yes"},

		// Record access ignores the workspace kind, as the sync engine asks without it.
		{"a viewer cannot write records", authz.Request{Role: authz.Viewer, Action: authz.RecordWrite}, "403"},
		{"an editor writes records", authz.Request{Role: authz.Editor, Action: authz.RecordWrite}, "yes"},
		{"a non-member cannot read records", authz.Request{Role: authz.None, Action: authz.RecordRead}, "404"},
		{"a viewer sees the connections", authz.Request{Role: authz.Viewer, Action: authz.ConnectionRead}, "yes"},
		{"a viewer cannot link an account", authz.Request{Role: authz.Viewer, Action: authz.ConnectionManage}, "403"},
		{"an editor links an account", authz.Request{Role: authz.Editor, Action: authz.ConnectionManage}, "yes"},
		{"an owner links an account", authz.Request{Role: authz.Owner, Action: authz.ConnectionManage}, "yes"},
		{"a non-member cannot see connections", authz.Request{Role: authz.None, Action: authz.ConnectionRead}, "404"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := outcome(authz.Authorize(tt.req)); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// TestIncompleteRequestsAreRefused: a caller that forgets a fact its action depends on gets an
// internal error, never a yes.
func TestIncompleteRequestsAreRefused(t *testing.T) {
	tests := []struct {
		name string
		req  authz.Request
	}{
		{"an unknown action", authz.Request{Role: authz.Owner, Action: "workspace.explode", Kind: authz.Team}},
		{"an unknown role", authz.Request{Role: "superuser", Action: authz.RecordRead}},
		{"a workspace action without the kind", authz.Request{Role: authz.Owner, Action: authz.WorkspaceDelete}},
		{"an acceptance without the kind", authz.Request{Action: authz.InvitationAccept, IsInvitee: true}},
		{"a removal without the target's role", authz.Request{Role: authz.Owner, Action: authz.MemberRemove, Kind: authz.Team, Owners: 2}},
		{"a role change without the target's role", authz.Request{Role: authz.Owner, Action: authz.MemberChangeRole, Kind: authz.Team, NewRole: authz.Viewer, Owners: 2}},
		{"a withdrawal without the invitation's role", authz.Request{Role: authz.Owner, Action: authz.InvitationRevoke, Kind: authz.Team}},
		{"removing an owner without the owner count", authz.Request{Role: authz.Owner, Action: authz.MemberRemove, Kind: authz.Team, TargetRole: authz.Owner}},
		{"an owner leaving without the owner count", authz.Request{Role: authz.Owner, Action: authz.MemberLeave, Kind: authz.Team}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := authz.Authorize(tt.req)
			if core.ErrorCode(err) != core.EINTERNAL {
				t.Errorf("got %v, want an internal error", err)
			}
		})
	}
}

func TestParseRole(t *testing.T) {
	for _, s := range []string{"owner", "editor", "viewer"} {
		if r, err := authz.ParseRole(s); err != nil || string(r) != s {
			t.Errorf("ParseRole(%q) = %q, %v", s, r, err)
		}
	}
	for _, s := range []string{"", "Owner", "admin", " viewer"} {
		if _, err := authz.ParseRole(s); core.ErrorCode(err) != core.EINVALID {
			t.Errorf("ParseRole(%q) error = %v, want invalid", s, err)
		}
	}
}

func TestRefusalsAreWordedInSpanishAndEnglish(t *testing.T) {
	tests := []struct {
		name   string
		req    authz.Request
		es, en string
	}{
		{"a role too low names the role",
			authz.Request{Role: authz.Viewer, Action: authz.RecordWrite},
			"Tu rol (lector) no permite hacer esto.", "Your role (viewer) does not allow this."},
		{"not a member",
			authz.Request{Action: authz.WorkspaceRead, Kind: authz.Team},
			"No se ha encontrado el espacio de trabajo.", "Workspace not found."},
		{"the last owner",
			authz.Request{Role: authz.Owner, Action: authz.MemberLeave, Kind: authz.Team, Owners: 1},
			"Un espacio de trabajo debe conservar al menos un propietario.", "A workspace must keep at least one owner."},
		{"an editor granting owner",
			authz.Request{Role: authz.Editor, Action: authz.MemberInvite, Kind: authz.Team, NewRole: authz.Owner},
			"No puedes conceder un rol superior al tuyo.", "You cannot grant a role above your own."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := authz.Authorize(tt.req)
			var r *authz.Refusal
			if !errors.As(err, &r) {
				t.Fatalf("got %v, want a *Refusal", err)
			}
			if got := r.Message("es"); got != tt.es {
				t.Errorf("es: %q, want %q", got, tt.es)
			}
			if got := r.Message("en"); got != tt.en {
				t.Errorf("en: %q, want %q", got, tt.en)
			}
			if core.ErrorMessage(err) != tt.en {
				t.Errorf("the wrapped error's message is %q, want the English text", core.ErrorMessage(err))
			}
		})
	}
}

// adminMatrix is the table of the admin actions: "yes" allowed, "403" forbidden, "401" not signed
// in.
const adminMatrix = `
action            admin  user  anonymous
enum.read         yes    yes   401
enum.create       yes    403   401
enum.update       yes    403   401
enum.deactivate   yes    403   401
enum.reorder      yes    403   401
enum.audit_read   yes    403   401
user.list         yes    403   401
user.disable      yes    403   401
user.enable       yes    403   401
user.grant_admin  yes    403   401
user.revoke_admin yes    403   401
user.audit_read   yes    403   401
`

func TestAdminActionMatrix(t *testing.T) {
	lines := strings.Split(strings.TrimSpace(adminMatrix), "\n")
	callers := []struct {
		name              string
		signedIn, isAdmin bool
	}{{"admin", true, true}, {"user", true, false}, {"anonymous", false, false}}
	var seen []authz.Action
	for _, line := range lines[1:] {
		cells := strings.Fields(line)
		if len(cells) != 4 {
			t.Fatalf("admin matrix line %q has %d cells, want 4", line, len(cells))
		}
		action := authz.Action(cells[0])
		seen = append(seen, action)
		for i, c := range callers {
			want := cells[i+1]
			t.Run(fmt.Sprintf("%s may %s: %s", c.name, action, want), func(t *testing.T) {
				err := authz.AuthorizeAdmin(authz.AdminRequest{SignedIn: c.signedIn, IsAdmin: c.isAdmin, Action: action})
				got := outcome(err)
				if core.ErrorCode(err) == core.EUNAUTHORIZED {
					got = "401"
				}
				if got != want {
					t.Errorf("got %s, want %s", got, want)
				}
			})
		}
	}
	if !slices.Equal(seen, authz.AdminActions) {
		t.Errorf("the admin matrix lists %v,\nthe package has %v: every admin action needs its line, in order", seen, authz.AdminActions)
	}
	if err := authz.AuthorizeAdmin(authz.AdminRequest{SignedIn: true, IsAdmin: true, Action: "enum.explode"}); core.ErrorCode(err) != core.EINTERNAL {
		t.Errorf("an unknown admin action: %v, want an internal error", err)
	}
	var r *authz.Refusal
	if err := authz.AuthorizeAdmin(authz.AdminRequest{SignedIn: true, Action: authz.EnumCreate}); !errors.As(err, &r) ||
		r.Message("es") != "Esta sección es solo para administradores." || r.Message("en") != "This area is for administrators only." {
		t.Errorf("a non-admin's refusal: %v", err)
	}
}
