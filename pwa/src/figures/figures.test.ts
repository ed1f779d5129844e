import { describe, expect, it } from "vitest";
import { fixed, Dec } from "../money";
import { FIXTURE_IDS, fixtureInput } from "./fixture";
import { computeHistory, computeNow, groupHistory, netWorthOn, prepare, seriesDates, type FiguresInput, type ReturnFigure } from "./index";

const r2 = (s: string) => fixed(new Dec(s), 2);
const val = (f: ReturnFigure) => (f.ok ? fixed(new Dec(f.value), 6) : `n/a:${f.reason}`);

describe("net worth (hand-computed fixture, see fixture.ts)", () => {
  const now = computeNow(prepare(fixtureInput()));

  it("adds the look-through values, subtracts the debts at the asset's share, converts at today's rate", () => {
    expect(now.netWorth.total.startsWith("238796.296296")).toBe(true);
    expect(r2(now.netWorth.total)).toBe("238796.30");
    expect(now.netWorth.assets).toBe("342500");
    expect(r2(now.netWorth.liabilities)).toBe("103703.70");
    expect(now.netWorth.assetsCounted).toBe(3);
    expect(now.netWorth.liabilitiesCounted).toBe(2);
    expect(now.netWorth.oldestRateDate).toBe("2025-03-07");
  });

  it("leaves the CLP asset out (no rate: never 1:1) and lists it", () => {
    expect(now.netWorth.missing).toEqual([
      { kind: "asset", id: FIXTURE_IDS.chile, name: "Local en Santiago", amount: "50000000", currency: "CLP", date: "2025-03-01", missing: ["CLP"] },
    ]);
  });

  it("a manual rate fills the gap", () => {
    const input = fixtureInput();
    input.manualRates = [{ date: "2025-01-01", currency: "CLP", perEur: "1000", source: "manual" }];
    const n = computeNow(prepare(input));
    expect(n.netWorth.missing).toEqual([]);
    expect(r2(n.netWorth.total)).toBe("288796.30"); // + 50 000 000 / 1000
  });

  it("in another base currency (USD), through EUR", () => {
    const n = computeNow(prepare(fixtureInput("USD")));
    // Everything at today's rate (1.08, of 2025-03-07): flat 300000 EUR × 1.08 = 324000; usa 43200
    // USD as is; watch 2500 EUR × 1.08 = 2700; debts: 100000 × 1.08 + 4000 USD
    expect(r2(n.netWorth.total)).toBe(r2(String(324000 + 43200 + 2700 - 108000 - 4000)));
  });

  it("converts today's values at today's rate, so a USD asset and an equal USD debt cancel", () => {
    // Valued in 2022 (0.9748 USD per EUR then), today's rate 1.1512. Before: +1 571.93 €.
    const input: FiguresInput = {
      base: "EUR",
      today: "2025-06-16",
      assets: [{ id: "a", name: "Efectivo USD", assetClass: "bank_accounts", classId: 4, category: "cash", currency: "USD", participation: "100", currentValue: "10000", valuationDate: "2022-09-30" }],
      structures: [],
      valuations: [],
      liabilities: [{ id: "l", name: "Préstamo USD", amountOutstanding: "10000", currency: "USD", assetId: "a" }],
      rates: [
        { date: "2022-09-30", currency: "USD", perEur: "0.9748", source: "ecb" },
        { date: "2025-06-13", currency: "USD", perEur: "1.1512", source: "ecb" },
      ],
      manualRates: [],
    };
    const p = prepare(input);
    const n = computeNow(p);
    expect(n.netWorth.total).toBe("0");
    expect(n.netWorth.oldestRateDate).toBe("2025-06-13");
    // The chart: each point at its own date's rate, today's point equal to the headline.
    const h = computeHistory(p);
    expect(h.series[h.series.length - 1]!.total).toBe("0");
    input.liabilities = [];
    const series = computeHistory(prepare(input)).series;
    expect(r2(series.find((x) => x.date === "2024-06-30")!.total)).toBe(r2(new Dec(10000).div("0.9748").toString())); // no rate since 2022
    expect(r2(series[series.length - 1]!.total)).toBe(r2(new Dec(10000).div("1.1512").toString()));
  });

  it("distribution by class and diversification by country, structure, liquidity", () => {
    const cls = now.distribution.class.map((s) => [s.key, s.value, s.count, s.missing]);
    expect(cls).toEqual([
      ["3", "40000", 1, 0],
      ["1", "300000", 2, 1],
      ["6", "2500", 1, 0],
    ].sort((a, b) => Number(b[1]) - Number(a[1])));
    const real = now.distribution.class.find((s) => s.key === "1")!;
    expect(fixed(new Dec(real.share!), 6)).toBe(fixed(new Dec(300000).div(342500), 6));
    expect(real.net).toBe("200000");
    const country = Object.fromEntries(now.distribution.country.map((s) => [s.key, [s.value, r2(s.net), s.missing]]));
    expect(country).toEqual({ ES: ["300000", "200000.00", 0], US: ["40000", "36296.30", 0], none: ["2500", "2500.00", 0], CL: ["0", "0.00", 1] });
    expect(now.distribution.structure.map((s) => [s.key, s.name])).toEqual([
      ["direct", undefined],
      [FIXTURE_IDS.sub, "Filial Inversiones"],
    ]);
    expect(now.distribution.liquidity.find((s) => s.key === "unknown")?.count).toBe(2);
    expect(now.distribution.institution.find((s) => s.key === "Broker X")?.value).toBe("40000");
  });

  it("a group worth less than nothing has no share: the others' shares add up to 100 %", () => {
    const input: FiguresInput = {
      ...fixtureInput(),
      assets: [
        { id: "a", name: "Piso", assetClass: "real_estate", classId: 1, category: "residential", currency: "EUR", currentValue: "1000", valuationDate: "2025-01-01" },
        { id: "b", name: "Fondo", assetClass: "investments", classId: 3, category: "equity", currency: "EUR", currentValue: "3000", valuationDate: "2025-01-01" },
        { id: "c", name: "Cuenta en descubierto", assetClass: "bank_accounts", classId: 4, category: "current_account", currency: "EUR", currentValue: "-500", valuationDate: "2025-01-01" },
      ],
      valuations: [],
      liabilities: [],
    };
    const n = computeNow(prepare(input));
    expect(n.netWorth.total).toBe("3500");
    expect(n.distribution.class.map((s) => [s.key, s.value, s.share])).toEqual([
      ["3", "3000", "0.75"],
      ["1", "1000", "0.25"],
      ["4", "-500", undefined],
    ]);
  });

  it("a debt that starts after today is not counted yet, in the headline as in the chart", () => {
    const input: FiguresInput = {
      ...fixtureInput(),
      liabilities: [{ id: "01900000-0000-7000-8000-0000000000d3", name: "Hipoteca futura", amountOutstanding: "50000", currency: "EUR", startDate: "2025-04-01" }],
    };
    const p = prepare(input);
    const n = computeNow(p);
    expect(n.netWorth.liabilities).toBe("0");
    expect(n.netWorth.liabilitiesCounted).toBe(0);
    expect(n.untiedLiabilities.count).toBe(0);
    const series = computeHistory(p).series;
    expect(n.netWorth.total).toBe(series[series.length - 1]!.total);
    // From its start date on, it counts.
    const later = computeNow(prepare({ ...input, today: "2025-04-01" }));
    expect(later.netWorth.liabilities).toBe("50000");
  });

  it("an empty workspace is 0 with nothing missing; no rates at all is reported", () => {
    const input: FiguresInput = { ...fixtureInput(), assets: [], valuations: [], liabilities: [], rates: [] };
    const n = computeNow(prepare(input));
    expect(n.netWorth.total).toBe("0");
    expect(n.hasRates).toBe(false);
  });

  it("a loop of structures (two offline edits) counts each structure once", () => {
    const input = fixtureInput();
    input.structures = input.structures.map((s) => (s.id === FIXTURE_IDS.holding ? { ...s, parentStructureId: FIXTURE_IDS.sub } : s));
    const n = computeNow(prepare(input));
    expect(n.perAsset[FIXTURE_IDS.usa]?.value).toBe("40000");
  });
});

