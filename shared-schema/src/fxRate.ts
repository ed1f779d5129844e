// Manual exchange rate of a workspace: a rate a person types (a bank's receipt, a day no source
// published, a currency no source has; on a plane, offline). Written the ECB's way: how many units
// of `currency` are worth 1 EUR on `date`. On the same date it wins over the server's rates
// (pwa/src/money/rates.ts).
import * as z from "zod";
import { currency, date, doc, price, text } from "./primitives";
import { fail, whenValid } from "./rules";

export const fxRateShape = {
  date: doc(date(), "Date the rate is for; values dated on or after it use it until a newer rate."),
  currency: doc(currency(), "Currency priced (ISO 4217); not EUR (1 EUR is 1 EUR)."),
  perEur: doc(price(), "Units of currency worth 1 EUR, greater than 0 (up to 10 decimals)."),
  note: doc(text({ max: 500 }), "Where the rate comes from.").optional(),
};

type FxRateFields = z.infer<z.ZodObject<typeof fxRateShape>>;

const ZERO = /^0(?:\.0+)?$/;

export function fxRateRules(rate: FxRateFields, ctx: z.core.$RefinementCtx): void {
  if (rate.currency === "EUR") fail(ctx, ["currency"], "validation.fxRate.euro");
  if (ZERO.test(rate.perEur)) fail(ctx, ["perEur"], "validation.fxRate.zero");
}

export const fxRateSchema = doc(z.strictObject(fxRateShape).superRefine(fxRateRules, whenValid), "Manual exchange rate");
export type FxRate = z.infer<typeof fxRateSchema>;
