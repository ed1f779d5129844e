// Occurrences per frequency (start and end dates, short months), monthly and yearly projections per
// currency, and an asset's yield, with figures counted by hand.
import { describe, expect, test } from "vitest";
import { assetYield, monthlyProjection, nextTwelveMonths, occurrences, totalsBetween, twelveMonthWindow, yearlyProjection, type FlowTerms } from "./projection";

const rent: FlowTerms = { direction: "inflow", amount: "950", currency: "EUR", frequency: "monthly", startDate: "2025-01-31" };

describe("occurrences", () => {
  test("once: on its start date only", () => {
    const f = { frequency: "once" as const, startDate: "2025-06-10" };
    expect(occurrences(f, "2025-06-01", "2025-07-01")).toBe(1);
    expect(occurrences(f, "2025-06-11", "2025-07-01")).toBe(0);
    expect(occurrences(f, "2025-06-01", "2025-06-10")).toBe(0);
  });
  test("daily and weekly count days, the end date included", () => {
    expect(occurrences({ frequency: "daily", startDate: "2025-01-01" }, "2025-02-01", "2025-03-01")).toBe(28);
    expect(occurrences({ frequency: "daily", startDate: "2025-02-10", endDate: "2025-02-12" }, "2025-02-01", "2025-03-01")).toBe(3);
    // Wednesdays of January 2025 from the 1st: 1, 8, 15, 22, 29.
    expect(occurrences({ frequency: "weekly", startDate: "2025-01-01" }, "2025-01-01", "2025-02-01")).toBe(5);
    expect(occurrences({ frequency: "weekly", startDate: "2024-12-25" }, "2025-01-02", "2025-02-01")).toBe(4);
  });
  test("monthly keeps the day from the start, clamped in short months", () => {
    // 31 Jan, 28 Feb, 31 Mar, 30 Apr.
    expect(occurrences(rent, "2025-01-01", "2025-05-01")).toBe(4);
    expect(occurrences(rent, "2025-02-01", "2025-03-01")).toBe(1);
    expect(occurrences(rent, "2024-01-01", "2025-01-31")).toBe(0);
  });
  test("quarterly and annual", () => {
    expect(occurrences({ frequency: "quarterly", startDate: "2024-11-15" }, "2025-01-01", "2026-01-01")).toBe(4); // Feb, May, Aug, Nov
    expect(occurrences({ frequency: "annual", startDate: "2020-03-01" }, "2025-01-01", "2030-01-01")).toBe(5);
    expect(occurrences({ frequency: "annual", startDate: "2020-03-01", endDate: "2026-12-31" }, "2025-01-01", "2030-01-01")).toBe(2);
  });
  test("nothing before the start, after the end, or in an empty window", () => {
    expect(occurrences({ frequency: "monthly", startDate: "2026-01-01" }, "2025-01-01", "2026-01-01")).toBe(0);
    expect(occurrences({ frequency: "monthly", startDate: "2020-01-01", endDate: "2024-12-31" }, "2025-01-01", "2026-01-01")).toBe(0);
    expect(occurrences({ frequency: "daily", startDate: "2020-01-01" }, "2025-01-01", "2025-01-01")).toBe(0);
  });
});

describe("projections", () => {
  const flows: FlowTerms[] = [
    rent,
    { direction: "outflow", amount: "120.50", currency: "EUR", frequency: "quarterly", startDate: "2025-01-15" },
    { direction: "inflow", amount: "3000", currency: "EUR", frequency: "once", startDate: "2025-03-05" },
    { direction: "outflow", amount: "40", currency: "USD", frequency: "monthly", startDate: "2025-01-01", endDate: "2025-02-28" },
  ];

  test("per currency, inflows and outflows apart, net", () => {
    expect(totalsBetween(flows, "2025-01-01", "2025-04-01")).toEqual([
      // 3 rents + the one-off inflow; one quarterly outflow (15 Jan).
      { currency: "EUR", inflow: "5850", outflow: "120.5", net: "5729.5" },
      { currency: "USD", inflow: "0", outflow: "80", net: "-80" },
    ]);
  });

  test("twelve calendar months from the current one", () => {
    const months = monthlyProjection(flows, "2025-02-20");
    expect(months).toHaveLength(12);
    expect(months[0]).toEqual({
      period: "2025-02",
      from: "2025-02-01",
      to: "2025-03-01",
      lines: [
        { currency: "EUR", inflow: "950", outflow: "0", net: "950" },
        { currency: "USD", inflow: "0", outflow: "40", net: "-40" },
      ],
    });
    expect(months[1]!.lines).toEqual([{ currency: "EUR", inflow: "3950", outflow: "0", net: "3950" }]);
    expect(months[11]!.period).toBe("2026-01");
  });

  test("calendar years from the current one", () => {
    const years = yearlyProjection(flows, "2025-02-20", 2);
    expect(years.map((y) => y.period)).toEqual(["2025", "2026"]);
    // 2025: 12 rents + 3000; 4 quarterly outflows. 2026: 12 rents; 4 outflows.
    expect(years[0]!.lines).toEqual([
      { currency: "EUR", inflow: "14400", outflow: "482", net: "13918" },
      { currency: "USD", inflow: "0", outflow: "80", net: "-80" },
    ]);
    expect(years[1]!.lines).toEqual([{ currency: "EUR", inflow: "11400", outflow: "482", net: "10918" }]);
  });

  test("no flows: empty lines", () => {
    expect(monthlyProjection([], "2025-01-01", 1)[0]!.lines).toEqual([]);
    expect(nextTwelveMonths([], "2025-01-01")).toEqual([]);
  });

  test("no binary floats: tenths add up exactly", () => {
    const tenth: FlowTerms = { direction: "inflow", amount: "0.1", currency: "EUR", frequency: "daily", startDate: "2025-01-01" };
    expect(totalsBetween([tenth], "2025-01-01", "2025-01-04")[0]!.inflow).toBe("0.3");
  });
});

