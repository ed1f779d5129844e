// Legal structure: a company, trust, foundation... that holds assets; may itself be owned by another.
import * as z from "zod";
import { code, country, doc, REQUIRED_KEY, share, text, uuidv7 } from "./primitives";

export const legalStructureShape = {
  name: doc(text({ min: 1, max: 140, requiredKey: "validation.legalStructure.nameRequired" }), "Name of the structure."),
  structureType: doc(
    code().meta({ [REQUIRED_KEY]: "validation.legalStructure.structureTypeRequired" }),
    "Type of structure: a built-in code (STRUCTURE_TYPES) or the code of an active structure_type enumeration an admin added (the server checks it when the record takes it).",
  ),
  country: doc(
    country().meta({ [REQUIRED_KEY]: "validation.legalStructure.countryRequired" }),
    "Country of incorporation (ISO 3166-1 alpha-2).",
  ),
  state: doc(text({ min: 1, max: 100 }), "State or province.").optional(),
  ownershipPercentage: doc(share(), "Percent of the structure the person (or the parent structure) owns (0 < x <= 100, two decimals).").optional(),
  parentStructureId: doc(uuidv7(), "Structure that owns this one (id of another legalStructures record).").optional(),
};

export const legalStructureSchema = doc(z.strictObject(legalStructureShape), "Legal structure");
export type LegalStructure = z.infer<typeof legalStructureSchema>;
