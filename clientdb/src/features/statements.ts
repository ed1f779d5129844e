// Statement import (issue 15): one command writes what a bank statement gives an asset — its
// end-of-day balances as dated valuations (source "statement", each remembering the ids of the
// movements it includes) and the recurring movements the person chose as monthly cash flows — in
// one transaction and one sync batch. What the asset already holds is skipped, so importing the same
// file twice writes nothing the second time. Column mappings of CSV files are kept per institution
// on the device (meta rows "importMapping:<institution>", not synced).
import { useLiveQuery } from "dexie-react-hooks";
import { STATEMENT_MOVEMENTS_MAX, type Issue } from "@patrimonio/shared-schema";
import { dbOf, type ClientDb, type CommandResult, type EntityOf, type SyncedRecord } from "../clientdb";
import { useClientDb } from "../context";
import { assetMissing, atomically, isLiveAsset, liveRows, must, recordOf, recordsOf, rowById } from "./batch";
import "../validation"; // the record schemas load with the commands (see loadValidation)

type AssetFields = EntityOf<"assets">;
type ValuationFields = EntityOf<"valuations">;
type CashFlowFields = EntityOf<"cashFlows">;

/** The classes a statement can value: a bank account, or an investment account. */
export const IMPORT_ASSET_CLASSES: readonly AssetFields["assetClass"][] = ["bank_accounts", "investments"];

/** One end-of-day balance of a statement. */
export interface StatementBalance {
  date: string;
  /** Signed decimal; a negative one (an overdraft) cannot be a valuation and is reported. */
  amount: string;
  /** The ids of the movements booked that day. */
  movementIds: string[];
}

/** A recurring movement the person chose to keep as a monthly cash flow of the asset. */
export interface StatementFlow {
  name: string;
  direction: CashFlowFields["direction"];
  amount: string;
  startDate: string;
}

export interface ImportStatementInput {
  /** The asset to value; or `newAsset` to create (in the same transaction). */
  assetId?: string;
  newAsset?: AssetFields;
  currency: string;
  balances: readonly StatementBalance[];
  flows?: readonly StatementFlow[];
  /** Written as the notes of each valuation ("Norma 43 · CaixaBank · 2100 •••• 1332"). */
  label?: string;
}

export interface ImportStatementResult {
  assetId: string;
  created: number;
  updated: number;
  /** Balances the asset already had (the same movements, or the same value on that date). */
  duplicates: number;
  /** Dates whose balance was negative (not a valuation). */
  negative: string[];
  flowsCreated: number;
  /** Chosen flows the asset already had (same name, amount and direction). */
  flowsExisting: number;
}

/** What an import would do with each balance, given the asset's valuations. */
export type BalancePlan =
  | { kind: "create"; balance: StatementBalance }
  | { kind: "update"; balance: StatementBalance; valuationId: string; movementIds: string[] }
  | { kind: "duplicate"; balance: StatementBalance }
  | { kind: "negative"; balance: StatementBalance };

/** The movement ids an asset's valuations remember: the movements already imported. */
export function importedMovementIds(valuations: readonly SyncedRecord<"valuations">[]): Set<string> {
  const ids = new Set<string>();
  for (const v of valuations) if (!v.deleted) for (const id of v.fields.statementMovements ?? []) ids.add(id);
  return ids;
}

function sameValue(a: string, b: string): boolean {
  return Number.isFinite(Number(a)) && canonical(a) === canonical(b);
}

/** "0012.500" → "12.5": decimal text without leading or trailing zeros (no arithmetic needed). */
function canonical(value: string): string {
  const negative = value.startsWith("-");
  const [whole = "0", fraction = ""] = value.replace(/^[-+]/, "").split(".");
  const w = whole.replace(/^0+(?=\d)/, "");
  const f = fraction.replace(/0+$/, "");
  const text = f === "" ? w : `${w}.${f}`;
  return negative && text !== "0" ? `-${text}` : text;
}

