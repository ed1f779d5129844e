// Props for the vault's password fields (the vault passphrase, a login's secret): the browser's
// password manager must neither offer to save them as this site's sign-in password (the vault
// passphrase would sit beside the account, often synced to a cloud account, and could replace the
// saved account password; a bank's password would be stored under this site) nor fill the account
// password in. `autocomplete="off"` plus the opt-out attributes of the common password managers.
export const NOT_FOR_PASSWORD_MANAGERS = {
  autoComplete: "off",
  "data-1p-ignore": "true",
  "data-lpignore": "true",
  "data-bwignore": "true",
  "data-form-type": "other",
} as const;
