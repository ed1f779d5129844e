// OFX 1.x (SGML: a key:value header, tags that leaves need not close) and OFX 2.x (XML): each
// STMTRS (bank) or CCSTMTRS (card) is a statement: CURDEF, BANKACCTFROM/CCACCTFROM (ACCTID, BANKID),
// BANKTRANLIST (DTSTART, DTEND, STMTTRN: DTPOSTED, DTUSER, TRNAMT, FITID, NAME, MEMO) and LEDGERBAL
// (BALAMT, DTASOF), the closing balance. OFX states no opening balance: it is the ledger balance
// less the movements, on DTSTART. AVAILBAL (what can be spent) is not a balance of the account.
import Decimal from "decimal.js";
import { bankName, canon, isValidDate, isoDate, maskAccount, plainDecimal, squash, stripBom, sum, withIds } from "./common";
import { descendants, path, readMarkup, textAt, type Element } from "./markup";
import { StatementError, guarded, type Movement, type ParseResult, type Progress, type Statement } from "./types";

/** YYYYMMDD[HHMMSS[.XXX][[+-]H:TZ]] → YYYY-MM-DD. */
function ofxDate(text: string | undefined, line: number): string {
  const m = /^(\d{4})(\d{2})(\d{2})/.exec(text ?? "");
  const [y, mo, d] = [Number(m?.[1]), Number(m?.[2]), Number(m?.[3])];
  if (!m || !isValidDate(y, mo, d)) throw new StatementError(line, "statementImport.errors.date", { value: text ?? "" });
  return isoDate(y, mo, d);
}

function amountAt(el: Element, name: string): string {
  const text = textAt(el, name) ?? "";
  // Some banks write a decimal comma in OFX 1.
  const value = plainDecimal(/^[+-]?\d+,\d+$/.test(text) ? text.replace(",", ".") : text);
  if (value === undefined) throw new StatementError(path(el, name)?.line ?? el.line, "statementImport.errors.amount", { value: text });
  return value;
}

export function parseOfx(input: string, onProgress?: Progress): ParseResult {
  return guarded(() => {
    const text = stripBom(input);
    const start = text.indexOf("<OFX>");
    if (start < 0) throw new StatementError(1, "statementImport.errors.ofxNoBody");
    const sgml = !/<\?xml|<\?OFX/i.test(text.slice(0, start));
    const root = readMarkup(text, sgml, onProgress);
    const statements: Statement[] = [];
    for (const rs of [...descendants(root, "STMTRS"), ...descendants(root, "CCSTMTRS")].sort((a, b) => a.line - b.line)) {
      const from = path(rs, "BANKACCTFROM") ?? path(rs, "CCACCTFROM");
      const account = textAt(from, "ACCTID");
      if (account === undefined) throw new StatementError(from?.line ?? rs.line, "statementImport.errors.noAccount");
      const currency = textAt(rs, "CURDEF");
      if (currency === undefined || !/^[A-Z]{3}$/.test(currency)) throw new StatementError(rs.line, "statementImport.errors.unknownCurrency", { currency: currency ?? "" });
      const list = path(rs, "BANKTRANLIST");
      const movements: Omit<Movement, "id">[] = [];
      for (const trn of list ? list.children.filter((c) => c.name === "STMTTRN") : []) {
        const amount = amountAt(trn, "TRNAMT");
        const posted = ofxDate(textAt(trn, "DTPOSTED"), path(trn, "DTPOSTED")?.line ?? trn.line);
        const userDate = textAt(trn, "DTUSER");
        const description = squash([textAt(trn, "NAME"), textAt(trn, "MEMO")].filter((s) => s !== undefined).join(" · "));
        const reference = textAt(trn, "FITID") ?? textAt(trn, "REFNUM") ?? textAt(trn, "CHECKNUM");
        movements.push({
          bookingDate: posted,
          ...(userDate ? { valueDate: ofxDate(userDate, path(trn, "DTUSER")?.line ?? trn.line) } : {}),
          amount,
          description: description || (textAt(trn, "TRNTYPE") ?? ""),
          ...(reference ? { reference } : {}),
          line: trn.line,
        });
      }
      const ledger = path(rs, "LEDGERBAL");
      const closing = ledger ? { date: ofxDate(textAt(ledger, "DTASOF"), ledger.line), amount: amountAt(ledger, "BALAMT") } : undefined;
      const dtStart = textAt(list, "DTSTART");
      const dtEnd = textAt(list, "DTEND");
      const first = movements.reduce<string | undefined>((min, m) => (min === undefined || m.bookingDate < min ? m.bookingDate : min), undefined);
      const lastPosted = movements.reduce<string | undefined>((max, m) => (max === undefined || m.bookingDate > max ? m.bookingDate : max), undefined);
      // The opening balance is the ledger balance less the listed movements, which holds only when the
      // ledger balance is as of the end of the list. Many banks date it on the download day instead,
      // after DTEND: movements between the two are not in the file, so every day's balance would be
      // off by them, silently. Such a file is refused (keeping only the closing balance would still
      // derive every earlier day from it, wrongly); so is a balance dated before a listed movement.
      if (closing && ledger) {
        const end = dtEnd ? ofxDate(dtEnd, path(list, "DTEND")?.line ?? rs.line) : lastPosted;
        const after = end !== undefined && closing.date > end;
        const before = lastPosted !== undefined && closing.date < lastPosted;
        if (after || before) {
          throw new StatementError(path(ledger, "DTASOF")?.line ?? ledger.line, "statementImport.errors.ofxBalanceDate", { asOf: closing.date, end: (after ? end : lastPosted) as string });
        }
      }
      const openingDate = dtStart ? ofxDate(dtStart, path(list, "DTSTART")?.line ?? rs.line) : first;
      const opening = closing && openingDate ? { date: openingDate, amount: canon(new Decimal(closing.amount).minus(sum(movements.map((m) => m.amount)))) } : undefined;
      const institution = textAt(root, "OFX", "SIGNONMSGSRSV1", "SONRS", "FI", "ORG") ?? bankName(textAt(from, "BANKID"));
      statements.push({
        format: "ofx",
        account,
        accountMasked: maskAccount(account),
        ...(institution ? { institution } : {}),
        currency,
        ...(opening ? { opening } : {}),
        ...(closing ? { closing } : {}),
        movements: withIds(account, movements),
      });
    }
    if (statements.length === 0) throw new StatementError(1, "statementImport.errors.empty");
    return statements;
  });
}
