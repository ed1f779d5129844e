// A Norma 43 file with two daily blocks of the same account: joined into one statement when their
// balances follow on (both days become valuations), kept apart when they do not, each choice then
// naming its period, and the statements an import leaves out counted.
import { describe, expect, test } from "vitest";
import "../../i18n/bundled";
import { joinStatements } from "../../import/combine";
import { dailyBalances } from "../../import/derive";
import { parseNorma43 } from "../../import/norma43";
import type { ParseResult, Statement } from "../../import/types";
import { formatDate } from "../../i18n/format";
import { createI18n } from "../../i18n/i18n";
import { choiceLabel, chosenTarget, importTargets, leftOut } from "./statementChoices";

const pad = (s: string) => s.padEnd(80, " ");
/** An account block (11, one 22, 33) of one day: opening and closing in cents, credit when positive. */
function block(day: string, opening: number, amount: number): string[] {
  const closing = opening + amount;
  const cents = (n: number) => String(Math.abs(n)).padStart(14, "0");
  const sign = (n: number) => (n < 0 ? "1" : "2");
  const debit = amount < 0;
  return [
    pad(`11210004180200051332${day}${day}${sign(opening)}${cents(opening)}9783MARIA GARCIA LOPEZ`),
    pad(`22    0418${day}${day}0200${"0"}${sign(amount)}${cents(amount)}${"0".repeat(10)}${"0".repeat(12)}`),
    pad(`33210004180200051332${debit ? "00001" : "00000"}${debit ? cents(amount) : cents(0)}${debit ? "00000" : "00001"}${debit ? cents(0) : cents(amount)}${sign(closing)}${cents(closing)}978`),
  ];
}
function file(...blocks: string[][]): string {
  const records = blocks.flat();
  return [...records, pad(`88${"9".repeat(18)}${String(records.length + 1).padStart(6, "0")}`)].join("\r\n") + "\r\n";
}
function statements(r: ParseResult): Statement[] {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.statements;
}

describe("several statements of one account in a file", () => {
  const i18n = createI18n({ lng: "en" });
  const date = (d: string) => formatDate(d, "en");

  test("daily blocks whose balances follow on are one statement: both days are imported", () => {
    const parsed = statements(parseNorma43(file(block("250101", 100000, 50000), block("250102", 150000, -20000))));
    expect(parsed).toHaveLength(2);
    const groups = joinStatements(parsed);
    expect(groups).toHaveLength(1);
    const [g] = groups;
    expect(g?.parts).toBe(2);
    expect(g?.statement.opening).toEqual({ date: "2025-01-01", amount: "1000" });
    expect(g?.statement.closing).toEqual({ date: "2025-01-02", amount: "1300" });
    expect(dailyBalances(g?.statement as Statement).map((d) => [d.date, d.amount])).toEqual([
      ["2025-01-01", "1500"],
      ["2025-01-02", "1300"],
    ]);
    expect(leftOut(groups, 0)).toBe(0);
    expect(choiceLabel(g!, i18n.t, date)).toBe(`2100 •••• 1332 · EUR · ${date("2025-01-01")} to ${date("2025-01-02")} (2 statements)`);
  });

  test("blocks that do not follow on stay apart: each choice names its period, and the others are counted as left out", () => {
    // The second day opens at 1600, not at the first day's closing of 1500: a day is missing.
    const groups = joinStatements(statements(parseNorma43(file(block("250101", 100000, 50000), block("250103", 160000, -20000)))));
    expect(groups.map((g) => g.parts)).toEqual([1, 1]);
    const labels = groups.map((g) => choiceLabel(g, i18n.t, date));
    expect(labels).toEqual([`2100 •••• 1332 · EUR · ${date("2025-01-01")}`, `2100 •••• 1332 · EUR · ${date("2025-01-03")}`]);
    expect(new Set(labels).size).toBe(2);
    expect(leftOut(groups, 0)).toBe(1);
    expect(i18n.t("statementImport.done.leftOut", { count: leftOut(groups, 1) })).toBe("1 statement of the file was not imported (import the file again to choose it)");
  });
});

describe("the asset a statement goes into", () => {
  const account = (id: string, fields: { assetClass?: "bank_accounts" | "investments" | "real_estate"; currency?: string; sold?: boolean } = {}) => ({
    id,
    fields: {
      assetClass: fields.assetClass ?? "bank_accounts",
      currency: fields.currency ?? "EUR",
      ...(fields.sold ? { disposal: { kind: "sold" as const, date: "2025-06-01", amount: "0" } } : {}),
    },
  });
  const assets = [
    account("current"),
    account("closed", { sold: true }),
    account("broker", { assetClass: "investments" }),
    account("dollars", { currency: "USD" }),
    account("flat", { assetClass: "real_estate" }),
  ];

  test("held bank and investment accounts in the statement's currency; a sold or closed one never", () => {
    expect(importTargets(assets, "EUR").map((a) => a.id)).toEqual(["current", "broker"]);
    expect(importTargets(assets, undefined).map((a) => a.id)).toEqual(["current", "broker", "dollars"]);
  });

  test("the address's asset is chosen only while it is offered (a sold one is not)", () => {
    const targets = importTargets(assets, "EUR");
    expect(chosenTarget(targets, "current")).toBe("current");
    expect(chosenTarget(targets, "closed")).toBe("");
    expect(chosenTarget(targets, "dollars")).toBe("");
  });
});
