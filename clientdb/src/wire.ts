// Encoding and decoding of sync protocol messages (sync/PROTOCOL.md, shared-schema protocol.ts)
// for the device: from outbox rows to push messages, and from server JSON to the engine's types.
import { COLLECTION_NAMES, PROTOCOL_VERSION, SCHEMA_VERSION, type CollectionName, type WireIssue } from "@patrimonio/shared-schema";
import type { Ack, Reject, ServerChange, ServerPage } from "./apply";
import type { OutboxRow } from "./db";
import type { Mutation, RecordState } from "./merge";

export interface Welcome {
  type: "welcome";
  protocolVersion: number;
  schemaVersion: number;
  serverTime: string;
  limits: { maxMessageBytes: number; maxMutationsPerPush: number; maxChangesPerPage: number; maxMessagesPerSecond?: number };
}

export type Incoming =
  | Welcome
  | { type: "ack"; acks: Ack[] }
  | ({ type: "reject" } & Reject)
  | ({ type: "changes" } & ServerPage)
  | ({ type: "snapshot" } & ServerPage)
  | { type: "resyncRequired"; workspaceId: string; reason: string }
  | { type: "accessDenied"; workspaceId: string; reason: string }
  | { type: "error"; code: string; message: string }
  | { type: "pong" };

export class ProtocolError extends Error {
  readonly code = "invalid_message";
  constructor(message: string) {
    super(message);
    this.name = "ProtocolError";
  }
}

// ---------------------------------------------------------------- client -> server

/** hello: the cursor of every workspace to sync (the last seq applied, 0 included; null: nothing
 * yet, a snapshot), and the page token of each snapshot in progress. */
export function encodeHello(clientId: string, cursors: Record<string, number | null>, resume: Record<string, string> = {}, language?: "es" | "en"): string {
  const msg: Record<string, unknown> = { type: "hello", protocolVersion: PROTOCOL_VERSION, schemaVersion: SCHEMA_VERSION, clientId, cursors };
  if (Object.keys(resume).length > 0) msg.resume = resume;
  if (language !== undefined) msg.language = language;
  return JSON.stringify(msg);
}

/** One outbox row as a pushed mutation. */
export function wireMutation(row: OutboxRow): Record<string, unknown> {
  const m = row.mutation;
  const out: Record<string, unknown> = {
    mutationId: row.mutationId,
    workspaceId: row.workspaceId,
    collection: row.collection,
    recordId: row.recordId,
    op: m.op,
    stamp: m.stamp,
    base: m.base ?? {},
  };
  if (m.fields !== undefined && Object.keys(m.fields).length > 0) out.fields = m.fields;
  if (m.resolves !== undefined && m.resolves.length > 0) out.resolves = m.resolves;
  return out;
}

export function encodePush(rows: readonly OutboxRow[]): string {
  return JSON.stringify({ type: "push", mutations: rows.map(wireMutation) });
}

/** One pushed mutation's JSON text, for encodePushOf (each is encoded once, measured, then joined). */
export function encodeMutation(row: OutboxRow): string {
  return JSON.stringify(wireMutation(row));
}

/** The push of already encoded mutations: the same text as encodePush of their rows. */
export function encodePushOf(mutations: readonly string[]): string {
  return `{"type":"push","mutations":[${mutations.join(",")}]}`;
}

/** pull: the changes after `after` (0 included), or (after null) a snapshot page: a new snapshot,
 * or the next page of the one `pageToken` continues. */
export function encodePull(workspaceId: string, after: number | null, pageToken?: string): string {
  if (after !== null) return JSON.stringify({ type: "pull", workspaceId, after });
  return JSON.stringify(pageToken === undefined ? { type: "pull", workspaceId } : { type: "pull", workspaceId, pageToken });
}

export const PING = JSON.stringify({ type: "ping" });

// ---------------------------------------------------------------- server -> client

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function str(o: Obj, k: string): string {
  const v = o[k];
  if (typeof v !== "string") throw new ProtocolError(`Field ${k} must be a string.`);
  return v;
}

function int(o: Obj, k: string): number {
  const v = o[k];
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) throw new ProtocolError(`Field ${k} must be a whole number.`);
  return v;
}

function collectionOf(o: Obj): CollectionName {
  const c = str(o, "collection");
  if (!(COLLECTION_NAMES as readonly string[]).includes(c)) throw new ProtocolError(`Unknown collection ${JSON.stringify(c)}.`);
  return c as CollectionName;
}

