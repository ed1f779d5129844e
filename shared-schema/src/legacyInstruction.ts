// Legacy instruction: what the person wants done, in general or about one asset or beneficiary.
import * as z from "zod";
import { PRIORITIES } from "./enums";
import { doc, text, uuidv7 } from "./primitives";

export const legacyInstructionShape = {
  text: doc(text({ min: 1, max: 4000 }), "The instruction."),
  assetId: doc(uuidv7(), "Asset it is about (id of an assets record); absent = general.").optional(),
  beneficiaryId: doc(uuidv7(), "Beneficiary it is about (id of a beneficiaries record).").optional(),
  priority: doc(z.enum(PRIORITIES), "Priority.").optional(),
};

export const legacyInstructionSchema = doc(z.strictObject(legacyInstructionShape), "Legacy instruction");
export type LegacyInstruction = z.infer<typeof legacyInstructionSchema>;
