// Package authz decides who may do what in a workspace. Authorize is the one function that
// answers; the workspace service asks it before every call and the sync engine asks it for every
// pushed mutation. It holds no SQL and knows nothing about HTTP: the caller looks up the facts
// (the caller's role, the workspace kind, the member acted upon, how many owners there are) and
// Authorize applies the rules to them.
//
// Roles nest: owner ⊃ editor ⊃ viewer. Someone who is not a member has no role (None). The app
// admin role (the /admin area) is separate and grants nothing inside workspaces.
package authz

import (
	"fmt"
	"strings"

	"patrimonio/core"
)

// Role is a member's role in a workspace.
type Role string

// The roles, from the most to the least powerful, and None for "not a member".
const (
	Owner  Role = "owner"
	Editor Role = "editor"
	Viewer Role = "viewer"
	None   Role = ""
)

// Roles lists the member roles, most powerful first.
var Roles = []Role{Owner, Editor, Viewer}

// rank orders the roles: a higher rank includes everything a lower one may do.
func (r Role) rank() int {
	switch r {
	case Owner:
		return 3
	case Editor:
		return 2
	case Viewer:
		return 1
	}
	return 0
}

// atLeast says whether r includes min. None includes nothing.
func (r Role) atLeast(min Role) bool { return r.rank() > 0 && r.rank() >= min.rank() }

// Valid says whether r is a member role (owner, editor or viewer).
func (r Role) Valid() bool { return r.rank() > 0 }

// ParseRole reads a member role; anything else is an EINVALID error.
func ParseRole(s string) (Role, error) {
	r := Role(s)
	if !r.Valid() {
		return None, errBadRole()
	}
	return r, nil
}

// Kind is the kind of a workspace.
type Kind string

// The workspace kinds: every user has one personal workspace, of which they are the only member;
// team workspaces are shared by invitation.
const (
	Personal Kind = "personal"
	Team     Kind = "team"
)

// Action is something a caller wants to do in a workspace.
type Action string

// The actions.
const (
	WorkspaceRead   Action = "workspace.read"   // see the workspace, its members and pending invitations
	WorkspaceRename Action = "workspace.rename" // change its name
	WorkspaceDelete Action = "workspace.delete" // delete it with everything in it

	MemberInvite     Action = "member.invite"      // invite an e-mail address with a role (Request.NewRole)
	MemberRemove     Action = "member.remove"      // remove another member (Request.TargetRole)
	MemberChangeRole Action = "member.change_role" // give a member (TargetRole) another role (NewRole)
	MemberLeave      Action = "member.leave"       // remove oneself

	InvitationRevoke  Action = "invitation.revoke"  // withdraw a pending invitation of the workspace
	InvitationAccept  Action = "invitation.accept"  // become a member through an invitation (IsInvitee)
	InvitationDecline Action = "invitation.decline" // refuse an invitation (IsInvitee)

	RecordRead  Action = "record.read"  // read the synced records (assets, liabilities, ...)
	RecordWrite Action = "record.write" // create, change or delete a synced record
	// Delete a wrapped vault key (collection vaultKeys): nobody. The ciphertexts of every login it
	// sealed name it (their values, conflicts, tombstones, other devices' unsynced writes), so
	// deleting it would make those secrets unreadable for everyone; it goes with its workspace.
	VaultKeyDelete Action = "vault_key.delete"

	ConnectionRead   Action = "connection.read"   // see the workspace's bank and broker connections
	ConnectionManage Action = "connection.manage" // link, renew, refresh or remove a connection (issue 15)
)

// Actions lists every action, in the order of the constants.
var Actions = []Action{
	WorkspaceRead, WorkspaceRename, WorkspaceDelete,
	MemberInvite, MemberRemove, MemberChangeRole, MemberLeave,
	InvitationRevoke, InvitationAccept, InvitationDecline,
	RecordRead, RecordWrite, VaultKeyDelete,
	ConnectionRead, ConnectionManage,
}

// minimumRole is the role × action matrix: the least role that may do each action. Invitation
// answers are not in it: they depend on being the invitee, not on a role.
var minimumRole = map[Action]Role{
	WorkspaceRead:    Viewer,
	WorkspaceRename:  Owner,
	WorkspaceDelete:  Owner,
	MemberInvite:     Editor,
	MemberRemove:     Owner,
	MemberChangeRole: Owner,
	MemberLeave:      Viewer,
	InvitationRevoke: Editor,
	RecordRead:       Viewer,
	RecordWrite:      Editor,
	// A connection writes assets and valuations: those who write records link accounts.
	ConnectionRead:   Viewer,
	ConnectionManage: Editor,
}

