// Liability: a debt, standalone or tied to an asset (the spec's "associated debts").
import * as z from "zod";
import { LIABILITY_KINDS } from "./enums";
import { currency, date, doc, interestRate, money, text, uuidv7 } from "./primitives";
import { fail, isAfter, whenValid } from "./rules";
import { toHundredths } from "./values";

export const liabilityShape = {
  name: doc(text({ min: 1, max: 140 }), "Name of the debt."),
  kind: doc(z.enum(LIABILITY_KINDS), "Kind of debt."),
  creditorName: doc(text({ min: 1, max: 140 }), "Who is owed.").optional(),
  amountOutstanding: doc(money(), "Amount still owed, in currency."),
  currency: doc(currency(), "Currency of the amount (ISO 4217)."),
  amountAsOf: doc(date(), "Day amountOutstanding was true (the device rolls the payment plan forward from it); absent: the day of the amount's stamp.").optional(),
  rate: doc(interestRate(), "Annual interest rate in percent (decimal string, up to four decimals); above -100.").optional(),
  startDate: doc(date(), "Start date; not after endDate.").optional(),
  endDate: doc(date(), "End (maturity) date.").optional(),
  assetId: doc(uuidv7(), "Asset this debt is associated with (id of an assets record).").optional(),
};

type LiabilityFields = z.infer<z.ZodObject<typeof liabilityShape>>;

/** The lowest interest rate of a debt, in hundredths of a percent: −99.99 %. At −100 % or less the
 * debt would vanish (or grow back) by itself and a payment plan means nothing. */
export const LIABILITY_RATE_MIN_HUNDREDTHS = -9999;

export function liabilityRules(liability: LiabilityFields, ctx: z.core.$RefinementCtx): void {
  if (isAfter(liability.startDate, liability.endDate)) fail(ctx, ["endDate"], "validation.date.endBeforeStart");
  if (liability.rate !== undefined && toHundredths(liability.rate) < LIABILITY_RATE_MIN_HUNDREDTHS) {
    fail(ctx, ["rate"], "validation.number.min", { min: LIABILITY_RATE_MIN_HUNDREDTHS / 100 });
  }
}

export const liabilitySchema = doc(z.strictObject(liabilityShape).superRefine(liabilityRules, whenValid), "Liability");
export type Liability = z.infer<typeof liabilitySchema>;
