// Request bodies of the admin area's user management (server/httpapi/admin_handlers.go): disabling
// or enabling an account, and granting or revoking the app admin role. The admin screen sends them
// through these zod schemas and the server validates the same bodies against the generated JSON
// Schema; the service then checks what needs its data (the user exists, not oneself, an address
// made admin by the server's configuration).
import * as z from "zod";
import { doc } from "./primitives";

/** What an admin can do to a user; the audit log (GET /admin/users/audit) uses the same names.
 * disable: no sign-in, every session and sync socket of the user ends at once; enable: undoes it;
 * grant_admin / revoke_admin: the app admin role (both need the acting admin's recent
 * re-verification). Nobody can do any of them to themself. */
export const ADMIN_USER_ACTIONS = ["disable", "enable", "grant_admin", "revoke_admin"] as const;
export type AdminUserAction = (typeof ADMIN_USER_ACTIONS)[number];

export const adminUserActionRequestSchema = doc(
  z.strictObject({
    action: doc(z.enum(ADMIN_USER_ACTIONS), "What to do to the user."),
  }),
  "POST /admin/users/{id}/action",
);
export type AdminUserActionRequest = z.infer<typeof adminUserActionRequestSchema>;

/** The admin request entities by name (schema.Validate's names on the Go side). */
export const ADMIN_REQUEST_SCHEMAS = {
  adminUserActionRequest: adminUserActionRequestSchema,
} as const;
