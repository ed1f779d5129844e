import { screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { ConnectionPosition } from "../../api/connections";
import { renderWithI18n } from "../../ui/testing";
import { ConnectionPositions, positionTotals } from "./ConnectionPositions";

const POSITIONS: ConnectionPosition[] = [
  { symbol: "SAN.MC", name: "Banco Santander SA", units: "1500", price: "7.2", currency: "EUR", value: "10800", date: "2026-11-28", status: "open", assetId: "a-san" },
  { symbol: "IWDA.AS", name: "iShares Core MSCI World UCITS ETF", units: "350.125", price: "101.2", currency: "EUR", value: "35432.65", date: "2026-11-28", status: "open", assetId: "a-iwda" },
  { symbol: "TEF.MC", name: "Telefónica SA", units: "0", price: "0", currency: "EUR", value: "0", date: "2026-11-27", status: "closed", assetId: "a-tef" },
  { symbol: "AAPL", name: "Apple Inc", units: "3", price: "0.1", currency: "USD", value: "0.3", date: "2026-11-28", status: "open", assetId: null },
];

// jsdom has no layout: the table's viewport gets the size a browser would give it.
beforeEach(() => {
  vi.spyOn(Element.prototype, "clientHeight", "get").mockReturnValue(360);
  vi.spyOn(Element.prototype, "clientWidth", "get").mockReturnValue(800);
});
afterEach(() => vi.restoreAllMocks());

/** Text with the (narrow) no-break spaces Intl puts before currency signs as plain spaces. */
const plain = (text: string | null | undefined) => (text ?? "").replace(/[\u00a0\u202f]/g, " ");

function cells(name: string) {
  const row = screen.getAllByRole("row").find((r) => r.textContent?.includes(name));
  expect(row).toBeTruthy();
  return within(row!).getAllByRole("cell").map((c) => plain(c.textContent));
}

describe("ConnectionPositions", () => {
  test("the held positions add up per currency, exactly; a sold one counts nothing", () => {
    // 0.1 + 0.2 style sums stay exact: decimal strings, never floats.
    const totals = positionTotals([...POSITIONS, { ...POSITIONS[3]!, symbol: "MSFT", value: "0.2" }]);
    expect(totals).toEqual([
      { currency: "EUR", amount: "46232.65" },
      { currency: "USD", amount: "0.5" },
    ]);
  });

  test("in Spanish: units, prices and values the Spanish way, the sold position marked, names rendered by the caller", () => {
    renderWithI18n(<ConnectionPositions positions={POSITIONS} name={(p) => <a href={`/assets/${p.assetId}/`}>{p.name}</a>} />);
    expect(screen.getByRole("table", { name: "Posiciones" })).toBeTruthy();
    expect(plain(screen.getByTestId("asset-connection-positions").textContent)).toContain("Posiciones: 46.232,65 € + 0,30 US$ el 28 nov 2026.");
    expect(cells("iShares")).toEqual(["iShares Core MSCI World UCITS ETFIWDA.AS", "350,125", "101,20 €", "35.432,65 €"]);
    expect(cells("Santander")).toEqual(["Banco Santander SASAN.MC", "1.500", "7,20 €", "10.800,00 €"]);
    expect(cells("Telefónica")).toEqual(["Telefónica SATEF.MC Vendida", "0", "—", "0,00 €"]);
    expect(screen.getByRole("link", { name: "Banco Santander SA" }).getAttribute("href")).toBe("/assets/a-san/");
  });

  test("in English", () => {
    renderWithI18n(<ConnectionPositions positions={POSITIONS} name={(p) => p.name} />, "en");
    expect(screen.getByRole("table", { name: "Positions" })).toBeTruthy();
    expect(screen.getByRole("columnheader", { name: /Security/ })).toBeTruthy();
    expect(cells("Santander")).toEqual(["Banco Santander SASAN.MC", "1,500", "€7.20", "€10,800.00"]);
    expect(cells("Telefónica")[0]).toBe("Telefónica SATEF.MC Sold");
  });

  test("an account without positions shows nothing", () => {
    const { container } = renderWithI18n(<ConnectionPositions positions={[]} name={(p) => p.name} />);
    expect(container.textContent).toBe("");
  });
});