// Request is one question to Authorize: may a caller with Role do Action? The other fields are
// the facts some actions depend on; the caller fills those its action names and leaves the rest
// zero.
type Request struct {
	// Role is the caller's role in the workspace, None when they are not a member.
	Role   Role
	Action Action
	// Kind is the workspace's kind. Required for every action except record.read and record.write.
	Kind Kind
	// TargetRole is the current role of the member acted upon (member.remove, member.change_role).
	TargetRole Role
	// NewRole is the role offered (member.invite, and invitation.revoke: the role of the invitation
	// withdrawn) or given (member.change_role).
	NewRole Role
	// Owners is how many owners the workspace has now (member.remove, member.change_role,
	// member.leave).
	Owners int
	// IsInvitee says that the invitation is addressed to the caller's verified e-mail address
	// (invitation.accept, invitation.decline).
	IsInvitee bool
}

// Refusal is how Authorize says no: the *core.Error it wraps carries the code (which decides
// the HTTP status) and the English text; Message gives the text in the caller's language. A caller
// who is not a member learns nothing, not even that the workspace exists (ENOTFOUND); a member who
// may not do something is told so (EFORBIDDEN); a rule that protects the workspace's state is a
// conflict (ECONFLICT).
type Refusal struct {
	Err  *core.Error
	rule string
	role Role // the caller's role, for the roleTooLow text
}

func (r *Refusal) Error() string { return r.Err.Error() }
func (r *Refusal) Unwrap() error { return r.Err }

// Message is the refusal's text in lang ("es" or "en"; anything else is Spanish, the app's
// language): the catalogue's "authz.<rule>", naming the caller's role where the text has a %s.
func (r *Refusal) Message(lang string) string {
	text := core.TextIn(lang, "authz."+r.rule)
	if !strings.Contains(text, "%s") {
		return text
	}
	role := ""
	if r.role == Owner || r.role == Editor || r.role == Viewer {
		role = core.TextIn(lang, "authz.role."+string(r.role))
	}
	return fmt.Sprintf(text, role)
}

func refuse(code, rule string, role Role) *Refusal {
	r := &Refusal{rule: rule, role: role}
	r.Err = &core.Error{Code: code, Message: r.Message("en")}
	return r
}

// The refusals, made fresh for every answer so that no caller can change another's.
func errNotFound() error         { return refuse(core.ENOTFOUND, "notMember", None) }
func errInvitationAbsent() error { return refuse(core.ENOTFOUND, "invitationAbsent", None) }
func errLastOwner() error        { return refuse(core.ECONFLICT, "lastOwner", None) }
func errPersonal() error         { return refuse(core.EFORBIDDEN, "personal", None) }
func errAboveOwnRole() error     { return refuse(core.EFORBIDDEN, "aboveOwnRole", None) }
func errBadRole() error          { return refuse(core.EINVALID, "badRole", None) }

// Authorize returns nil when the request is allowed, and otherwise a *Refusal (wrapping an
// *core.Error) that says why: ENOTFOUND for a caller who is not a member (and for an invitation
// addressed to someone else), EFORBIDDEN for a role too low or a personal workspace, ECONFLICT when the workspace
// would lose its last owner, EINVALID for a role that does not exist. A request that lacks a fact
// its action needs is a programming error (EINTERNAL); it is refused too.
func Authorize(req Request) error {
	switch req.Action {
	case RecordRead, RecordWrite, ConnectionRead, ConnectionManage:
		return byRole(req)
	case VaultKeyDelete:
		// Members are told why; someone who is not a member learns nothing.
		if err := byRole(Request{Role: req.Role, Action: RecordRead}); err != nil {
			return err
		}
		return refuse(core.EFORBIDDEN, "vaultKeyKept", None)
	case InvitationAccept, InvitationDecline:
		if err := needKind(req); err != nil {
			return err
		}
		if !req.IsInvitee {
			return errInvitationAbsent()
		}
		if req.Kind == Personal {
			return errPersonal()
		}
		return nil
	}
	if _, known := minimumRole[req.Action]; !known {
		return core.Errorf(core.EINTERNAL, "authz: unknown action %q", req.Action)
	}
	if err := needKind(req); err != nil {
		return err
	}
	if err := byRole(req); err != nil {
		return err
	}

	switch req.Action {
	case WorkspaceDelete, MemberLeave:
		if req.Kind == Personal {
			return errPersonal()
		}
		if req.Action == MemberLeave && req.Role == Owner {
			return keepAnOwner(req.Owners)
		}
	case MemberInvite:
		if req.Kind == Personal {
			return errPersonal()
		}
		return grantable(req.Role, req.NewRole)
	case InvitationRevoke:
		// NewRole is the role the invitation offers: withdrawing it is for those who could give it.
		if !req.NewRole.Valid() {
			return core.Errorf(core.EINTERNAL, "authz: %s without the invitation's role", req.Action)
		}
		return grantable(req.Role, req.NewRole)
	case MemberRemove:
		if req.Kind == Personal {
			return errPersonal()
		}
		if !req.TargetRole.Valid() {
			return core.Errorf(core.EINTERNAL, "authz: %s without the target's role", req.Action)
		}
		if req.TargetRole == Owner {
			return keepAnOwner(req.Owners)
		}
	case MemberChangeRole:
		if req.Kind == Personal {
			return errPersonal()
		}
		if !req.TargetRole.Valid() {
			return core.Errorf(core.EINTERNAL, "authz: %s without the target's role", req.Action)
		}
		if err := grantable(req.Role, req.NewRole); err != nil {
			return err
		}
		if req.TargetRole == Owner && req.NewRole != Owner {
			return keepAnOwner(req.Owners)
		}
	}
	return nil
}

