// Cash flow: money that comes in or goes out, once or periodically (rent, loan payment, dividend).
import * as z from "zod";
import { CASH_FLOW_DIRECTIONS, CASH_FLOW_FREQUENCIES } from "./enums";
import { currency, date, doc, money, text, uuidv7 } from "./primitives";
import { fail, isAfter, whenValid } from "./rules";

export const cashFlowShape = {
  name: doc(text({ min: 1, max: 140 }), "What the flow is, e.g. \"Rent of the flat\"."),
  direction: doc(z.enum(CASH_FLOW_DIRECTIONS), "In or out."),
  amount: doc(money(), "Amount of each occurrence, in currency (always positive; direction gives the sign)."),
  currency: doc(currency(), "Currency of the amount (ISO 4217)."),
  frequency: doc(z.enum(CASH_FLOW_FREQUENCIES), "How often it happens."),
  startDate: doc(date(), "First occurrence; not after endDate."),
  endDate: doc(date(), "Last occurrence; absent = open-ended.").optional(),
  assetId: doc(uuidv7(), "Asset it belongs to (id of an assets record).").optional(),
  notes: doc(text({ max: 500 }), "Notes.").optional(),
};

type CashFlowFields = z.infer<z.ZodObject<typeof cashFlowShape>>;

export function cashFlowRules(flow: CashFlowFields, ctx: z.core.$RefinementCtx): void {
  if (isAfter(flow.startDate, flow.endDate)) fail(ctx, ["endDate"], "validation.date.endBeforeStart");
}

export const cashFlowSchema = doc(z.strictObject(cashFlowShape).superRefine(cashFlowRules, whenValid), "Cash flow");
export type CashFlow = z.infer<typeof cashFlowSchema>;
