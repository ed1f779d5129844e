package httpapi

// The /api/v1/workspaces and /api/v1/invitations endpoints. Every one needs a signed-in user
// (requireUser); who may do what is decided by the workspace service through authz, never here.

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"patrimonio/server/account"
	"patrimonio/server/authz"
	"patrimonio/server/billing"
	"patrimonio/server/workspace"
)

type workspaceJSON struct {
	ID        string     `json:"id"`
	Name      string     `json:"name"`
	Kind      authz.Kind `json:"kind"`
	Role      authz.Role `json:"role"`
	CreatedAt time.Time  `json:"createdAt"`
}

type memberJSON struct {
	UserID    string     `json:"userId"`
	Email     string     `json:"email"`
	FirstName string     `json:"firstName"`
	LastName  string     `json:"lastName"`
	Role      authz.Role `json:"role"`
	JoinedAt  time.Time  `json:"joinedAt"`
}

type invitationJSON struct {
	ID             string     `json:"id"`
	WorkspaceID    string     `json:"workspaceId"`
	WorkspaceName  string     `json:"workspaceName"`
	Email          string     `json:"email"`
	Role           authz.Role `json:"role"`
	InvitedByEmail *string    `json:"invitedByEmail"` // null when the inviter's account is gone
	CreatedAt      time.Time  `json:"createdAt"`
	ExpiresAt      time.Time  `json:"expiresAt"`
	Expired        bool       `json:"expired"`
}

// workspaceDetailJSON answers GET /workspaces/{id}. Invitations (the pending ones) are present
// only for members who may invite (owners and editors). The workspace, each member and each
// invitation carry what the caller may do to them: authz's answer, which the screens show as told.
type workspaceDetailJSON struct {
	Workspace   workspaceJSON            `json:"workspace"`
	Actions     authz.WorkspaceOffer     `json:"actions"`
	Members     []offeredMemberJSON      `json:"members"`
	Invitations *[]offeredInvitationJSON `json:"invitations,omitempty"`
}

type offeredMemberJSON struct {
	memberJSON
	Actions authz.MemberOffer `json:"actions"`
}

type offeredInvitationJSON struct {
	invitationJSON
	Actions struct {
		Withdraw bool `json:"withdraw"`
	} `json:"actions"`
}

func toWorkspaceJSON(w workspace.Workspace) workspaceJSON {
	return workspaceJSON{ID: w.ID, Name: w.Name, Kind: w.Kind, Role: w.Role, CreatedAt: w.CreatedAt}
}

func toMemberJSON(m workspace.Member) memberJSON {
	return memberJSON{UserID: m.UserID, Email: m.Email, FirstName: m.FirstName, LastName: m.LastName, Role: m.Role, JoinedAt: m.JoinedAt}
}

func toInvitationJSON(inv workspace.Invitation, now time.Time) invitationJSON {
	out := invitationJSON{
		ID: inv.ID, WorkspaceID: inv.WorkspaceID, WorkspaceName: inv.WorkspaceName, Email: inv.Email, Role: inv.Role,
		CreatedAt: inv.CreatedAt, ExpiresAt: inv.ExpiresAt, Expired: inv.Expired(now),
	}
	if inv.InvitedByEmail != "" {
		out.InvitedByEmail = &inv.InvitedByEmail
	}
	return out
}

func toInvitationsJSON(invs []workspace.Invitation, now time.Time) []invitationJSON {
	out := make([]invitationJSON, 0, len(invs))
	for _, inv := range invs {
		out = append(out, toInvitationJSON(inv, now))
	}
	return out
}

// callerID is the id of the signed-in user; requireUser guarantees there is one.
func callerID(r *http.Request) string {
	u, _, ok := account.AuthFrom(r.Context())
	if !ok {
		// Only a route table that forgot requireUser gets here.
		panic("httpapi: a workspace handler runs without requireUser")
	}
	return u.ID
}

// GET /api/v1/workspaces → [workspace]
func (a *api) listWorkspaces(w http.ResponseWriter, r *http.Request) {
	ws, err := a.workspaces.List(r.Context(), callerID(r))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	out := make([]workspaceJSON, 0, len(ws))
	for _, x := range ws {
		out = append(out, toWorkspaceJSON(x))
	}
	writeJSON(w, http.StatusOK, out)
}

type workspaceNameRequest struct {
	Name string `json:"name"`
}

// POST /api/v1/workspaces {name} → 201 {workspace}
func (a *api) createWorkspace(w http.ResponseWriter, r *http.Request) {
	if !a.requireSubscription(w, r, billing.GateTeamWorkspace) { // billing on: needs an active subscription
		return
	}
	var req workspaceNameRequest
	if err := decodeValid(w, r, bodyWorkspaceName, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	ws, err := a.workspaces.Create(r.Context(), callerID(r), req.Name)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]workspaceJSON{"workspace": toWorkspaceJSON(ws)})
}

