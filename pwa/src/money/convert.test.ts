// Conversion, rate lookup and totals against hand-computed figures (the expected decimals were
// worked out with a 40-digit calculator from the formula amount × perEur(to) / perEur(from)).
import { CURRENCY_CODES } from "@patrimonio/shared-schema";
import { describe, expect, test } from "vitest";
import { formatMoney } from "../i18n/format";
import { convert } from "./convert";
import { Dec } from "./decimal";
import { farFromPublished, RateBook, type EurRate } from "./rates";
import { roundMoney, sumInBase, totalsInBase } from "./sum";

const ecb = (date: string, currency: string, perEur: string): EurRate => ({ date, currency, perEur, source: "ecb" });

// 2024-01-02 (Tue) and 2024-01-03 (Wed) published; 2024-01-01 is a holiday (no file), the
// weekend 6-7 January has none either. RUB stopped on 2022-03-01.
const server: EurRate[] = [
  ecb("2024-01-02", "USD", "1.0956"),
  ecb("2024-01-03", "USD", "1.0919"),
  ecb("2024-01-02", "GBP", "0.86655"),
  ecb("2024-01-03", "GBP", "0.86560"),
  ecb("2024-01-02", "JPY", "155.52"),
  ecb("2022-03-01", "RUB", "117.2535"),
  { date: "2024-01-02", currency: "ARS", perEur: "885.12", source: "frankfurter" },
];
const book = new RateBook(server);

describe("convert", () => {
  test("to EUR divides by the rate of the day", () => {
    const c = convert("100", "USD", "EUR", "2024-01-02", book);
    expect(c).toMatchObject({ ok: true, rateDate: "2024-01-02" });
    if (!c.ok) throw new Error("unreachable");
    expect(c.amount).toBe("91.27418765972982840452719970792259948886");
    expect(roundMoney(c.amount, "EUR")).toBe("91.27");
    expect(c.rates).toEqual([{ currency: "USD", perEur: "1.0956", date: "2024-01-02", source: "ecb" }]);
  });

  test("from EUR multiplies; JPY rounds to whole yen", () => {
    const c = convert("10.50", "EUR", "JPY", "2024-01-02", book);
    if (!c.ok) throw new Error("expected a conversion");
    expect(c.amount).toBe("1632.96");
    expect(roundMoney(c.amount, "JPY")).toBe("1633");
  });

  test("neither side EUR goes through EUR", () => {
    const c = convert("100", "USD", "GBP", "2024-01-02", book);
    if (!c.ok) throw new Error("expected a conversion");
    expect(c.amount).toBe("79.09364731653888280394304490690032858708");
    expect(c.rates.map((r) => r.currency)).toEqual(["USD", "GBP"]);
  });

  test("a weekend or holiday uses the rate on or before the date and says which", () => {
    const c = convert("1091.9", "USD", "EUR", "2024-01-07", book);
    expect(c).toMatchObject({ ok: true, amount: "1000", rateDate: "2024-01-03" });
  });

  test("before the first rate it is missing, never 1:1", () => {
    expect(convert("100", "USD", "EUR", "2024-01-01", book)).toEqual({ ok: false, reason: "missing", missing: ["USD"], date: "2024-01-01" });
    expect(convert("100", "XAU", "USD", "2024-01-05", book)).toEqual({ ok: false, reason: "missing", missing: ["XAU"], date: "2024-01-05" });
    expect(convert("100", "CLP", "COP", "2024-01-05", book)).toEqual({ ok: false, reason: "missing", missing: ["CLP", "COP"], date: "2024-01-05" });
  });

  test("the same currency needs no rate; EUR is never looked up", () => {
    expect(convert("12.30", "CLP", "CLP", "1999-01-01", book)).toMatchObject({ ok: true, amount: "12.3", rate: "1", rateDate: null, rates: [] });
  });

  test("a currency that disappeared keeps its last rate, dated; maxAgeDays makes it missing", () => {
    expect(convert("117.2535", "RUB", "EUR", "2024-01-02", book)).toMatchObject({ ok: true, amount: "1", rateDate: "2022-03-01" });
    expect(convert("117.2535", "RUB", "EUR", "2024-01-02", book, { maxAgeDays: 7 })).toMatchObject({ ok: false, missing: ["RUB"] });
    expect(convert("117.2535", "RUB", "EUR", "2022-03-05", book, { maxAgeDays: 7 })).toMatchObject({ ok: true, amount: "1" });
  });

  test("the second source's currencies convert like the ECB's", () => {
    expect(convert("885.12", "ARS", "EUR", "2024-01-02", book)).toMatchObject({ ok: true, amount: "1", rates: [{ source: "frankfurter" }] });
  });

  test("not a decimal: refused, not guessed", () => {
    expect(convert("1,5", "USD", "EUR", "2024-01-02", book)).toEqual({ ok: false, reason: "invalidAmount" });
    expect(convert("1e3", "USD", "EUR", "2024-01-02", book)).toEqual({ ok: false, reason: "invalidAmount" });
  });
});

