// The sync envelope every synced record shares.
//
// Records carry the envelope INLINE: a stored record is `{ id, workspaceId, clocks, deleted?,
// ...fields }`, e.g. `{ id, workspaceId, clocks: { name: "2025-...", currency: "..." }, name, currency }`.
// The envelope names are reserved: no entity has a field called id, workspaceId, clocks or deleted.
// The entity schemas (assetSchema...) validate the fields alone; the record schemas add the envelope.
//
// - id: UUIDv7 created by the client.
// - workspaceId: the workspace (sync scope) the record lives in; any UUID.
// - clocks: per-field hybrid logical clock stamps, `{ field: stamp }`; the higher stamp wins per field.
//   The key `deleted` holds the clock of the tombstone register (the stamp of the last delete or restore).
// - deleted: the tombstone: the stamp of the delete, or null/absent while the record is live.
import * as z from "zod";
import { doc, hlc, uuid, uuidv7 } from "./primitives";

export const ENVELOPE_FIELDS = ["id", "workspaceId", "clocks", "deleted"] as const;

/** The envelope with clock keys limited to `fieldNames` plus `deleted`. */
export function envelopeShape(fieldNames: readonly string[]) {
  return {
    id: doc(uuidv7(), "Record id (UUIDv7, created by the client)."),
    workspaceId: doc(uuid(), "Workspace the record belongs to."),
    clocks: doc(
      z.partialRecord(z.enum(["deleted", ...fieldNames]), hlc()),
      "Per-field HLC stamps; key `deleted` = clock of the tombstone.",
    ),
    deleted: doc(hlc().nullable(), "Tombstone: stamp of the delete; null or absent while live.").optional(),
  };
}

/** Record schema = envelope + entity fields (inline), with the entity's cross-field rules. */
export function recordSchemaOf<S extends z.core.$ZodLooseShape, T>(
  shape: S,
  rules?: (fields: T, ctx: z.core.$RefinementCtx) => void,
) {
  const base = z.strictObject({ ...envelopeShape(Object.keys(shape)), ...shape });
  if (!rules) return base;
  return base.superRefine((record, ctx) => rules(record as unknown as T, ctx), {
    when: (payload) => payload.issues.length === 0,
  });
}
