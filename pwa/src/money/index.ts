// Money: exact decimals, exchange rates, conversion, totals in a base currency and returns. Pure
// TypeScript (no React, no database), tested in Node; see /tmp/team/money.md and the README.
export { Dec, fixed, parseDecimal, plain } from "./decimal";
export { addDays, daysBetween, isIsoDate } from "./dates";
export { EUR, MANUAL, RateBook, type EurRate, type FoundRate, type RateSource } from "./rates";
export { convert, type Conversion, type ConvertOptions, type RateUsed } from "./convert";
export { minorUnits, roundMoney, sumInBase, totalsInBase, type BaseTotal, type MissingConversion, type MoneyItem } from "./sum";
export {
  investorCashFlows,
  moneyWeightedReturn,
  simpleReturn,
  timeWeightedReturn,
  xirr,
  type CashFlow,
  type Flow,
  type ReturnInput,
  type ReturnResult,
  type Unavailable,
  type Valuation,
  type XirrResult,
} from "./returns";
export { PERIODS, convertHistory, periodStart, slicePeriod, type Converted, type Period } from "./periods";
