// The "mark as sold" form's schema: the shared schema's disposal fields (the same formats and
// messages the device database and the server check), plus the form's own rules: a sale needs its
// amount, the date is not after the reader's today (the schema's bound is the latest today on Earth)
// and not before the purchase. Empty amount and note are left out of the record.
import { disposalSchema, DISPOSAL_KINDS, type Disposal } from "@patrimonio/shared-schema";
import * as z from "zod";
import { encodeMessage } from "../../../forms/schemaForm";

/** What the form's fields hold (text as typed; the amount is a plain decimal string from MoneyInput). */
export interface DisposalFormValues {
  kind: (typeof DISPOSAL_KINDS)[number];
  date: string;
  amount: string;
  note: string;
}

const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const shape = disposalSchema.shape;

/** The form's schema for an asset bought on `purchaseDate` (if known), read on `today` (the reader's). */
export function disposalFormSchema(today: string, purchaseDate: string | undefined) {
  return z
    .strictObject({
      kind: shape.kind,
      date: z.string().min(1).pipe(shape.date),
      amount: z.preprocess(blank, shape.amount),
      note: z.preprocess((v) => (v === "" ? undefined : v), shape.note),
    })
    .superRefine((v, ctx) => {
      if (v.kind === "sold" && v.amount === undefined) ctx.addIssue({ code: "custom", path: ["amount"], message: encodeMessage("validation.required") });
      if (v.date > today) ctx.addIssue({ code: "custom", path: ["date"], message: encodeMessage("validation.date.disposalInFuture") });
      else if (purchaseDate !== undefined && v.date < purchaseDate) {
        ctx.addIssue({ code: "custom", path: ["date"], message: encodeMessage("validation.date.disposalBeforePurchase") });
      }
    })
    .transform((v): Disposal => {
      const out: Disposal = { kind: v.kind, date: v.date };
      if (v.amount !== undefined) out.amount = v.amount;
      if (v.note !== undefined) out.note = v.note;
      return out;
    });
}

/** The form's starting values: a sale today, or the stored disposal when it is edited. */
export function disposalFormValues(today: string, disposal?: Disposal): DisposalFormValues {
  return { kind: disposal?.kind ?? "sold", date: disposal?.date ?? today, amount: disposal?.amount ?? "", note: disposal?.note ?? "" };
}
