import { describe, expect, test } from "vitest";
import { formatDate, formatMoney, formatNumber, formatPercent, shiftDecimalLeft } from "./format";

// Intl separates amount and currency, and "%" in Spanish, with a no-break space.
const NBSP = "\u00a0";

describe("formatMoney", () => {
  test.each([
    ["a euro amount in Spanish puts the symbol after, with a decimal comma and grouped thousands", "1234.5", "EUR", "es", `1.234,50${NBSP}€`],
    ["Spanish groups four digits too (CLDR's es-ES would not: 1234,56 US$)", "1234.56", "USD", "es", `1.234,56${NBSP}US$`],
    ["Spanish groups larger amounts with dots", "1234567.891", "EUR", "es", `1.234.567,89${NBSP}€`],
    ["three digits have nothing to group", "999.5", "EUR", "es", `999,50${NBSP}€`],
    ["a euro amount in English puts the symbol first, with a decimal point", "1234.5", "EUR", "en", "€1,234.50"],
    ["a negative dollar amount in English keeps its sign", "-42", "USD", "en", "-US$42.00"],
    ["a negative dollar amount in Spanish keeps its sign", "-42", "USD", "es", `-42,00${NBSP}US$`],
    ["yen have no minor units", "1234.5", "JPY", "en", "JP¥1,235"],
  ] as const)("%s", (_name, amount, currency, language, expected) => {
    expect(formatMoney(amount, currency, language)).toBe(expected);
  });

  test("formats the decimal string exactly, digits a binary float would lose", () => {
    // As a double, 12345678901234567.89 is 12345678901234568.
    expect(formatMoney("12345678901234567.89", "EUR", "es")).toBe(`12.345.678.901.234.567,89${NBSP}€`);
    expect(formatMoney("9007199254740993", "USD", "en")).toBe("US$9,007,199,254,740,993.00");
  });

  test.each(["1e3", "1,5", "", "abc", "12.", ".5", "1 000"])("rejects %j, which is not a decimal string", (amount) => {
    expect(() => formatMoney(amount, "EUR", "es")).toThrow(RangeError);
  });

  test.each(["eur", "EURO", "E1R", ""])("rejects the currency code %j", (currency) => {
    expect(() => formatMoney("1", currency, "es")).toThrow(RangeError);
  });
});

describe("formatNumber", () => {
  test.each([
    ["Spanish uses dot grouping and a decimal comma", 1234567.891, "es", "1.234.567,891"],
    ["English uses comma grouping and a decimal point", 1234567.891, "en", "1,234,567.891"],
    [
      "a decimal string keeps every digit, beyond a float's precision",
      "123456789012345678901234567890",
      "en",
      "123,456,789,012,345,678,901,234,567,890",
    ],
  ] as const)("%s", (_name, value, language, expected) => {
    expect(formatNumber(value, language)).toBe(expected);
  });

  test("passes Intl options through", () => {
    expect(formatNumber("2.5", "es", { minimumFractionDigits: 2 })).toBe("2,50");
  });

  test("Spanish groups from four digits unless the caller chose a grouping", () => {
    expect(formatNumber(1234, "es")).toBe("1.234");
    expect(formatNumber("-1234.5", "es")).toBe("-1.234,5");
    expect(formatNumber(1234, "en")).toBe("1,234");
    expect(formatNumber(1234, "es", { useGrouping: false })).toBe("1234");
    expect(formatNumber(12345, "es", { useGrouping: "min2" })).toBe("12.345");
    expect(formatNumber(1234, "es", { useGrouping: "min2" })).toBe("1234");
  });
});

describe("shiftDecimalLeft", () => {
  test.each([
    ["12.5", 2, "0.125"],
    ["5", 2, "0.05"],
    ["-1234", 2, "-12.34"],
    ["+7.25", 1, "0.725"],
    ["100", 2, "1.00"],
  ] as const)("moves the point of %s %d places left: %s", (value, places, expected) => {
    expect(shiftDecimalLeft(value, places)).toBe(expected);
  });
});

describe("formatPercent", () => {
  test.each([
    ["percentage points as a decimal string, in Spanish", "12.5", "es", `12,5${NBSP}%`],
    ["percentage points as a decimal string, in English", "12.5", "en", "12.5%"],
    ["a number of points, rounded to two decimals", 33.3333, "es", `33,33${NBSP}%`],
    ["a whole hundred", "100", "en", "100%"],
  ] as const)("%s", (_name, points, language, expected) => {
    expect(formatPercent(points, language)).toBe(expected);
  });
});

describe("formatDate", () => {
  test.each([
    ["a calendar date in Spanish", "es", "10 mar 2025"],
    ["a calendar date in English, day first", "en", "10 Mar 2025"],
  ] as const)("%s", (_name, language, expected) => {
    expect(formatDate("2025-03-10", language)).toBe(expected);
  });

  test("a calendar date stays the same day in any time zone", () => {
    // Midnight UTC is still the 9th in Honolulu; a stored calendar date must not move.
    expect(formatDate("2025-03-10", "es", { dateStyle: "long", timeZone: "Pacific/Honolulu" })).toBe("10 de marzo de 2025");
  });

  test("a timestamp is shown in the requested time zone", () => {
    const options = { dateStyle: "short", timeStyle: "short", timeZone: "Europe/Madrid" } as const;
    expect(formatDate("2025-03-10T23:30:00Z", "es", options)).toBe("11/3/25, 0:30");
    expect(formatDate(new Date("2025-03-10T23:30:00Z"), "en", options)).toBe("11/03/2025, 00:30");
  });

  test.each(["not a date", "2025-13-45"])("rejects %j", (value) => {
    expect(() => formatDate(value, "es")).toThrow(RangeError);
  });
});
