// Valuation: a dated value of an asset, the history behind return charts.
import * as z from "zod";
import { VALUATION_SOURCES } from "./enums";
import { currency, date, doc, money, text, uuidv7 } from "./primitives";

/** A statement movement's id (pwa/src/import: FNV-1a 64 of account, dates, amount, texts). */
export const STATEMENT_MOVEMENT_PATTERN = /^[0-9a-f]{16}$/;
/** Movements one day's balance may list (a record must stay under maxRecordBytes). */
export const STATEMENT_MOVEMENTS_MAX = 2000;

export const valuationShape = {
  assetId: doc(uuidv7(), "Asset valued (id of an assets record)."),
  date: doc(date(), "Date of the value."),
  value: doc(money(), "Value of the whole asset on that date, in currency."),
  currency: doc(currency(), "Currency of the value (ISO 4217)."),
  source: doc(z.enum(VALUATION_SOURCES), "Where the value comes from."),
  notes: doc(text({ max: 500 }), "Notes.").optional(),
  statementMovements: doc(
    z.array(doc(z.stringFormat("statementMovementId", STATEMENT_MOVEMENT_PATTERN), "Movement id: 16 lowercase hex digits.")).max(STATEMENT_MOVEMENTS_MAX),
    "Source statement only: the ids (stable hashes) of the statement movements this end-of-day balance includes; what a later import compares to skip movements already imported.",
  ).optional(),
};

export const valuationSchema = doc(z.strictObject(valuationShape), "Valuation");
export type Valuation = z.infer<typeof valuationSchema>;