// GET /api/v1/workspaces/{id} → {workspace, members, invitations?}
func (a *api) getWorkspace(w http.ResponseWriter, r *http.Request) {
	d, err := a.workspaces.Get(r.Context(), callerID(r), chi.URLParam(r, "id"))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	out := workspaceDetailJSON{Workspace: toWorkspaceJSON(d.Workspace), Actions: d.Offer, Members: make([]offeredMemberJSON, 0, len(d.Members))}
	for _, m := range d.Members {
		out.Members = append(out.Members, offeredMemberJSON{memberJSON: toMemberJSON(m.Member), Actions: m.Offer})
	}
	if d.Invitations != nil {
		now := a.workspaces.Now()
		invs := make([]offeredInvitationJSON, 0, len(d.Invitations))
		for _, inv := range d.Invitations {
			j := offeredInvitationJSON{invitationJSON: toInvitationJSON(inv.Invitation, now)}
			j.Actions.Withdraw = inv.Withdraw
			invs = append(invs, j)
		}
		out.Invitations = &invs
	}
	writeJSON(w, http.StatusOK, out)
}

// PATCH /api/v1/workspaces/{id} {name} → {workspace}
func (a *api) renameWorkspace(w http.ResponseWriter, r *http.Request) {
	var req workspaceNameRequest
	if err := decodeValid(w, r, bodyWorkspaceName, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	ws, err := a.workspaces.Rename(r.Context(), callerID(r), chi.URLParam(r, "id"), req.Name)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]workspaceJSON{"workspace": toWorkspaceJSON(ws)})
}

// DELETE /api/v1/workspaces/{id} → 204. Deleting a workspace deletes every member's records in
// it, so it is a sensitive action: after authorisation, it needs a recent proof of identity
// (403 reverification_required otherwise; the PWA opens the re-verification dialog and retries).
func (a *api) deleteWorkspace(w http.ResponseWriter, r *http.Request) {
	ctx, id := r.Context(), chi.URLParam(r, "id")
	if err := a.workspaces.Can(ctx, callerID(r), id, authz.WorkspaceDelete); err != nil {
		a.writeError(w, r, err)
		return
	}
	_, sess, _ := account.AuthFrom(ctx)
	if err := a.accounts.Reverify.RequireRecentProof(ctx, sess); err != nil {
		a.writeError(w, r, err)
		return
	}
	if err := a.workspaces.Delete(ctx, callerID(r), id); err != nil {
		a.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

type inviteRequest struct {
	Email string `json:"email"`
	Role  string `json:"role"`
}

// POST /api/v1/workspaces/{id}/invitations {email, role} → 201 {invitation}
func (a *api) inviteToWorkspace(w http.ResponseWriter, r *http.Request) {
	if !a.requireSubscription(w, r, billing.GateInvite) { // billing on: needs an active subscription
		return
	}
	var req inviteRequest
	if err := decodeValid(w, r, bodyInvitation, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	inv, err := a.workspaces.Invite(r.Context(), callerID(r), chi.URLParam(r, "id"), req.Email, authz.Role(req.Role))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]invitationJSON{"invitation": toInvitationJSON(inv, a.workspaces.Now())})
}

// DELETE /api/v1/workspaces/{id}/invitations/{invitationId} → 204
func (a *api) revokeInvitation(w http.ResponseWriter, r *http.Request) {
	if err := a.workspaces.RevokeInvitation(r.Context(), callerID(r), chi.URLParam(r, "id"), chi.URLParam(r, "invitationId")); err != nil {
		a.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// DELETE /api/v1/workspaces/{id}/members/{userId} → 204 (one's own id: leave the workspace)
func (a *api) removeMember(w http.ResponseWriter, r *http.Request) {
	if err := a.workspaces.RemoveMember(r.Context(), callerID(r), chi.URLParam(r, "id"), chi.URLParam(r, "userId")); err != nil {
		a.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

type changeRoleRequest struct {
	Role string `json:"role"`
}

// PATCH /api/v1/workspaces/{id}/members/{userId} {role} → {member}
func (a *api) changeMemberRole(w http.ResponseWriter, r *http.Request) {
	var req changeRoleRequest
	if err := decodeValid(w, r, bodyMemberRole, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	m, err := a.workspaces.ChangeRole(r.Context(), callerID(r), chi.URLParam(r, "id"), chi.URLParam(r, "userId"), authz.Role(req.Role))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]memberJSON{"member": toMemberJSON(m)})
}

// GET /api/v1/invitations → [invitation] (pending ones addressed to my verified e-mail address)
func (a *api) myInvitations(w http.ResponseWriter, r *http.Request) {
	invs, err := a.workspaces.MyInvitations(r.Context(), callerID(r))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toInvitationsJSON(invs, a.workspaces.Now()))
}

// POST /api/v1/invitations/{id}/accept → {workspace}
func (a *api) acceptInvitation(w http.ResponseWriter, r *http.Request) {
	ws, err := a.workspaces.Accept(r.Context(), callerID(r), chi.URLParam(r, "id"))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]workspaceJSON{"workspace": toWorkspaceJSON(ws)})
}

// POST /api/v1/invitations/{id}/decline → 204
func (a *api) declineInvitation(w http.ResponseWriter, r *http.Request) {
	if err := a.workspaces.Decline(r.Context(), callerID(r), chi.URLParam(r, "id")); err != nil {
		a.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