describe("history, change and returns", () => {
  const h = computeHistory(prepare(fixtureInput()));

  it("changes over one month and one year", () => {
    const m = h.change["1M"];
    expect(m.ok && m.from).toBe("2025-02-10");
    expect(m.ok && r2(m.previous)).toBe("228653.85");
    expect(m.ok && r2(m.change)).toBe("10142.45");
    expect(m.ok && fixed(new Dec(m.percent!), 6)).toBe("0.044357");
    expect(m.ok && m.incomplete).toBe(true); // the CLP land is missing now
    const y = h.change["1Y"];
    expect(y.ok && r2(y.previous)).toBe("213027.52");
    expect(y.ok && r2(y.change)).toBe("25768.77");
  });

  it("no value a month ago: not available, never 0", () => {
    const input = fixtureInput();
    input.valuations = [];
    input.assets = input.assets.map((a) => ({ ...a, valuationDate: "2025-03-09" }));
    const c = computeHistory(prepare(input)).change["1M"];
    expect(c).toEqual({ ok: false, reason: "noHistory" });
  });

  it("series: 12 month ends and today", () => {
    expect(seriesDates("2025-03-10")).toEqual([
      "2024-03-31", "2024-04-30", "2024-05-31", "2024-06-30", "2024-07-31", "2024-08-31", "2024-09-30", "2024-10-31", "2024-11-30", "2024-12-31", "2025-01-31", "2025-02-28", "2025-03-10",
    ]);
    expect(r2(h.series[h.series.length - 1]!.total)).toBe("238796.30");
  });

  it("asset returns: the FX effect separated (USD portfolio, 1M)", () => {
    const usa = h.returns.find((r) => r.kind === "asset" && r.id === FIXTURE_IDS.usa)!;
    expect(usa.currency).toBe("USD");
    expect(val(usa.periods["1M"].local.twr)).toBe("0.038462"); // 108000 / 104000 − 1
    expect(val(usa.periods["1M"].base.twr)).toBe("0.000000"); // 40000 € → 40000 €
    expect(val(usa.periods["1M"].fx)).toBe("-0.038462");
    expect(val(usa.periods["1M"].local.simple)).toBe("0.038462");
  });

  it("asset returns 1Y of the flat (EUR): 300000 / 280000 − 1", () => {
    const flat = h.returns.find((r) => r.kind === "asset" && r.id === FIXTURE_IDS.flat)!;
    expect(val(flat.periods["1Y"].base.twr)).toBe("0.071429");
    expect(val(flat.periods["1Y"].fx)).toBe("0.000000");
    // all: bought for 250000 on 2023-01-01, worth 300000 on 2025-03-01 → simple 20 %
    expect(val(flat.periods.all.base.simple)).toBe("0.200000");
  });

  it("a missing rate makes a return not available (never 0 %), in base; local still answers", () => {
    const chile = h.returns.find((r) => r.kind === "asset" && r.id === FIXTURE_IDS.chile)!;
    expect(chile.periods.all.base.twr).toEqual({ ok: false, reason: "missingRate" });
    expect(val(chile.periods.all.local.twr)).toBe("0.111111");
    const realEstate = h.returns.find((r) => r.kind === "class" && r.id === "1")!;
    expect(realEstate.periods["1Y"].base.twr).toEqual({ ok: false, reason: "missingRate" });
  });

  it("class and structure returns sum their members", () => {
    const financial = h.returns.find((r) => r.kind === "class" && r.id === "3")!;
    expect(val(financial.periods["1M"].base.twr)).toBe("0.000000");
    expect(val(financial.periods["1M"].local.twr)).toBe("0.038462"); // constant rate of today: same ratio
    const holding = h.returns.find((r) => r.kind === "structure" && r.id === FIXTURE_IDS.holding)!;
    expect(val(holding.periods["1M"].base.twr)).toBe("0.000000");
    const watch = h.returns.find((r) => r.kind === "asset" && r.id === FIXTURE_IDS.watch)!;
    expect(watch.periods["1M"].base.twr).toEqual({ ok: false, reason: "noPeriod" });
  });

  it("a member that joins a group later brings its value as money put in, not as a gain", () => {
    const p = prepare(fixtureInput());
    const flat = p.holdings.find((x) => x.asset.id === FIXTURE_IDS.flat)!;
    const watch = p.holdings.find((x) => x.asset.id === FIXTURE_IDS.watch)!;
    const g = groupHistory([flat, watch], (a) => a);
    expect(g.valuations.map((v) => [v.date, v.value])).toEqual([
      ["2023-01-01", "250000"], // the flat at cost from its purchase
      ["2024-03-01", "280000"],
      ["2025-01-15", "282500"],
      ["2025-02-01", "292500"],
      ["2025-03-01", "302500"],
    ]);
    expect(g.flows.map((f) => [f.date, f.amount])).toEqual([
      ["2023-01-01", "250000"],
      ["2025-01-15", "2500"],
    ]);
  });
});

