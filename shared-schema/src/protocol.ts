// The sync protocol: JSON messages over one WebSocket, discriminated by `type`.
//
// client -> server: hello, push, pull, ping
// server -> client: welcome, ack, reject, changes, resyncRequired, error, pong
//
// Flow: the client sends `hello` (protocol and schema version, its client id, its cursor per
// workspace); the server answers `welcome` (or `error` with code protocol_version/schema_version,
// then closes) and streams `changes` pages after each cursor (a first sync is a `snapshot`). The
// client sends `push` batches; the server answers every mutation with `ack` (applied, or duplicate
// when (clientId, mutationId) was already applied) or `reject` (with validation issues; the rest of
// the batch proceeds). Live changes from other devices arrive as `changes` too. `pull` asks for the
// next page explicitly. `resyncRequired` tells the client its cursor can no longer be served.
import * as z from "zod";
import { COLLECTIONS, COLLECTION_NAMES, type CollectionName } from "./collections";
import { doc, hlc, int, maxKeys, text, uuid, uuidv7 } from "./primitives";
import { fail, whenValid } from "./rules";

/** Version of the message format. A server refuses a hello with another protocolVersion. */
export const PROTOCOL_VERSION = 1;
/** Version of the record schemas. Bump it whenever a synced entity changes incompatibly. */
export const SCHEMA_VERSION = 1;

export const LIMITS = {
  /** Largest message (WebSocket frame) either side accepts, in bytes. */
  maxMessageBytes: 1_048_576,
  /** Largest single record document, in bytes. */
  maxRecordBytes: 65_536,
  /** Deepest nesting of objects/arrays in any document (the root container is depth 1). */
  maxDepth: 10,
  /** Mutations in one push. */
  maxMutationsPerPush: 100,
  /** Changes in one changes page (and the largest pull limit). */
  maxChangesPerPage: 500,
  /** Fields in one mutation or change. */
  maxFieldsPerMutation: 100,
  /** Workspaces in one hello. */
  maxWorkspaces: 100,
  /** Issues in one reject. */
  maxIssues: 100,
} as const;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
/** A field name: at most 64 ASCII letters, digits and `_` (the length is in the pattern so the
 * generated JSON Schema can use it as a patternProperties key). */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const fieldName = () => z.stringFormat("fieldName", FIELD_NAME);

const seq = () => int(0, MAX_SAFE);
const collection = () => doc(z.enum(COLLECTION_NAMES), "Synced collection name.");

/** Partial record: field -> new value (null = field cleared). Values are validated after merging,
 * against the collection's entity schema. */
const fieldValues = () => maxKeys(z.record(fieldName(), z.unknown()), LIMITS.maxFieldsPerMutation);
/** Per-field HLC stamps of the values in `fields`. */
const fieldClocks = () => maxKeys(z.record(fieldName(), hlc()), LIMITS.maxFieldsPerMutation);

// ---------------------------------------------------------------- client -> server

export const mutationSchema = z.strictObject({
  mutationId: doc(int(1, MAX_SAFE), "Per-client sequence number, strictly increasing; (clientId, mutationId) makes a push idempotent."),
  workspaceId: doc(uuid(), "Workspace of the record."),
  collection: collection(),
  recordId: doc(uuidv7(), "Id of the record (UUIDv7)."),
  op: doc(z.enum(["put", "delete", "restore"]), "put writes fields; delete sets the tombstone; restore clears it."),
  fields: doc(fieldValues(), "put only: the changed fields (a partial record; null clears a field).").optional(),
  clocks: doc(fieldClocks(), "put only: one HLC stamp per field in fields, same keys.").optional(),
  stamp: doc(hlc(), "delete and restore only: HLC stamp of the operation.").optional(),
});
export type Mutation = z.infer<typeof mutationSchema>;

export const helloSchema = z.strictObject({
  type: z.literal("hello"),
  protocolVersion: doc(int(1, 1000), "PROTOCOL_VERSION of the client."),
  schemaVersion: doc(int(1, 1000), "SCHEMA_VERSION of the client."),
  clientId: doc(uuid(), "Stable id of this device database (one per install, not per tab)."),
  cursors: doc(maxKeys(z.record(uuid(), seq()), LIMITS.maxWorkspaces), "workspaceId -> last seq the client applied (0 = nothing yet)."),
});

/** Cross-field rules of a push, in the order rules.go checks them. */
export function pushRules(push: { mutations: Mutation[] }, ctx: z.core.$RefinementCtx): void {
  let previous = 0;
  push.mutations.forEach((m, i) => {
    const at = (...rest: (string | number)[]) => ["mutations", i, ...rest];
    if (m.mutationId <= previous) fail(ctx, at("mutationId"), "validation.protocol.mutationOrder");
    previous = Math.max(previous, m.mutationId);
    if (m.op === "put") {
      if (m.fields === undefined) fail(ctx, at("fields"), "validation.required");
      if (m.clocks === undefined) fail(ctx, at("clocks"), "validation.required");
      if (m.stamp !== undefined) fail(ctx, at("stamp"), "validation.notApplicable");
      const known: readonly string[] = COLLECTIONS[m.collection as CollectionName].fields;
      const fieldNames = Object.keys(m.fields ?? {});
      for (const name of fieldNames) {
        if (!known.includes(name)) fail(ctx, at("fields", name), "validation.unknownField");
      }
      if (m.fields !== undefined && m.clocks !== undefined) {
        const clockNames = Object.keys(m.clocks);
        const same = clockNames.length === fieldNames.length && fieldNames.every((name) => name in m.clocks!);
        if (!same) fail(ctx, at("clocks"), "validation.protocol.clocksMismatch");
      }
    } else {
      if (m.stamp === undefined) fail(ctx, at("stamp"), "validation.required");
      if (m.fields !== undefined) fail(ctx, at("fields"), "validation.notApplicable");
      if (m.clocks !== undefined) fail(ctx, at("clocks"), "validation.notApplicable");
    }
  });
}

