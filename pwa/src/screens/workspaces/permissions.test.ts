// What the workspace screens offer to each role. The first test reads the server's own role × action
// matrix (server/authz/authz_test.go) so that the screens and the server cannot drift apart: an
// action the server allows is offered, one it refuses is not.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { WorkspaceKind, WorkspaceRole } from "../../api/types";
import { canWithdraw, grantableRoles, memberOffer, ownerCount, workspaceOffer, type Standing } from "./permissions";

const ME = "u-me";
const OTHER = "u-other";

/** The server's matrix: action → role → "yes" | "403" | "404". */
function serverMatrix(): Map<string, Map<string, string>> {
  const source = readFileSync(join(import.meta.dirname, "..", "..", "..", "..", "server", "authz", "authz_test.go"), "utf8");
  const table = /const matrix = `([\s\S]*?)`/.exec(source)?.[1];
  if (!table) throw new Error("the matrix is missing from server/authz/authz_test.go");
  const [header, ...rows] = table.trim().split("\n").map((line) => line.trim().split(/\s+/));
  const roles = header!.slice(1);
  return new Map(rows.map(([action, ...cells]) => [action!, new Map(roles.map((role, i) => [role, cells[i]!]))]));
}

/**
 * Whether the screens offer an action of the matrix, in its setting: a team workspace with two
 * owners, the member acted upon and the role given both viewers.
 */
function offered(action: string, role: WorkspaceRole): boolean | undefined {
  const standing = { kind: "team" as const, role, userId: ME };
  const other = { userId: OTHER, role: "viewer" as const };
  switch (action) {
    case "workspace.rename":
      return workspaceOffer(standing, 2).rename;
    case "workspace.delete":
      return workspaceOffer(standing, 2).delete;
    case "member.invite":
      return workspaceOffer(standing, 2).inviteRoles.includes("viewer");
    case "member.remove":
      return memberOffer(standing, other, 2).remove;
    case "member.change_role":
      return memberOffer(standing, other, 2).otherRoles.length > 0;
    case "member.leave":
      return memberOffer(standing, { userId: ME, role }, 2).leave;
    case "invitation.revoke":
      return canWithdraw(standing, "viewer");
  }
  // Reading is what every screen does; answering invitations and records are not offered here.
  return undefined;
}

describe("the offers follow the server's role × action matrix", () => {
  const matrix = serverMatrix();
  const cases = [...matrix]
    .filter(([action]) => offered(action, "owner") !== undefined)
    .flatMap(([action, byRole]) => (["owner", "editor", "viewer"] as const).map((role) => [action, role, byRole.get(role)] as const));

  test("the matrix was found and covers the workspace actions", () => {
    expect(cases.map(([action]) => action)).toEqual(
      expect.arrayContaining(["workspace.rename", "workspace.delete", "member.invite", "member.remove", "member.change_role", "member.leave", "invitation.revoke"]),
    );
  });

  test.each(cases)("%s is offered to the role %s exactly when the server says yes (it says %s)", (action, role, answer) => {
    expect(offered(action, role)).toBe(answer === "yes");
  });
});

describe("the special rules", () => {
  const team = (role: WorkspaceRole): Standing & { userId: string } => ({ kind: "team", role, userId: ME });
  const personal: Standing & { userId: string } = { kind: "personal", role: "owner", userId: ME };

  test.each([
    ["the last owner is offered no way to leave", () => memberOffer(team("owner"), { userId: ME, role: "owner" }, 1).leave, false],
    ["an owner may leave while another owner remains", () => memberOffer(team("owner"), { userId: ME, role: "owner" }, 2).leave, true],
    ["an editor may leave a workspace with a single owner", () => memberOffer(team("editor"), { userId: ME, role: "editor" }, 1).leave, true],
    ["nobody is offered to leave on someone else's row", () => memberOffer(team("owner"), { userId: OTHER, role: "editor" }, 2).leave, false],
    ["the last owner cannot be removed", () => memberOffer(team("owner"), { userId: OTHER, role: "owner" }, 1).remove, false],
    ["another owner can be removed while one remains", () => memberOffer(team("owner"), { userId: OTHER, role: "owner" }, 2).remove, true],
    ["an owner does not remove themselves (that is leaving)", () => memberOffer(team("owner"), { userId: ME, role: "owner" }, 2).remove, false],
    ["a personal workspace can be renamed", () => workspaceOffer(personal, 1).rename, true],
    ["a personal workspace cannot be deleted", () => workspaceOffer(personal, 1).delete, false],
    ["a personal workspace cannot be left", () => workspaceOffer(personal, 1).leave, false],
    ["a personal workspace has no invitations to see", () => workspaceOffer(personal, 1).seeInvitations, false],
    ["an editor sees the pending invitations", () => workspaceOffer(team("editor"), 1).seeInvitations, true],
    ["a viewer does not see the pending invitations", () => workspaceOffer(team("viewer"), 1).seeInvitations, false],
  ] as const)("%s", (_name, check, want) => {
    expect(check()).toBe(want);
  });

  test.each([
    ["owner", ["owner", "editor", "viewer"]],
    ["editor", ["editor", "viewer"]],
    ["viewer", ["viewer"]],
  ] as const)("the role %s grants %j and nothing above", (role, roles) => {
    expect(grantableRoles(role)).toEqual(roles);
  });

  test.each([
    ["team", "owner", ["owner", "editor", "viewer"]],
    ["team", "editor", ["editor", "viewer"]],
    ["team", "viewer", []],
    ["personal", "owner", []],
  ] as const)("in a %s workspace the role %s may invite as %j", (kind: WorkspaceKind, role: WorkspaceRole, roles) => {
    expect(workspaceOffer({ kind, role }, 1).inviteRoles).toEqual(roles);
  });

  test.each([
    ["the last owner keeps the role: no change is offered", { userId: ME, role: "owner" }, 1, []],
    ["one of two owners may step down", { userId: ME, role: "owner" }, 2, ["editor", "viewer"]],
    ["a viewer may become owner or editor", { userId: OTHER, role: "viewer" }, 1, ["owner", "editor"]],
    ["an editor may become owner or viewer", { userId: OTHER, role: "editor" }, 1, ["owner", "viewer"]],
  ] as const)("%s", (_name, member, owners, roles) => {
    expect(memberOffer(team("owner"), member, owners).otherRoles).toEqual(roles);
  });

  test("only owners change roles, in team workspaces only", () => {
    expect(memberOffer(team("editor"), { userId: OTHER, role: "viewer" }, 1).otherRoles).toEqual([]);
    expect(memberOffer(personal, { userId: ME, role: "owner" }, 2).otherRoles).toEqual([]);
  });

  test.each([
    ["owner", "owner", true],
    ["owner", "viewer", true],
    ["editor", "editor", true],
    ["editor", "owner", false],
    ["viewer", "viewer", false],
  ] as const)("the role %s may withdraw an invitation as %s: %s", (role, invited, want) => {
    expect(canWithdraw({ kind: "team", role }, invited)).toBe(want);
  });

  test("owners are counted from the members", () => {
    expect(ownerCount([{ role: "owner" }, { role: "editor" }, { role: "owner" }, { role: "viewer" }])).toBe(2);
    expect(ownerCount([])).toBe(0);
  });
});
