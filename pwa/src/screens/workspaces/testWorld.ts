// The workspaces the screen tests start from, seen by Ana (the fake server's signed-in user).
import type { WorkspaceRole } from "../../api/types";
import { createFakeServer, fakeMe, fakeUser, type FakeHandler } from "../../test/fakeServer";
import { createWorkspaceWorld, fakeInvitation, fakeMember, type FakeWorkspace } from "../../test/fakeWorkspaces";

export const ANA = fakeUser();
const ana = (role: WorkspaceRole) =>
  fakeMember({ userId: ANA.id, email: ANA.email, firstName: ANA.firstName ?? "", lastName: ANA.lastName ?? "", role });

/**
 * Ana's personal workspace; "Familia García" where Ana has `anaRole` (the only owner when owner,
 * else Carmen owns it) with Luis (editor) and Marta (viewer) and two pending invitations (Pedro as
 * viewer, Sofía as owner); and "Asesores", of which Ana is not a member, with an invitation for her.
 */
export function teamWorld(anaRole: WorkspaceRole = "owner") {
  const workspaces: FakeWorkspace[] = [
    { id: "w-personal", name: "Ana", kind: "personal", members: [ana("owner")], invitations: [] },
    {
      id: "w-team",
      name: "Familia García",
      kind: "team",
      members: [
        ana(anaRole),
        ...(anaRole === "owner" ? [] : [fakeMember({ userId: "u-carmen", email: "carmen@example.com", firstName: "Carmen", lastName: "Ruiz", role: "owner" })]),
        fakeMember({ userId: "u-luis", email: "luis@example.com", firstName: "Luis", lastName: "Pérez", role: "editor" }),
        fakeMember({ userId: "u-marta", email: "marta@example.com", firstName: "Marta", lastName: "", role: "viewer" }),
      ],
      invitations: [
        fakeInvitation({ id: "inv-pedro", email: "pedro@example.com", role: "viewer" }),
        fakeInvitation({ id: "inv-sofia", email: "sofia@example.com", role: "owner" }),
      ],
    },
    {
      id: "w-advisers",
      name: "Asesores",
      kind: "team",
      members: [fakeMember({ userId: "u-carlos", email: "carlos@example.com", firstName: "Carlos", lastName: "Sanz", role: "owner" })],
      invitations: [fakeInvitation({ id: "inv-ana", email: ANA.email, role: "viewer", invitedByEmail: "carlos@example.com", expiresAt: "2030-02-15T09:00:00Z" })],
    },
  ];
  const world = createWorkspaceWorld(workspaces);
  return world;
}

/** A fake server over the world, with extra exact handlers when a test needs them. */
export function serverFor(world: ReturnType<typeof teamWorld>, handlers: Record<string, FakeHandler> = {}) {
  return createFakeServer({ me: fakeMe({ workspaces: world.workspacesOf(ANA.id) }), routes: [world.route], handlers });
}
