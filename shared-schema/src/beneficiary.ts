// Beneficiary: who receives part of the estate, with allocations per asset or of the whole estate.
import * as z from "zod";
import { RELATIONSHIPS } from "./enums";
import { doc, email, phone, share, text, uuidv7 } from "./primitives";
import { fail, whenValid } from "./rules";

export const ALLOCATIONS_MAX = 100;

export const allocationSchema = z.strictObject({
  assetId: doc(uuidv7(), "Asset allocated (id of an assets record); absent = the whole estate.").optional(),
  percentage: doc(share(), "Percent of that asset (or of the whole estate) for this beneficiary (0 < x <= 100, two decimals)."),
});
export type Allocation = z.infer<typeof allocationSchema>;

export const beneficiaryShape = {
  name: doc(text({ min: 1, max: 140 }), "Full name."),
  relationship: doc(z.enum(RELATIONSHIPS), "Relationship to the person."),
  email: doc(email(), "Contact e-mail (at most 254 characters).").optional(),
  phone: doc(phone(), "Contact phone number (digits, spaces, + ( ) . / -; 5 to 30 characters).").optional(),
  address: doc(text({ min: 1, max: 256 }), "Postal address.").optional(),
  notes: doc(text({ max: 2000 }), "Notes.").optional(),
  allocations: doc(z.array(allocationSchema).max(ALLOCATIONS_MAX), "What this beneficiary receives. One entry per asset at most, and at most one for the whole estate.").optional(),
};

type BeneficiaryFields = z.infer<z.ZodObject<typeof beneficiaryShape>>;

export function beneficiaryRules(beneficiary: BeneficiaryFields, ctx: z.core.$RefinementCtx): void {
  const seen = new Set<string>();
  (beneficiary.allocations ?? []).forEach((allocation, i) => {
    const target = allocation.assetId ?? "";
    if (seen.has(target)) fail(ctx, ["allocations", i, "assetId"], "validation.beneficiary.duplicateAllocation");
    seen.add(target);
  });
}

export const beneficiarySchema = doc(z.strictObject(beneficiaryShape).superRefine(beneficiaryRules, whenValid), "Beneficiary");
export type Beneficiary = z.infer<typeof beneficiarySchema>;
