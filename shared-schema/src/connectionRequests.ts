// Request bodies of bank and broker connections (issue 15, server/httpapi/connections_handlers.go):
// starting a link, completing it when the institution sends the user back, and choosing which
// accounts become assets. The PWA sends them through these zod schemas and the server validates the
// same bodies against the generated JSON Schema; the service checks what needs its data (the
// member's role, the institution, the state of the link).
import * as z from "zod";
import { country, doc, maxKeys, text, uuid } from "./primitives";

/** The providers a server can be configured with (server/connect.KnownProviders). */
export const CONNECTION_PROVIDERS = ["enablebanking", "snaptrade"] as const;
export type ConnectionProvider = (typeof CONNECTION_PROVIDERS)[number];

/** The classes a linked account can become. */
export const CONNECTION_ASSET_CLASSES = ["bank_accounts", "investments"] as const;

/** The languages of the institution's consent page. */
export const CONNECTION_LANGUAGES = ["es", "en"] as const;

export const connectionStartRequestSchema = doc(
  z.strictObject({
    workspaceId: doc(uuid(), "Workspace the accounts will belong to."),
    provider: doc(z.enum(CONNECTION_PROVIDERS), "enablebanking (banks, PSD2) or snaptrade (brokerages)."),
    institutionId: doc(text({ min: 1, max: 200 }), "The institution's id as GET /connections/institutions lists it."),
    country: doc(country(), "Country of the bank (ISO 3166-1 alpha-2); required for banks.").optional(),
    language: doc(z.enum(CONNECTION_LANGUAGES), "Language of the consent page.").optional(),
  }),
  "POST /connections",
);
export type ConnectionStartRequest = z.infer<typeof connectionStartRequestSchema>;

export const connectionRenewRequestSchema = doc(
  z.strictObject({
    language: doc(z.enum(CONNECTION_LANGUAGES), "Language of the consent page.").optional(),
  }),
  "POST /connections/{id}/renew",
);
export type ConnectionRenewRequest = z.infer<typeof connectionRenewRequestSchema>;

export const connectionCompleteRequestSchema = doc(
  z.strictObject({
    state: doc(text({ min: 1, max: 200 }), "The state the institution sent back."),
    params: doc(
      maxKeys(z.record(z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/), z.string().max(4000)), 20),
      "Every query parameter of the return address (the code, or the error the institution reported).",
    ),
  }),
  "POST /connections/complete",
);
export type ConnectionCompleteRequest = z.infer<typeof connectionCompleteRequestSchema>;

export const connectionAdoptRequestSchema = doc(
  z.strictObject({
    accounts: doc(
      z
        .array(
          z.strictObject({
            accountId: doc(uuid(), "An account of the connection."),
            assetClass: doc(z.enum(CONNECTION_ASSET_CLASSES), "The asset class it becomes."),
          }),
        )
        .min(1)
        .max(50),
      "The accounts that become assets.",
    ),
  }),
  "POST /connections/{id}/assets",
);
export type ConnectionAdoptRequest = z.infer<typeof connectionAdoptRequestSchema>;

/** The connection request entities by name (schema.Validate's names on the Go side). */
export const CONNECTION_REQUEST_SCHEMAS = {
  connectionStartRequest: connectionStartRequestSchema,
  connectionRenewRequest: connectionRenewRequestSchema,
  connectionCompleteRequest: connectionCompleteRequestSchema,
  connectionAdoptRequest: connectionAdoptRequestSchema,
} as const;
