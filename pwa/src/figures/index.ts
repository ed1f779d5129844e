// The dashboard's figures: pure TypeScript over plain data (no React, no database), exact decimals
// (decimal.js through pwa/src/money), tested in Node. computeNow is what the first paint needs;
// computeHistory (history, changes, returns) is heavier and runs in a Web Worker in the browser.
export { amountOf, borneDebt, buildHoldings, effectiveShare, pointOn, structureChain, type Holding, type Point } from "./holdings";
export { computeDistribution, computeNetWorth, computeNow, DIMENSIONS, prepare, type NetWorthParts, type Prepared } from "./now";
export { makeConverter, type Converter } from "./rates";
export { ASSET_RETURNS_LIMIT, computeHistory, groupHistory, netWorthOn, returnRow, seriesDates } from "./history";
export type * from "./types";