describe("rate precedence", () => {
  const manual = (date: string, currency: string, perEur: string): EurRate => ({ date, currency, perEur, source: "manual" });

  test("a manual rate wins on its date, the newer date wins across dates", () => {
    const b = new RateBook(server, [manual("2024-01-03", "USD", "1.10"), manual("2024-01-02", "GBP", "0.9")]);
    expect(b.rateOn("USD", "2024-01-03")).toMatchObject({ date: "2024-01-03", source: "manual" });
    expect(b.rateOn("USD", "2024-01-03")?.perEur.toString()).toBe("1.1");
    // The manual GBP rate of the 2nd does not hide the ECB's of the 3rd.
    expect(b.rateOn("GBP", "2024-01-04")).toMatchObject({ date: "2024-01-03", source: "ecb" });
    expect(b.rateOn("GBP", "2024-01-02")).toMatchObject({ date: "2024-01-02", source: "manual" });
  });

  test("a manual rate fills a currency no source publishes (on a plane)", () => {
    const b = new RateBook(server, [manual("2024-01-05", "UYU", "43.2")]);
    expect(convert("86.4", "UYU", "EUR", "2024-01-06", b)).toMatchObject({ ok: true, amount: "2", rateDate: "2024-01-05" });
    expect(convert("86.4", "UYU", "EUR", "2024-01-04", b)).toMatchObject({ ok: false, missing: ["UYU"] });
  });

  test("the ECB wins over the second source on the same date; zero, negative and EUR rows are ignored", () => {
    const b = new RateBook([
      { date: "2024-01-02", currency: "USD", perEur: "1.2", source: "frankfurter" },
      ecb("2024-01-02", "USD", "1.0956"),
      ecb("2024-01-03", "USD", "0"),
      ecb("2024-01-03", "EUR", "2"),
      ecb("2024-01-04", "USD", "-1"),
    ]);
    expect(b.rateOn("USD", "2024-01-05")).toMatchObject({ date: "2024-01-02", source: "ecb" });
    expect(b.rateOn("EUR", "2024-01-05")?.perEur.toString()).toBe("1");
    expect(b.currencies()).toEqual(["USD"]);
    expect(b.latestDate()).toBe("2024-01-02");
  });
});

describe("totals in a base currency", () => {
  test("sums what converts, leaves out and reports what does not", () => {
    const t = sumInBase(
      [
        { key: "flat", amount: "100", currency: "EUR", date: "2024-01-02" },
        { key: "shares", amount: "100", currency: "USD", date: "2024-01-02" },
        { key: "land", amount: "50", currency: "PEN", date: "2024-01-02" },
        { key: "loan", amount: "-1.0919", currency: "USD", date: "2024-01-05" },
      ],
      "EUR",
      book,
    );
    // 100 + 100 / 1.0956 − 1.0919 / 1.0919
    expect(t.total).toBe("190.2741876597298284045271997079225994889");
    expect(roundMoney(t.value, "EUR")).toBe("190.27");
    expect(t.included).toBe(3);
    expect(t.complete).toBe(false);
    expect(t.missing).toEqual([{ key: "land", amount: "50", currency: "PEN", date: "2024-01-02", missing: ["PEN"] }]);
    expect([t.oldestRateDate, t.newestRateDate]).toEqual(["2024-01-02", "2024-01-03"]);
  });

  test("per-currency totals on one date", () => {
    // 1200 EUR + 300 USD / 1.0919 (the 3rd's rate, used on Sunday the 7th) = 1474.750435...
    const t = totalsInBase([{ currency: "EUR", amount: "1200" }, { currency: "USD", amount: "300" }, { currency: "CLP", amount: "5000" }], "EUR", "2024-01-07", book);
    expect(roundMoney(t.value, "EUR")).toBe("1474.75");
    expect(t.missing.map((m) => m.key)).toEqual(["CLP"]);
    expect(t.oldestRateDate).toBe("2024-01-03");
  });

  test("an empty list is 0 and complete; a base without rates leaves everything else out", () => {
    expect(sumInBase([], "EUR", book)).toMatchObject({ total: "0", included: 0, complete: true, oldestRateDate: null });
    const t = sumInBase([{ key: 1, amount: "5", currency: "EUR", date: "2024-01-02" }], "CLP", book);
    expect(t).toMatchObject({ total: "0", included: 0, complete: false });
    expect(t.missing[0]?.missing).toEqual(["CLP"]);
  });
});

describe("rounding for display", () => {
  // Rounding (roundMoney) and showing (formatMoney) must agree on a currency's decimals: with two
  // tables, COP 0.495 rounded to ISO's two decimals (0.50) was shown rounded again, as 1 peso.
  test("a rounded amount shows as the unrounded one does, in every currency", () => {
    const wrong: string[] = [];
    for (const currency of CURRENCY_CODES) {
      // Amounts whose ties, at any number of decimals, round the same way half to even (here) and
      // half away from zero (the formatter).
      for (const amount of ["0.495", "1234.5675", "0.0015", "3.5"]) {
        if (formatMoney(roundMoney(amount, currency), currency, "es") !== formatMoney(amount, currency, "es")) wrong.push(`${currency} ${amount}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  test("currencies written without cents round to whole units; ISO's three-decimal ones keep three", () => {
    expect(roundMoney("1234.5", "COP")).toBe("1234");
    expect(roundMoney("1235.5", "HUF")).toBe("1236");
    expect(roundMoney("1.2345", "BHD")).toBe("1.234");
    expect(roundMoney("1.235", "EUR")).toBe("1.24");
  });
});

describe("a typed rate far from the known one", () => {
  test("a misplaced separator (1000 times) is far; a day's move is not", () => {
    const known = new Dec("1.0856");
    expect(farFromPublished("1085", known)).toBeCloseTo(999.45, 1);
    expect(farFromPublished("0.0010856", known)).toBeCloseTo(1000, 5);
    expect(farFromPublished("1.12", known)).toBeUndefined();
    expect(farFromPublished("0.5", known)).toBeUndefined();
    expect(farFromPublished("0.3", known)).toBeCloseTo(3.62, 2);
    expect(farFromPublished("", known)).toBeUndefined();
    expect(farFromPublished("0", known)).toBeUndefined();
  });
});