describe("an asset acquired for nothing (an inheritance, a gift: purchase value 0)", () => {
  const input = (): FiguresInput => ({
    base: "EUR",
    today: "2025-03-10",
    structures: [],
    valuations: [],
    liabilities: [],
    rates: [],
    manualRates: [],
    assets: [
      { id: "a", name: "Piso comprado", assetClass: "real_estate", classId: 1, category: "residential", currency: "EUR", currentValue: "105000", valuationDate: "2025-03-01", purchaseValue: "100000", purchaseDate: "2024-01-01" },
      { id: "b", name: "Casa heredada", assetClass: "real_estate", classId: 1, category: "residential", currency: "EUR", currentValue: "200000", valuationDate: "2025-03-01", purchaseValue: "0", purchaseDate: "2024-06-01" },
    ],
  });

  it("joins its class at its first value, not as a gain of its whole value (+205 %)", () => {
    const h = computeHistory(prepare(input()));
    const cls = h.returns.find((r) => r.kind === "class" && r.id === "1")!;
    expect(val(cls.periods.all.base.twr)).toBe("0.050000");
    expect(val(cls.periods["1Y"].base.twr)).toBe("0.050000");
  });

  it("its own return starts at its first value, not 'nothing was invested'", () => {
    const i = input();
    i.valuations = [{ assetId: "b", date: "2024-06-01", value: "180000", currency: "EUR" }];
    const h = computeHistory(prepare(i));
    const house = h.returns.find((r) => r.kind === "asset" && r.id === "b")!;
    expect(val(house.periods.all.base.twr)).toBe(fixed(new Dec(200000).div(180000).sub(1), 6));
  });
});