// byRole applies the matrix: not a member → ENOTFOUND, a role below the action's minimum →
// EFORBIDDEN.
func byRole(req Request) error {
	if !req.Role.Valid() {
		if req.Role != None {
			return core.Errorf(core.EINTERNAL, "authz: unknown role %q", req.Role)
		}
		return errNotFound()
	}
	if !req.Role.atLeast(minimumRole[req.Action]) {
		return refuse(core.EFORBIDDEN, "roleTooLow", req.Role)
	}
	return nil
}

func needKind(req Request) error {
	if req.Kind != Personal && req.Kind != Team {
		return core.Errorf(core.EINTERNAL, "authz: %s without the workspace kind", req.Action)
	}
	return nil
}

// grantable: a role can only be given by someone who holds it (an editor cannot grant owner).
func grantable(by, role Role) error {
	if !role.Valid() {
		return errBadRole()
	}
	if !by.atLeast(role) {
		return errAboveOwnRole()
	}
	return nil
}

func keepAnOwner(owners int) error {
	if owners < 1 {
		return core.Errorf(core.EINTERNAL, "authz: the owner count is missing")
	}
	if owners == 1 {
		return errLastOwner()
	}
	return nil
}

// String is the role's name, "none" for None.
func (r Role) String() string {
	if r == None {
		return "none"
	}
	return string(r)
}

// Admin actions: what only app admins may do (the /admin area). They do not depend on any
// workspace; AuthorizeAdmin answers them from whether the caller is signed in and is an admin.
const (
	EnumRead       Action = "enum.read"       // read the enumerations (every signed-in user)
	EnumCreate     Action = "enum.create"     // add a value to an enumeration
	EnumUpdate     Action = "enum.update"     // change a value's labels, code or parent
	EnumDeactivate Action = "enum.deactivate" // deactivate (or activate again) a value
	EnumReorder    Action = "enum.reorder"    // change the order of a parent's values
	EnumAuditRead  Action = "enum.audit_read" // read the audit log of enumeration changes

	UserList        Action = "user.list"         // list every user (e-mail, role, status)
	UserDisable     Action = "user.disable"      // disable an account (ends its sessions)
	UserEnable      Action = "user.enable"       // enable a disabled account
	UserGrantAdmin  Action = "user.grant_admin"  // make a user an app admin
	UserRevokeAdmin Action = "user.revoke_admin" // take the app admin role away
	UserAuditRead   Action = "user.audit_read"   // read the audit log of changes to users
)

// AdminActions lists the actions AuthorizeAdmin answers, in the order of the constants.
var AdminActions = []Action{EnumRead, EnumCreate, EnumUpdate, EnumDeactivate, EnumReorder, EnumAuditRead,
	UserList, UserDisable, UserEnable, UserGrantAdmin, UserRevokeAdmin, UserAuditRead}

// adminOnly is the admin matrix: true = app admins only, false = every signed-in user.
var adminOnly = map[Action]bool{
	EnumRead:       false,
	EnumCreate:     true,
	EnumUpdate:     true,
	EnumDeactivate: true,
	EnumReorder:    true,
	EnumAuditRead:  true,

	UserList:        true,
	UserDisable:     true,
	UserEnable:      true,
	UserGrantAdmin:  true,
	UserRevokeAdmin: true,
	UserAuditRead:   true,
}

// AdminRequest is one question to AuthorizeAdmin.
type AdminRequest struct {
	// SignedIn says that the caller has a session; IsAdmin that they are an app admin (the
	// stored flag or a configured address).
	SignedIn bool
	IsAdmin  bool
	Action   Action
}

// AuthorizeAdmin returns nil when the request is allowed, and otherwise a *Refusal: EUNAUTHORIZED
// without a session, EFORBIDDEN for a signed-in user who is not an admin, EINTERNAL for an action
// it does not know.
func AuthorizeAdmin(req AdminRequest) error {
	only, known := adminOnly[req.Action]
	if !known {
		return core.Errorf(core.EINTERNAL, "authz: unknown admin action %q", req.Action)
	}
	if !req.SignedIn {
		return refuse(core.EUNAUTHORIZED, "signedOut", None)
	}
	if only && !req.IsAdmin {
		return refuse(core.EFORBIDDEN, "adminOnly", None)
	}
	return nil
}