describe("assetYield", () => {
  const flat = { currentValue: "240000", currency: "EUR" };
  test("annual net of the periodic flows over the current value", () => {
    const flows: FlowTerms[] = [
      { direction: "inflow", amount: "1000", currency: "EUR", frequency: "monthly", startDate: "2024-01-01" },
      { direction: "outflow", amount: "600", currency: "EUR", frequency: "annual", startDate: "2024-06-01" },
      // A one-off is not income.
      { direction: "inflow", amount: "50000", currency: "EUR", frequency: "once", startDate: "2025-05-01" },
      { direction: "inflow", amount: "10", currency: "USD", frequency: "monthly", startDate: "2024-01-01" },
    ];
    const y = assetYield(flows, flat, "2025-03-01");
    expect(y).toEqual({
      ok: true,
      annualNet: "11400",
      yieldPercent: "4.75",
      otherCurrencies: [{ currency: "USD", inflow: "120", outflow: "0", net: "120" }],
    });
  });
  test("not available without flows in the asset's currency or without a value", () => {
    expect(assetYield([], flat, "2025-03-01")).toEqual({ ok: false, reason: "noFlows", otherCurrencies: [] });
    const f: FlowTerms[] = [{ direction: "inflow", amount: "1", currency: "EUR", frequency: "monthly", startDate: "2025-01-01" }];
    expect(assetYield(f, { currency: "EUR" }, "2025-03-01")).toMatchObject({ ok: false, reason: "noValue" });
    expect(assetYield(f, { currency: "EUR", currentValue: "0" }, "2025-03-01")).toMatchObject({ ok: false, reason: "noValue" });
  });
  test("a negative yield when costs exceed income", () => {
    const f: FlowTerms[] = [{ direction: "outflow", amount: "100", currency: "EUR", frequency: "monthly", startDate: "2025-01-01" }];
    expect(assetYield(f, { currency: "EUR", currentValue: "1000" }, "2025-03-01")).toMatchObject({ ok: true, annualNet: "-1200", yieldPercent: "-120" });
  });
});

describe("the next twelve months on 29 February (audit finding 4)", () => {
  const rent = (day: string): FlowTerms => ({ direction: "inflow", amount: "1000", currency: "EUR", frequency: "monthly", startDate: `2023-01-${day}` });
  const flat = { currentValue: "200000", currency: "EUR" };

  test("a rent due on the 28th counts 12 times on 28 and 29 February and 1 March alike (6 % yield)", () => {
    for (const today of ["2024-02-28", "2024-02-29", "2024-03-01"]) {
      expect(nextTwelveMonths([rent("28")], today), today).toEqual([{ currency: "EUR", inflow: "12000", outflow: "0", net: "12000" }]);
      expect(assetYield([rent("28")], flat, today), today).toMatchObject({ ok: true, annualNet: "12000", yieldPercent: "6" });
    }
  });

  test("a flow due on the 29th to 31st, or on the 1st, is not counted twice nor lost", () => {
    for (const day of ["01", "29", "30", "31"]) {
      expect(nextTwelveMonths([rent(day)], "2024-02-29")[0]?.inflow, day).toBe("12000");
    }
    expect(twelveMonthWindow("2024-02-29")).toEqual({ from: "2024-03-01", to: "2025-03-01" });
    expect(twelveMonthWindow("2025-01-31")).toEqual({ from: "2025-01-31", to: "2026-01-31" });
  });
});
