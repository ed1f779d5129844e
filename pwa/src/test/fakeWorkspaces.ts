// Workspaces, members and invitations for the fake server (./fakeServer.ts): a small in-memory world
// answering /workspaces… and /invitations… like server/httpapi/workspace_handlers.go, seen by the
// signed-in user of the fake server. It keeps a few of the server's rules that the screens must cope
// with (non-members get 404, the last owner stays, deleting needs a recent proof, members cannot be
// invited again), worded in Spanish or English after Accept-Language. GET /workspaces/{id} answers
// the actions the caller may take, as the real server does; here they come from a small stand-in
// (`offers` below) so that the screens have something to show. The rules themselves are the
// server's (server/authz, tested in Go), and the screens against them are tested end to end.
import type { OfferedInvitation, OfferedMember, Workspace, WorkspaceActions, WorkspaceInvitation, WorkspaceKind, WorkspaceMember, WorkspaceRole } from "../api/types";
import { error, json, type FakeRequest, type FakeRoute, type FakeServerState } from "./fakeServer";

export interface FakeWorkspace {
  id: string;
  name: string;
  kind: WorkspaceKind;
  members: WorkspaceMember[];
  /** Pending invitations (to anyone, the signed-in user included). */
  invitations: WorkspaceInvitation[];
}

const MESSAGES = {
  notFound: ["No se ha encontrado el espacio de trabajo.", "Workspace not found."],
  invitationNotFound: ["No se ha encontrado la invitación.", "Invitation not found."],
  memberNotFound: ["No se ha encontrado el miembro.", "Member not found."],
  nameEmpty: ["El nombre del espacio de trabajo no puede estar vacío.", "The workspace name must not be empty."],
  lastOwner: ["Un espacio de trabajo debe conservar al menos un propietario.", "A workspace must keep at least one owner."],
  memberExists: ["%s ya es miembro de este espacio de trabajo.", "%s is already a member of this workspace."],
  reverify: ["Confirma tu identidad para continuar.", "Confirm your identity to continue."],
} as const;

function say(request: FakeRequest, key: keyof typeof MESSAGES, arg = ""): string {
  const [es, en] = MESSAGES[key];
  const text = (request.headers.get("Accept-Language") ?? "es").startsWith("en") ? en : es;
  return text.replace("%s", arg);
}

/** A member for a fake workspace; the defaults are a second person, Luis. */
export function fakeMember(overrides: Partial<WorkspaceMember> = {}): WorkspaceMember {
  return {
    userId: "u-luis",
    email: "luis@example.com",
    firstName: "Luis",
    lastName: "Pérez",
    role: "viewer",
    joinedAt: "2025-01-10T09:00:00Z",
    ...overrides,
  };
}

/** An invitation for a fake workspace (the workspace's id and name are filled in by the world). */
export function fakeInvitation(overrides: Partial<WorkspaceInvitation> = {}): WorkspaceInvitation {
  return {
    id: "inv-1",
    workspaceId: "",
    workspaceName: "",
    email: "marta@example.com",
    role: "viewer",
    invitedByEmail: "ana@example.com",
    createdAt: "2025-02-01T09:00:00Z",
    expiresAt: "2025-02-15T09:00:00Z",
    expired: false,
    ...overrides,
  };
}

const RANK: Record<WorkspaceRole, number> = { owner: 3, editor: 2, viewer: 1 };
const ROLES: WorkspaceRole[] = ["owner", "editor", "viewer"];

/** A stand-in for the server's answer of what `caller` may do in `w` (see the header). */
function offers(w: FakeWorkspace, caller: WorkspaceMember) {
  const team = w.kind === "team";
  const owner = caller.role === "owner";
  const owners = w.members.filter((m) => m.role === "owner").length;
  const grantable = ROLES.filter((r) => RANK[r] <= RANK[caller.role]);
  const inviteRoles = team && RANK[caller.role] >= RANK.editor ? grantable : [];
  const actions: WorkspaceActions = {
    rename: owner,
    delete: team && owner,
    leave: team && (!owner || owners > 1),
    seeInvitations: inviteRoles.length > 0,
    inviteRoles,
    writeRecords: caller.role !== "viewer",
  };
  const members: OfferedMember[] = w.members.map((m) => {
    const self = m.userId === caller.userId;
    const lastOwner = m.role === "owner" && owners <= 1;
    const may = team && owner && !lastOwner;
    return { ...m, actions: { remove: may && !self, roles: may ? grantable.filter((r) => r !== m.role) : [], leave: self && actions.leave } };
  });
  const invitations: OfferedInvitation[] = w.invitations.map((inv) => ({
    ...inv,
    actions: { withdraw: inviteRoles.includes(inv.role) },
  }));
  return { actions, members, invitations };
}

/**
 * A world of workspaces. `route` goes into createFakeServer({ routes: [world.route] }); tests read
 * and change `workspaces` directly. The signed-in user's /me workspaces follow the world.
 */
