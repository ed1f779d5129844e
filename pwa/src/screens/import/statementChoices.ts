// The statement chooser of a file with several: each choice names its account, currency and period
// (in the reader's date format) and how many of the file's statements it joins.
import type { TFunction } from "i18next";
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
