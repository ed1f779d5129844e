// Valuation: a dated value of an asset, the history behind return charts.
import * as z from "zod";
import { VALUATION_SOURCES } from "./enums";
import { currency, date, doc, money, text, uuidv7 } from "./primitives";

export const valuationShape = {
  assetId: doc(uuidv7(), "Asset valued (id of an assets record)."),
  date: doc(date(), "Date of the value."),
  value: doc(money(), "Value of the whole asset on that date, in currency."),
  currency: doc(currency(), "Currency of the value (ISO 4217)."),
  source: doc(z.enum(VALUATION_SOURCES), "Where the value comes from."),
  notes: doc(text({ max: 500 }), "Notes.").optional(),
};

export const valuationSchema = doc(z.strictObject(valuationShape), "Valuation");
export type Valuation = z.infer<typeof valuationSchema>;
