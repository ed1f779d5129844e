// Returns against hand-computed cases and a spreadsheet's XIRR. Expected values come from the
// formulas written beside them (worked out by hand or with a 40-digit calculator), and for XIRR
// from Microsoft's documented example of the XIRR worksheet function and closed forms of two-flow
// cases; never from the functions under test.
import { describe, expect, test } from "vitest";
import { Dec } from "./decimal";
import { convertHistory, periodStart, slicePeriod } from "./periods";
import { RateBook } from "./rates";
import { moneyWeightedReturn, simpleReturn, timeWeightedReturn, xirr, type CashFlow } from "./returns";

function near(actual: string, expected: string, tolerance = "1e-9") {
  const diff = new Dec(actual).sub(expected).abs();
  expect(diff.lte(tolerance), `${actual} ≈ ${expected}`).toBe(true);
}

// Bought on 1 Jan for 1000, worth 2100 on 30 Jun right after putting 1000 more in (1100 before),
// worth 1890 on 31 Dec.
const withContribution = {
  valuations: [
    { date: "2023-01-01", value: "1000" },
    { date: "2023-06-30", value: "2100" },
    { date: "2023-12-31", value: "1890" },
  ],
  flows: [
    { date: "2023-01-01", amount: "1000" },
    { date: "2023-06-30", amount: "1000" },
  ],
};

describe("simple return", () => {
  test("gain over money at stake", () => {
    // gain = 1890 − 1000 − 1000 = −110; at stake = 1000 + 1000 → −0.055
    expect(simpleReturn(withContribution)).toMatchObject({ ok: true, value: "-0.055", from: "2023-01-01", to: "2023-12-31", days: 364 });
  });

  test("money taken out counts as gained back", () => {
    // 1000 → 900 after taking 200 out: gain = 900 − 1000 + 200 = 100 → 0.1
    const r = simpleReturn({ valuations: [{ date: "2023-01-01", value: "1000" }, { date: "2023-12-31", value: "900" }], flows: [{ date: "2023-07-01", amount: "-200" }] });
    expect(r).toMatchObject({ ok: true, value: "0.1" });
  });

  test("not available, never 0 %", () => {
    expect(simpleReturn({ valuations: [], flows: [] })).toEqual({ ok: false, reason: "noValuation" });
    expect(simpleReturn({ valuations: [{ date: "2023-01-01", value: "5" }], flows: [] })).toEqual({ ok: false, reason: "noPeriod" });
    expect(simpleReturn({ valuations: [{ date: "2023-01-01", value: "0" }, { date: "2023-02-01", value: "0" }], flows: [] })).toEqual({ ok: false, reason: "noCapital" });
    expect(simpleReturn({ valuations: [{ date: "2023-01-01", value: "5" }, { date: "2023-02-01", value: "6" }], flows: [{ date: "2023-03-01", amount: "1" }] })).toEqual({
      ok: false,
      reason: "flowAfterLastValuation",
    });
    expect(simpleReturn({ valuations: [{ date: "2023-01-01", value: "5,0" }], flows: [] })).toEqual({ ok: false, reason: "invalidInput" });
  });
});

