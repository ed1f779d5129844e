import { describe, expect, it } from "vitest";
import { issuesToErrors, mergePatch } from "./assetForm";
import { computeNow, prepare } from "../../../figures";
import { FIXTURE_IDS, fixtureInput } from "../../../figures/fixture";
import { daysBetween, debtFigures, ownershipMessage, ownershipSum, sortValuations, valuationAge, valuationPatch } from "./detailModel";

describe("ownershipSum", () => {
  it("is complete at exactly 100, with decimals that binary floats would get wrong", () => {
    expect(ownershipSum("33.33", [{ percentage: "33.33" }, { percentage: "33.34" }])).toEqual({ state: "complete", total: "100" });
    expect(ownershipSum("0.1", [{ percentage: "99.9" }])).toEqual({ state: "complete", total: "100" });
  });

  it("says how many percent are left under 100 (the schema's key and a number param)", () => {
    const sum = ownershipSum("50", [{ percentage: "12.5" }]);
    expect(sum).toEqual({ state: "remaining", total: "62.5", remaining: "37.5" });
    expect(ownershipMessage(sum)).toEqual({ key: "validation.percent.remaining", params: { remaining: 37.5 } });
  });

  it("says the sum exceeds 100", () => {
    const sum = ownershipSum("80", [{ percentage: "20.01" }]);
    expect(sum.state).toBe("exceeds");
    expect(ownershipMessage(sum)).toEqual({ key: "validation.percent.sumExceeds", params: {} });
  });

  it("has no message while a value is being typed", () => {
    expect(ownershipSum("", [])).toEqual({ state: "invalid" });
    expect(ownershipSum("50", [{ percentage: "1,5" }])).toEqual({ state: "invalid" });
    expect(ownershipMessage({ state: "invalid" })).toBeNull();
  });
});

describe("debtFigures", () => {
  const today = "2025-03-10";
  const eur = { currency: "EUR", currentValue: "150000.5", participation: "100" };

  it("adds the debts in the asset's currency exactly and subtracts them from the value of the person's share", () => {
    const f = debtFigures(
      [
        { amountOutstanding: "0.1", currency: "EUR" },
        { amountOutstanding: "0.2", currency: "EUR" },
        { amountOutstanding: "1000", currency: "USD" },
      ],
      eur,
      [],
      today,
    );
    expect(f).toEqual({ total: "0.3", sharePercent: "100", value: "150000.5", debtShare: "0.3", otherCurrencies: [{ currency: "USD", total: "1000" }], notStarted: [], netEquity: "150000.2" });
  });

  it("has no net equity without a current value, and a negative one when debts exceed it", () => {
    expect(debtFigures([{ amountOutstanding: "10", currency: "EUR" }], { ...eur, currentValue: undefined }, [], today).netEquity).toBeUndefined();
    expect(debtFigures([{ amountOutstanding: "120000", currency: "EUR" }], { ...eur, currentValue: "100000" }, [], today).netEquity).toBe("-20000");
  });

  it("counts the debt at the person's share of the asset, as the dashboard does (was: the whole debt)", () => {
    // A house of 400 000 owned at 50 % with a mortgage of 200 000: the dashboard says 100 000.
    const f = debtFigures([{ amountOutstanding: "200000", currency: "EUR" }], { currency: "EUR", currentValue: "400000", participation: "50" }, [], today);
    expect([f.total, f.value, f.debtShare, f.netEquity]).toEqual(["200000", "200000", "100000", "100000"]);
  });

  it("looks through the legal structures and matches the dashboard's figures of the same asset", () => {
    // The fixture's USD portfolio: 108 000 USD held by a structure of 80 % under one of 50 %, with
    // a tied loan of 10 000 USD. The dashboard in USD: value 43 200, debt 4 000.
    const input = fixtureInput("USD");
    const usa = input.assets.find((a) => a.id === FIXTURE_IDS.usa)!;
    const f = debtFigures(input.liabilities.filter((l) => l.assetId === usa.id), usa, input.structures, input.today);
    const dashboard = computeNow(prepare(input)).perAsset[usa.id]!;
    expect([f.sharePercent, f.value, f.debtShare, f.netEquity]).toEqual(["40", dashboard.value, dashboard.debt, "39200"]);
  });

  it("leaves out a debt that starts after today, as the dashboard does, and lists it", () => {
    const f = debtFigures([{ amountOutstanding: "50000", currency: "EUR", startDate: "2025-04-01" }], eur, [], today);
    expect([f.total, f.netEquity, f.notStarted]).toEqual(["0", "150000.5", [{ currency: "EUR", total: "50000" }]]);
  });
});

describe("valuation dates", () => {
  it("counts days across month and year ends", () => {
    expect(daysBetween("2024-12-31", "2025-01-01")).toBe(1);
    expect(daysBetween("2024-02-28", "2024-03-01")).toBe(2);
  });

  it("says how old a valuation is in days, months or years", () => {
    expect(valuationAge("2025-03-10", "2025-03-10")).toEqual({ value: 0, unit: "day" });
    expect(valuationAge("2025-01-10", "2025-04-10")).toEqual({ value: -3, unit: "month" });
    expect(valuationAge("2024-01-10", "2025-04-10")).toEqual({ value: -15, unit: "month" });
    expect(valuationAge("2025-01-31", "2025-02-27")).toEqual({ value: -27, unit: "day" });
    expect(valuationAge("2025-01-31", "2025-03-01")).toEqual({ value: -1, unit: "month" });
    expect(valuationAge("2022-04-10", "2025-04-10")).toEqual({ value: -3, unit: "year" });
  });

  it("sorts the history oldest first and moves the current value only for the newest valuation", () => {
    const rows = [
      { id: "b", fields: { date: "2025-01-01" } },
      { id: "a", fields: { date: "2024-01-01" } },
    ];
    expect(sortValuations(rows).map((r) => r.id)).toEqual(["a", "b"]);
    expect(valuationPatch({ valuationDate: "2025-01-01" }, { date: "2024-06-01", value: "1" })).toBeNull();
    expect(valuationPatch({ valuationDate: "2025-01-01" }, { date: "2025-01-01", value: "1" })).toEqual({ currentValue: "1", valuationDate: "2025-01-01" });
    expect(valuationPatch({}, { date: "2020-01-01", value: "2" })).toEqual({ currentValue: "2", valuationDate: "2020-01-01" });
  });
});

describe("asset patch forms", () => {
  it("applies a patch: values set fields, null removes them", () => {
    expect(mergePatch({ name: "Piso", risk: 3 }, { name: "Casa", risk: null })).toEqual({ name: "Casa" });
  });

  it("puts the issues on the form's fields (nested paths too) and keeps the others apart", () => {
    const { errors, others } = issuesToErrors(
      [
        { path: "participation", key: "validation.percent.remaining", params: { remaining: 10 } },
        { path: "otherOwners.1.name", key: "validation.required", params: {} },
        { path: "valuationDate", key: "validation.date.valuationBeforePurchase", params: {} },
      ],
      ["participation", "otherOwners"],
    );
    expect(errors).toEqual({
      participation: { type: "schema", message: JSON.stringify({ key: "validation.percent.remaining", params: { remaining: 10 } }) },
      otherOwners: { 1: { name: { type: "schema", message: JSON.stringify({ key: "validation.required", params: {} }) } } },
    });
    expect(others.map((i) => i.path)).toEqual(["valuationDate"]);
  });
});