/**
 * The rule of duplicates, shared by the preview and the command. A balance is a duplicate when
 * every movement of its day was imported before, or when the asset already has a valuation of that
 * value on that date. A balance whose day has new movements replaces the value of that day's earlier
 * statement valuation (a statement that ended mid-day), keeping both lists of movements; otherwise
 * it is a new valuation. A negative balance is not a valuation (values are never negative). A day
 * with more movements than a valuation may list (STATEMENT_MOVEMENTS_MAX) is remembered by its value.
 */
export function planBalances(balances: readonly StatementBalance[], valuations: readonly SyncedRecord<"valuations">[]): BalancePlan[] {
  const live = valuations.filter((v) => !v.deleted);
  const known = importedMovementIds(live);
  return balances.map((balance): BalancePlan => {
    if (balance.amount.startsWith("-") && canonical(balance.amount) !== "0") return { kind: "negative", balance };
    const fresh = balance.movementIds.filter((id) => !known.has(id));
    if (balance.movementIds.length > 0 && fresh.length === 0) return { kind: "duplicate", balance };
    const sameDay = live.filter((v) => v.fields.date === balance.date);
    const statementDay = sameDay.find((v) => v.fields.source === "statement");
    // The same balance as that day's statement valuation: nothing changes (movements netting to zero).
    if (statementDay && sameValue(statementDay.fields.value, balance.amount)) return { kind: "duplicate", balance };
    if (statementDay && fresh.length > 0) {
      const ids = [...new Set([...(statementDay.fields.statementMovements ?? []), ...balance.movementIds])];
      return { kind: "update", balance, valuationId: statementDay.id, movementIds: ids };
    }
    if (sameDay.some((v) => sameValue(v.fields.value, balance.amount))) return { kind: "duplicate", balance };
    return { kind: "create", balance };
  });
}

function flowKey(name: string, direction: string, amount: string): string {
  return `${name.replace(/\s+/g, " ").trim().toLowerCase()}\u001f${direction}\u001f${canonical(amount)}`;
}

/** Whether the asset already has this flow (same name, direction and amount). */
export function flowExists(flow: StatementFlow, flows: readonly SyncedRecord<"cashFlows">[], assetId: string): boolean {
  const key = flowKey(flow.name, flow.direction, flow.amount);
  return flows.some((f) => !f.deleted && f.fields.assetId === assetId && flowKey(f.fields.name, f.fields.direction, f.fields.amount) === key);
}

/**
 * Imports a statement into an asset of the workspace (or a new one), all or nothing. Refused: an
 * asset missing from the workspace ("assetId" validation.asset.missing), of a class a statement
 * cannot value ("assetId" validation.import.assetClass), in another currency ("currency"
 * validation.import.currencyMismatch); a value the valuation schema refuses ("balances.<i>.…").
 */
