// The checks the profile's account forms make before asking the server (which checks again and has
// the last word): the new e-mail address, and the address typed to confirm a deletion.
import { emailRequestSchema } from "@patrimonio/shared-schema";

export type NewEmailProblem = "required" | "invalid" | "same";

/** Why `value` cannot be asked for as the new address of a user whose address is `current`; null when it can. */
export function newEmailProblem(value: string, current: string): NewEmailProblem | null {
  const email = value.trim();
  if (email === "") return "required";
  // The shared schema's one e-mail rule (no local pattern).
  if (!emailRequestSchema.safeParse({ email }).success) return "invalid";
  // Addresses are kept in lower case: "Ana@Example.com" is the address the user already has.
  if (email.toLowerCase() === current.trim().toLowerCase()) return "same";
  return null;
}

/** Whether what the user typed confirms the deletion of the account with this address. */
export function confirmsDeletion(typed: string, email: string): boolean {
  const value = typed.trim().toLowerCase();
  return value !== "" && value === email.trim().toLowerCase();
}