describe("a group member bought before its first value", () => {
  // Real estate: A worth 100 000 from 2020 on; B bought for 200 000 on 2015-06-01, first valued
  // (300 000) on 2025-06-01. Before the fix B's purchase was money put in in 2015 while its value
  // joined the group only in 2025: the class read −100 % for "all" and +300 % for 1M.
  const A = "01900000-0000-7000-8000-0000000000b1";
  const B = "01900000-0000-7000-8000-0000000000b2";
  const input = (): FiguresInput => ({
    base: "EUR",
    today: "2025-06-15",
    assets: [
      { id: A, name: "Piso A", assetClass: "real_estate", classId: 1, category: "residential", currency: "EUR", participation: "100", currentValue: "100000", valuationDate: "2025-06-10" },
      { id: B, name: "Piso B", assetClass: "real_estate", classId: 1, category: "residential", currency: "EUR", participation: "100", currentValue: "300000", valuationDate: "2025-06-01", purchaseValue: "200000", purchaseDate: "2015-06-01" },
    ],
    structures: [],
    valuations: [
      { assetId: A, date: "2020-01-01", value: "100000", currency: "EUR" },
      { assetId: A, date: "2025-05-01", value: "100000", currency: "EUR" },
    ],
    liabilities: [],
    rates: [],
    manualRates: [],
  });

  it("is valued at cost from its purchase, so the class return is B's revaluation", () => {
    const h = computeHistory(prepare(input()));
    const cls = h.returns.find((r) => r.kind === "class")!;
    // 2015–2020: 200 000 → 200 000 (A's first value is money put in); then 300 000 → 400 000.
    expect(val(cls.periods.all.base.twr)).toBe(fixed(new Dec(400000).div(300000).sub(1), 6)); // 0.333333
    // 1M starts at the group's value of 2025-05-01 (300 000): +100 000 of B's revaluation.
    expect(val(cls.periods["1M"].base.simple)).toBe("0.333333");
    expect(val(cls.periods["1M"].base.twr)).toBe("0.333333");
  });

  it("leaves the single asset's own returns as they were", () => {
    const h = computeHistory(prepare(input()));
    const b = h.returns.find((r) => r.kind === "asset" && r.id === B)!;
    expect(val(b.periods.all.base.simple)).toBe("0.500000");
    expect(val(b.periods.all.base.twr)).toBe("0.500000");
    expect(b.periods.all.base.mwr.ok && fixed(new Dec(b.periods.all.base.mwr.value), 6)).toBe("0.041345");
  });
});

