// Validation of a record's fields against the shared schema (zod). Loaded on demand: clientdb.ts
// imports it with the first write (loadValidation), so reading records never downloads zod.
import { COLLECTIONS, LIMITS, validateWith, type CollectionName } from "@patrimonio/shared-schema";
import type * as z from "zod";
import type { CommandResult, EntityOf } from "./clientdb";

/** Validates a record's fields with its collection's schema (and the server's size limit). */
export function validateRecord<C extends CollectionName>(collection: C, fields: unknown): CommandResult<{ value: EntityOf<C> }> {
  const size = new TextEncoder().encode(JSON.stringify(fields)).length;
  if (size > LIMITS.maxRecordBytes) {
    return { ok: false, issues: [{ path: "", key: "validation.document.tooLarge", params: { max: LIMITS.maxRecordBytes } }] };
  }
  const r = validateWith(COLLECTIONS[collection].schema as unknown as z.ZodType<EntityOf<C>>, fields);
  return r.ok ? { ok: true, value: r.value } : r;
}