export function importStatement(db: ClientDb, workspaceId: string, input: ImportStatementInput): Promise<CommandResult<ImportStatementResult>> {
  return atomically(db, async (refuse) => {
    let assetId: string;
    let asset: SyncedRecord<"assets"> | undefined;
    if (input.newAsset) {
      assetId = must(await db.create("assets", workspaceId, input.newAsset), refuse, "newAsset").id;
      asset = recordOf("assets", await rowById(db, "assets", assetId));
    } else {
      assetId = input.assetId ?? "";
      asset = recordOf("assets", await rowById(db, "assets", assetId));
      if (!isLiveAsset(asset, workspaceId)) return refuse([assetMissing()]);
    }
    if (!asset) return refuse([assetMissing()]);
    if (!IMPORT_ASSET_CLASSES.includes(asset.fields.assetClass)) {
      return refuse([{ path: "assetId", key: "validation.import.assetClass", params: {} }]);
    }
    if (asset.fields.currency !== input.currency) {
      const issue: Issue = { path: "currency", key: "validation.import.currencyMismatch", params: { currency: input.currency, expected: asset.fields.currency } };
      return refuse([issue]);
    }
    const valuations = recordsOf("valuations", await liveRows(db, "valuations", workspaceId)).filter((v) => v.fields.assetId === assetId);
    const plans = planBalances(input.balances, valuations);
    const result: ImportStatementResult = { assetId, created: 0, updated: 0, duplicates: 0, negative: [], flowsCreated: 0, flowsExisting: 0 };
    let newest: { date: string; value: string } | undefined;
    for (const [i, plan] of plans.entries()) {
      const value = canonical(plan.balance.amount);
      if (plan.kind === "negative") result.negative.push(plan.balance.date);
      else if (plan.kind === "duplicate") result.duplicates++;
      else if (plan.kind === "update") {
        const ids = plan.movementIds.length <= STATEMENT_MOVEMENTS_MAX ? plan.movementIds : null;
        must(await db.update("valuations", plan.valuationId, { value, statementMovements: ids }), refuse, `balances.${i}`);
        result.updated++;
      } else {
        const fields: ValuationFields = {
          assetId,
          date: plan.balance.date,
          value,
          currency: input.currency,
          source: "statement",
          // A day with more movements than a record may list keeps none: its value tells it again.
          ...(plan.balance.movementIds.length > 0 && plan.balance.movementIds.length <= STATEMENT_MOVEMENTS_MAX ? { statementMovements: plan.balance.movementIds } : {}),
          ...(input.label ? { notes: input.label.slice(0, 500) } : {}),
        };
        must(await db.create("valuations", workspaceId, fields), refuse, `balances.${i}`);
        result.created++;
      }
      if ((plan.kind === "create" || plan.kind === "update") && (!newest || plan.balance.date >= newest.date)) newest = { date: plan.balance.date, value };
    }
    const current = asset.fields.valuationDate;
    if (newest && (current === undefined || newest.date >= current)) {
      must(await db.update("assets", assetId, { currentValue: newest.value, valuationDate: newest.date }), refuse, "asset");
    }
    const flows = recordsOf("cashFlows", await liveRows(db, "cashFlows", workspaceId));
    for (const [i, flow] of (input.flows ?? []).entries()) {
      if (flowExists(flow, flows, assetId)) {
        result.flowsExisting++;
        continue;
      }
      const fields: CashFlowFields = {
        name: flow.name.slice(0, 140),
        direction: flow.direction,
        amount: canonical(flow.amount),
        currency: input.currency,
        frequency: "monthly",
        startDate: flow.startDate,
        assetId,
      };
      must(await db.create("cashFlows", workspaceId, fields), refuse, `flows.${i}`);
      result.flowsCreated++;
    }
    return result;
  });
}

// ---------------------------------------------------------------- CSV column mappings

/** A saved column mapping (its shape belongs to the PWA's CSV reader; stored as given). */
export interface ImportMappingRow {
  key: `importMapping:${string}`;
  institution: string;
  mapping: unknown;
  savedAt: number;
}

function mappingKey(institution: string): ImportMappingRow["key"] {
  return `importMapping:${institution.trim().toLowerCase()}`;
}

/** Saves the column mapping of an institution's CSV files on this device (replacing the last one). */
export async function saveImportMapping(handle: ClientDb, institution: string, mapping: unknown): Promise<void> {
  const row: ImportMappingRow = { key: mappingKey(institution), institution: institution.trim(), mapping, savedAt: Date.now() };
  await dbOf(handle).meta.put(row as never);
}

/** Every saved mapping, newest first. */
export async function readImportMappings(handle: ClientDb): Promise<ImportMappingRow[]> {
  const rows = (await dbOf(handle).meta.where("key").startsWith("importMapping:").toArray()) as unknown as ImportMappingRow[];
  return rows.sort((a, b) => b.savedAt - a.savedAt);
}

/** The saved mappings, live (undefined while loading). */
export function useImportMappings(): ImportMappingRow[] | undefined {
  const handle = useClientDb();
  return useLiveQuery(async () => (handle ? readImportMappings(handle) : undefined), [handle]);
}
