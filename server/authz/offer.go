package authz

// Offers: what a member may do, asked of Authorize for every action so that the answer and the
// refusal can never disagree. The API sends them with a workspace; the screens show what they are
// told and keep no copy of the rules.

// WorkspaceOffer is what a member may do to a workspace as a whole.
type WorkspaceOffer struct {
	Rename         bool   `json:"rename"`
	Delete         bool   `json:"delete"`
	Leave          bool   `json:"leave"`
	SeeInvitations bool   `json:"seeInvitations"`
	InviteRoles    []Role `json:"inviteRoles"` // the roles they may invite with; empty: none
	WriteRecords   bool   `json:"writeRecords"`
}

// MemberOffer is what a member may do to one member (themselves included).
type MemberOffer struct {
	Remove bool   `json:"remove"`
	Roles  []Role `json:"roles"` // the other roles they may give that member; empty: none
	Leave  bool   `json:"leave"` // the member is the caller and may leave
}

// OfferWorkspace answers, for a member with role in a workspace of kind with owners owners, every
// workspace action.
func OfferWorkspace(kind Kind, role Role, owners int) WorkspaceOffer {
	may := func(req Request) bool {
		req.Kind, req.Role, req.Owners = kind, role, owners
		return Authorize(req) == nil
	}
	o := WorkspaceOffer{
		Rename:       may(Request{Action: WorkspaceRename}),
		Delete:       may(Request{Action: WorkspaceDelete}),
		Leave:        may(Request{Action: MemberLeave}),
		WriteRecords: may(Request{Action: RecordWrite}),
		InviteRoles:  []Role{},
	}
	for _, r := range Roles {
		if may(Request{Action: MemberInvite, NewRole: r}) {
			o.InviteRoles = append(o.InviteRoles, r)
		}
	}
	// Seeing the pending invitations goes with being able to invite at all.
	o.SeeInvitations = len(o.InviteRoles) > 0
	return o
}

// OfferMember answers, for a member with role (self: acting on themselves) in a workspace of kind
// with owners owners, what they may do to a member whose role is target.
func OfferMember(kind Kind, role Role, owners int, self bool, target Role) MemberOffer {
	may := func(req Request) bool {
		req.Kind, req.Role, req.Owners, req.TargetRole = kind, role, owners, target
		return Authorize(req) == nil
	}
	o := MemberOffer{Roles: []Role{}}
	// Removing oneself is leaving; changing one's own role is allowed like anyone's.
	if self {
		o.Leave = may(Request{Action: MemberLeave})
	} else {
		o.Remove = may(Request{Action: MemberRemove})
	}
	for _, r := range Roles {
		if r != target && may(Request{Action: MemberChangeRole, NewRole: r}) {
			o.Roles = append(o.Roles, r)
		}
	}
	return o
}

// OfferWithdraw says whether a member with role may withdraw a pending invitation offering
// invitationRole.
func OfferWithdraw(kind Kind, role Role, invitationRole Role) bool {
	return Authorize(Request{Action: InvitationRevoke, Kind: kind, Role: role, NewRole: invitationRole}) == nil
}

// AccountDeletion decides what deleting a member's account does to one of their workspaces, of
// kind, where they hold role, with members members and owners owners (themselves included):
// deleteWorkspace when nobody else would ever see it (a personal workspace, or a team with no other
// member); otherwise only the membership goes, unless they are the team's last owner and others
// remain, which is refused (ECONFLICT, as for leaving).
func AccountDeletion(kind Kind, role Role, members, owners int) (deleteWorkspace bool, err error) {
	if kind == Personal || members <= 1 {
		return true, nil
	}
	if role != Owner {
		return false, nil
	}
	return false, keepAnOwner(owners)
}
