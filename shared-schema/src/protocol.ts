// The sync protocol: JSON messages over one WebSocket, discriminated by `type`. The full
// description (flow, ordering, idempotence, limits, close codes, what each side guarantees) is
// sync/PROTOCOL.md; this file is the one definition of the messages, and the Go server validates
// them through the generated JSON Schema.
//
// client -> server: hello, push, pull, ping
// server -> client: welcome, ack, reject, snapshot, changes, resyncRequired, accessDenied, error, pong
//
// Flow: the client sends `hello` (protocol and schema version, its client id, its cursor per
// workspace, null for one it holds nothing of); the server answers `welcome` (or `error` with code
// protocol_version/schema_version, then closes) and, per workspace, one page: a `snapshot` page for
// a null cursor (a first sync), else a `changes` page after the cursor (0 included: a device that
// applied an empty snapshot gets change 1 as a change). While a page says `hasMore`, the client asks for the next one
// with `pull`; once a page says `hasMore: false` the workspace is live and the server sends new
// `changes` pages as they commit (the client's own mutations included). The client sends `push`
// batches; the server answers each mutation with an entry in one `ack` (applied, or duplicate when
// (clientId, mutationId) was already applied) or a `reject` (with issues; the rest of the batch
// proceeds). `resyncRequired` tells the client its cursor can no longer be served;
// `accessDenied` that it may not read a workspace (any more).
//
// Protocol 2 (replaces 1): a mutation is one merge mutation (sync/MERGE.md): one `stamp` for all
// its field writes, the `base` clocks the device saw, `resolves`, and the op `resolve`; no
// per-field clocks. Changes carry the applied mutation (with the server's effective stamp and the
// author's client id); a first sync streams `snapshot` pages of full record states.
//
// Protocol 3 (replaces 2): a cursor is only ever "the last seq applied", 0 included. "Nothing
// yet" is said apart: a null cursor in `hello`, and a `pull` without `after` (a snapshot). In
// protocol 2 a cursor of 0 meant both, so a device that applied an empty snapshot and then missed
// change 1 was sent a snapshot again instead of change 1.
import * as z from "zod";
import { COLLECTIONS, COLLECTION_NAMES, type CollectionName } from "./collections";
import { doc, hlc, int, maxKeys, text, uuid, uuidv7 } from "./primitives";
import { LIMITS } from "./limits";
import { fail, whenValid } from "./rules";

export { CLOSE_CODES, PROTOCOL_VERSION, SCHEMA_VERSION } from "./constants";

export { LIMITS } from "./limits";

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
/** A field name: at most 64 ASCII letters, digits and `_` (the length is in the pattern so the
 * generated JSON Schema can use it as a patternProperties key). */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const fieldName = () => z.stringFormat("fieldName", FIELD_NAME);
/** A clock's node id: 16 lowercase hex digits (the last part of an HLC stamp). */
export const NODE_ID_PATTERN = /^[0-9a-f]{16}$/;
const nodeId = () => z.stringFormat("nodeId", NODE_ID_PATTERN);

const seq = () => int(0, MAX_SAFE);
const collection = () => doc(z.enum(COLLECTION_NAMES), "Synced collection name.");
/** Opaque continuation token of a snapshot (resumable across connections). */
const pageToken = () => text({ min: 1, max: 512 });

/** Partial record: field -> new value (null = field cleared). Values are validated after merging,
 * against the collection's entity schema. */
const fieldValues = () => maxKeys(z.record(fieldName(), z.unknown()), LIMITS.maxFieldsPerMutation);
/** Per-field HLC stamps. */
const fieldClocks = () => maxKeys(z.record(fieldName(), hlc()), LIMITS.maxFieldsPerMutation);

/** The operations of a mutation (sync/MERGE.md). */
export const MUTATION_OPS = ["put", "delete", "restore", "resolve"] as const;
export type MutationOp = (typeof MUTATION_OPS)[number];

export const conflictKeySchema = z.strictObject({
  field: doc(fieldName(), "Field of the conflict."),
  stamp: doc(hlc(), "Stamp of the losing write (the conflict's identity within its record)."),
});
export type ConflictKey = z.infer<typeof conflictKeySchema>;

// ---------------------------------------------------------------- client -> server

