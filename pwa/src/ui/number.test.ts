import { describe, expect, test } from "vitest";
import { editableDecimal, formatDecimal, parseDecimal, type ParseOptions } from "./number";

const SIGNED: ParseOptions = { allowNegative: true };

describe("parseDecimal: what the reader types", () => {
  test.each([
    // Spanish, as a Spaniard writes it
    ["es", "1.234,56", "1234.56"],
    ["es", "1234,56", "1234.56"],
    ["es", "1.234", "1234"],
    ["es", "1.234.567", "1234567"],
    ["es", "1.234.567,891", "1234567.891"],
    ["es", "0,5", "0.5"],
    ["es", ",5", "0.5"],
    ["es", "5,", "5"],
    ["es", "12,50", "12.50"],
    ["es", "1 234,56", "1234.56"],
    ["es", "1\u00a0234,56", "1234.56"],
    ["es", "1\u202f234,56", "1234.56"],
    ["es", "  42  ", "42"],
    ["es", "+7", "7"],
    // English
    ["en", "1,234.56", "1234.56"],
    ["en", "1234.56", "1234.56"],
    ["en", "1,234", "1234"],
    ["en", "1,234,567", "1234567"],
    ["en", ".5", "0.5"],
    ["en", "1'234.5", "1234.5"],
  ] as const)("%s %j → %j", (language, text, expected) => {
    expect(parseDecimal(text, language)).toEqual({ ok: true, value: expected });
  });
});

describe("parseDecimal: pasting the other language's format", () => {
  test.each([
    ["es", "1,234.56", "1234.56"], // both separators: the last one is the decimal separator
    ["en", "1.234,56", "1234.56"],
    ["es", "1,234,567.5", "1234567.5"],
    ["en", "1.234.567,5", "1234567.5"],
    ["es", "1234.5", "1234.5"], // one dot not followed by a group of 3: a decimal point
    ["es", "1.5", "1.5"],
    ["es", "0.250", "0.250"], // a lone 0 never starts a group
    ["es", "12.3456", "12.3456"],
    ["en", "1,5", "1.5"],
    ["en", "1234,5", "1234.5"],
    ["es", "1,234", "1.234"], // one reader's decimal separator is always decimal
    ["en", "1.234", "1.234"],
  ] as const)("%s %j → %j", (language, text, expected) => {
    expect(parseDecimal(text, language)).toEqual({ ok: true, value: expected });
  });
});

describe("parseDecimal: signs, zeros, empty", () => {
  test.each([
    ["-1.234,5", "es", SIGNED, "-1234.5"],
    ["−12,5", "es", SIGNED, "-12.5"], // U+2212 minus sign
    ["- 12", "es", SIGNED, "-12"],
    ["007", "es", {}, "7"],
    ["000,50", "es", {}, "0.50"],
    ["0", "en", {}, "0"],
    ["-0", "es", {}, "0"], // never "-0", and not refused as negative
    ["-0,00", "es", {}, "0.00"],
    ["", "es", {}, ""],
    ["   ", "en", {}, ""],
    ["12345678901234567890,123456789", "es", {}, "12345678901234567890.123456789"], // exact, no float
  ] as const)("%j (%s, %j) → %j", (text, language, options, expected) => {
    expect(parseDecimal(text, language, options)).toEqual({ ok: true, value: expected });
  });

  test("negative numbers are refused unless allowed", () => {
    expect(parseDecimal("-5", "es")).toEqual({ ok: false, error: { key: "ui.number.negative" } });
    expect(parseDecimal("-5", "es", { allowNegative: true })).toEqual({ ok: true, value: "-5" });
  });
});

describe("parseDecimal: limits", () => {
  test("too many decimals is an error naming the limit; never rounded", () => {
    expect(parseDecimal("1,234", "es", { maxDecimals: 2 })).toEqual({
      ok: false,
      error: { key: "ui.number.tooManyDecimals", params: { count: 2 } },
    });
    expect(parseDecimal("0.125", "en", { maxDecimals: 2 })).toEqual({
      ok: false,
      error: { key: "ui.number.tooManyDecimals", params: { count: 2 } },
    });
  });

  test("trailing zeros past the limit change nothing and are dropped", () => {
    expect(parseDecimal("12,500", "es", { maxDecimals: 2 })).toEqual({ ok: true, value: "12.50" });
    expect(parseDecimal("3.000", "en", { maxDecimals: 0 })).toEqual({ ok: true, value: "3" });
  });

  test("with no decimals allowed, a fraction asks for a whole number", () => {
    expect(parseDecimal("3,5", "es", { maxDecimals: 0 })).toEqual({ ok: false, error: { key: "ui.number.integerOnly" } });
    // "3.500" in Spanish is three thousand five hundred, a whole number.
    expect(parseDecimal("3.500", "es", { maxDecimals: 0 })).toEqual({ ok: true, value: "3500" });
  });

  test("too many integer digits", () => {
    expect(parseDecimal("1.000.000", "es", { maxIntegerDigits: 6 })).toEqual({ ok: false, error: { key: "ui.number.tooLong" } });
    expect(parseDecimal("999.999", "es", { maxIntegerDigits: 6 })).toEqual({ ok: true, value: "999999" });
    expect(parseDecimal("0000001", "es", { maxIntegerDigits: 1 })).toEqual({ ok: true, value: "1" });
  });
});

