// The protocol's constants, in a module without zod: the device's sync client and database read
// them on every page, and the validation code (zod and the schemas) loads only when something is
// validated (issue 8: the dashboard's first download). protocol.ts and collections.ts re-export
// them; constants.test.ts checks that COLLECTION_NAMES is exactly the collections' keys.

/** Version of the message format. A server refuses a hello with another protocolVersion. */
export const PROTOCOL_VERSION = 3;
/** Version of the record schemas. Bump it whenever a synced entity changes incompatibly. */
export const SCHEMA_VERSION = 7;

/** The synced collections, in the order of COLLECTIONS (collections.ts). */
export const COLLECTION_NAMES = [
  "assets",
  "legalStructures",
  "liabilities",
  "beneficiaries",
  "legacyInstructions",
  "valuations",
  "tasks",
  "cashFlows",
  "logins",
  "fxRates",
  "vaultKeys",
] as const;
export type CollectionName = (typeof COLLECTION_NAMES)[number];

/** WebSocket close codes the server uses (sync/PROTOCOL.md explains each). */
export const CLOSE_CODES = {
  normal: 1000,
  goingAway: 1001,
  tooLarge: 1009,
  internal: 1011,
  invalidMessage: 4400,
  unauthorized: 4401,
  forbidden: 4403,
  timeout: 4408,
  replaced: 4409,
  version: 4426,
  rateLimited: 4429,
  tooManyConnections: 4430,
  slowConsumer: 4431,
} as const;
