// The benchmark's workspace: n assets (three currencies, eight classes, one in five held through a
// chain of structures, tax countries in six countries), `perAsset` valuations each, a debt for every
// tenth asset and manual USD/GBP rates of every working day since 2023. Deterministic.
import type { PlannedRecord } from "./seed";

export function largePlan(n = 10_000, perAsset = 5): PlannedRecord[] {
  const currencies = ["EUR", "USD", "GBP"];
  const countries = ["ES", "FR", "US", "GB", "DE", "MX"];
  const classes = [
    ["real_estate", "residential"],
    ["vehicles", "car"],
    ["investments", "equity"],
    ["bank_accounts", "current_account"],
    ["cryptocurrencies", "crypto_asset"],
    ["collectibles", "art"],
    ["commodities", "precious_metals"],
    ["others", "custom"],
  ] as const;
  const plan: PlannedRecord[] = [];
  for (let s = 0; s < 20; s++) {
    plan.push({
      collection: "legalStructures",
      key: `s${s}`,
      fields: { name: `Sociedad ${s}`, structureType: "company", country: "ES", ownershipPercentage: String(50 + s), ...(s % 2 ? { parentStructureId: `$ref:s${s - 1}` } : {}) },
    });
  }
  const months = ["2024-03-01", "2024-06-01", "2024-09-01", "2024-12-01", "2025-03-01", "2025-06-01", "2025-09-01"].slice(-perAsset);
  for (let k = 0; k < n; k++) {
    const currency = currencies[k % 3]!;
    const [assetClass, category] = classes[k % 8]!;
    plan.push({
      collection: "assets",
      key: `a${k}`,
      fields: {
        name: `Activo ${k}`,
        assetClass,
        category,
        ...(category === "custom" ? { customCategory: "Varios" } : {}),
        currency,
        participation: "100",
        ...(k % 5 === 0 ? { legalStructureId: `$ref:s${k % 20}` } : {}),
        currentValue: String(10000 + (k % 997) * 13),
        valuationDate: months[months.length - 1],
        purchaseValue: String(9000 + (k % 991) * 11),
        purchaseDate: "2023-06-15",
        taxLocation: { country: countries[k % countries.length] },
        risk: (k % 5) + 1,
        liquidity: ((k + 2) % 5) + 1,
        institution: `Banco ${k % 12}`,
      },
    });
    for (let v = 0; v < perAsset; v++) {
      plan.push({ collection: "valuations", fields: { assetId: `$ref:a${k}`, date: months[v], value: String(9500 + (k % 997) * 12 + v * 100), currency, source: "manual" } });
    }
    if (k % 10 === 0) plan.push({ collection: "liabilities", fields: { name: `Deuda ${k}`, kind: "loan", amountOutstanding: "2500.5", currency, assetId: `$ref:a${k}` } });
  }
  for (let d = new Date("2023-01-02T00:00:00Z"); d.toISOString().slice(0, 10) <= "2025-09-30"; d = new Date(d.getTime() + 7 * 86_400_000)) {
    const date = d.toISOString().slice(0, 10);
    const wiggle = (d.getTime() / 86_400_000) % 100;
    plan.push({ collection: "fxRates", fields: { date, currency: "USD", perEur: (1.05 + wiggle / 1000).toFixed(4) } });
    plan.push({ collection: "fxRates", fields: { date, currency: "GBP", perEur: (0.85 + wiggle / 2000).toFixed(4) } });
  }
  return plan;
}
