// One file may hold several statements of the same account: a bank's daily Norma 43 file repeats
// the account's block (11 … 33) for each day. Importing only the chosen block would leave the other
// days out, unnoticed. Blocks of one account and currency whose balances follow on (each opening
// balance is the previous block's closing balance, on or after its date) are one longer statement
// of that account, and are joined; blocks that do not follow on stay apart, each with its period.
import Decimal from "decimal.js";
import { withIds } from "./common";
import type { Statement } from "./types";

export interface StatementGroup {
  statement: Statement;
  /** How many statements of the file it is made of (1 when nothing was joined). */
  parts: number;
}

function followsOn(prev: Statement, next: Statement): boolean {
  if (!prev.closing || !next.opening) return false;
  return next.opening.date >= prev.closing.date && new Decimal(next.opening.amount).equals(prev.closing.amount);
}

/** The file's statements with the blocks of one account that follow on joined, in file order. */
export function joinStatements(statements: readonly Statement[]): StatementGroup[] {
  const groups: StatementGroup[] = [];
  const last = new Map<string, StatementGroup>();
  for (const s of statements) {
    const key = `${s.format}\u001f${s.account.replace(/\s+/g, "").toUpperCase()}\u001f${s.currency}`;
    const prev = last.get(key);
    if (prev && followsOn(prev.statement, s)) {
      const joined = prev.statement;
      // Ids again over the whole list: two identical movements on one day in two blocks are two.
      const movements = [...joined.movements, ...s.movements].map(({ id: _id, ...m }) => m);
      prev.statement = {
        ...joined,
        ...(s.closing ? { closing: s.closing } : {}),
        movements: withIds(joined.account, movements),
      };
      prev.parts++;
      continue;
    }
    const group = { statement: s, parts: 1 };
    groups.push(group);
    last.set(key, group);
  }
  return groups;
}