export const mutationSchema = z.strictObject({
  mutationId: doc(int(1, MAX_SAFE), "Per-client sequence number, strictly increasing; (clientId, mutationId) makes a push idempotent."),
  workspaceId: doc(uuid(), "Workspace of the record."),
  collection: collection(),
  recordId: doc(uuidv7(), "Id of the record (UUIDv7)."),
  op: doc(
    z.enum(MUTATION_OPS),
    "put writes fields (a create is a put of every field); delete sets the tombstone; restore clears it (and may write fields); resolve closes conflicts without writing.",
  ),
  stamp: doc(hlc(), "HLC stamp of the mutation; all its field writes share it. The server may re-stamp a stamp far ahead of its clock (the ack says)."),
  fields: doc(fieldValues(), "put (at least one) and restore (optional): the fields written; null clears a field.").optional(),
  base: doc(
    fieldClocks(),
    "The record's field clocks as the device saw them when it made the change ({} for a new record): the local record's clocks without the tombstone's.",
  ),
  resolves: doc(
    z.array(conflictKeySchema).max(LIMITS.maxFieldsPerMutation),
    "Conflicts this mutation settles (restoring a losing value, or dismissing it); at least one for resolve.",
  ).optional(),
});
export type Mutation = z.infer<typeof mutationSchema>;

export const helloSchema = z.strictObject({
  type: z.literal("hello"),
  protocolVersion: doc(int(1, 1000), "PROTOCOL_VERSION of the client."),
  schemaVersion: doc(int(1, 1000), "SCHEMA_VERSION of the client."),
  clientId: doc(uuid(), "Stable id of this device database (one per install, not per tab). Bound to the first user who uses it."),
  cursors: doc(
    maxKeys(z.record(uuid(), seq().nullable()), LIMITS.maxWorkspaces),
    "workspaceId -> last seq the client applied (0 included: e.g. an empty snapshot applied); null = nothing yet (a first sync: send a snapshot).",
  ),
  resume: doc(
    maxKeys(z.record(uuid(), pageToken()), LIMITS.maxWorkspaces),
    "workspaceId -> pageToken of a snapshot in progress, to continue it instead of starting again.",
  ).optional(),
  language: doc(z.enum(["es", "en"]), "Language of the server's messages (default: the handshake's Accept-Language).").optional(),
});

/** Cross-field rules of a push, in the order rules.go checks them. */
export function pushRules(push: { mutations: Mutation[] }, ctx: z.core.$RefinementCtx): void {
  let previous = 0;
  push.mutations.forEach((m, i) => {
    const at = (...rest: (string | number)[]) => ["mutations", i, ...rest];
    if (m.mutationId <= previous) fail(ctx, at("mutationId"), "validation.protocol.mutationOrder");
    previous = Math.max(previous, m.mutationId);
    const known: readonly string[] = COLLECTIONS[m.collection as CollectionName].fields;
    if (m.op === "put") {
      if (m.fields === undefined || Object.keys(m.fields).length === 0) fail(ctx, at("fields"), "validation.required");
    } else if (m.op !== "restore" && m.fields !== undefined) {
      fail(ctx, at("fields"), "validation.notApplicable");
    }
    if (m.op === "resolve" && (m.resolves === undefined || m.resolves.length === 0)) fail(ctx, at("resolves"), "validation.required");
    for (const name of Object.keys(m.fields ?? {})) {
      if (!known.includes(name)) fail(ctx, at("fields", name), "validation.unknownField");
    }
    for (const name of Object.keys(m.base)) {
      if (!known.includes(name)) fail(ctx, at("base", name), "validation.unknownField");
    }
    (m.resolves ?? []).forEach((r, j) => {
      if (!known.includes(r.field)) fail(ctx, at("resolves", j, "field"), "validation.unknownField");
    });
  });
}

export const pushSchema = z
  .strictObject({
    type: z.literal("push"),
    mutations: doc(z.array(mutationSchema).min(1).max(LIMITS.maxMutationsPerPush), "Mutations in mutationId order."),
  })
  .superRefine(pushRules, whenValid);

/** Cross-field rule of a pull (rules.go pullRules): `after` reads changes, `pageToken` continues a
 * snapshot; not both. */
export function pullRules(pull: { after?: number; pageToken?: string }, ctx: z.core.$RefinementCtx): void {
  if (pull.after !== undefined && pull.pageToken !== undefined) fail(ctx, ["pageToken"], "validation.notApplicable");
}