describe("a debt being repaid, in the net worth chart", () => {
  // A flat worth 100 000 € all along; a loan of 12 000 € typed on 2025-01-01 at 0 %, ending on
  // 2026-01-01: 1 000 € due on the 1st of each month from 2025-02-01. Today is 2025-06-15.
  const flat = "01900000-0000-7000-8000-0000000000c1";
  const input = (): FiguresInput => ({
    base: "EUR",
    today: "2025-06-15",
    assets: [{ id: flat, name: "Piso", assetClass: "real_estate", classId: 1, category: "residential", currency: "EUR", currentValue: "100000", valuationDate: "2024-01-01" }],
    structures: [],
    valuations: [{ assetId: flat, date: "2024-01-01", value: "100000", currency: "EUR" }],
    liabilities: [
      {
        id: "01900000-0000-7000-8000-0000000000c2",
        name: "Préstamo",
        amountOutstanding: "7000",
        currency: "EUR",
        terms: { debt: { amountOutstanding: "12000", rate: "0", endDate: "2026-01-01", amountAsOf: "2025-01-01" }, decimals: 2 },
      },
    ],
    rates: [],
    manualRates: [],
  });

  it("owes on each past month end what its schedule gave then (the amount typed before its day)", () => {
    const h = computeHistory(prepare(input()));
    const on = Object.fromEntries(h.series.map((pt) => [pt.date, r2(pt.total)]));
    expect(on["2024-12-31"]).toBe("88000.00");
    expect(on["2025-01-31"]).toBe("88000.00");
    expect(on["2025-02-28"]).toBe("89000.00");
    expect(on["2025-05-31"]).toBe("92000.00");
    expect(on["2025-06-15"]).toBe("93000.00");
    // The headline agrees with today's point.
    expect(r2(computeNow(prepare(input())).netWorth.total)).toBe("93000.00");
  });
});

