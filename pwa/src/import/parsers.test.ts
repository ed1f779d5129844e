// What each parser promises beyond the golden files: Latin-1 accents, the totals and counts Norma 43
// states, movement ids for duplicate detection, the recurring rule, CSV amounts and columns, the
// markup reader's SGML and XML errors.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test, vi } from "vitest";
import { parseCamt053 } from "./camt053";
import { LineCounter, SERIAL_MAX, SERIAL_MIN, csvAmount, csvDate, parseCsv, serialDate, type CsvOptions } from "./csv";
import { dailyBalances, recurringMovements } from "./derive";
import { decodeStatement, detectFormat } from "./detect";
import { readMarkup } from "./markup";
import { parseNorma43 } from "./norma43";
import { parseOfx } from "./ofx";
import type { Movement, ParseResult, Statement } from "./types";

const dir = join(import.meta.dirname, "testdata");
const bytesOf = (name: string) => new Uint8Array(readFileSync(join(dir, name)));
const n43 = decodeStatement(bytesOf("norma43-caixa.n43"), "norma43");
const n43Lines = n43.split("\r\n");

function statement(r: ParseResult): Statement {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.statements[0] as Statement;
}

function withLine(lines: string[], index: number, rec: string): string {
  const copy = [...lines];
  copy[index] = rec;
  return copy.join("\r\n");
}

describe("Norma 43", () => {
  test("is Latin-1: Ó is the byte D3, decoded as 'PENSIÓN' (as UTF-8 it would be broken)", () => {
    const bytes = bytesOf("norma43-caixa.n43");
    expect(bytes.includes(0xd3)).toBe(true);
    expect(() => new TextDecoder("utf-8", { fatal: true }).decode(bytes)).toThrow();
    const s = statement(parseNorma43(n43));
    expect(s.movements.map((m) => m.description)).toContain("PENSIÓN JUBILACIÓN INSS ABONO PENSIÓN");
    expect(s.movements.map((m) => m.description)).toContain("COMPRA TARJ. CAFETERÍA SEÑORÍO");
  });

  test("re-saved as UTF-8, with or without a byte-order mark, it is read as UTF-8 (not garbled, not refused)", () => {
    const latin = bytesOf("norma43-caixa.n43");
    const utf8 = new TextEncoder().encode(new TextDecoder("latin1").decode(latin));
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]);
    const bomLatin = new Uint8Array([0xef, 0xbb, 0xbf, ...latin]);
    const expected = statement(parseNorma43(n43)).movements;
    for (const bytes of [utf8, bom, bomLatin]) {
      expect(detectFormat(bytes, "extracto.n43")).toBe("norma43");
      const s = statement(parseNorma43(decodeStatement(bytes, "norma43")));
      expect(s.movements).toEqual(expected);
      expect(s.movements.map((m) => m.description)).toContain("COMPRA TARJ. CAFETERÍA SEÑORÍO");
    }
  });

  test("a DOS end-of-file mark (Ctrl-Z) after the last record is not a record", () => {
    const expected = statement(parseNorma43(n43)).movements;
    const trimmed = n43.replace(/(\r?\n)+$/, "");
    for (const text of [`${n43}\x1a`, `${trimmed}\x1a`, `${n43}\x1a\r\n`]) {
      expect(statement(parseNorma43(text)).movements).toEqual(expected);
    }
    // Anywhere else it is still refused, naming its line.
    expect(parseNorma43(n43.replace("\n22", "\n\x1a22"))).toMatchObject({ ok: false });
  });

  test("a movement without complementary concepts is described by its common concept", () => {
    const s = statement(parseNorma43(n43));
    expect(s.movements.find((m) => m.line === 14)).toMatchObject({ amount: "-200", description: "Cajero automático" });
  });

  test("the 33 record's counts, totals and balance, and the 88 record's count are checked", () => {
    const totals = n43Lines[22] as string; // the 33 record
    expect(totals.slice(0, 2)).toBe("33");
    const wrongCount = `${totals.slice(0, 20)}00006${totals.slice(25)}`;
    expect(parseNorma43(withLine(n43Lines, 22, wrongCount))).toEqual({
      ok: false,
      error: { line: 23, key: "statementImport.errors.n43Counts", params: { debits: 6, credits: 4, foundDebits: 7, foundCredits: 4, line: 23 } },
    });
    const wrongTotal = `${totals.slice(0, 25)}00000000276800${totals.slice(39)}`;
    expect(parseNorma43(withLine(n43Lines, 22, wrongTotal))).toMatchObject({ ok: false, error: { line: 23, key: "statementImport.errors.n43Totals" } });
    const wrongBalance = `${totals.slice(0, 59)}00000001562668${totals.slice(73)}`;
    expect(parseNorma43(withLine(n43Lines, 22, wrongBalance))).toMatchObject({ ok: false, error: { line: 23, key: "statementImport.errors.balanceMismatch", params: { expected: "15626.67", closing: "15626.68" } } });
    const end = n43Lines[23] as string;
    expect(parseNorma43(withLine(n43Lines, 23, `${end.slice(0, 20)}000099${end.slice(26)}`))).toMatchObject({ ok: false, error: { line: 24, key: "statementImport.errors.n43RecordCount", params: { stated: 99, found: 23 } } });
  });

  test("a truncated file, a record too long, an unknown record and a record out of place are refused", () => {
    expect(parseNorma43(n43Lines.slice(0, 10).join("\r\n"))).toMatchObject({ ok: false, error: { key: "statementImport.errors.n43NoTotals", params: { header: 1 } } });
    expect(parseNorma43(n43Lines.slice(0, 23).join("\r\n"))).toMatchObject({ ok: false, error: { key: "statementImport.errors.n43NoEnd" } });
    expect(parseNorma43(withLine(n43Lines, 3, `${n43Lines[3]}X`))).toMatchObject({ ok: false, error: { line: 4, key: "statementImport.errors.n43Length", params: { length: 81 } } });
    expect(parseNorma43(withLine(n43Lines, 3, `44${(n43Lines[3] as string).slice(2)}`))).toMatchObject({ ok: false, error: { line: 4, key: "statementImport.errors.n43Record", params: { record: "44" } } });
    expect(parseNorma43(n43Lines.slice(1).join("\r\n"))).toMatchObject({ ok: false, error: { line: 1, key: "statementImport.errors.n43Unexpected", params: { record: "22" } } });
  });

  test("trailing spaces trimmed by an editor are accepted (records are padded back to 80)", () => {
    const trimmed = n43Lines.map((l) => l.trimEnd()).join("\n");
    expect(statement(parseNorma43(trimmed)).movements).toHaveLength(11);
  });
});