export const pullSchema = z
  .strictObject({
    type: z.literal("pull"),
    workspaceId: doc(uuid(), "Workspace to read (also subscribes the connection to it)."),
    after: doc(
      seq(),
      "Send the changes with seq greater than this cursor (the last seq applied, 0 included). Absent: a snapshot (a new one, or the one pageToken continues).",
    ).optional(),
    limit: doc(int(1, LIMITS.maxChangesPerPage), "Most changes (or snapshot records) wanted in the page (server default when absent).").optional(),
    pageToken: doc(pageToken(), "Continue a snapshot: the pageToken of the last snapshot page applied (without after).").optional(),
  })
  .superRefine(pullRules, whenValid);

export const pingSchema = z.strictObject({ type: z.literal("ping") });

export const clientMessageSchema = z.discriminatedUnion("type", [helloSchema, pushSchema, pullSchema, pingSchema]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

// ---------------------------------------------------------------- server -> client

export const welcomeSchema = z.strictObject({
  type: z.literal("welcome"),
  protocolVersion: doc(int(1, 1000), "PROTOCOL_VERSION of the server."),
  schemaVersion: doc(int(1, 1000), "SCHEMA_VERSION of the server."),
  serverTime: doc(hlc(), "The server's clock now, as an HLC stamp (clients observe it)."),
  limits: doc(
    z.strictObject({
      maxMessageBytes: int(1, 1 << 30),
      maxMutationsPerPush: int(1, 100_000),
      maxChangesPerPage: int(1, 100_000),
      maxMessagesPerSecond: int(1, 100_000),
    }),
    "Limits this server enforces.",
  ),
});

export const ackEntrySchema = z.strictObject({
  mutationId: doc(int(1, MAX_SAFE), "The acknowledged mutation."),
  status: doc(z.enum(["applied", "duplicate"]), "applied now, or already applied before (idempotent resend)."),
  seq: doc(seq(), "Workspace sequence number the mutation was committed at (0: a duplicate whose change is no longer kept)."),
  stamp: doc(hlc(), "The mutation's effective stamp: the one it was sent with, or the server's when it re-stamped a clock far ahead. Absent when unknown (see seq 0).").optional(),
});

export const ackSchema = z.strictObject({
  type: z.literal("ack"),
  acks: doc(z.array(ackEntrySchema).min(1).max(LIMITS.maxMutationsPerPush), "The mutations of one push that are committed, in mutationId order."),
});

export const issueSchema = z.strictObject({
  path: doc(text({ max: 500 }), "Dotted path of the failing field within the mutation or record (\"\" = the whole)."),
  key: doc(text({ min: 1, max: 200 }), "Message key (messages/<lang>.json)."),
  params: doc(maxKeys(z.record(fieldName(), z.union([text({ max: 200 }), z.number().min(-1e15).max(1e15)])), 10), "Interpolation params of the message."),
  message: doc(text({ max: 1000 }), "The message, in the language of the connection."),
});
export type WireIssue = z.infer<typeof issueSchema>;

export const rejectSchema = z.strictObject({
  type: z.literal("reject"),
  mutationId: doc(int(1, MAX_SAFE), "The rejected mutation."),
  code: doc(z.enum(["invalid", "forbidden", "not_found", "conflict", "too_large"]), "Why it was rejected."),
  issues: doc(z.array(issueSchema).min(1).max(LIMITS.maxIssues), "Why, as validation issues (at least one)."),
});

export const changeSchema = z.strictObject({
  seq: doc(int(1, MAX_SAFE), "Workspace sequence number of this change."),
  collection: collection(),
  recordId: doc(uuidv7(), "Id of the record."),
  author: doc(uuid(), "Client id that made the mutation."),
  mutationId: doc(int(1, MAX_SAFE), "The author's mutation id."),
  op: doc(z.enum(MUTATION_OPS), "The mutation's operation."),
  stamp: doc(hlc(), "The effective stamp (the server's when it re-stamped)."),
  fields: doc(fieldValues(), "Fields written (put, restore).").optional(),
  base: doc(fieldClocks(), "The mutation's base: for put and restore the written fields' base clocks, for delete all of them."),
  resolves: doc(z.array(conflictKeySchema).max(LIMITS.maxFieldsPerMutation), "Conflicts the mutation settles.").optional(),
  late: doc(z.literal(true), "The server applied this mutation for the first time after a later one of the same clock node to the same record (its device's ids decided out of order): merge it as new, not as a duplicate (sync/MERGE.md, rule 7).").optional(),
});
export type Change = z.infer<typeof changeSchema>;

export const changesSchema = z.strictObject({
  type: z.literal("changes"),
  workspaceId: doc(uuid(), "Workspace of the changes."),
  changes: doc(z.array(changeSchema).max(LIMITS.maxChangesPerPage), "Changes in seq order, without gaps; merge them in order and apply the page atomically."),
  cursor: doc(seq(), "Cursor after this page (store it with the applied changes)."),
  hasMore: doc(z.boolean(), "More changes are waiting: send pull with after = cursor (until then the server sends nothing more for this workspace)."),
});

export const lifeSchema = z.strictObject({
  stamp: doc(hlc(), "Stamp of the latest delete or restore."),
  author: doc(uuid(), "Client id that made it."),
  deleted: doc(z.boolean(), "true: the record is deleted (a tombstone)."),
  base: doc(fieldClocks(), "A delete's base (the clocks the deleter saw).").optional(),
});

export const conflictSchema = z.strictObject({
  field: doc(fieldName(), "Field that lost."),
  value: doc(z.unknown(), "The losing value (null = it cleared the field)."),
  stamp: doc(hlc(), "Stamp of the losing write."),
  author: doc(uuid(), "Client id that made the losing write."),
});

export const recordStateSchema = z.strictObject({
  fields: doc(fieldValues(), "Winning value of each field (null = cleared)."),
  clocks: doc(fieldClocks(), "Stamp of each field's winning write."),
  authors: doc(maxKeys(z.record(fieldName(), uuid()), LIMITS.maxFieldsPerMutation), "Client id of each field's winning write."),
  life: doc(lifeSchema, "Latest delete or restore; absent when there was none.").optional(),
  seen: doc(maxKeys(z.record(nodeId(), hlc()), 100_000), "Newest stamp applied from each clock node."),
  late: doc(z.array(hlc()).max(100_000), "Stamps of the late mutations applied below their node's seen, sorted (absent when none).").optional(),
  conflicts: doc(z.array(conflictSchema).max(100_000), "Open conflict records, sorted by field and stamp."),
});
export type RecordState = z.infer<typeof recordStateSchema>;

export const snapshotRecordSchema = z.strictObject({
  collection: collection(),
  recordId: doc(uuidv7(), "Id of the record."),
  seq: doc(int(1, MAX_SAFE), "Seq of the record's latest change."),
  state: doc(recordStateSchema, "The record's whole merge state on the server (sync/MERGE.md)."),
});

export const snapshotSchema = z.strictObject({
  type: z.literal("snapshot"),
  workspaceId: doc(uuid(), "Workspace of the snapshot."),
  records: doc(z.array(snapshotRecordSchema).max(LIMITS.maxChangesPerPage), "Current records (tombstones included), in collection and id order; replace each one's confirmed state."),
  cursor: doc(seq(), "The snapshot's cursor: once the last page is applied, store it and expect changes after it."),
  hasMore: doc(z.boolean(), "More pages follow: send pull with this page's pageToken (and no after)."),
  pageToken: doc(pageToken(), "Continuation token, present when hasMore (store it to resume after a reconnect).").optional(),
});

export const resyncRequiredSchema = z.strictObject({
  type: z.literal("resyncRequired"),
  workspaceId: doc(uuid(), "Workspace to resync from scratch."),
  reason: doc(z.enum(["cursor_too_old", "cursor_in_future", "workspace_reset", "schema_changed"]), "Why."),
});

export const accessDeniedSchema = z.strictObject({
  type: z.literal("accessDenied"),
  workspaceId: doc(uuid(), "Workspace the user may not read (not a member, or no longer)."),
  reason: doc(z.enum(["not_a_member"]), "Why."),
});

export const ERROR_CODES = [
  "unauthorized",
  "forbidden",
  "protocol_version",
  "schema_version",
  "invalid_message",
  "too_large",
  "rate_limited",
  "too_many_connections",
  "slow_consumer",
  "timeout",
  "replaced",
  "going_away",
  "internal",
] as const;

export const errorSchema = z.strictObject({
  type: z.literal("error"),
  code: doc(z.enum(ERROR_CODES), "Error code (sync/PROTOCOL.md lists the close code that follows each)."),
  message: doc(text({ max: 500 }), "Message safe to show, in the language of the connection."),
});

export const pongSchema = z.strictObject({ type: z.literal("pong") });

export const serverMessageSchema = z.discriminatedUnion("type", [
  welcomeSchema,
  ackSchema,
  rejectSchema,
  snapshotSchema,
  changesSchema,
  resyncRequiredSchema,
  accessDeniedSchema,
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
  snapshot: snapshotSchema,
  changes: changesSchema,
  resyncRequired: resyncRequiredSchema,
  accessDenied: accessDeniedSchema,
  error: errorSchema,
  pong: pongSchema,
} as const;

