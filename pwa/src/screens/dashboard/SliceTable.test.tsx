// The distribution tables (the charts' text alternative) never show a group whose assets all lack
// an exchange rate as worth "0,00 €": its value is "No disponible", with how many are left out.
import { render, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { I18nextProvider } from "react-i18next";
import { describe, expect, test, vi } from "vitest";
import type { Slice } from "../../figures/types";
import { createI18n } from "../../i18n/i18n";

vi.mock("@tanstack/react-router", () => ({ Link: ({ children }: { children: ReactNode }) => <a href="#">{children}</a> }));
vi.mock("../../assets/useAssetLabels", () => ({ useAssetLabels: () => ({ classLabel: (c: string) => c, categoryLabel: (c: string) => c }) }));

const { SliceTable } = await import("./SliceTable");

const slice = (key: string, value: string, count: number, missing: number): Slice => ({ key, value, net: value, count, missing, ...(value !== "0" ? { share: "1" } : {}) });

describe("SliceTable", () => {
  test("a country whose only asset has no rate: value not available, never 0", () => {
    const view = render(
      <I18nextProvider i18n={createI18n({ lng: "es" })}>
        <SliceTable dimension="country" slices={[slice("ES", "300000", 1, 0), slice("CL", "0", 1, 1)]} base="EUR" caption="Por país" />
      </I18nextProvider>,
    );
    const cells = (key: string) => within(view.container.querySelector(`tr[data-key="${key}"]`) as HTMLElement).getAllByRole("cell").map((c) => c.textContent?.replace(/\s/g, " "));
    expect(cells("CL")).toEqual(["No disponible", "—", "1 (1 sin tipo de cambio)"]);
    expect(cells("ES")).toEqual(["300.000,00 €", "100,00 %", "1"]);
  });
});