describe("time-weighted return", () => {
  test("chains the sub-periods at the flow: 1.1 × 0.9 − 1", () => {
    // 1000 → 1100 before the contribution (+10 %), 2100 → 1890 after it (−10 %).
    expect(timeWeightedReturn(withContribution)).toMatchObject({ ok: true, value: "-0.01", approximate: false });
  });

  test("a purchase before the first valuation starts from 0", () => {
    // 1000 in on 1 Jan, worth 1050 on 1 Jul: +5 %, exact.
    const r = timeWeightedReturn({ valuations: [{ date: "2024-07-01", value: "1050" }], flows: [{ date: "2024-01-01", amount: "1000" }] });
    expect(r).toMatchObject({ ok: true, value: "0.05", approximate: false, from: "2024-01-01", to: "2024-07-01", days: 182 });
  });

  test("a flow between valuations is weighted by the time it was in (modified Dietz)", () => {
    // 1000 on 1 Jan, +100 on 11 Jan (half of the 20 days), 1210 on 21 Jan:
    // (1210 − 1000 − 100) / (1000 + 100 × 10/20) = 110 / 1050 = 0.104761904761904…
    const r = timeWeightedReturn({
      valuations: [{ date: "2024-01-01", value: "1000" }, { date: "2024-01-21", value: "1210" }],
      flows: [{ date: "2024-01-11", amount: "100" }],
    });
    expect(r).toMatchObject({ ok: true, value: "0.104761904762", approximate: true });
  });

  test("three sub-periods with a withdrawal", () => {
    // 100 → 120 (+20 %); 50 taken out on that day leaves 70 → 63 (−10 %); 63 → 69.3 (+10 %):
    // 1.2 × 0.9 × 1.1 − 1 = 0.188
    const r = timeWeightedReturn({
      valuations: [
        { date: "2022-01-01", value: "100" },
        { date: "2022-04-01", value: "70" },
        { date: "2022-08-01", value: "63" },
        { date: "2022-12-01", value: "69.3" },
      ],
      flows: [{ date: "2022-04-01", amount: "-50" }],
    });
    expect(r).toMatchObject({ ok: true, value: "0.188", approximate: false });
  });

  test("a total loss is −100 %; nothing at stake is not available", () => {
    expect(timeWeightedReturn({ valuations: [{ date: "2024-02-01", value: "0" }], flows: [{ date: "2024-01-01", amount: "1000" }] })).toMatchObject({ ok: true, value: "-1" });
    expect(timeWeightedReturn({ valuations: [{ date: "2024-01-01", value: "0" }, { date: "2024-02-01", value: "0" }], flows: [] })).toEqual({ ok: false, reason: "noCapital" });
    expect(timeWeightedReturn({ valuations: [{ date: "2024-01-01", value: "10" }], flows: [] })).toEqual({ ok: false, reason: "noPeriod" });
  });
});

