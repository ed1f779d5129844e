// The check the profile's account forms make before asking the server (which checks again and has
// the last word): the address typed to confirm a deletion. (The new e-mail address is the shared
// emailRequest schema's, in ChangeEmail.)
/** Whether what the user typed confirms the deletion of the account with this address. */
export function confirmsDeletion(typed: string, email: string): boolean {
  const value = typed.trim().toLowerCase();
  return value !== "" && value === email.trim().toLowerCase();
}
