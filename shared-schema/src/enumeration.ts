// Enumeration (online-only, admin): one value of an admin-managed list (countries, provinces,
// cities, categories, structure types, currencies...), hierarchical through parentId.
import * as z from "zod";
import { code, doc, int, text } from "./primitives";

export const enumerationShape = {
  id: doc(int(1, 2_147_483_647), "Server-assigned number (the spec's ids are numbers)."),
  type: doc(code(), "Which list the value belongs to, e.g. country, state, city, structure_type."),
  code: doc(code(), "Stable code of the value within its type."),
  parentId: doc(int(1, 2_147_483_647).nullable(), "Parent value (e.g. the country of a province); null or absent = top level.").optional(),
  level: doc(code(), "Kind of value within its type: for subdivisions ISO 3166-2's category in snake case (province, autonomous_community, state, ...); for other types the type itself."),
  labels: doc(
    z.strictObject({
      es: doc(text({ min: 1, max: 200 }), "Spanish label."),
      en: doc(text({ min: 1, max: 200 }), "English label."),
    }),
    "Labels in both languages.",
  ),
  order: doc(int(0, 1_000_000), "Sort position within its parent."),
  active: doc(z.boolean(), "Inactive values are kept for old records but not offered."),
};

export const enumerationSchema = doc(z.strictObject(enumerationShape), "Enumeration");
export type Enumeration = z.infer<typeof enumerationSchema>;
