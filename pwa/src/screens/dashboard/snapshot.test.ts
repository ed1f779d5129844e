// The last figures kept for the next visit: read back as written for the same workspace, long lists
// cut, nothing for another workspace or an unknown format.
import { afterEach, describe, expect, it } from "vitest";
import { computeNow, prepare } from "../../figures";
import { fixtureInput } from "../../figures/fixture";
import { readSnapshot, writeSnapshot } from "./snapshot";

afterEach(() => localStorage.clear());

describe("the dashboard's last figures", () => {
  it("round-trips today's figures per workspace", () => {
    const now = computeNow(prepare(fixtureInput()));
    writeSnapshot("ws-1", { base: "EUR", today: "2025-03-10", savedAt: 1, now });
    const back = readSnapshot("ws-1");
    expect(back?.now.netWorth.total).toBe(now.netWorth.total);
    expect(back?.now.distribution.country).toEqual(now.distribution.country);
    expect(readSnapshot("ws-2")).toBeUndefined();
    localStorage.setItem("patrimonio.dashboardFigures.ws-3", JSON.stringify({ v: 99, base: "EUR", now }));
    expect(readSnapshot("ws-3")).toBeUndefined();
  });

  it("cuts long lists (the fresh figures bring them whole)", () => {
    const now = computeNow(prepare(fixtureInput()));
    const many = Array.from({ length: 500 }, (_, i) => ({ id: `a${i}`, name: `Activo ${i}` }));
    writeSnapshot("ws-1", { base: "EUR", today: "2025-03-10", savedAt: 1, now: { ...now, netWorth: { ...now.netWorth, noValue: many }, perAsset: Object.fromEntries(many.map((a) => [a.id, { value: "1", debt: "0" }])) } });
    const back = readSnapshot("ws-1")!;
    expect(back.now.netWorth.noValue).toHaveLength(200);
    expect(back.now.perAsset).toEqual({});
  });
});
