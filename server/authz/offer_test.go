package authz_test

import (
	"slices"
	"testing"

	"patrimonio/server/authz"
)

// The offers are Authorize's answers, gathered: each is checked here against the rules stated
// directly, so that a change to the rules shows in what the screens are offered.

func TestWorkspaceOffers(t *testing.T) {
	cases := []struct {
		name   string
		kind   authz.Kind
		role   authz.Role
		owners int
		want   authz.WorkspaceOffer
	}{
		{"team owner", authz.Team, authz.Owner, 2, authz.WorkspaceOffer{Rename: true, Delete: true, Leave: true, SeeInvitations: true,
			InviteRoles: []authz.Role{authz.Owner, authz.Editor, authz.Viewer}, WriteRecords: true}},
		{"team's last owner cannot leave", authz.Team, authz.Owner, 1, authz.WorkspaceOffer{Rename: true, Delete: true, SeeInvitations: true,
			InviteRoles: []authz.Role{authz.Owner, authz.Editor, authz.Viewer}, WriteRecords: true}},
		{"team editor invites below owner", authz.Team, authz.Editor, 1, authz.WorkspaceOffer{Leave: true, SeeInvitations: true,
			InviteRoles: []authz.Role{authz.Editor, authz.Viewer}, WriteRecords: true}},
		{"team viewer only leaves", authz.Team, authz.Viewer, 1, authz.WorkspaceOffer{Leave: true, InviteRoles: []authz.Role{}}},
		{"personal workspace: rename and write only", authz.Personal, authz.Owner, 1, authz.WorkspaceOffer{Rename: true,
			InviteRoles: []authz.Role{}, WriteRecords: true}},
		{"not a member: nothing", authz.Team, authz.None, 1, authz.WorkspaceOffer{InviteRoles: []authz.Role{}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := authz.OfferWorkspace(c.kind, c.role, c.owners)
			if got.Rename != c.want.Rename || got.Delete != c.want.Delete || got.Leave != c.want.Leave ||
				got.SeeInvitations != c.want.SeeInvitations || got.WriteRecords != c.want.WriteRecords ||
				!slices.Equal(got.InviteRoles, c.want.InviteRoles) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestMemberOffers(t *testing.T) {
	cases := []struct {
		name   string
		role   authz.Role
		owners int
		self   bool
		target authz.Role
		want   authz.MemberOffer
	}{
		{"owner on a viewer", authz.Owner, 2, false, authz.Viewer, authz.MemberOffer{Remove: true, Roles: []authz.Role{authz.Owner, authz.Editor}}},
		{"owner on another owner", authz.Owner, 2, false, authz.Owner, authz.MemberOffer{Remove: true, Roles: []authz.Role{authz.Editor, authz.Viewer}}},
		{"owner on the last owner (data from a race)", authz.Owner, 1, false, authz.Owner, authz.MemberOffer{Roles: []authz.Role{}}},
		{"editor on a viewer", authz.Editor, 1, false, authz.Viewer, authz.MemberOffer{Roles: []authz.Role{}}},
		{"last owner on themselves", authz.Owner, 1, true, authz.Owner, authz.MemberOffer{Roles: []authz.Role{}}},
		{"one of two owners on themselves", authz.Owner, 2, true, authz.Owner, authz.MemberOffer{Leave: true, Roles: []authz.Role{authz.Editor, authz.Viewer}}},
		{"viewer on themselves", authz.Viewer, 1, true, authz.Viewer, authz.MemberOffer{Leave: true, Roles: []authz.Role{}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := authz.OfferMember(authz.Team, c.role, c.owners, c.self, c.target)
			if got.Remove != c.want.Remove || got.Leave != c.want.Leave || !slices.Equal(got.Roles, c.want.Roles) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
	if got := authz.OfferMember(authz.Personal, authz.Owner, 1, true, authz.Owner); got.Leave || got.Remove || len(got.Roles) > 0 {
		t.Errorf("personal workspace offers %+v, want nothing", got)
	}
}

func TestWithdrawOffers(t *testing.T) {
	for _, c := range []struct {
		role, invited authz.Role
		want          bool
	}{
		{authz.Owner, authz.Owner, true}, {authz.Editor, authz.Editor, true}, {authz.Editor, authz.Owner, false},
		{authz.Viewer, authz.Viewer, false}, {authz.None, authz.Viewer, false},
	} {
		if got := authz.OfferWithdraw(authz.Team, c.role, c.invited); got != c.want {
			t.Errorf("%s withdrawing an invitation as %s: got %v, want %v", c.role, c.invited, got, c.want)
		}
	}
}

func TestAccountDeletion(t *testing.T) {
	for _, c := range []struct {
		name            string
		kind            authz.Kind
		role            authz.Role
		members, owners int
		deleteIt        bool
		refused         bool
	}{
		{"personal workspace goes", authz.Personal, authz.Owner, 1, 1, true, false},
		{"team with nobody else goes", authz.Team, authz.Owner, 1, 1, true, false},
		{"team keeps its other owner", authz.Team, authz.Owner, 3, 2, false, false},
		{"last owner of a team with members is refused", authz.Team, authz.Owner, 2, 1, false, true},
		{"an editor just leaves", authz.Team, authz.Editor, 2, 1, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			deleteIt, err := authz.AccountDeletion(c.kind, c.role, c.members, c.owners)
			if deleteIt != c.deleteIt || (err != nil) != c.refused {
				t.Errorf("got delete=%v err=%v, want delete=%v refused=%v", deleteIt, err, c.deleteIt, c.refused)
			}
			if c.refused && outcome(err) != "409" {
				t.Errorf("refusal is %s, want 409", outcome(err))
			}
		})
	}
}