describe("parseDecimal: garbage", () => {
  test.each([
    "abc",
    "12abc",
    "1e5",
    "1E-3",
    "Infinity",
    "NaN",
    "0x1F",
    "--5",
    "+-5",
    "5-",
    "-",
    "+",
    ",",
    ".",
    ",,",
    "1,,2",
    "1..2",
    "1.23.456", // a group of two
    "12.34.567,8",
    "1.2345.678",
    "1,234.567,8", // two decimal commas after the point
    "1.234,567.8",
    "€12",
    "12 %",
    "(12)",
    "1/2",
  ])("%j → ui.number.invalid", (text) => {
    expect(parseDecimal(text, "es")).toEqual({ ok: false, error: { key: "ui.number.invalid" } });
    expect(parseDecimal(text, "en", { allowNegative: true })).toEqual({ ok: false, error: { key: "ui.number.invalid" } });
  });
});

describe("parseDecimal: a money field takes its currency's symbol or code around the number", () => {
  test.each([
    // The app's own display (formatMoney) and what people copy from a bank or a web page.
    ["es", "EUR", "1.234,56\u00a0€", "1234.56"],
    ["es", "EUR", "1.234,56 €", "1234.56"],
    ["es", "EUR", "€ 1.234,56", "1234.56"],
    ["es", "EUR", "€1.234,56", "1234.56"],
    ["es", "EUR", " 1.234,56 EUR ", "1234.56"],
    ["es", "EUR", "1.234,56 eur", "1234.56"],
    ["es", "USD", "1.234,56\u00a0US$", "1234.56"],
    ["es", "CLP", "1.234\u00a0CLP", "1234"],
    ["en", "USD", "$1,234.56", "1234.56"],
    ["en", "USD", "US$1,234.56", "1234.56"],
    ["en", "USD", "1,234.56 USD", "1234.56"],
    ["en", "EUR", "€1,234.56", "1234.56"],
    ["en", "GBP", "£ 1,234.56", "1234.56"],
  ] as const)("%s, a %s field: %j → %j", (language, currency, text, expected) => {
    expect(parseDecimal(text, language, { currency })).toEqual({ ok: true, value: expected });
  });

  test("the sign goes before the symbol or before the number", () => {
    expect(parseDecimal("-$1,234.56", "en", { currency: "USD", allowNegative: true })).toEqual({ ok: true, value: "-1234.56" });
    expect(parseDecimal("-1.234,56 €", "es", { currency: "EUR", allowNegative: true })).toEqual({ ok: true, value: "-1234.56" });
    expect(parseDecimal("-1.234,56 €", "es", { currency: "EUR" })).toEqual({ ok: false, error: { key: "ui.number.negative" } });
  });

  test("another currency's symbol, two symbols, or a symbol in a field that is not money is refused", () => {
    const invalid = { ok: false, error: { key: "ui.number.invalid" } };
    expect(parseDecimal("$1,234.56", "en", { currency: "EUR" })).toEqual(invalid); // never a dollar amount read as euros
    expect(parseDecimal("1.234,56 USD", "es", { currency: "EUR" })).toEqual(invalid);
    expect(parseDecimal("€ 5 €", "es", { currency: "EUR" })).toEqual(invalid);
    expect(parseDecimal("5 €€", "es", { currency: "EUR" })).toEqual(invalid);
    expect(parseDecimal("€", "es", { currency: "EUR" })).toEqual(invalid);
    expect(parseDecimal("1.234,56 €", "es")).toEqual(invalid);
  });
});

describe("formatDecimal and editableDecimal", () => {
  test.each([
    ["1234.56", "es", 0, "1.234,56"], // Spanish groups from four digits, like the app's formatters
    ["12345.5", "es", 0, "12.345,5"],
    ["1234567.891", "es", 0, "1.234.567,891"],
    ["1234.56", "en", 0, "1,234.56"],
    ["12.50", "es", 0, "12,50"],
    ["12.5", "en", 2, "12.50"],
    ["-1234.5", "en", 0, "-1,234.5"],
    ["12345678901234567890.123456789", "en", 0, "12,345,678,901,234,567,890.123456789"],
    ["", "es", 0, ""],
  ] as const)("%j in %s (min %d decimals) shows %j", (value, language, min, shown) => {
    expect(formatDecimal(value, language, min)).toBe(shown);
  });

  test("what is shown reads back as the same value, in both languages", () => {
    for (const value of ["0", "0.5", "12.50", "1234.56", "98765432.1", "-4321.987"]) {
      for (const language of ["es", "en"] as const) {
        expect(parseDecimal(formatDecimal(value, language), language, SIGNED)).toEqual({ ok: true, value });
        expect(parseDecimal(editableDecimal(value, language), language, SIGNED)).toEqual({ ok: true, value });
      }
    }
  });

  test("the text to edit has no grouping and the reader's decimal separator", () => {
    expect(editableDecimal("1234567.5", "es")).toBe("1234567,5");
    expect(editableDecimal("1234567.5", "en")).toBe("1234567.5");
    expect(editableDecimal("", "en")).toBe("");
  });
});
