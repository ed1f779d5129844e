import { describe, expect, test } from "vitest";
import { localToday } from "../time/localToday";
import { amountAsOfOf, liabilitiesModel, type DebtLike } from "./listModel";

const collator = new Intl.Collator("es-ES");
const debt = (id: string, fields: Partial<DebtLike["fields"]>): DebtLike => ({
  id,
  fields: { name: id, kind: "loan", amountOutstanding: "100", currency: "EUR", ...fields },
});

describe("liabilitiesModel", () => {
  test("groups by kind in the schema's order, totals per currency, monthly payments of debts with a plan", () => {
    const model = liabilitiesModel(
      [
        debt("Coche", { kind: "loan", amountOutstanding: "12000", rate: "0", endDate: "2026-03-01" }),
        debt("Visa", { kind: "credit_card", amountOutstanding: "850.40" }),
        debt("Hipoteca", { kind: "mortgage", amountOutstanding: "200000", rate: "3", endDate: "2055-03-01" }),
        debt("Amex", { kind: "credit_card", amountOutstanding: "99.60", currency: "USD" }),
        debt("Bici", { kind: "loan", amountOutstanding: "0.1" }),
      ],
      "2025-03-01",
      collator,
    );
    expect(model.groups.map((g) => g.kind)).toEqual(["mortgage", "loan", "credit_card"]);
    expect(model.groups[1]!.rows.map((r) => r.record.id)).toEqual(["Bici", "Coche"]);
    expect(model.groups[1]!.totals).toEqual([{ currency: "EUR", amount: "12000.1" }]);
    expect(model.groups[1]!.monthly).toEqual([{ currency: "EUR", amount: "1000" }]);
    expect(model.groups[2]!.totals).toEqual([
      { currency: "EUR", amount: "850.4" },
      { currency: "USD", amount: "99.6" },
    ]);
    expect(model.groups[2]!.monthly).toEqual([]);
    expect(model.totals).toEqual([
      { currency: "EUR", amount: "212850.5" },
      { currency: "USD", amount: "99.6" },
    ]);
    expect(model.monthly).toEqual([{ currency: "EUR", amount: "1843.21" }]);
    expect(model.byId.get("Visa")!.plan).toEqual({ ok: false, reason: "noRate" });
  });

  test("a currency without minor units is rounded to whole units", () => {
    const model = liabilitiesModel([debt("Yen", { currency: "JPY", amountOutstanding: "1000000", rate: "5", endDate: "2026-03-01" })], "2025-03-01", collator);
    expect(model.monthly).toEqual([{ currency: "JPY", amount: "85607" }]);
  });
});

describe("what is owed today (audit findings 1 and 3)", () => {
  test("the amount typed rolls forward from its date, in the rows, the group totals and the totals", () => {
    const mortgage = debt("Hipoteca", { kind: "mortgage", amountOutstanding: "100000", rate: "3", endDate: "2055-01-15", amountAsOf: "2025-01-15" });
    const model = liabilitiesModel([mortgage, debt("Visa", { kind: "credit_card", amountOutstanding: "500", amountAsOf: "2025-01-15" })], "2026-01-15", collator);
    const row = model.byId.get("Hipoteca")!;
    expect(row.outstanding).toBe("97912.24");
    expect(row.plan.ok && [row.plan.payment, row.plan.principal]).toEqual(["421.6", "97912.24"]);
    expect(model.groups[0]!.totals).toEqual([{ currency: "EUR", amount: "97912.24" }]);
    expect(model.totals).toEqual([{ currency: "EUR", amount: "98412.24" }]);
    expect(model.monthly).toEqual([{ currency: "EUR", amount: "421.6" }]);
  });

  test("a debt saved without amountAsOf dates its amount by the amount's stamp (its UTC wall time, on the local calendar)", () => {
    const old: DebtLike = {
      ...debt("Hipoteca", { kind: "mortgage", amountOutstanding: "100000", rate: "3", endDate: "2055-01-15" }),
      clocks: { amountOutstanding: "2025-01-15T12:00:00.000Z-0000-0123456789abcdef" },
    };
    expect(amountAsOfOf(old)).toBe(localToday(new Date("2025-01-15T12:00:00.000Z")));
    expect(amountAsOfOf({ ...old, fields: { ...old.fields, amountAsOf: "2024-12-01" } })).toBe("2024-12-01");
    expect(amountAsOfOf({ ...old, clocks: {} })).toBeUndefined();
    expect(liabilitiesModel([old], "2026-01-15", collator).totals).toEqual([{ currency: "EUR", amount: "97912.24" }]);
    // No date and no stamp: the amount is today's.
    expect(liabilitiesModel([{ ...old, clocks: undefined }], "2026-01-15", collator).totals).toEqual([{ currency: "EUR", amount: "100000" }]);
  });

  test("a debt that starts after today is listed, but apart from the totals and the monthly payments", () => {
    const model = liabilitiesModel(
      [
        debt("Hipoteca", { kind: "mortgage", amountOutstanding: "150000" }),
        debt("Reforma", { kind: "loan", amountOutstanding: "30000", rate: "5", startDate: "2026-03-01", endDate: "2031-03-01" }),
      ],
      "2025-06-10",
      collator,
    );
    expect(model.totals).toEqual([{ currency: "EUR", amount: "150000" }]);
    expect(model.monthly).toEqual([]);
    expect(model.notStarted).toEqual({ totals: [{ currency: "EUR", amount: "30000" }], count: 1 });
    const loan = model.groups.find((g) => g.kind === "loan")!;
    expect(loan.rows.map((r) => [r.record.id, r.notStarted])).toEqual([["Reforma", true]]);
    expect(loan.totals).toEqual([]);
    expect(loan.monthly).toEqual([]);
    // Its plan is still shown (from its start date).
    expect(model.byId.get("Reforma")!.plan.ok).toBe(true);
  });
});