describe("XIRR", () => {
  test("Microsoft's XIRR example: 0.373362535", () => {
    // support.microsoft.com, "XIRR function": values −10000, 2750, 4250, 3250, 2750 on
    // 1/1/2008, 3/1/2008, 10/30/2008, 2/15/2009, 4/1/2009 → 0.373362535 (37.34 %).
    const flows: CashFlow[] = [
      { date: "2008-01-01", amount: "-10000" },
      { date: "2008-03-01", amount: "2750" },
      { date: "2008-10-30", amount: "4250" },
      { date: "2009-02-15", amount: "3250" },
      { date: "2009-04-01", amount: "2750" },
    ];
    const r = xirr(flows);
    if (!r.ok) throw new Error(r.reason);
    // Excel stops at 0.000001 %: its 9 digits are within 1e-8 of the root, 0.37336253351883…
    near(r.annualRate, "0.373362535", "1e-8");
    near(r.annualRate, "0.37336253351883", "1e-12");
    expect(r).toMatchObject({ days: 456, annualizable: true, multipleRoots: false, totalLoss: false });
  });

  test("one year of 365 days: 10 %", () => {
    const r = xirr([{ date: "2023-01-01", amount: "-1000" }, { date: "2024-01-01", amount: "1100" }]);
    if (!r.ok) throw new Error(r.reason);
    near(r.annualRate, "0.1", "1e-12");
    near(r.periodReturn, "0.1", "1e-12");
  });

  test("a leap year counts 366 days over 365: 1.1^(365/366) − 1", () => {
    const r = xirr([{ date: "2024-01-01", amount: "-1000" }, { date: "2025-01-01", amount: "1100" }]);
    if (!r.ok) throw new Error(r.reason);
    near(r.annualRate, "0.099713585934141241287", "1e-12");
    near(r.periodReturn, "0.1", "1e-12");
  });

  test("a holding of a few days: the period return, the annual rate flagged as meaningless", () => {
    // +1 % in 3 days; a spreadsheet annualises it to 1.01^(365/3) − 1 = 235.56 %.
    const r = xirr([{ date: "2024-03-01", amount: "-1000" }, { date: "2024-03-04", amount: "1010" }]);
    if (!r.ok) throw new Error(r.reason);
    near(r.periodReturn, "0.01", "1e-12");
    near(r.annualRate, "2.35557649459239005", "1e-9");
    expect(r.annualizable).toBe(false);
  });

  test("only losses: −60 % in 10 days is found, not NaN", () => {
    const r = xirr([{ date: "2024-01-01", amount: "-1000" }, { date: "2024-01-11", amount: "400" }]);
    if (!r.ok) throw new Error(r.reason);
    near(r.periodReturn, "-0.6", "1e-12");
    // 0.4^36.5 − 1 = −0.99999999999999703…
    expect(new Dec(r.annualRate).lt("-0.999999")).toBe(true);
    expect(r.totalLoss).toBe(false);
  });

  test("a loss in one day of 60 %: e^(365 ln 0.4) is still bracketed", () => {
    const r = xirr([{ date: "2024-01-01", amount: "-1000" }, { date: "2024-01-02", amount: "400" }]);
    if (!r.ok) throw new Error(r.reason);
    near(r.periodReturn, "-0.6", "1e-12");
  });

  test("nothing back is −100 %, exactly", () => {
    expect(xirr([{ date: "2024-01-01", amount: "-1000" }, { date: "2024-06-01", amount: "0" }])).toMatchObject({
      ok: true,
      annualRate: "-1",
      periodReturn: "-1",
      totalLoss: true,
    });
  });

  test("two rates fit −100, +230, −132: the one nearest 0 (10 %), and it says so", () => {
    // −100 u² + 230 u − 132 = 0 → u = 1.1 or 1.2
    const r = xirr([
      { date: "2021-01-01", amount: "-100" },
      { date: "2022-01-01", amount: "230" },
      { date: "2023-01-01", amount: "-132" },
    ]);
    if (!r.ok) throw new Error(r.reason);
    near(r.annualRate, "0.1", "1e-12");
    expect(r.multipleRoots).toBe(true);
  });

  test("the rate it gives balances the flows (spreadsheet formula Σ cf / (1 + r)^(d/365))", () => {
    // Deterministic pseudo-random investors: monthly contributions of varying size, some
    // withdrawals, a last value between a loss and a gain.
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let run = 0; run < 8; run++) {
      const flows: CashFlow[] = [];
      const months = 3 + Math.floor(next() * 60);
      let invested = 0;
      for (let m = 0; m < months; m++) {
        const amount = Math.round(next() * 100000) / 100;
        const sign = m > 0 && next() < 0.15 ? 1 : -1;
        invested -= sign * amount;
        flows.push({ date: new Date(Date.UTC(2010, m, 1 + Math.floor(next() * 27))).toISOString().slice(0, 10), amount: (sign * amount).toFixed(2) });
      }
      const last = Math.max(0.01, invested * (0.3 + next() * 1.7));
      flows.push({ date: new Date(Date.UTC(2010, months, 15)).toISOString().slice(0, 10), amount: last.toFixed(2) });
      const r = xirr(flows);
      if (!r.ok) throw new Error(`run ${run}: ${r.reason}`);
      const first = flows.map((f) => f.date).sort()[0]!;
      const onePlus = new Dec(1).add(r.annualRate);
      let npv = new Dec(0);
      let scale = new Dec(0);
      for (const f of flows) {
        const years = new Dec((Date.parse(f.date) - Date.parse(first)) / 86_400_000).div(365);
        npv = npv.add(new Dec(f.amount).div(onePlus.pow(years)));
        scale = scale.add(new Dec(f.amount).abs());
      }
      // 12 decimals of the rate: the residual is below 1e-9 of the money moved.
      expect(npv.abs().div(scale).lt("1e-9"), `run ${run}: npv ${npv.toString()} at ${r.annualRate}`).toBe(true);
    }
  });

  test("says why not", () => {
    // −100 + 50/u − 100/u² < 0 for every u: no rate.
    expect(xirr([{ date: "2021-01-01", amount: "-100" }, { date: "2022-01-01", amount: "50" }, { date: "2023-01-01", amount: "-100" }])).toEqual({ ok: false, reason: "noSolution" });
    expect(xirr([{ date: "2021-01-01", amount: "100" }])).toEqual({ ok: false, reason: "noInvestment" });
    expect(xirr([{ date: "2021-01-01", amount: "-100" }, { date: "2021-01-01", amount: "110" }])).toEqual({ ok: false, reason: "noPeriod" });
    expect(xirr([])).toEqual({ ok: false, reason: "noCapital" });
    expect(xirr([{ date: "2021-01-01", amount: "NaN" }])).toEqual({ ok: false, reason: "invalidInput" });
  });
});

