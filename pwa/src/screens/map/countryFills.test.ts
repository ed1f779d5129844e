// The wealth map never shows a country whose assets lack an exchange rate as worth 0: it is hatched
// and its label says the value is unknown (or, when only some lack one, that the figure leaves them
// out). The fixture's Chile: a 50 000 000 CLP shop without any CLP rate.
import { describe, expect, it } from "vitest";
import type { Slice } from "../../figures/types";
import { createI18n } from "../../i18n/i18n";
import { countryFills, NEGATIVE, NO_RATE, SCALE } from "./WealthMapScreen";

const slice = (key: string, value: string, net: string, count: number, missing: number): Slice => ({ key, value, net, count, missing });
const plainSpaces = (s: string) => s.replace(/\s/g, " ");

describe("the wealth map's countries", () => {
  const i18n = createI18n({ lng: "es" });
  const t = (key: string, options?: Record<string, unknown>) => String(i18n.t(key as never, options as never));
  const fills = countryFills(
    [slice("ES", "300000", "200000", 1, 0), slice("US", "40000", "36296.3", 2, 1), slice("CL", "0", "0", 1, 1), slice("PT", "1000", "-500", 1, 0)],
    "EUR",
    "es",
    t,
  );

  it("hatches a country none of whose assets has a rate, and says its value is unknown", () => {
    expect(fills.get("CL")!.fill).toBe(NO_RATE);
    expect(fills.get("CL")!.label).toBe("Chile: valor desconocido, a su activo le falta el tipo de cambio");
  });

  it("says when a country's figure leaves out assets without a rate", () => {
    expect(plainSpaces(fills.get("US")!.label)).toBe("Estados Unidos: patrimonio neto de 36.296,30 € (sin incluir 1 activo sin tipo de cambio)");
    expect(fills.get("US")!.fill).not.toBe(NO_RATE);
  });

  it("colours the others by their net value", () => {
    expect(fills.get("ES")!.fill).toBe(SCALE[SCALE.length - 1]);
    expect(plainSpaces(fills.get("ES")!.label)).toBe("España: patrimonio neto de 200.000,00 €");
    expect(fills.get("PT")!.fill).toBe(NEGATIVE);
  });
});
