// Norma 43 (AEB Cuaderno 43), the Spanish banks' account statement: fixed-width records of 80
// characters in Latin-1. 11 account header, 22 movement, 23 complementary concepts (up to 5 per
// movement), 24 currency equivalence, 33 account totals, 88 end of file. Amounts have 2 implied
// decimals and a debit (1) / credit (2) key. The totals of each 33 record (debit and credit counts
// and sums, final balance) and the record count of the 88 record are checked; any error refuses the
// whole file, naming its line.
import Decimal from "decimal.js";
import { NUMERIC_CURRENCIES, bankName, canon, checkBalances, impliedDecimal, lines, maskAccount, squash, stripBom, withIds, yymmdd } from "./common";
import { StatementError, guarded, type Movement, type ParseResult, type Progress, type Statement } from "./types";

const RECORD_LENGTH = 80;

/** The common concepts (concepto común) of the AEB, as the description when a movement has no
 * complementary concept text. Spanish, as the banks print them. */
const COMMON_CONCEPTS: Readonly<Record<string, string>> = {
  "01": "Talones - reintegros",
  "02": "Abonarés - entregas - ingresos",
  "03": "Domiciliados - recibos - letras - pagos por su cuenta",
  "04": "Giros - transferencias - traspasos - cheques",
  "05": "Amortizaciones préstamos, créditos, etc.",
  "06": "Remesas efectos",
  "07": "Suscripciones - div. pasivos - canjes",
  "08": "Div. cupones - prima junta - amortizaciones",
  "09": "Operaciones de bolsa y/o compra/venta valores",
  "10": "Cheques gasolina",
  "11": "Cajero automático",
  "12": "Tarjetas de crédito - tarjetas débito",
  "13": "Operaciones extranjero",
  "14": "Devoluciones e impagados",
  "15": "Nóminas - seguros sociales",
  "16": "Timbres - corretaje - póliza",
  "17": "Intereses - comisiones - custodia - gastos e impuestos",
  "98": "Anulaciones - correcciones asiento",
  "99": "Varios",
};

function field(rec: string, from: number, to: number): string {
  return rec.slice(from - 1, to);
}

function digits(rec: string, from: number, to: number, line: number, name: string): string {
  const v = field(rec, from, to);
  if (!/^\d+$/.test(v)) throw new StatementError(line, "statementImport.errors.n43Field", { field: name, value: v.trim() });
  return v;
}

function date(rec: string, from: number, line: number, name: string): string {
  const d = yymmdd(field(rec, from, from + 5));
  if (d === undefined) throw new StatementError(line, "statementImport.errors.n43Field", { field: name, value: field(rec, from, from + 5) });
  return d;
}

function debitKey(rec: string, at: number, line: number): boolean {
  const k = field(rec, at, at);
  if (k !== "1" && k !== "2") throw new StatementError(line, "statementImport.errors.n43Field", { field: "debitCredit", value: k });
  return k === "1";
}

function amount(rec: string, from: number, to: number, debit: boolean, line: number, name: string): string {
  return impliedDecimal(digits(rec, from, to, line, name), 2, debit);
}

interface Open {
  line: number;
  account: string;
  bank: string;
  currency: string;
  opening: { date: string; amount: string };
  end: string;
  movements: Omit<Movement, "id">[];
  current?: Omit<Movement, "id"> & { concepts: string[]; common: string };
}

function flush(open: Open): void {
  const c = open.current;
  if (!c) return;
  const text = squash(c.concepts.join(" "));
  const { concepts: _c, common, ...m } = c;
  open.movements.push({ ...m, description: text || m.description || COMMON_CONCEPTS[common] || common });
  open.current = undefined;
}