describe("money-weighted return", () => {
  test("from the first value, the flows and the last value", () => {
    // Cash flows −1000 (1 Jan), −1000 (30 Jun, day 180), +1890 (31 Dec, day 364); an independent
    // float bisection of Σ cf/(1+r)^(d/365) gives r = −0.0728034309874…
    const r = moneyWeightedReturn(withContribution);
    if (!r.ok) throw new Error(r.reason);
    near(r.annualRate, "-0.07280343098748");
    near(r.periodReturn, "-0.07261139329834");
    expect(r.annualizable).toBe(false);
  });

  test("equals the XIRR of a plain buy and hold", () => {
    const r = moneyWeightedReturn({ valuations: [{ date: "2023-01-01", value: "1000" }, { date: "2024-01-01", value: "1100" }], flows: [] });
    if (!r.ok) throw new Error(r.reason);
    near(r.annualRate, "0.1", "1e-12");
  });

  test("not available without a valuation", () => {
    expect(moneyWeightedReturn({ valuations: [], flows: [{ date: "2023-01-01", amount: "5" }] })).toEqual({ ok: false, reason: "noValuation" });
  });
});

describe("periods and the FX effect", () => {
  test("period starts", () => {
    expect(periodStart("1M", "2024-03-31")).toBe("2024-02-29");
    expect(periodStart("1M", "2024-01-15")).toBe("2023-12-15");
    expect(periodStart("1Y", "2024-02-29")).toBe("2023-02-28");
    expect(periodStart("YTD", "2024-06-10")).toBe("2024-01-01");
    expect(periodStart("all", "2024-06-10")).toBeUndefined();
  });

  test("a period starts at the last valuation on or before its first day", () => {
    const s = slicePeriod(withContribution, "2023-07-15", "2023-12-31");
    expect(s.valuations.map((v) => v.date)).toEqual(["2023-06-30", "2023-12-31"]);
    expect(s.flows).toEqual([]);
    // −10 % over the second half.
    expect(timeWeightedReturn(s)).toMatchObject({ ok: true, value: "-0.1" });
  });

  test("the same holding in its currency and in the base currency", () => {
    // 1000 USD all year; the dollar goes from 1 to 1.25 per euro: 0 % in USD, 1000 → 800 EUR = −20 %.
    const rates = new RateBook([
      { date: "2023-01-02", currency: "USD", perEur: "1", source: "ecb" },
      { date: "2023-12-29", currency: "USD", perEur: "1.25", source: "ecb" },
    ]);
    const history = { valuations: [{ date: "2023-01-02", value: "1000" }, { date: "2023-12-31", value: "1000" }], flows: [] };
    expect(timeWeightedReturn(history)).toMatchObject({ ok: true, value: "0" });
    const inEur = convertHistory(history, "USD", "EUR", rates);
    if (!inEur.ok) throw new Error("missing rate");
    expect(inEur.input.valuations.map((v) => v.value)).toEqual(["1000", "800"]);
    expect(timeWeightedReturn(inEur.input)).toMatchObject({ ok: true, value: "-0.2" });
    expect(convertHistory({ ...history, valuations: [{ date: "2022-12-30", value: "1" }] }, "USD", "EUR", rates)).toEqual({
      ok: false,
      reason: "missingRate",
      missing: [{ currency: "USD", date: "2022-12-30" }],
    });
  });
});
