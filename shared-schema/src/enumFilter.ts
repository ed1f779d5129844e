// Enum filter: the search params of /admin/enums (type, parentId, levels).
import * as z from "zod";
import { code, doc, int, text } from "./primitives";

export const enumFilterShape = {
  type: doc(code(), "Only values of this type.").optional(),
  parentId: doc(int(1, 2_147_483_647), "Only children of this value.").optional(),
  levels: doc(z.array(text({ min: 1, max: 64 })).max(10), "Hierarchy levels to show; absent = empty list.").optional(),
};

export const enumFilterSchema = doc(z.strictObject(enumFilterShape), "Enum filter");
export type EnumFilter = z.infer<typeof enumFilterSchema>;
