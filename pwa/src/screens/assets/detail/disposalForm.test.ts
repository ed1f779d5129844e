// The "mark as sold" form's validation: the shared schema's formats and keys, and the form's own
// rules (a sale's amount, not after today, not before the purchase).
import { keyErrorMap } from "@patrimonio/shared-schema";
import { describe, expect, test } from "vitest";
import { decodeMessage } from "../../../forms/schemaForm";
import { disposalFormSchema, disposalFormValues, type DisposalFormValues } from "./disposalForm";

const TODAY = "2025-03-10";

function issuesOf(values: Partial<DisposalFormValues>, purchaseDate?: string) {
  const r = disposalFormSchema(TODAY, purchaseDate).safeParse({ ...disposalFormValues(TODAY), ...values }, { error: keyErrorMap });
  if (r.success) return { ok: true as const, value: r.data };
  return { ok: false as const, issues: r.error.issues.map((i) => [i.path.join("."), decodeMessage(i.message)?.key]) };
}

describe("disposal form", () => {
  test("a sale with its amount and note becomes the record's disposal; empty optional fields are left out", () => {
    expect(issuesOf({ amount: "260000.5", note: "Notaría López" })).toEqual({
      ok: true,
      value: { kind: "sold", date: TODAY, amount: "260000.5", note: "Notaría López" },
    });
    expect(issuesOf({ kind: "gifted", date: "2024-12-24" })).toEqual({ ok: true, value: { kind: "gifted", date: "2024-12-24" } });
  });

  test("a sale needs its amount; a gift or another disposal does not", () => {
    expect(issuesOf({ amount: "" })).toEqual({ ok: false, issues: [["amount", "validation.required"]] });
    expect(issuesOf({ amount: "  " })).toEqual({ ok: false, issues: [["amount", "validation.required"]] });
    expect(issuesOf({ kind: "other", amount: "" }).ok).toBe(true);
  });

  test("a bad amount speaks with the shared schema's key", () => {
    expect(issuesOf({ amount: "-5" })).toEqual({ ok: false, issues: [["amount", "validation.format.money"]] });
    expect(issuesOf({ amount: "1.23456" })).toEqual({ ok: false, issues: [["amount", "validation.format.money"]] });
  });

  test("the date: required, a real day, not after today, not before the purchase", () => {
    expect(issuesOf({ date: "", amount: "1" })).toEqual({ ok: false, issues: [["date", "validation.required"]] });
    // Every field speaks at once: an empty date and a sale without its amount.
    expect(issuesOf({ date: "" })).toEqual({ ok: false, issues: [["date", "validation.required"], ["amount", "validation.required"]] });
    expect(issuesOf({ date: "2025-02-30", amount: "1" })).toEqual({ ok: false, issues: [["date", "validation.format.date"]] });
    expect(issuesOf({ date: "2025-03-11", amount: "1" })).toEqual({ ok: false, issues: [["date", "validation.date.disposalInFuture"]] });
    expect(issuesOf({ date: "2020-04-30", amount: "1" }, "2020-05-01")).toEqual({ ok: false, issues: [["date", "validation.date.disposalBeforePurchase"]] });
    expect(issuesOf({ date: "2020-05-01", amount: "1" }, "2020-05-01").ok).toBe(true);
    expect(issuesOf({ date: TODAY, amount: "1" }).ok).toBe(true);
  });

  test("a note longer than the schema's 500 characters is refused", () => {
    expect(issuesOf({ amount: "1", note: "x".repeat(501) })).toEqual({ ok: false, issues: [["note", "validation.string.max"]] });
  });
});