describe("cash flows tied to an asset in its returns", () => {
  const id = "01900000-0000-7000-8000-0000000000f1";
  // Bought for 1000 € on 2024-01-01; worth 1050 € on 2024-07-01 and 1100 € on 2025-01-01. Rent of
  // 100 € received once on 2024-07-01 (inside that day's value), and a monthly cost of 10 € from
  // 2025-01-01 that continues after the last value (those wait for the next one).
  const input = (withFlows: boolean): FiguresInput => ({
    base: "EUR",
    today: "2025-03-10",
    assets: [{ id, name: "Piso", assetClass: "real_estate", classId: 1, category: "residential", currency: "EUR", currentValue: "1100", valuationDate: "2025-01-01", purchaseValue: "1000", purchaseDate: "2024-01-01" }],
    structures: [],
    valuations: [
      { assetId: id, date: "2024-01-01", value: "1000", currency: "EUR" },
      { assetId: id, date: "2024-07-01", value: "1050", currency: "EUR" },
    ],
    liabilities: [],
    cashFlows: withFlows
      ? [
          { assetId: id, direction: "inflow", amount: "100", currency: "EUR", frequency: "once", startDate: "2024-07-01" },
          { assetId: id, direction: "outflow", amount: "10", currency: "EUR", frequency: "monthly", startDate: "2025-01-01" },
          { assetId: "01900000-0000-7000-8000-0000000000f2", direction: "inflow", amount: "999", currency: "EUR", frequency: "once", startDate: "2024-07-01" },
        ]
      : [],
    rates: [],
    manualRates: [],
  });

  it("rent received is money taken out, a cost paid is money put in (the first monthly cost falls on the last value's day)", () => {
    const row = computeHistory(prepare(input(true))).returns.find((r) => r.kind === "asset")!;
    // TWR: (1050 + 100) / 1000 × (1100 − 10) / 1050 − 1
    expect(val(row.periods.all.base.twr)).toBe(fixed(new Dec(1150).div(1000).mul(new Dec(1090).div(1050)).sub(1), 6)); // 0.193810
    // simple: (1100 − 1000 − (−100 + 10)) / (1000 + 10)
    expect(val(row.periods.all.base.simple)).toBe(fixed(new Dec(190).div(1010), 6)); // 0.188119
    // XIRR of −1000 (2024-01-01), +100 (2024-07-01), +1090 (2025-01-01): 19.898 % a year (bisection
    // in Python on Σ a / (1+r)^(days/365); a spreadsheet's XIRR gives the same).
    const mwr = row.periods.all.base.mwr;
    expect(mwr.ok && mwr.annualized).toBe(true);
    expect(mwr.ok && fixed(new Dec(mwr.value), 5)).toBe("0.19898");
  });

  it("without the flows the same asset shows only its value change (10 %)", () => {
    const row = computeHistory(prepare(input(false))).returns.find((r) => r.kind === "asset")!;
    expect(val(row.periods.all.base.twr)).toBe("0.100000");
  });

  it("a bank account's inflow lands in its balance: money put in, not income taken out", () => {
    // 1 000 → 4 000 → 7 000 over two months, a salary of 3 000 a month and nothing else (what a
    // statement import creates). Before: simple +1 200 %, TWR +4 110 %.
    const acc = "01900000-0000-7000-8000-0000000000f3";
    const bank: FiguresInput = {
      base: "EUR",
      today: "2025-03-15",
      assets: [{ id: acc, name: "Cuenta", assetClass: "bank_accounts", classId: 4, category: "current_account", currency: "EUR", participation: "100", currentValue: "7000", valuationDate: "2025-02-28" }],
      structures: [],
      valuations: [
        { assetId: acc, date: "2025-01-01", value: "1000", currency: "EUR" },
        { assetId: acc, date: "2025-01-31", value: "4000", currency: "EUR" },
      ],
      liabilities: [],
      cashFlows: [{ assetId: acc, direction: "inflow", amount: "3000", currency: "EUR", frequency: "monthly", startDate: "2025-01-25" }],
      rates: [],
      manualRates: [],
    };
    const rows = computeHistory(prepare(bank)).returns;
    for (const row of [rows.find((r) => r.kind === "asset")!, rows.find((r) => r.kind === "class")!]) {
      expect(val(row.periods.all.base.simple)).toBe("0.000000");
      expect(val(row.periods.all.base.twr)).toBe("0.000000");
    }
    // A payment out of the account (an outflow) is money taken out: 7 000 − 500 paid = 6 500, 0 %.
    bank.cashFlows = [{ assetId: acc, direction: "outflow", amount: "500", currency: "EUR", frequency: "once", startDate: "2025-02-10" }];
    bank.valuations = [{ assetId: acc, date: "2025-01-31", value: "7000", currency: "EUR" }];
    bank.assets[0]!.currentValue = "6500";
    const row = computeHistory(prepare(bank)).returns.find((r) => r.kind === "asset")!;
    expect(val(row.periods.all.base.simple)).toBe("0.000000");
  });

  it("periodic flows happen from their start up to today, clamped to short months", async () => {
    const { occurrenceDates, investorAmount } = await import("./flows");
    expect(occurrenceDates({ frequency: "monthly", startDate: "2025-01-31" }, "2025-04-30")).toEqual(["2025-01-31", "2025-02-28", "2025-03-31", "2025-04-30"]);
    expect(occurrenceDates({ frequency: "quarterly", startDate: "2024-11-15", endDate: "2025-06-01" }, "2026-01-01")).toEqual(["2024-11-15", "2025-02-15", "2025-05-15"]);
    expect(occurrenceDates({ frequency: "weekly", startDate: "2025-03-01" }, "2025-03-15")).toEqual(["2025-03-01", "2025-03-08", "2025-03-15"]);
    expect(occurrenceDates({ frequency: "once", startDate: "2025-04-01" }, "2025-03-15")).toEqual([]);
    expect([investorAmount({ direction: "inflow", amount: "100" }), investorAmount({ direction: "outflow", amount: "10.5" })]).toEqual(["-100", "10.5"]);
  });
});

