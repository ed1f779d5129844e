import type { WorkspaceMember } from "../../api/types";

/** A member's name for people: first and last name when given, else the e-mail address. */
export function memberName(member: Pick<WorkspaceMember, "firstName" | "lastName" | "email">): string {
  const name = [member.firstName, member.lastName].map((part) => part.trim()).filter(Boolean).join(" ");
  return name || member.email;
}
