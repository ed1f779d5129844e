// Request bodies of the admin area's enumeration calls (server/httpapi/enums_handlers.go): create,
// update and reorder (deactivate and activate have no body). The admin screen validates with these zod schemas and
// the server validates the same bodies against the generated JSON Schema; the service then checks
// what needs its data (the type exists, the parent fits, the code is free).
import * as z from "zod";
import { enumerationShape } from "./enumeration";
import { doc, int } from "./primitives";

/** The most values one reorder call may order (server/enums.MaxReorder). */
export const ENUM_REORDER_MAX = 1000;

export const enumCreateRequestSchema = doc(
  z.strictObject({
    type: enumerationShape.type,
    code: enumerationShape.code,
    parentId: doc(int(1, 2_147_483_647), "Parent value (required for asset categories, subdivisions and cities).").optional(),
    level: doc(enumerationShape.level, "Optional: default the type (subdivisions: the level of their siblings).").optional(),
    labels: enumerationShape.labels,
  }),
  "POST /admin/enums",
);
export type EnumCreateRequest = z.infer<typeof enumCreateRequestSchema>;

export const enumUpdateRequestSchema = doc(
  z.strictObject({
    code: enumerationShape.code,
    level: doc(enumerationShape.level, "Optional: unchanged when absent.").optional(),
    labels: enumerationShape.labels,
  }),
  "PUT /admin/enums/{number}",
);
export type EnumUpdateRequest = z.infer<typeof enumUpdateRequestSchema>;

export const enumReorderRequestSchema = doc(
  z.strictObject({
    type: doc(enumerationShape.type, "Type of the values ordered."),
    parentId: doc(int(1, 2_147_483_647), "Their parent; absent = top-level values.").optional(),
    ids: doc(
      z.array(int(1, 2_147_483_647)).min(1).max(ENUM_REORDER_MAX),
      "Every value of one type under one parent, each once, in the new order.",
    ),
  }),
  "POST /admin/enums/reorder",
);
export type EnumReorderRequest = z.infer<typeof enumReorderRequestSchema>;

/** The enumeration request entities by name (schema.Validate's names on the Go side). */
export const ENUM_REQUEST_SCHEMAS = {
  enumCreateRequest: enumCreateRequestSchema,
  enumUpdateRequest: enumUpdateRequestSchema,
  enumReorderRequest: enumReorderRequestSchema,
} as const;
