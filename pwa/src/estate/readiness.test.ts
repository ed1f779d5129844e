import type { SyncedRecord } from "@patrimonio/clientdb";
import { describe, expect, test } from "vitest";
import { Dec, RateBook } from "../money";
import { readinessCount } from "./count";
import { allocationMessage, allocationSums, coverage, hasContact, reviewAllocations, sumWith, wealthShare, type EstateAsset, type EstateBeneficiary } from "./readiness";

const FLAT = "01936f3e-0000-7000-8000-00000000000a";
const CAR = "01936f3e-0000-7000-8000-00000000000b";
const FUND = "01936f3e-0000-7000-8000-00000000000c";

const assets: EstateAsset[] = [
  { id: FLAT, name: "Piso", currency: "EUR", value: "300000", date: "2025-01-15" },
  { id: CAR, name: "Coche", currency: "EUR", value: "20000", date: "2025-01-15" },
  { id: FUND, name: "Fondo", currency: "USD", value: "110000", date: "2025-01-15" },
];

describe("allocation sums and messages", () => {
  test("sums per asset and for the whole estate, exactly (0.1 + 0.2 is 0.3)", () => {
    const sums = allocationSums([
      { allocations: [{ assetId: FLAT, percentage: "0.1" }, { percentage: "50" }] },
      { allocations: [{ assetId: FLAT, percentage: "0.2" }, { percentage: "not a number" }] },
      {},
    ]);
    expect(sums.get(FLAT)?.toFixed()).toBe("0.3");
    expect(sums.get("")?.toFixed()).toBe("50");
    expect(sums.has(CAR)).toBe(false);
  });

  test("the ownership rule's messages: exceeds 100 %, or how much is left", () => {
    expect(allocationMessage(new Dec("100.01"))).toEqual({ key: "validation.percent.sumExceeds", params: {} });
    expect(allocationMessage(new Dec("87.5"))).toEqual({ key: "validation.percent.remaining", params: { remaining: 12.5 } });
    expect(allocationMessage(new Dec("100"))).toBeNull();
  });

  test("a form's live sum replaces the beneficiary's own allocation", () => {
    const list = [
      { id: "a", allocations: [{ assetId: FLAT, percentage: "60" }] },
      { id: "b", allocations: [{ assetId: FLAT, percentage: "30" }] },
    ];
    expect(sumWith(list, "a", FLAT, "75").toFixed()).toBe("105");
    expect(sumWith(list, undefined, FLAT, "5").toFixed()).toBe("95");
    expect(sumWith(list, "b", FLAT, "abc").toFixed()).toBe("60");
  });

  test("coverage: specific allocations first, the estate's share of the rest", () => {
    expect(coverage(new Dec(60), new Dec(50)).toFixed()).toBe("80");
    expect(coverage(new Dec(0), new Dec(100)).toFixed()).toBe("100");
    expect(coverage(new Dec(120), new Dec(0)).toFixed()).toBe("100");
    expect(coverage(new Dec(0), new Dec(0)).toFixed()).toBe("0");
  });

  test("contact data is any of e-mail, phone or address", () => {
    expect(hasContact({})).toBe(false);
    expect(hasContact({ address: "  " })).toBe(false);
    expect(hasContact({ phone: "+34 600 000 000" })).toBe(true);
  });
});

describe("readiness", () => {
  const ana = { id: "a", name: "Ana", email: "ana@example.com", allocations: [{ assetId: FLAT, percentage: "70" }, { assetId: CAR, percentage: "80" }] };
  const luis = { id: "l", name: "Luis", allocations: [{ assetId: FLAT, percentage: "30" }, { assetId: CAR, percentage: "30" }] };

  test("assets with none, over and under 100 %, beneficiaries without contact, and the count", () => {
    const review = reviewAllocations(assets, [ana, luis]);
    expect(review.assets.map((r) => [r.asset.name, r.sum, r.state, r.coverage])).toEqual([
      ["Piso", "100", "full", "100"],
      ["Coche", "110", "over", "100"],
      ["Fondo", "0", "none", "0"],
    ]);
    expect(review.withoutBeneficiaries.map((r) => r.asset.name)).toEqual(["Fondo"]);
    expect(review.over.map((r) => r.asset.name)).toEqual(["Coche"]);
    expect(review.under).toEqual([]);
    expect(review.withoutContact.map((b) => b.name)).toEqual(["Luis"]);
    expect(review.issueCount).toBe(3);

    // A 40 % share of the whole estate: the fund is partly covered now, no longer "without".
    const withEstate = reviewAllocations(assets, [ana, { ...luis, phone: "600 000 000", allocations: [{ assetId: FLAT, percentage: "30" }, { percentage: "40" }] }]);
    expect(withEstate.withoutBeneficiaries).toEqual([]);
    expect(withEstate.under.map((r) => [r.asset.name, r.coverage])).toEqual([
      ["Coche", "88"],
      ["Fondo", "40"],
    ]);
    expect(withEstate.estate).toEqual({ sum: "40", state: "partial" });
    expect(withEstate.issueCount).toBe(2);
  });

  test("the share of wealth with beneficiaries, in the base currency at each value's date", () => {
    // 1 EUR = 1.10 USD: the fund is 100.000 €. Covered: 300.000 + 20.000 (capped at 100 %) + 0.
    const rates = new RateBook([{ date: "2025-01-10", currency: "USD", perEur: "1.10", source: "ecb" }]);
    const share = wealthShare(assets, [ana, luis], "EUR", rates);
    expect(share.total).toBe("420000");
    expect(share.covered).toBe("320000");
    expect(share.sharePercent).toBe("76.19");
    expect(share.missingRates).toEqual([]);

    // Without a USD rate the fund is left out and listed, never counted 1:1.
    const none = wealthShare(assets, [ana, luis], "EUR", new RateBook([]));
    expect(none.total).toBe("320000");
    expect(none.sharePercent).toBe("100");
    expect(none.missingRates.map((m) => m.key)).toEqual([FUND]);

    // Nothing valued: no share at all (not 0 %, not 100 %).
    const unvalued = wealthShare([{ id: FLAT, name: "Piso", currency: "EUR", date: "2025-01-15" }], [], "EUR", rates);
    expect(unvalued).toMatchObject({ sharePercent: null, unvalued: [FLAT] });
  });
});

describe("the sidebar's count", () => {
  test("counts what reviewAllocations counts, in integers", () => {
    const cases: EstateBeneficiary[][] = [
      [],
      [{ id: "a", name: "Ana", allocations: [{ assetId: FLAT, percentage: "70" }, { assetId: CAR, percentage: "80" }] }, { id: "l", name: "Luis", phone: "600000000", allocations: [{ assetId: CAR, percentage: "30.5" }] }],
      [{ id: "a", name: "Ana", email: "a@example.com", allocations: [{ percentage: "100" }, { assetId: FUND, percentage: "20" }] }],
      [{ id: "a", name: "Ana", address: "Calle Mayor 1", allocations: [{ percentage: "60" }] }, { id: "b", name: "Bea", allocations: [{ percentage: "50.01" }, { assetId: FLAT, percentage: "100" }] }],
    ];
    const counts = cases.map((list) => {
      const records = list.map((b) => ({ id: b.id, deleted: false, fields: { relationship: "child", ...b } }) as unknown as Pick<SyncedRecord<"beneficiaries">, "id" | "deleted" | "fields">);
      const count = readinessCount(assets.map((a) => a.id), records);
      expect(count, JSON.stringify(list)).toBe(reviewAllocations(assets, list).issueCount);
      return count;
    });
    expect(counts).toEqual([3, 4, 0, 2]);
  });
});
