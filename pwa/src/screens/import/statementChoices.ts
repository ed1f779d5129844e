// The statement chooser of a file with several: each choice names its account, currency and period
// (in the reader's date format) and how many of the file's statements it joins; and the assets a
// statement may go into.
import { IMPORT_ASSET_CLASSES, type EntityOf } from "@patrimonio/clientdb";
import type { TFunction } from "i18next";
import { isDisposed } from "../../assets/disposal";
import type { StatementGroup } from "../../import/combine";
import { period } from "../../import/derive";

export function choiceLabel(group: StatementGroup, t: TFunction, date: (iso: string) => string): string {
  const s = group.statement;
  const { from, to } = period(s);
  const when = from && to ? (from === to ? date(from) : t("statementImport.preview.periodValue", { from: date(from), to: date(to) })) : "";
  const parts = group.parts > 1 ? ` ${t("statementImport.preview.parts", { count: group.parts })}` : "";
  return [s.accountMasked, s.currency, when].filter(Boolean).join(" · ") + parts;
}

/** Statements of the file the import leaves out: all but those joined in the chosen one. */
export function leftOut(groups: readonly StatementGroup[], which: number): number {
  return groups.reduce((n, g) => n + g.parts, 0) - (groups[which]?.parts ?? 0);
}

/** The assets a statement may be imported into: the held bank and investment accounts in its
 * currency (any currency before a file is read). A sold or disposed asset is read-only (no valuations
 * until its sale is undone), so it is never offered, even when its address names it (?assetId=). */
export function importTargets<A extends { id: string; fields: Pick<EntityOf<"assets">, "assetClass" | "currency" | "disposal"> }>(
  assets: readonly A[],
  currency: string | undefined,
): A[] {
  return assets.filter((a) => IMPORT_ASSET_CLASSES.includes(a.fields.assetClass) && !isDisposed(a.fields) && (currency === undefined || a.fields.currency === currency));
}

/** The asset the import goes into: the wanted one (picked, or named by the address) only while it is
 * offered, else none (the reader chooses; the button waits). */
export function chosenTarget(targets: readonly { id: string }[], wanted: string): string {
  return targets.some((a) => a.id === wanted) ? wanted : "";
}
