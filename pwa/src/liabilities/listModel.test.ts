import { describe, expect, test } from "vitest";
import { liabilitiesModel, type DebtLike } from "./listModel";

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
