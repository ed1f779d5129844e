// How a return reads in the tables: the money-weighted figure says whether it is an annual rate or a
// period's return, and when another rate also balances the cash flows ("†"), in text a screen
// reader and the hover title both give.
import { renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { I18nextProvider } from "react-i18next";
import { describe, expect, test } from "vitest";
import { figX } from "../../figures/history";
import { createI18n } from "../../i18n/i18n";
import { useReturnText } from "./display";

const wrapper = ({ children }: { children: ReactNode }) => <I18nextProvider i18n={createI18n({ lng: "es" })}>{children}</I18nextProvider>;
const plainSpaces = (s: string | undefined) => s?.replace(/\s/g, " ");

describe("money-weighted returns as shown", () => {
  test("several rates balance the flows: kept on the figure, marked and explained", () => {
    const f = figX({ ok: true, annualRate: "0.5", periodReturn: "0.1", days: 120, annualizable: false, multipleRoots: true, totalLoss: false });
    expect(f).toEqual({ ok: true, value: "0.1", annualized: false, multipleRoots: true });
    const text = renderHook(() => useReturnText(), { wrapper }).result.current(f);
    expect(plainSpaces(text.text)).toBe("+10,00 % †");
    expect(text.title).toBe("Menos de un año: se muestra la rentabilidad del periodo, sin anualizar. Varias tasas cuadran con estos flujos de caja; se muestra la más cercana a 0 %.");
  });

  test("one rate over more than a year: annualized, no mark", () => {
    const f = figX({ ok: true, annualRate: "0.042", periodReturn: "0.09", days: 800, annualizable: true, multipleRoots: false, totalLoss: false });
    const text = renderHook(() => useReturnText(), { wrapper }).result.current(f);
    expect(plainSpaces(text.text)).toBe("+4,20 %");
    expect(text.title).toBe("Anualizada");
  });
});