export function createWorkspaceWorld(workspaces: FakeWorkspace[]) {
  let nextId = 1;

  for (const w of workspaces) {
    w.invitations = w.invitations.map((inv) => ({ ...inv, workspaceId: w.id, workspaceName: w.name }));
  }

  function mine(userId: string): Workspace[] {
    const list: Workspace[] = [];
    for (const w of world.workspaces) {
      const m = w.members.find((x) => x.userId === userId);
      if (m) list.push({ id: w.id, name: w.name, kind: w.kind, role: m.role });
    }
    // Like the server: the personal one first, then the teams by name.
    return list.sort((a, b) => (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === "personal" ? -1 : 1));
  }

  function sync(state: FakeServerState) {
    if (state.me) state.me.workspaces = mine(state.me.user.id);
  }

  const world = {
    workspaces,
    /** The workspaces of a user with their role, as GET /workspaces and /me list them. */
    workspacesOf: mine,
    route: (() => undefined) as FakeRoute,
  };

  const owners = (w: FakeWorkspace) => w.members.filter((m) => m.role === "owner").length;
  const noContent = () => new Response(null, { status: 204 });

  world.route = (method, path, body, state, request) => {
    const me = state.me;
    if (!path.startsWith("/workspaces") && !path.startsWith("/invitations")) return undefined;
    if (!me) return error(401, "unauthorized", "Sign in first.");
    const userId = me.user.id;
    const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
    const input = (body ?? {}) as { name?: string; email?: string; role?: WorkspaceRole };

    if (parts[0] === "invitations") {
      const addressed = () =>
        world.workspaces.flatMap((w) => w.invitations.filter((inv) => inv.email === me.user.email && !inv.expired));
      if (parts.length === 1 && method === "GET") return json(200, addressed());
      const invitation = addressed().find((inv) => inv.id === parts[1]);
      const w = world.workspaces.find((x) => x.id === invitation?.workspaceId);
      if (!invitation || !w) return error(404, "not_found", say(request, "invitationNotFound"));
      w.invitations = w.invitations.filter((inv) => inv.id !== invitation.id);
      if (method === "POST" && parts[2] === "accept") {
        const { firstName, lastName, email } = me.user;
        w.members.push({ userId, email, firstName: firstName ?? "", lastName: lastName ?? "", role: invitation.role, joinedAt: "2025-03-01T09:00:00Z" });
        sync(state);
        return json(200, { workspace: { id: w.id, name: w.name, kind: w.kind, role: invitation.role } });
      }
      if (method === "POST" && parts[2] === "decline") return noContent();
      return undefined;
    }

    if (parts.length === 1) {
      if (method === "GET") return json(200, mine(userId));
      if (method === "POST") {
        const name = (input.name ?? "").trim();
        if (name === "") return error(400, "invalid", say(request, "nameEmpty"));
        const { firstName, lastName, email } = me.user;
        const w: FakeWorkspace = {
          id: `w-new-${nextId++}`,
          name,
          kind: "team",
          members: [{ userId, email, firstName: firstName ?? "", lastName: lastName ?? "", role: "owner", joinedAt: "2025-03-01T09:00:00Z" }],
          invitations: [],
        };
        world.workspaces.push(w);
        sync(state);
        return json(201, { workspace: { id: w.id, name: w.name, kind: w.kind, role: "owner" } });
      }
      return undefined;
    }

    const w = world.workspaces.find((x) => x.id === parts[1]);
    const caller = w?.members.find((m) => m.userId === userId);
    if (!w || !caller) return error(404, "not_found", say(request, "notFound"));

    if (parts.length === 2) {
      switch (method) {
        case "GET": {
          const { actions, members, invitations } = offers(w, caller);
          return json(200, {
            workspace: { id: w.id, name: w.name, kind: w.kind, role: caller.role },
            actions,
            members,
            ...(actions.seeInvitations ? { invitations } : {}),
          });
        }
        case "PATCH": {
          const name = (input.name ?? "").trim();
          if (name === "") return error(400, "invalid", say(request, "nameEmpty"));
          w.name = name;
          sync(state);
          return json(200, { workspace: { id: w.id, name: w.name, kind: w.kind, role: caller.role } });
        }
        case "DELETE":
          if (!state.reverified) return error(403, "reverification_required", say(request, "reverify"));
          world.workspaces = world.workspaces.filter((x) => x !== w);
          sync(state);
          return noContent();
      }
      return undefined;
    }

    if (parts[2] === "invitations") {
      if (parts.length === 3 && method === "POST") {
        const email = (input.email ?? "").trim().toLowerCase();
        if (w.members.some((m) => m.email === email)) return error(409, "conflict", say(request, "memberExists", email));
        const invitation = fakeInvitation({
          id: `inv-new-${nextId++}`,
          workspaceId: w.id,
          workspaceName: w.name,
          email,
          role: input.role ?? "viewer",
          invitedByEmail: me.user.email,
        });
        w.invitations = [invitation, ...w.invitations.filter((inv) => inv.email !== email)];
        return json(201, { invitation });
      }
      if (parts.length === 4 && method === "DELETE") {
        if (!w.invitations.some((inv) => inv.id === parts[3])) return error(404, "not_found", say(request, "invitationNotFound"));
        w.invitations = w.invitations.filter((inv) => inv.id !== parts[3]);
        return noContent();
      }
      return undefined;
    }

    if (parts[2] === "members" && parts.length === 4) {
      const target = w.members.find((m) => m.userId === parts[3]);
      if (!target) return error(404, "not_found", say(request, "memberNotFound"));
      const lastOwner = target.role === "owner" && owners(w) === 1;
      if (method === "PATCH") {
        if (lastOwner && input.role !== "owner") return error(409, "conflict", say(request, "lastOwner"));
        target.role = input.role ?? target.role;
        sync(state);
        return json(200, { member: target });
      }
      if (method === "DELETE") {
        if (lastOwner) return error(409, "conflict", say(request, "lastOwner"));
        w.members = w.members.filter((m) => m !== target);
        sync(state);
        return noContent();
      }
    }
    return undefined;
  };

  return world;
}

export type WorkspaceWorld = ReturnType<typeof createWorkspaceWorld>;
