// The checks of the workspace forms before anything is sent. They follow the server's rules
// (server/workspace: names trimmed, 1 to 80 characters, no control characters; invitations go to a
// plain e-mail address) so that most mistakes are caught at once; the server checks again and its
// message is shown when it refuses.
import type { WorkspaceMember } from "../../api/types";

/** The longest workspace name, in characters (server/workspace.MaxNameLength). */
export const WORKSPACE_NAME_MAX = 80;

export type NameProblem = "empty" | "tooLong" | "characters";

/** What is wrong with a workspace name as typed, or null when it can be sent (trimmed). */
export function workspaceNameProblem(typed: string): NameProblem | null {
  const name = typed.trim();
  if (name === "") return "empty";
  // Any control character (tab, newline, …), like Go's unicode.IsControl.
  if (/\p{Cc}/u.test(name)) return "characters";
  // Characters, not UTF-16 units: "€" and "👪" count one each, as on the server.
  if ([...name].length > WORKSPACE_NAME_MAX) return "tooLong";
  return null;
}

export type EmailProblem = "empty" | "invalid";

/** What is wrong with an address to invite, or null. The server has the last word on odd addresses. */
export function inviteEmailProblem(typed: string): EmailProblem | null {
  const email = typed.trim();
  if (email === "") return "empty";
  if (email.length > 254 || !/^[^\s@<>()",;]+@[^\s@<>()",;]+\.[^\s@<>()",;]+$/.test(email)) return "invalid";
  return null;
}

/** The address as the server keeps it: trimmed and in lower case. */
export function normalizeEmail(typed: string): string {
  return typed.trim().toLowerCase();
}

/** Deleting a workspace is confirmed by typing its name (surrounding spaces do not matter). */
export function confirmsWorkspaceName(typed: string, name: string): boolean {
  return typed.trim() === name.trim();
}

/** A member's name for people: first and last name when given, else the e-mail address. */
export function memberName(member: Pick<WorkspaceMember, "firstName" | "lastName" | "email">): string {
  const name = [member.firstName, member.lastName].map((part) => part.trim()).filter(Boolean).join(" ");
  return name || member.email;
}
