// CAMT.053 (ISO 20022 BankToCustomerStatement, any version): Stmt with Acct (IBAN or other id, Ccy,
// Svcr), Bal (OPBD or PRCD opening, CLBD closing; Amt@Ccy, CdtDbtInd, Dt), Ntry (Amt@Ccy,
// CdtDbtInd, Sts BOOK, BookgDt, ValDt, AcctSvcrRef/NtryRef, AddtlNtryInf or the remittance text).
// Entries that are not booked (pending, information) are left out. Opening + entries must equal
// closing when both balances are given.
import { checkBalances, isoPrefix, maskAccount, plainDecimal, squash, stripBom, withIds } from "./common";
import { children, descendants, path, readMarkup, textAt, type Element } from "./markup";
import { StatementError, guarded, type Balance, type Movement, type ParseResult, type Progress, type Statement } from "./types";

function signedAmount(el: Element): { amount: string; currency: string } {
  const amt = path(el, "Amt");
  const text = amt?.text.trim() ?? "";
  const value = plainDecimal(text);
  if (!amt || value === undefined || value.startsWith("-")) throw new StatementError(amt?.line ?? el.line, "statementImport.errors.amount", { value: text });
  const ind = textAt(el, "CdtDbtInd");
  if (ind !== "CRDT" && ind !== "DBIT") throw new StatementError(el.line, "statementImport.errors.camtIndicator", { value: ind ?? "" });
  const currency = amt.attrs.Ccy ?? "";
  return { amount: ind === "DBIT" && value !== "0" ? `-${value}` : value, currency };
}

function dateOf(el: Element | undefined, line: number): string {
  const t = textAt(el, "Dt") ?? textAt(el, "DtTm");
  const d = t === undefined ? undefined : isoPrefix(t);
  if (d === undefined) throw new StatementError(el?.line ?? line, "statementImport.errors.date", { value: t ?? "" });
  return d;
}

function balance(stmt: Element, codes: readonly string[], currency: string): { balance: Balance; line: number } | undefined {
  for (const code of codes) {
    const bal = children(stmt, "Bal").find((b) => textAt(b, "Tp", "CdOrPrtry", "Cd") === code);
    if (!bal) continue;
    const { amount, currency: ccy } = signedAmount(bal);
    if (ccy !== "" && ccy !== currency) throw new StatementError(bal.line, "statementImport.errors.currencyMismatch", { currency: ccy, expected: currency });
    return { balance: { date: dateOf(path(bal, "Dt"), bal.line), amount }, line: bal.line };
  }
  return undefined;
}

function description(ntry: Element): string {
  const parts = [
    textAt(ntry, "AddtlNtryInf"),
    ...descendants(ntry, "Ustrd").map((u) => u.text.trim()),
    ...descendants(ntry, "RltdPties").flatMap((p) => [textAt(p, "Cdtr", "Nm") ?? textAt(p, "Cdtr", "Pty", "Nm"), textAt(p, "Dbtr", "Nm") ?? textAt(p, "Dbtr", "Pty", "Nm")]),
  ].filter((s): s is string => s !== undefined && s !== "");
  return squash([...new Set(parts)].join(" · "));
}

export function parseCamt053(input: string, onProgress?: Progress): ParseResult {
  return guarded(() => {
    const root = readMarkup(stripBom(input), false, onProgress);
    const doc = root.children.find((c) => c.name === "Document");
    const top = path(doc, "BkToCstmrStmt");
    if (!doc || !top) throw new StatementError(doc?.line ?? 1, "statementImport.errors.camtNotStatement");
    const statements: Statement[] = [];
    for (const stmt of children(top, "Stmt")) {
      const acct = path(stmt, "Acct");
      const account = textAt(acct, "Id", "IBAN") ?? textAt(acct, "Id", "Othr", "Id");
      if (account === undefined) throw new StatementError(acct?.line ?? stmt.line, "statementImport.errors.noAccount");
      const entries = children(stmt, "Ntry");
      const currency = textAt(acct, "Ccy") ?? path(entries[0], "Amt")?.attrs.Ccy ?? children(stmt, "Bal").map((b) => path(b, "Amt")?.attrs.Ccy).find((c) => c !== undefined);
      if (currency === undefined || !/^[A-Z]{3}$/.test(currency)) throw new StatementError(acct?.line ?? stmt.line, "statementImport.errors.unknownCurrency", { currency: currency ?? "" });
      const institution = textAt(acct, "Svcr", "FinInstnId", "Nm") ?? textAt(acct, "Svcr", "FinInstnId", "BICFI") ?? textAt(acct, "Svcr", "FinInstnId", "BIC");
      const movements: Omit<Movement, "id">[] = [];
      for (const ntry of entries) {
        const status = textAt(ntry, "Sts", "Cd") ?? textAt(ntry, "Sts");
        if (status !== undefined && status !== "BOOK") continue;
        const { amount, currency: ccy } = signedAmount(ntry);
        if (ccy !== currency) throw new StatementError(path(ntry, "Amt")?.line ?? ntry.line, "statementImport.errors.currencyMismatch", { currency: ccy, expected: currency });
        const bookingDate = dateOf(path(ntry, "BookgDt"), ntry.line);
        const valueDate = path(ntry, "ValDt") ? dateOf(path(ntry, "ValDt"), ntry.line) : undefined;
        const reference = textAt(ntry, "AcctSvcrRef") ?? textAt(ntry, "NtryRef") ?? descendants(ntry, "EndToEndId").map((e) => e.text.trim()).find((t) => t !== "" && t !== "NOTPROVIDED");
        movements.push({
          bookingDate,
          ...(valueDate ? { valueDate } : {}),
          amount,
          description: description(ntry),
          ...(reference ? { reference } : {}),
          line: ntry.line,
        });
      }
      const opening = balance(stmt, ["OPBD", "PRCD"], currency);
      const closing = balance(stmt, ["CLBD"], currency);
      checkBalances(opening?.balance.amount, closing?.balance.amount, movements, closing?.line ?? stmt.line);
      statements.push({
        format: "camt053",
        account,
        accountMasked: maskAccount(account),
        ...(institution ? { institution } : {}),
        currency,
        ...(opening ? { opening: opening.balance } : {}),
        ...(closing ? { closing: closing.balance } : {}),
        movements: withIds(account, movements),
      });
    }
    if (statements.length === 0) throw new StatementError(top.line, "statementImport.errors.empty");
    return statements;
  });
}