export const pushSchema = z
  .strictObject({
    type: z.literal("push"),
    mutations: doc(z.array(mutationSchema).min(1).max(LIMITS.maxMutationsPerPush), "Mutations in mutationId order."),
  })
  .superRefine(pushRules, whenValid);

export const pullSchema = z.strictObject({
  type: z.literal("pull"),
  workspaceId: doc(uuid(), "Workspace to read."),
  after: doc(seq(), "Send changes with seq greater than this cursor."),
  limit: doc(int(1, LIMITS.maxChangesPerPage), "Most changes wanted in the page (server default when absent).").optional(),
});

export const pingSchema = z.strictObject({ type: z.literal("ping") });

export const clientMessageSchema = z.discriminatedUnion("type", [helloSchema, pushSchema, pullSchema, pingSchema]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

// ---------------------------------------------------------------- server -> client

export const welcomeSchema = z.strictObject({
  type: z.literal("welcome"),
  protocolVersion: doc(int(1, 1000), "PROTOCOL_VERSION of the server."),
  schemaVersion: doc(int(1, 1000), "SCHEMA_VERSION of the server."),
  serverTime: doc(hlc(), "The server's clock now, as an HLC stamp (clients may adjust their own)."),
  limits: doc(
    z.strictObject({
      maxMessageBytes: int(1, 1 << 30),
      maxMutationsPerPush: int(1, 100_000),
      maxChangesPerPage: int(1, 100_000),
    }),
    "Limits this server enforces.",
  ),
});

export const ackSchema = z.strictObject({
  type: z.literal("ack"),
  mutationId: doc(int(1, MAX_SAFE), "The acknowledged mutation."),
  status: doc(z.enum(["applied", "duplicate"]), "applied now, or already applied before (idempotent resend)."),
  seq: doc(seq(), "Workspace sequence number the mutation was committed at (0 when it changed nothing)."),
});

export const issueSchema = z.strictObject({
  path: doc(text({ max: 500 }), "Dotted path of the failing field within the record (\"\" = the record)."),
  key: doc(text({ min: 1, max: 200 }), "Message key (messages/<lang>.json)."),
  params: doc(maxKeys(z.record(fieldName(), z.union([text({ max: 200 }), z.number().min(-1e15).max(1e15)])), 10), "Interpolation params of the message."),
  message: doc(text({ max: 1000 }), "The message, in the language of the connection."),
});
export type WireIssue = z.infer<typeof issueSchema>;

export const rejectSchema = z.strictObject({
  type: z.literal("reject"),
  mutationId: doc(int(1, MAX_SAFE), "The rejected mutation."),
  code: doc(z.enum(["invalid", "forbidden", "not_found", "conflict", "too_large"]), "Why it was rejected."),
  issues: doc(z.array(issueSchema).max(LIMITS.maxIssues), "Validation issues (code invalid)."),
});

export const changeSchema = z.strictObject({
  seq: doc(int(1, MAX_SAFE), "Workspace sequence number of this change."),
  collection: collection(),
  recordId: doc(uuidv7(), "Id of the record."),
  fields: doc(fieldValues(), "Fields whose winning value changed (null = cleared). A snapshot sends all fields.").optional(),
  clocks: doc(fieldClocks(), "Stamps of those fields.").optional(),
  deleted: doc(hlc().nullable(), "Tombstone after this change: stamp, or null when live. Absent = unchanged.").optional(),
});
export type Change = z.infer<typeof changeSchema>;

export const changesSchema = z.strictObject({
  type: z.literal("changes"),
  workspaceId: doc(uuid(), "Workspace of the changes."),
  changes: doc(z.array(changeSchema).max(LIMITS.maxChangesPerPage), "Changes in seq order; apply the page atomically."),
  cursor: doc(seq(), "Cursor after this page (store it with the applied changes)."),
  hasMore: doc(z.boolean(), "More pages follow."),
  snapshot: doc(z.boolean(), "Part of a first-sync snapshot (full records).").optional(),
});

export const resyncRequiredSchema = z.strictObject({
  type: z.literal("resyncRequired"),
  workspaceId: doc(uuid(), "Workspace to resync from scratch."),
  reason: doc(z.enum(["cursor_too_old", "workspace_reset", "schema_changed"]), "Why."),
});

export const errorSchema = z.strictObject({
  type: z.literal("error"),
  code: doc(
    z.enum([
      "unauthorized",
      "forbidden",
      "protocol_version",
      "schema_version",
      "invalid_message",
      "too_large",
      "rate_limited",
      "internal",
    ]),
    "Error code.",
  ),
  message: doc(text({ max: 500 }), "Message safe to show, in the language of the connection."),
});

export const pongSchema = z.strictObject({ type: z.literal("pong") });

export const serverMessageSchema = z.discriminatedUnion("type", [
  welcomeSchema,
  ackSchema,
  rejectSchema,
  changesSchema,
  resyncRequiredSchema,
  errorSchema,
  pongSchema,
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;

/** Message type -> schema, per direction (each one also has jsonschema/message.<type>.json). */
export const CLIENT_MESSAGES = { hello: helloSchema, push: pushSchema, pull: pullSchema, ping: pingSchema } as const;
export const SERVER_MESSAGES = {
  welcome: welcomeSchema,
  ack: ackSchema,
  reject: rejectSchema,
  changes: changesSchema,
  resyncRequired: resyncRequiredSchema,
  error: errorSchema,
  pong: pongSchema,
} as const;
