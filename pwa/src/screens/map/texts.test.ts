// The wealth map's texts agree with their number in both languages ("1 activo", never "1 activos").
import { describe, expect, test } from "vitest";
import { createI18n } from "../../i18n/i18n";

describe("wealth map texts", () => {
  test.each([
    ["es", 1, "Faltan tipos de cambio: 1 activo no se incluye."],
    ["es", 3, "Faltan tipos de cambio: 3 activos no se incluyen."],
    ["en", 1, "Exchange rates missing: 1 asset is not counted."],
    ["en", 3, "Exchange rates missing: 3 assets are not counted."],
  ] as const)("%s, %i asset without a rate", (lng, count, text) => {
    const i18n = createI18n({ lng });
    expect(i18n.t("wealthMap.noRates", { count })).toBe(text);
  });
});