describe("movement ids (duplicate detection)", () => {
  test("are stable, tell identical movements of one day apart, and depend on the account", () => {
    const a = statement(parseNorma43(n43));
    const b = statement(parseNorma43(n43));
    expect(a.movements.map((m) => m.id)).toEqual(b.movements.map((m) => m.id));
    const coffees = a.movements.filter((m) => m.description.startsWith("COMPRA TARJ."));
    expect(coffees).toHaveLength(2);
    expect(coffees[0]?.id).not.toBe(coffees[1]?.id);
    expect(new Set(a.movements.map((m) => m.id)).size).toBe(a.movements.length);
    const otherAccount = n43.replaceAll("0200051332", "0200051333");
    const c = statement(parseNorma43(otherAccount));
    expect(c.movements[0]?.id).not.toBe(a.movements[0]?.id);
    for (const m of a.movements) expect(m.id).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe("detection and decoding", () => {
  test.each([
    ["norma43-caixa.n43", "norma43"],
    ["camt053-santander.xml", "camt053"],
    ["ofx1-ing.ofx", "ofx"],
    ["ofx2-bbva.ofx", "ofx"],
    ["csv-bankinter.csv", "csv"],
  ])("%s is %s", (name, format) => {
    expect(detectFormat(bytesOf(name), name)).toBe(format);
  });

  test("OFX 1 in Windows-1252 keeps its accents; an unknown file is not guessed", () => {
    expect(decodeStatement(bytesOf("ofx1-ing.ofx"), "ofx")).toContain("Lucía Fernández");
    expect(detectFormat(new TextEncoder().encode("hola"), "nota.pdf")).toBeUndefined();
  });

  test("a UTF-16 file (Excel's Unicode text, tab-separated) is read as UTF-16 and parses", () => {
    const text = "Fecha\tConcepto\tImporte\r\n05/01/2025\tCafé Ñandú\t-1,50\r\n";
    const utf16 = (bigEndian: boolean): Uint8Array => {
      const b = new Uint8Array(2 + text.length * 2);
      [b[0], b[1]] = bigEndian ? [0xfe, 0xff] : [0xff, 0xfe];
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        [b[2 + 2 * i], b[3 + 2 * i]] = bigEndian ? [c >> 8, c & 0xff] : [c & 0xff, c >> 8];
      }
      return b;
    };
    for (const bytes of [utf16(false), utf16(true)]) {
      // Named .txt, as Excel names it: the first line must still read as a table.
      expect(detectFormat(bytes, "movimientos.txt")).toBe("csv");
      expect(detectFormat(bytes, "movimientos")).toBe("csv");
      const decoded = decodeStatement(bytes, "csv");
      expect(decoded).toBe(text);
      const s = statement(
        parseCsv(decoded, {
          mapping: { delimiter: "", skipRows: 1, header: true, dateColumn: 0, dateFormat: "DD/MM/YYYY", amount: { kind: "signed", column: 2 }, decimalSeparator: ",", descriptionColumn: 1 },
          account: "",
          institution: "Banco",
          currency: "EUR",
        }),
      );
      expect(s.movements.map((m) => [m.bookingDate, m.description, m.amount])).toEqual([["2025-01-05", "Café Ñandú", "-1.5"]]);
    }
  });
});

describe("CAMT.053", () => {
  const camt = readFileSync(join(dir, "camt053-santander.xml"), "utf8");

  test("pending entries are left out; a balance that does not add up is refused at the closing balance", () => {
    const s = statement(parseCamt053(camt));
    expect(s.movements.map((m) => m.description)).not.toContain("PAGO PENDIENTE BIZUM");
    const wrong = camt.replace('<Amt Ccy="EUR">4012.15</Amt>', '<Amt Ccy="EUR">4012.16</Amt>');
    expect(parseCamt053(wrong)).toMatchObject({ ok: false, error: { line: 43, key: "statementImport.errors.balanceMismatch" } });
  });

  test("an entry in another currency and a document that is not a statement are refused", () => {
    expect(parseCamt053(camt.replace('<Amt Ccy="EUR">1875.00</Amt>', '<Amt Ccy="USD">1875.00</Amt>'))).toMatchObject({
      ok: false,
      error: { line: 57, key: "statementImport.errors.currencyMismatch", params: { currency: "USD", expected: "EUR" } },
    });
    expect(parseCamt053('<?xml version="1.0"?>\n<Document><BkToCstmrDbtCdtNtfctn/></Document>')).toMatchObject({ ok: false, error: { key: "statementImport.errors.camtNotStatement" } });
  });

  test("a date-time with a time zone offset is the calendar day the bank wrote, on either side of midnight in UTC", () => {
    // 23:30 at +02:00 is 21:30 UTC the same day, 00:30 at +02:00 is 22:30 UTC the day before, 23:30
    // at -05:00 is 04:30 UTC the day after: converting to UTC (or to the device's zone) moves two of
    // them to another day.
    const entry = (booked: string, value: string, amount: string) =>
      `<Ntry><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><DtTm>${booked}</DtTm></BookgDt><ValDt><DtTm>${value}</DtTm></ValDt></Ntry>`;
    const xml = `<?xml version="1.0"?>
<Document><BkToCstmrStmt><Stmt><Acct><Id><IBAN>ES9121000418450200051332</IBAN></Id><Ccy>EUR</Ccy></Acct>
<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">100.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><DtTm>2024-03-30T00:15:00+02:00</DtTm></Dt></Bal>
<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">106.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><DtTm>2024-03-31T23:59:59-05:00</DtTm></Dt></Bal>
${entry("2024-03-31T23:30:00+02:00", "2024-04-01T00:30:00+02:00", "1.00")}
${entry("2024-03-31T23:30:00-05:00", "2024-03-31T19:00:00-05:00", "2.00")}
${entry("2024-04-01T00:30:00+14:00", "2024-03-31T23:59:00-12:00", "3.00")}
</Stmt></BkToCstmrStmt></Document>`;
    const s = statement(parseCamt053(xml));
    expect(s.movements.map((m) => [m.bookingDate, m.valueDate])).toEqual([
      ["2024-03-31", "2024-04-01"],
      ["2024-03-31", "2024-03-31"],
      ["2024-04-01", "2024-03-31"],
    ]);
    expect(s.opening).toEqual({ date: "2024-03-30", amount: "100" });
    expect(s.closing).toEqual({ date: "2024-03-31", amount: "106" });
    // A date with an offset (xs:date allows one) is that day too.
    expect(statement(parseCamt053(xml.replace("<DtTm>2024-03-31T23:30:00-05:00</DtTm>", "<Dt>2024-03-31-05:00</Dt>"))).movements[1]?.bookingDate).toBe("2024-03-31");
  });
});

describe("markup", () => {
  test("XML must close what it opens, naming the line", () => {
    expect(() => readMarkup("<a>\n<b>1</c>\n</a>")).toThrow(expect.objectContaining({ line: 2, key: "statementImport.errors.markupClose" }));
    expect(() => readMarkup("<a>\n<b>1</b>\n")).toThrow(expect.objectContaining({ line: 1, key: "statementImport.errors.markupUnclosed" }));
    expect(() => readMarkup("<a>&bogus;</a>")).toThrow(expect.objectContaining({ key: "statementImport.errors.markup" }));
  });

  test("SGML leaves end at the next tag", () => {
    const root = readMarkup("<OFX>\n<A>\n<X>1\n<Y>two words\n</A>\n</OFX>", true);
    const a = root.children[0]?.children[0];
    expect(a?.children.map((c) => [c.name, c.text.trim()])).toEqual([
      ["X", "1"],
      ["Y", "two words"],
    ]);
  });

  test("OFX whose ledger balance is not dated at the end of its movements is refused (it would shift every day's balance)", () => {
    const ofx = decodeStatement(bytesOf("ofx1-ing.ofx"), "ofx");
    expect(statement(parseOfx(ofx)).opening).toEqual({ date: "2025-03-01", amount: "2000" });
    // Dated on the download day, after DTEND (a payment of 500 on 5 April is not in the list).
    const downloadDay = ofx.replace("<BALAMT>2023.56\r\n<DTASOF>20250331", "<BALAMT>1523.56\r\n<DTASOF>20250410");
    expect(downloadDay).not.toBe(ofx);
    expect(parseOfx(downloadDay)).toEqual({ ok: false, error: { line: 71, key: "statementImport.errors.ofxBalanceDate", params: { asOf: "2025-04-10", end: "2025-03-31", line: 71 } } });
    // Dated before the last movement it should include.
    const early = ofx.replace("<BALAMT>2023.56\r\n<DTASOF>20250331", "<BALAMT>2023.56\r\n<DTASOF>20250310");
    expect(parseOfx(early)).toMatchObject({ ok: false, error: { line: 71, key: "statementImport.errors.ofxBalanceDate", params: { asOf: "2025-03-10", end: "2025-03-18" } } });
  });

  test("OFX 1 without a body is refused", () => {
    expect(parseOfx("OFXHEADER:100\nDATA:OFXSGML\n")).toMatchObject({ ok: false, error: { key: "statementImport.errors.ofxNoBody" } });
  });
});

describe("CSV", () => {
  describe("spreadsheet serial dates", () => {
    const options = (dateFormat: CsvOptions["mapping"]["dateFormat"]): CsvOptions => ({
      account: "ES00",
      currency: "EUR",
      mapping: { delimiter: "", skipRows: 1, header: true, dateColumn: 0, valueDateColumn: 1, dateFormat, amount: { kind: "signed", column: 3 }, decimalSeparator: ",", descriptionColumn: 2, balanceColumn: 4 },
    });
    const file = "Fecha;Valor;Concepto;Importe;Saldo\n45321;45322;NOMINA;1500,00;1600,00\n45322,75;45322;LUZ;-50,00;1550,00\n45351;45351;AGUA;-20,00;1530,00\n";

    test("are read as days since 30 December 1899 (45321 is 2024-01-30), a time of day ignored", () => {
      expect(serialDate("45321")).toBe("2024-01-30");
      expect(serialDate(" 45292 ")).toBe("2024-01-01");
      expect(serialDate("45351.5")).toBe("2024-02-29");
      expect(serialDate(String(SERIAL_MIN))).toBe("1970-01-01");
      expect(serialDate(String(SERIAL_MAX))).toBe("2099-12-31");
      for (const not of [String(SERIAL_MIN - 1), String(SERIAL_MAX + 1), "4532", "453210", "30/01/2024", "-45321", "45321.", "1.234"]) expect(serialDate(not)).toBeUndefined();
      expect(csvDate("45321", "SERIAL")).toBe("2024-01-30");
      expect(csvDate("30/01/2024", "SERIAL")).toBeUndefined();
      const s = statement(parseCsv(file, options("SERIAL")));
      expect(s.movements.map((m) => [m.bookingDate, m.valueDate, m.amount])).toEqual([
        ["2024-01-30", "2024-01-31", "1500"],
        ["2024-01-31", "2024-01-31", "-50"],
        ["2024-02-29", "2024-02-29", "-20"],
      ]);
      expect(s.opening).toEqual({ date: "2024-01-30", amount: "100" });
      expect(s.closing).toEqual({ date: "2024-02-29", amount: "1530" });
    });

    test("every date of the column must be one: a written date among them is refused at its line", () => {
      const mixed = file.replace("45351;45351;AGUA", "29/02/2024;45351;AGUA");
      expect(parseCsv(mixed, options("SERIAL"))).toEqual({ ok: false, error: { line: 4, key: "statementImport.errors.dateNotSerial", params: { value: "29/02/2024", line: 4 } } });
      // A number too small or too large to be a statement's day is not taken for one.
      expect(parseCsv(file.replace("45321;45322;NOMINA", "12345;45322;NOMINA"), options("SERIAL"))).toMatchObject({ ok: false, error: { line: 2, key: "statementImport.errors.dateNotSerial" } });
    });

    test("under a day-month-year format they are refused saying what they are and the format that reads them", () => {
      expect(parseCsv(file, options("DD/MM/YYYY"))).toEqual({
        ok: false,
        error: { line: 2, key: "statementImport.errors.dateSerial", params: { value: "45321", serialDate: "2024-01-30", line: 2 } },
      });
      // The value date column too.
      const written = file.replace("45321;45322", "30/01/2024;45322");
      expect(parseCsv(written, options("DD/MM/YYYY"))).toMatchObject({ ok: false, error: { line: 2, key: "statementImport.errors.dateSerial", params: { value: "45322", serialDate: "2024-01-31" } } });
    });
  });

  test("a row whose quotes are not closed is refused at its line (it would swallow the rows after it)", () => {
    const options: CsvOptions = {
      account: "ES00",
      currency: "EUR",
      mapping: { delimiter: "", skipRows: 1, header: true, dateColumn: 0, dateFormat: "DD/MM/YYYY", amount: { kind: "signed", column: 1 }, decimalSeparator: ",", descriptionColumn: 2 },
    };
    const rows = (third: string) => `Fecha;Importe;Concepto\n05/01/2025;-1,00;Pan\n06/01/2025;-2,00;${third}\n07/01/2025;-3,00;Luz\n08/01/2025;-4,00;Agua\n`;
    for (const bad of ['"Compra en tienda', '"Compra"x']) {
      expect(parseCsv(rows(bad), options)).toEqual({ ok: false, error: { line: 3, key: "statementImport.errors.csvQuotes", params: { line: 3 } } });
    }
    // Quotes used as CSV means them still read.
    for (const good of ['"Compra; tienda"', '"Com""pra"', 'Compra "x" y']) {
      expect(statement(parseCsv(rows(good), options)).movements).toHaveLength(4);
    }
  });

  test("a newest-first file of a single day is read oldest first (its balances tell the order)", () => {
    const options: CsvOptions = {
      account: "ES00",
      currency: "EUR",
      mapping: { delimiter: "", skipRows: 1, header: true, dateColumn: 0, dateFormat: "DD/MM/YYYY", amount: { kind: "signed", column: 2 }, decimalSeparator: ",", descriptionColumn: 1, balanceColumn: 3 },
    };
    const oldestFirst = "Fecha;Concepto;Importe;Saldo\n06/01/2025;CAFE;-2,00;98,00\n06/01/2025;BIZUM;30,00;128,00\n06/01/2025;LUZ;-50,00;78,00\n";
    const newestFirst = "Fecha;Concepto;Importe;Saldo\n06/01/2025;LUZ;-50,00;78,00\n06/01/2025;BIZUM;30,00;128,00\n06/01/2025;CAFE;-2,00;98,00\n";
    const a = statement(parseCsv(oldestFirst, options));
    const b = statement(parseCsv(newestFirst, options));
    expect(b.opening).toEqual({ date: "2025-01-06", amount: "100" });
    expect(b.closing).toEqual({ date: "2025-01-06", amount: "78" });
    expect(b.movements.map((m) => m.description)).toEqual(["CAFE", "BIZUM", "LUZ"]);
    expect(b.movements.map((m) => m.id)).toEqual(a.movements.map((m) => m.id));
    // Rows whose balances follow on in neither order are still refused, naming the row.
    const broken = newestFirst.replace("128,00", "127,00");
    expect(parseCsv(broken, options)).toMatchObject({ ok: false, error: { key: "statementImport.errors.csvBalance" } });
  });

  test("amounts in Spanish and English ways, with signs, brackets and currency symbols", () => {
    expect(csvAmount("1.234,56", ",")).toBe("1234.56");
    expect(csvAmount("-12,5", ",")).toBe("-12.5");
    expect(csvAmount("12,50-", ",")).toBe("-12.5");
    expect(csvAmount("(7,00)", ",")).toBe("-7");
    expect(csvAmount("1 234,56 €", ",")).toBe("1234.56");
    expect(csvAmount("1,234.56", ".")).toBe("1234.56");
    expect(csvAmount("1,234.56", ",")).toBeUndefined();
    expect(csvAmount("abc", ",")).toBeUndefined();
    // A typographic minus (U+2212) or dash, a narrow no-break space between thousands, the currency before the amount.
    expect(csvAmount("\u221212,50", ",")).toBe("-12.5");
    expect(csvAmount("12,50\u2013", ",")).toBe("-12.5");
    expect(csvAmount("1\u202f234,56", ",")).toBe("1234.56");
    expect(csvAmount("EUR -1.234,56", ",")).toBe("-1234.56");
    expect(csvAmount("EUR", ",")).toBeUndefined();
  });

  test("dates in each format; impossible dates are refused", () => {
    expect(csvDate("05/03/2025", "DD/MM/YYYY")).toBe("2025-03-05");
    expect(csvDate("03/05/2025", "MM/DD/YYYY")).toBe("2025-03-05");
    expect(csvDate("2025-03-05", "YYYY-MM-DD")).toBe("2025-03-05");
    expect(csvDate("05.03.25", "DD/MM/YY")).toBe("2025-03-05");
    expect(csvDate("29/02/2025", "DD/MM/YYYY")).toBeUndefined();
    expect(csvDate("05/03/2025 10:22", "DD/MM/YYYY")).toBe("2025-03-05");
    expect(csvDate("2025-03-05T10:22:00", "YYYY-MM-DD")).toBe("2025-03-05");
  });

  test("a date that does not match the chosen format exactly is refused, with its row, not cut short", () => {
    expect(csvDate("05/01/2025", "DD/MM/YY")).toBeUndefined(); // was 2020-01-05
    expect(csvDate("05/01/25", "DD/MM/YYYY")).toBeUndefined();
    expect(csvDate("05/01/20251", "DD/MM/YYYY")).toBeUndefined();
    expect(csvDate("2025-03-051", "YYYY-MM-DD")).toBeUndefined();
    const text = "Fecha;Concepto;Importe;Saldo\n05/01/25;NOMINA;1500,00;2500,00\n07/01/2025;LUZ;-50,00;2450,00\n";
    const options: CsvOptions = {
      account: "ES00",
      currency: "EUR",
      mapping: { delimiter: "", skipRows: 1, header: true, dateColumn: 0, dateFormat: "DD/MM/YY", amount: { kind: "signed", column: 2 }, decimalSeparator: ",", descriptionColumn: 1, balanceColumn: 3 },
    };
    expect(parseCsv(text, options)).toEqual({ ok: false, error: { line: 3, key: "statementImport.errors.date", params: { value: "07/01/2025", line: 3 } } });
  });

  const split: CsvOptions = {
    account: "",
    institution: "Caja Rural",
    currency: "EUR",
    mapping: { delimiter: ",", skipRows: 1, header: true, dateColumn: 0, dateFormat: "YYYY-MM-DD", amount: { kind: "split", debitColumn: 2, creditColumn: 3 }, decimalSeparator: ".", descriptionColumn: 1 },
  };

  test("debit and credit columns; without a balance column there are no balances", () => {
    const text = "Date,Concept,Out,In\n2025-01-02,Seguro hogar,310.20,\n2025-01-05,Devolución,,12.00\n";
    const s = statement(parseCsv(text, split));
    expect(s.movements.map((m) => m.amount)).toEqual(["-310.2", "12"]);
    expect(s.account).toBe("Caja Rural");
    expect(dailyBalances(s)).toEqual([]);
  });

  test("a row with too few columns and a running balance that does not follow are refused with their line", () => {
    expect(parseCsv("Date,Concept,Out,In\n2025-01-02,Seguro hogar\n", split)).toMatchObject({ ok: false, error: { line: 2, key: "statementImport.errors.csvColumns" } });
    const withBalance: CsvOptions = { ...split, mapping: { ...split.mapping, balanceColumn: 4 } };
    const text = "Date,Concept,Out,In,Balance\n2025-01-02,Seguro hogar,310.20,,1000.00\n\n2025-01-05,Devolución,,12.00,1013.00\n";
    expect(parseCsv(text, withBalance)).toMatchObject({ ok: false, error: { line: 4, key: "statementImport.errors.csvBalance", params: { expected: "1012", found: "1013" } } });
  });
});

describe("recurring movements", () => {
  const m = (bookingDate: string, amount: string, description: string, n: number): Movement => ({ id: String(n).padStart(16, "0"), bookingDate, amount, description, line: n });

  test("same description (numbers aside) and amount, every 26 to 35 days, at least twice", () => {
    const found = recurringMovements([
      m("2025-01-05", "-45.1", "RECIBO LUZ 01/2025", 1),
      m("2025-02-05", "-45.1", "RECIBO LUZ 02/2025", 2),
      m("2025-03-07", "-45.1", "Recibo luz 03/2025", 3),
      m("2025-01-10", "-20", "GIMNASIO", 4),
      m("2025-01-17", "-20", "GIMNASIO", 5), // weekly: not monthly
      m("2025-01-12", "-60", "SEGURO", 6),
      m("2025-02-12", "-61", "SEGURO", 7), // amount changed
      m("2025-02-01", "900", "ALQUILER", 8), // once
    ]);
    expect(found).toEqual([{ name: "RECIBO LUZ 01/2025", direction: "outflow", amount: "45.1", startDate: "2025-01-05", lastDate: "2025-03-07", count: 3, movementIds: ["0000000000000001", "0000000000000002", "0000000000000003"] }]);
  });

  test("a gap of more than 35 days breaks the series", () => {
    expect(recurringMovements([m("2025-01-01", "100", "X", 1), m("2025-02-15", "100", "X", 2)])).toEqual([]);
  });
});

describe("large files", () => {
  /** A Norma 43 file of one account with `n` card payments of 1,00 € (records built field by field). */
  function bigNorma43(n: number): string {
    const head = n43Lines[0] as string;
    const move = `22    0418250110250110120101${"100".padStart(14, "0")}${"0".repeat(10)}${"0".repeat(12)}${"TPV".padEnd(16)}`;
    const concept = `2301${"COMPRA TARJETA GASOLINERA".padEnd(38)}${"".padEnd(38)}`;
    const opening = 12345.67;
    const closing = Math.round((opening - n) * 100);
    const totals = `33${"2100"}${"0418"}${"0200051332"}${String(n).padStart(5, "0")}${String(n * 100).padStart(14, "0")}${"0".padStart(5, "0")}${"0".padStart(14, "0")}${closing < 0 ? "1" : "2"}${String(Math.abs(closing)).padStart(14, "0")}978    `;
    const records = [head];
    for (let i = 0; i < n; i++) records.push(move, concept);
    records.push(totals);
    records.push(`88${"9".repeat(18)}${String(records.length).padStart(6, "0")}`.padEnd(80));
    return records.join("\r\n");
  }

  test("a file of 20,000 movements is read whole in the worker's job, telling its progress", async () => {
    const { runParseJob } = await import("./jobs");
    const text = bigNorma43(20_000);
    const bytes = new TextEncoder().encode(text).buffer as ArrayBuffer;
    const fractions: number[] = [];
    let result: ParseResult | undefined;
    runParseJob({ id: 1, bytes, format: "norma43" }, (msg) => {
      if (msg.kind === "progress") fractions.push(msg.fraction);
      else result = msg.result;
    });
    expect(fractions.length).toBeGreaterThan(10);
    expect(fractions).toEqual([...fractions].sort((x, y) => x - y));
    const s = statement(result as ParseResult);
    expect(s.movements).toHaveLength(20_000);
    expect(s.closing?.amount).toBe("-7654.33");
    expect(s.movements[19_999]).toMatchObject({ amount: "-1", description: "COMPRA TARJETA GASOLINERA", reference: "TPV", line: 40_000 });
    expect(new Set(s.movements.map((m) => m.id)).size).toBe(20_000);
    // One day of movements: a single end-of-day balance, negative (an overdraft), plus the closing day.
    expect(dailyBalances(s).map((b) => [b.date, b.amount, b.movementIds.length])).toEqual([
      ["2025-01-10", "-7654.33", 20_000],
      ["2025-03-31", "-7654.33", 0],
    ]);
  });

  test("a CSV's rows are numbered in one pass over the text (not rescanned per row), with progress while reading them", () => {
    const n = 5_000;
    const rows = ["Fecha;Concepto;Importe;Saldo"];
    let balance = 1000;
    for (let i = 0; i < n; i++) {
      balance += 1;
      rows.push(`02/01/2025;COMPRA ${i};1,00;${balance},00`);
      if (i === 10) rows.push(""); // an empty line still counts
    }
    const text = rows.join("\r\n") + "\r\n";
    const options: CsvOptions = {
      account: "ES00",
      currency: "EUR",
      mapping: { delimiter: "", skipRows: 1, header: true, dateColumn: 0, dateFormat: "DD/MM/YYYY", amount: { kind: "signed", column: 2 }, decimalSeparator: ",", descriptionColumn: 1, balanceColumn: 3 },
    };
    const at = vi.spyOn(LineCounter.prototype, "at");
    const fractions: number[] = [];
    try {
      const s = statement(parseCsv(text, options, (f) => fractions.push(f)));
      expect(s.movements).toHaveLength(n);
      expect(s.movements[0]?.line).toBe(2);
      expect(s.movements[n - 1]?.line).toBe(n + 2);
      // One lookup per data row, at increasing offsets, on one counter that reads each character once.
      const offsets = at.mock.calls.map(([offset]) => offset);
      expect(offsets).toHaveLength(n);
      expect(offsets.every((o, i) => i === 0 || o > (offsets[i - 1] as number))).toBe(true);
      const counters = new Set(at.mock.contexts);
      expect(counters.size).toBe(1);
      expect(([...counters][0] as LineCounter).scanned).toBeLessThanOrEqual(text.length);
    } finally {
      at.mockRestore();
    }
    expect(fractions).toEqual([...fractions].sort((x, y) => x - y));
    expect(fractions.filter((f) => f > 0.5).length).toBeGreaterThan(0);
  });
});