function recordState(v: unknown): RecordState {
  if (!isObj(v) || !isObj(v.fields) || !isObj(v.clocks)) throw new ProtocolError("A record state needs fields and clocks.");
  const s: RecordState = {
    fields: v.fields as RecordState["fields"],
    clocks: v.clocks as RecordState["clocks"],
    authors: (isObj(v.authors) ? v.authors : {}) as RecordState["authors"],
    seen: (isObj(v.seen) ? v.seen : {}) as RecordState["seen"],
    conflicts: (Array.isArray(v.conflicts) ? v.conflicts : []) as RecordState["conflicts"],
  };
  if (isObj(v.life)) s.life = v.life as unknown as NonNullable<RecordState["life"]>;
  if (Array.isArray(v.late) && v.late.length > 0) s.late = v.late as string[];
  return s;
}

function decodeChange(v: unknown): ServerChange {
  if (!isObj(v)) throw new ProtocolError("A change must be an object.");
  const m: Mutation = { op: str(v, "op") as Mutation["op"], stamp: str(v, "stamp"), author: str(v, "author") };
  if (isObj(v.fields)) m.fields = v.fields as Mutation["fields"];
  if (isObj(v.base)) m.base = v.base as Mutation["base"];
  if (Array.isArray(v.resolves)) m.resolves = v.resolves as Mutation["resolves"];
  if (v.late === true) m.late = true;
  return { seq: int(v, "seq"), collection: collectionOf(v), recordId: str(v, "recordId"), kind: "mutation", mutationId: int(v, "mutationId"), mutation: m };
}

function decodeSnapshotRecord(v: unknown): ServerChange {
  if (!isObj(v)) throw new ProtocolError("A snapshot record must be an object.");
  return { seq: int(v, "seq"), collection: collectionOf(v), recordId: str(v, "recordId"), kind: "state", state: recordState(v.state) };
}

function decodeAck(v: unknown): Ack {
  if (!isObj(v)) throw new ProtocolError("An ack entry must be an object.");
  const a: Ack = { mutationId: int(v, "mutationId"), seq: int(v, "seq") };
  if (typeof v.stamp === "string") a.stamp = v.stamp;
  return a;
}

/** Parses one server message (throws ProtocolError for anything malformed). */
export function decodeIncoming(data: string): Incoming {
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch {
    throw new ProtocolError("The server sent a message that is not JSON.");
  }
  if (!isObj(v)) throw new ProtocolError("A message must be an object.");
  switch (v.type) {
    case "welcome": {
      const limits = isObj(v.limits) ? v.limits : {};
      return {
        type: "welcome",
        protocolVersion: int(v, "protocolVersion"),
        schemaVersion: int(v, "schemaVersion"),
        serverTime: str(v, "serverTime"),
        limits: {
          maxMessageBytes: int(limits, "maxMessageBytes"),
          maxMutationsPerPush: int(limits, "maxMutationsPerPush"),
          maxChangesPerPage: int(limits, "maxChangesPerPage"),
          ...(typeof limits.maxMessagesPerSecond === "number" ? { maxMessagesPerSecond: limits.maxMessagesPerSecond } : {}),
        },
      };
    }
    case "ack":
      if (!Array.isArray(v.acks)) throw new ProtocolError("acks must be a list.");
      return { type: "ack", acks: v.acks.map(decodeAck) };
    case "reject":
      return {
        type: "reject",
        mutationId: int(v, "mutationId"),
        code: str(v, "code"),
        issues: (Array.isArray(v.issues) ? v.issues : []) as WireIssue[],
      };
    case "changes": {
      if (!Array.isArray(v.changes)) throw new ProtocolError("changes must be a list.");
      const page: { type: "changes" } & ServerPage = {
        type: "changes",
        workspaceId: str(v, "workspaceId"),
        changes: v.changes.map(decodeChange),
        cursor: int(v, "cursor"),
        hasMore: v.hasMore === true,
        snapshot: false,
      };
      return page;
    }
    case "snapshot": {
      if (!Array.isArray(v.records)) throw new ProtocolError("records must be a list.");
      const page: { type: "snapshot" } & ServerPage = {
        type: "snapshot",
        workspaceId: str(v, "workspaceId"),
        changes: v.records.map(decodeSnapshotRecord),
        cursor: int(v, "cursor"),
        hasMore: v.hasMore === true,
        snapshot: true,
      };
      if (typeof v.pageToken === "string") page.resume = v.pageToken;
      return page;
    }
    case "resyncRequired":
      return { type: "resyncRequired", workspaceId: str(v, "workspaceId"), reason: str(v, "reason") };
    case "accessDenied":
      return { type: "accessDenied", workspaceId: str(v, "workspaceId"), reason: str(v, "reason") };
    case "error":
      return { type: "error", code: str(v, "code"), message: typeof v.message === "string" ? v.message : "" };
    case "pong":
      return { type: "pong" };
    default:
      throw new ProtocolError(`Unknown message type ${JSON.stringify(v.type)}.`);
  }
}
