// A small workspace whose figures were computed by hand (and checked with Python's decimal module):
// three currencies (EUR, USD, CLP without any rate), a chain of two structures (50 % × 80 %), a
// co-owned asset, one asset without tax registration, and two debts. Used by the unit tests and,
// through the same numbers, by the end-to-end test (pwa/e2e/dashboard.spec.ts).
//
// Net worth on 2025-03-10 (base EUR):
//   Piso Madrid        300 000 EUR × 100 %                          = 300 000
//   Cartera USA        108 000 USD × 50 % × 80 % = 43 200 USD / 1.08 =  40 000   (rate of 2025-03-07)
//   Reloj                5 000 EUR × 50 %                           =   2 500
//   Local en Santiago   50 000 000 CLP: no CLP rate → left out and listed
//   Hipoteca          −100 000 EUR (tied to the flat, share 100 %)  = −100 000
//   Préstamo USA       −10 000 USD × 40 % = −4 000 USD / 1.08       =  −3 703.703703…
//   = 238 796.296296…  → 238.796,30 €
// One month earlier (2025-02-10): 290 000 + 41 600/1.04 + 2 500 − 100 000 − 4 000/1.04
//   = 228 653.846153…; change +10 142.450142… (+4.4357 %)
// One year earlier (2024-03-10): 280 000 + 40 000/1.09 − 100 000 − 4 000/1.09 = 213 027.522935…
//   (the CLP shop left out: incomplete); change +25 768.773360…
import type { FiguresInput } from "./types";

export const FIXTURE_IDS = {
  flat: "01900000-0000-7000-8000-000000000001",
  usa: "01900000-0000-7000-8000-000000000002",
  chile: "01900000-0000-7000-8000-000000000003",
  watch: "01900000-0000-7000-8000-000000000004",
  holding: "01900000-0000-7000-8000-0000000000a1",
  sub: "01900000-0000-7000-8000-0000000000a2",
} as const;

export function fixtureInput(base = "EUR"): FiguresInput {
  const id = FIXTURE_IDS;
  return {
    base,
    today: "2025-03-10",
    structures: [
      { id: id.holding, name: "Familia Holding", ownershipPercentage: "50" },
      { id: id.sub, name: "Filial Inversiones", ownershipPercentage: "80", parentStructureId: id.holding },
    ],
    assets: [
      { id: id.flat, name: "Piso Madrid", assetClass: "real_estate", classId: 1, category: "residential", categoryId: 101, currency: "EUR", participation: "100", currentValue: "300000", valuationDate: "2025-03-01", purchaseValue: "250000", purchaseDate: "2023-01-01", taxCountry: "ES", risk: 2, liquidity: 1 },
      { id: id.usa, name: "Cartera USA", assetClass: "investments", classId: 3, category: "equity", categoryId: 302, currency: "USD", participation: "100", legalStructureId: id.sub, currentValue: "108000", valuationDate: "2025-03-07", taxCountry: "US", institution: "Broker X", risk: 4, liquidity: 5 },
      { id: id.chile, name: "Local en Santiago", assetClass: "real_estate", classId: 1, category: "commercial", categoryId: 102, currency: "CLP", participation: "100", currentValue: "50000000", valuationDate: "2025-03-01", taxCountry: "CL" },
      { id: id.watch, name: "Reloj", assetClass: "collectibles", classId: 6, category: "watches", categoryId: 603, currency: "EUR", participation: "50", currentValue: "5000", valuationDate: "2025-01-15", noTaxRegistration: true },
    ],
    valuations: [
      { assetId: id.flat, date: "2024-03-01", value: "280000", currency: "EUR" },
      { assetId: id.flat, date: "2025-02-01", value: "290000", currency: "EUR" },
      { assetId: id.flat, date: "2025-03-01", value: "300000", currency: "EUR" },
      { assetId: id.usa, date: "2024-03-08", value: "100000", currency: "USD" },
      { assetId: id.usa, date: "2025-02-07", value: "104000", currency: "USD" },
      { assetId: id.usa, date: "2025-03-07", value: "108000", currency: "USD" },
      { assetId: id.chile, date: "2024-03-01", value: "45000000", currency: "CLP" },
      { assetId: id.watch, date: "2025-01-15", value: "5000", currency: "EUR" },
    ],
    liabilities: [
      { id: "01900000-0000-7000-8000-0000000000d1", name: "Hipoteca", amountOutstanding: "100000", currency: "EUR", assetId: id.flat },
      { id: "01900000-0000-7000-8000-0000000000d2", name: "Préstamo USA", amountOutstanding: "10000", currency: "USD", assetId: id.usa },
    ],
    rates: [
      { date: "2024-03-08", currency: "USD", perEur: "1.09", source: "ecb" },
      { date: "2025-02-07", currency: "USD", perEur: "1.04", source: "ecb" },
      { date: "2025-03-07", currency: "USD", perEur: "1.08", source: "ecb" },
    ],
    manualRates: [],
  };
}