/** Parses a Norma 43 file's text (already decoded from Latin-1). */
export function parseNorma43(input: string, onProgress?: Progress): ParseResult {
  return guarded(() => {
    // A file written by DOS-era software may end with its end-of-file mark (Ctrl-Z): not a record.
    const text = stripBom(input);
    let eof = text.length;
    while (eof > 0 && /\s/.test(text.charAt(eof - 1))) eof--;
    const body = eof > 0 && text.charCodeAt(eof - 1) === 0x1a ? text.slice(0, eof - 1) : text;
    const all = lines(body);
    const statements: Statement[] = [];
    let open: Open | undefined;
    let records = 0;
    let ended = false;
    for (const [i, raw] of all.entries()) {
      const line = i + 1;
      if (onProgress && i % 2000 === 0) onProgress(i / all.length);
      const rec = raw.replace(/[ \t]+$/, "");
      if (ended) {
        if (rec === "") continue;
        throw new StatementError(line, "statementImport.errors.n43AfterEnd");
      }
      if (rec === "") throw new StatementError(line, "statementImport.errors.n43EmptyLine");
      if (rec.length > RECORD_LENGTH) throw new StatementError(line, "statementImport.errors.n43Length", { length: rec.length });
      const r = rec.padEnd(RECORD_LENGTH, " ");
      const code = r.slice(0, 2);
      switch (code) {
        case "11": {
          if (open) throw new StatementError(line, "statementImport.errors.n43Unexpected", { record: code });
          const bank = digits(r, 3, 6, line, "bank");
          const account = `${bank}${digits(r, 7, 10, line, "branch")}${digits(r, 11, 20, line, "account")}`;
          const start = date(r, 21, line, "startDate");
          const end = date(r, 27, line, "endDate");
          const opening = amount(r, 34, 47, debitKey(r, 33, line), line, "openingBalance");
          const numeric = digits(r, 48, 50, line, "currency");
          const currency = NUMERIC_CURRENCIES[numeric];
          if (currency === undefined) throw new StatementError(line, "statementImport.errors.unknownCurrency", { currency: numeric });
          open = { line, account, bank, currency, opening: { date: start, amount: opening }, end, movements: [] };
          break;
        }
        case "22": {
          if (!open) throw new StatementError(line, "statementImport.errors.n43Unexpected", { record: code });
          flush(open);
          const bookingDate = date(r, 11, line, "bookingDate");
          const valueDate = date(r, 17, line, "valueDate");
          const common = digits(r, 23, 24, line, "concept");
          const value = amount(r, 29, 42, debitKey(r, 28, line), line, "amount");
          const refs = [field(r, 53, 64), field(r, 65, 80)].map((s) => s.trim()).filter((s) => s !== "" && !/^0+$/.test(s));
          open.current = {
            bookingDate,
            valueDate,
            amount: value,
            description: "",
            ...(refs.length > 0 ? { reference: refs.join(" ") } : {}),
            line,
            concepts: [],
            common,
          };
          break;
        }
        case "23": {
          if (!open?.current) throw new StatementError(line, "statementImport.errors.n43Unexpected", { record: code });
          const n = digits(r, 3, 4, line, "conceptCode");
          if (Number(n) < 1 || Number(n) > 5 || open.current.concepts.length >= 5) {
            throw new StatementError(line, "statementImport.errors.n43Field", { field: "conceptCode", value: n });
          }
          open.current.concepts.push(field(r, 5, 42), field(r, 43, 80));
          break;
        }
        case "24": {
          if (!open?.current) throw new StatementError(line, "statementImport.errors.n43Unexpected", { record: code });
          digits(r, 5, 7, line, "currency");
          digits(r, 8, 21, line, "amount");
          break;
        }
        case "33": {
          if (!open) throw new StatementError(line, "statementImport.errors.n43Unexpected", { record: code });
          flush(open);
          const account = `${digits(r, 3, 6, line, "bank")}${digits(r, 7, 10, line, "branch")}${digits(r, 11, 20, line, "account")}`;
          if (account !== open.account) throw new StatementError(line, "statementImport.errors.n43AccountMismatch", { header: open.line });
          const debitCount = Number(digits(r, 21, 25, line, "debitCount"));
          const debitTotal = amount(r, 26, 39, false, line, "debitTotal");
          const creditCount = Number(digits(r, 40, 44, line, "creditCount"));
          const creditTotal = amount(r, 45, 58, false, line, "creditTotal");
          const closing = amount(r, 60, 73, debitKey(r, 59, line), line, "closingBalance");
          const numeric = digits(r, 74, 76, line, "currency");
          if (NUMERIC_CURRENCIES[numeric] !== open.currency) throw new StatementError(line, "statementImport.errors.n43CurrencyMismatch");
          const debits = open.movements.filter((m) => m.amount.startsWith("-"));
          const credits = open.movements.filter((m) => !m.amount.startsWith("-"));
          const dSum = canon(debits.reduce((a, m) => a.minus(m.amount), new Decimal(0)));
          const cSum = canon(credits.reduce((a, m) => a.plus(m.amount), new Decimal(0)));
          if (debitCount !== debits.length || creditCount !== credits.length) {
            throw new StatementError(line, "statementImport.errors.n43Counts", { debits: debitCount, credits: creditCount, foundDebits: debits.length, foundCredits: credits.length });
          }
          if (dSum !== debitTotal || cSum !== creditTotal) {
            throw new StatementError(line, "statementImport.errors.n43Totals", { debitTotal, creditTotal, foundDebits: dSum, foundCredits: cSum });
          }
          checkBalances(open.opening.amount, closing, open.movements, line);
          statements.push({
            format: "norma43",
            account: open.account,
            accountMasked: maskAccount(open.account),
            institution: bankName(open.bank) as string,
            currency: open.currency,
            opening: open.opening,
            closing: { date: open.end, amount: closing },
            movements: withIds(open.account, open.movements),
          });
          open = undefined;
          break;
        }
        case "88": {
          if (open) throw new StatementError(line, "statementImport.errors.n43Unexpected", { record: code });
          if (field(r, 3, 20) !== "9".repeat(18)) throw new StatementError(line, "statementImport.errors.n43Field", { field: "fileEnd", value: field(r, 3, 20).trim() });
          const stated = Number(digits(r, 21, 26, line, "recordCount"));
          // Banks count the records before this one; some count this one too: both are accepted.
          if (stated !== records && stated !== records + 1) throw new StatementError(line, "statementImport.errors.n43RecordCount", { stated, found: records });
          ended = true;
          break;
        }
        default:
          throw new StatementError(line, "statementImport.errors.n43Record", { record: code });
      }
      records++;
    }
    if (open) throw new StatementError(all.length, "statementImport.errors.n43NoTotals", { header: open.line });
    if (!ended) throw new StatementError(all.length, "statementImport.errors.n43NoEnd");
    if (statements.length === 0) throw new StatementError(0, "statementImport.errors.empty");
    return statements;
  });
}