describe("a sold or disposed asset (asset.disposal)", () => {
  // A flat bought for 200 000 € on 2023-01-01, worth 220 000 on 2024-01-01 and 250 000 on
  // 2024-12-01, sold for 260 000 on 2025-01-15; a fund worth 100 000 all along. A valuation typed
  // after the sale (2025-02-01) is not the person's any more.
  const S = "01900000-0000-7000-8000-0000000000c1";
  const K = "01900000-0000-7000-8000-0000000000c2";
  const input = (disposal?: FiguresInput["assets"][number]["disposal"]): FiguresInput => ({
    base: "EUR",
    today: "2025-03-10",
    assets: [
      { id: S, name: "Piso vendido", assetClass: "real_estate", classId: 1, category: "residential", categoryId: 101, currency: "EUR", participation: "100", currentValue: "250000", valuationDate: "2024-12-01", purchaseValue: "200000", purchaseDate: "2023-01-01", taxCountry: "ES", disposal },
      { id: K, name: "Casa", assetClass: "real_estate", classId: 1, category: "residential", categoryId: 101, currency: "EUR", participation: "100", currentValue: "100000", valuationDate: "2023-01-01", taxCountry: "FR" },
    ],
    structures: [],
    valuations: [
      { assetId: S, date: "2024-01-01", value: "220000", currency: "EUR" },
      { assetId: S, date: "2024-12-01", value: "250000", currency: "EUR" },
      { assetId: S, date: "2025-02-01", value: "999999", currency: "EUR" },
    ],
    liabilities: [{ id: "01900000-0000-7000-8000-0000000000c3", name: "Hipoteca del piso", amountOutstanding: "1000", currency: "EUR", assetId: S }],
    rates: [],
    manualRates: [],
  });
  const sold = { kind: "sold" as const, date: "2025-01-15", amount: "260000" };

  it("leaves today's totals and every distribution, and is not listed as without a value", () => {
    const now = computeNow(prepare(input(sold)));
    expect(now.netWorth.assets).toBe("100000");
    expect(now.netWorth.assetsCounted).toBe(1);
    expect(now.netWorth.noValue).toEqual([]);
    expect(now.perAsset[S]).toBeUndefined();
    expect(now.distribution.class.map((s) => [s.key, s.value, s.count])).toEqual([["1", "100000", 1]]);
    expect(now.distribution.country.map((s) => s.key)).toEqual(["FR"]);
    // Its debt is still owed until it is marked repaid: counted, with no asset to belong to.
    expect(now.netWorth.liabilities).toBe("1000");
    expect(now.untiedLiabilities).toEqual({ value: "1000", count: 1 });
  });

  it("keeps its value in past net worth up to the day before its disposal date", () => {
    const h = computeHistory(prepare(input(sold)));
    const at = (d: string) => h.series.find((p) => p.date === d)!.total;
    expect(at("2024-12-31")).toBe("349000"); // 250 000 + 100 000 − 1 000: the past is not rewritten
    expect(at("2025-01-31")).toBe("99000"); // sold on the 15th (the valuation of 2025-02-01 is ignored)
    expect(at("2025-03-10")).toBe("99000");
    const p = prepare(input(sold));
    expect(netWorthOn(p, "2025-01-14").total).toBe("349000");
    expect(netWorthOn(p, "2025-01-15").total).toBe("99000");
    // Not yet disposed of: the same asset counts today with its last value (the typed 999 999).
    expect(computeNow(prepare(input())).netWorth.assets).toBe("1099999");
  });

  it("its returns count the sale amount as money taken out (a realised gain of 30 %)", () => {
    const h = computeHistory(prepare(input(sold)));
    const row = h.returns.find((r) => r.kind === "asset" && r.id === S)!;
    // simple: (0 − 200 000 − (−260 000)) / 200 000; TWR: 220/200 × 250/220 × 260/250 − 1
    expect(val(row.periods.all.base.simple)).toBe("0.300000");
    expect(val(row.periods.all.base.twr)).toBe("0.300000");
    const mwr = row.periods.all.base.mwr;
    expect(mwr.ok && mwr.annualized).toBe(true);
    // −200 000 on 2023-01-01, +260 000 on 2025-01-15 (745 days): 1.3^(365/745) − 1
    expect(mwr.ok && fixed(new Dec(mwr.value), 4)).toBe(fixed(new Dec(Math.pow(1.3, 365 / 745)).sub(1), 4));
    // The class: 300 000 → 320 000 → 350 000, then 100 000 left after 260 000 taken out: +20 %.
    const cls = h.returns.find((r) => r.kind === "class" && r.id === "1")!;
    expect(val(cls.periods.all.base.twr)).toBe("0.200000");
  });

  it("a gift leaves at its last value (no gain or loss that day); a write-off for nothing is a loss", () => {
    const gift = computeHistory(prepare(input({ kind: "gifted", date: "2025-01-15" }))).returns.find((r) => r.kind === "asset" && r.id === S)!;
    expect(val(gift.periods.all.base.twr)).toBe("0.250000"); // 250 000 / 200 000 − 1
    const lost = computeHistory(prepare(input({ kind: "other", date: "2025-01-15" }))).returns.find((r) => r.kind === "asset" && r.id === S)!;
    expect(val(lost.periods.all.base.simple)).toBe("-1.000000");
    // A gift with a value typed leaves at that value.
    const valued = computeHistory(prepare(input({ kind: "gifted", date: "2025-01-15", amount: "240000" }))).returns.find((r) => r.kind === "asset" && r.id === S)!;
    expect(val(valued.periods.all.base.twr)).toBe("0.200000");
  });

  it("a disposal dated after today (another device's calendar) counts from today", () => {
    const p = prepare(input({ ...sold, date: "2025-03-11" }));
    expect(p.holdings.find((x) => x.asset.id === S)!.disposedOn).toBe("2025-03-10");
    expect(computeNow(p).netWorth.assets).toBe("100000");
  });
});
