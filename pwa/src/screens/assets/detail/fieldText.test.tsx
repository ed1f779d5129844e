// How the detail reads a tax location: the country's name and the province's in the reader's
// language, from a code or from a name stored before codes (either language).
import "fake-indexeddb/auto";
import { ClientDb, ClientDbProvider } from "@patrimonio/clientdb";
import { renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { I18nextProvider } from "react-i18next";
import { describe, expect, test } from "vitest";
import { loadEnums, SPAIN_ENUMS } from "../../../test/enums";
import { createI18n, type Language } from "../../../i18n/i18n";
import { useValueText } from "./fieldText";

describe("tax location text", () => {
  test("country and province in the reader's language", async () => {
    const db = await ClientDb.open({ name: "field-text-1" });
    await loadEnums(db, SPAIN_ENUMS);
    for (const [language, expected] of [
      ["en", ["Palma, Balearic Islands, Spain", "Balearic Islands, Spain", "Lyon, Rhône, France"]],
      ["es", ["Palma, Illes Balears, España", "Illes Balears, España", "Lyon, Rhône, Francia"]],
    ] as const) {
      const i18n = createI18n({ lng: language as Language });
      const wrapper = ({ children }: { children?: ReactNode }) => (
        <I18nextProvider i18n={i18n}>
          <ClientDbProvider db={db}>{children}</ClientDbProvider>
        </I18nextProvider>
      );
      const { result } = renderHook(() => useValueText("EUR"), { wrapper });
      await waitFor(() => expect(result.current("taxLocation", { country: "ES", state: "ES-PM", city: "Palma" })).toBe(expected[0]));
      expect(result.current("taxLocation", { country: "ES", state: language === "en" ? "Illes Balears" : "Balearic Islands" })).toBe(expected[1]);
      expect(result.current("taxLocation", { country: "FR", state: "Rhône", city: "Lyon" })).toBe(expected[2]);
    }
    db.close();
  });
});

describe("a sale's text (a conflict note on the disposal)", () => {
  test("how, when and for how much, the reader's way", async () => {
    const db = await ClientDb.open({ name: "field-text-2" });
    for (const [language, expected] of [
      ["es", ["Vendido · 15 ene 2025 · 260.000,50 €", "Regalado o donado · 24 dic 2024"]],
      ["en", ["Sold · 15 Jan 2025 · €260,000.50", "Given away · 24 Dec 2024"]],
    ] as const) {
      const i18n = createI18n({ lng: language as Language });
      const wrapper = ({ children }: { children?: ReactNode }) => (
        <I18nextProvider i18n={i18n}>
          <ClientDbProvider db={db}>{children}</ClientDbProvider>
        </I18nextProvider>
      );
      const { result } = renderHook(() => useValueText("EUR"), { wrapper });
      expect(result.current("disposal", { kind: "sold", date: "2025-01-15", amount: "260000.5" }).replace(/\s/g, " ")).toBe(expected[0]);
      expect(result.current("disposal", { kind: "gifted", date: "2024-12-24" })).toBe(expected[1]);
    }
    db.close();
  });
});
