// Which workspace actions the screens offer to whom. It follows the server's rules (server/authz:
// the role × action matrix and its special rules) so that nobody is shown a button the server would
// refuse; the server still decides every call. Roles nest: owner ⊃ editor ⊃ viewer.
import type { WorkspaceKind, WorkspaceMember, WorkspaceRole } from "../../api/types";

/** The member roles, most powerful first. */
export const ROLES: readonly WorkspaceRole[] = ["owner", "editor", "viewer"];

const RANK: Record<WorkspaceRole, number> = { owner: 3, editor: 2, viewer: 1 };

/** Whether `role` includes everything `min` may do. */
export function atLeast(role: WorkspaceRole, min: WorkspaceRole): boolean {
  return RANK[role] >= RANK[min];
}

/** The roles someone with `role` may give: their own and those below it (an editor never grants owner). */
export function grantableRoles(role: WorkspaceRole): WorkspaceRole[] {
  return ROLES.filter((r) => atLeast(role, r));
}

/** How many owners a member list has. */
export function ownerCount(members: readonly Pick<WorkspaceMember, "role">[]): number {
  return members.filter((m) => m.role === "owner").length;
}

/** The caller's place in a workspace: its kind and the caller's role in it. */
export interface Standing {
  kind: WorkspaceKind;
  role: WorkspaceRole;
}

/** What the caller may do with the workspace as a whole. */
export interface WorkspaceOffer {
  /** Change its name: owners (a personal workspace too). */
  rename: boolean;
  /** Delete it with everything in it: owners of a team workspace. */
  delete: boolean;
  /** The roles the caller may invite with; empty: no invitations (viewers, personal workspaces). */
  inviteRoles: WorkspaceRole[];
  /** See the pending invitations (the server sends them to those who may invite). */
  seeInvitations: boolean;
  /** Leave it: any member of a team workspace, except its last owner. */
  leave: boolean;
}

export function workspaceOffer(standing: Standing, owners: number): WorkspaceOffer {
  const team = standing.kind === "team";
  const owner = standing.role === "owner";
  const inviteRoles = team && atLeast(standing.role, "editor") ? grantableRoles(standing.role) : [];
  return {
    rename: owner,
    delete: team && owner,
    inviteRoles,
    seeInvitations: team && atLeast(standing.role, "editor"),
    leave: team && (!owner || owners > 1),
  };
}

/** What the caller may do with one member of the workspace. */
export interface MemberOffer {
  /** The roles the member may be given instead of their current one; empty: no change offered. */
  otherRoles: WorkspaceRole[];
  /** Remove them (never oneself: that is leaving). */
  remove: boolean;
  /** The member is the caller, who may leave. */
  leave: boolean;
}

export function memberOffer(standing: Standing & { userId: string }, member: Pick<WorkspaceMember, "userId" | "role">, owners: number): MemberOffer {
  const team = standing.kind === "team";
  const owner = standing.role === "owner";
  const self = member.userId === standing.userId;
  // The last owner keeps the role: stepping down or being removed would leave nobody in charge.
  const lastOwner = member.role === "owner" && owners <= 1;
  const otherRoles = team && owner && !lastOwner ? grantableRoles(standing.role).filter((r) => r !== member.role) : [];
  return {
    otherRoles,
    remove: team && owner && !self && !lastOwner,
    leave: self && workspaceOffer(standing, owners).leave,
  };
}

/** Whether the caller may withdraw a pending invitation offering `invitationRole`: those who could have sent it. */
export function canWithdraw(standing: Standing, invitationRole: WorkspaceRole): boolean {
  return standing.kind === "team" && atLeast(standing.role, "editor") && atLeast(standing.role, invitationRole);
}
