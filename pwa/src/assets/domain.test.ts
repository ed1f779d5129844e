// The asset domain's pure functions: search, grouping and totals, look-through, CSV, valuation age,
// class and category ids.
import type { EnumValue } from "@patrimonio/clientdb";
import { describe, expect, test } from "vitest";
import schemaEn from "@patrimonio/shared-schema/messages/en.json";
import schemaEs from "@patrimonio/shared-schema/messages/es.json";
import en from "../i18n/locales/en.json";
import es from "../i18n/locales/es.json";
import {
  categoriesOfClass,
  hasAvailableCategories,
  categoryCodeOf,
  categoryIdOf,
  categoryLabelOf,
  classCodeOf,
  classIdOf,
  classLabelOf,
  isCustomCategoryId,
  parseClassParam,
} from "./classes";
import { assetsCsv, csvField, toCsv } from "./csv";
import { assetsOfCategory, groupByCategory, groupByClass } from "./grouping";
import { lookThrough, structureShare, structuresMap } from "./lookThrough";
import { addTotals, subtractTotals, sumByCurrency } from "./money";
import { buildAssetSearchIndex, intlCountryName, searchAssets } from "./search";
import { indexSubdivisions, subdivisionText } from "../forms/subdivisions";
import { valuationAge, valuationAgeText } from "./valuationAge";

type Fields = {
  name: string;
  assetClass: "real_estate" | "vehicles" | "investments" | "bank_accounts" | "cryptocurrencies" | "collectibles" | "commodities" | "others";
  category: string;
  customCategory?: string;
  currency: string;
  participation: string;
  currentValue?: string;
  valuationDate?: string;
  institution?: string;
  isin?: string;
  taxLocation?: { country?: string; state?: string; city?: string };
  legalStructureId?: string;
  disposal?: { kind: "sold" | "gifted" | "other"; date: string; amount?: string };
};
let n = 0;
const rec = (f: Partial<Fields> & { name: string }) => ({
  id: `id-${++n}`,
  fields: { assetClass: "real_estate", category: "residential", currency: "EUR", participation: "100", ...f } as Fields,
});

/** A translator over the real locale files (the app's, and the shared schema's for "schema:" keys). */
function translator(app: unknown, schema: unknown) {
  return (fullKey: string, options?: { count?: number; value?: string }): string => {
    const messages = fullKey.startsWith("schema:") ? schema : app;
    const key = fullKey.replace(/^schema:/, "");
    let node: unknown = messages;
    let k = key;
    if (options?.count !== undefined) {
      const plural = `${key}_${options.count === 1 ? "one" : "other"}`;
      const probe = plural.split(".").reduce<unknown>((o, p) => (o as Record<string, unknown> | undefined)?.[p], messages);
      if (typeof probe === "string") k = plural;
    }
    for (const part of k.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
    if (typeof node !== "string") return fullKey;
    return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String((options as Record<string, unknown> | undefined)?.[name] ?? ""));
  };
}
const tEs = translator(es, schemaEs);
const tEn = translator(en, schemaEn);

const enumValue = (over: Partial<EnumValue> & Pick<EnumValue, "id" | "code" | "type">): EnumValue => ({
  parentId: 0,
  level: over.type,
  labels: { es: over.code, en: over.code },
  order: 0,
  active: true,
  ...over,
});

describe("classes and categories", () => {
  test("classes 1–8 in the spec's order, categories class × 100 + n, custom class × 100 + 99", () => {
    expect(classIdOf("real_estate")).toBe(1);
    expect(classIdOf("others")).toBe(8);
    expect(classCodeOf(3)).toBe("investments");
    expect(classCodeOf(9)).toBeUndefined();
    expect(classCodeOf(0)).toBeUndefined();
    expect(parseClassParam("2")).toBe("vehicles");
    expect(parseClassParam("real_estate")).toBe("real_estate");
    expect(parseClassParam("12")).toBeUndefined();
    // The ids of server/enums/data/fixed.csv.
    expect(categoryIdOf("residential", "real_estate")).toBe(101);
    expect(categoryIdOf("industrial", "real_estate")).toBe(103);
    expect(categoryIdOf("institutional_account", "investments")).toBe(307);
    expect(categoryIdOf("other", "others")).toBe(805);
    expect(categoryIdOf("custom", "vehicles")).toBe(299);
    expect(isCustomCategoryId(299)).toBe(true);
    expect(isCustomCategoryId(201)).toBe(false);
    expect(categoryCodeOf(605)).toEqual({ code: "antiques", classCode: "collectibles" });
    expect(categoryCodeOf(199)).toEqual({ code: "custom", classCode: "real_estate" });
    expect(categoryCodeOf(104)).toBeUndefined();
  });

  const enums = [
    enumValue({ id: 1, type: "asset_class", code: "real_estate", labels: { es: "Bienes inmuebles", en: "Property" } }),
    enumValue({ id: 101, type: "asset_category", code: "residential", parentId: 1, labels: { es: "Vivienda", en: "Housing" } }),
    enumValue({ id: 102, type: "asset_category", code: "commercial", parentId: 1, active: false }),
    enumValue({ id: 1000004, type: "asset_category", code: "parking", parentId: 1, order: 5, labels: { es: "Plaza de garaje", en: "Parking space" } }),
    enumValue({ id: 1000002, type: "asset_category", code: "old_kind", parentId: 1, active: false, labels: { es: "Antigua", en: "Old" } }),
    enumValue({ id: 1000003, type: "asset_category", code: "yacht_share", parentId: 2 }),
  ];

  test("labels come from the cached enumerations, else from the bundled texts", () => {
    expect(classLabelOf("real_estate", "es", tEs, enums)).toBe("Bienes inmuebles");
    expect(classLabelOf("real_estate", "en", tEn, enums)).toBe("Property");
    expect(classLabelOf("vehicles", "es", tEs, enums)).toBe("Vehículos");
    expect(classLabelOf("vehicles", "en", tEn)).toBe("Vehicles");
    expect(categoryLabelOf("residential", "es", tEs, enums)).toBe("Vivienda");
    expect(categoryLabelOf("residential", "es", tEs)).toBe("Residencial");
    expect(categoryLabelOf("residential", "en", tEn)).toBe("Residential");
    expect(categoryLabelOf("parking", "en", tEn, enums)).toBe("Parking space");
    // A deactivated admin category still has its label on old records.
    expect(categoryLabelOf("old_kind", "es", tEs, enums)).toBe("Antigua");
    expect(categoryLabelOf("custom", "es", tEs, enums, "Trastero")).toBe("Trastero");
    expect(categoryLabelOf("custom", "es", tEs)).toBe("Categoría personalizada");
    expect(categoryLabelOf("unknown_code", "es", tEs)).toBe("unknown_code");
  });

  test("the categories of a class offer active admin ones, not deactivated ones, custom last", () => {
    const offered = categoriesOfClass("real_estate", "es", tEs, enums);
    expect(offered.map((c) => [c.id, c.code])).toEqual([
      [101, "residential"],
      [103, "industrial"],
      [1000004, "parking"],
      [199, "custom"],
    ]);
    expect(offered.at(-1)?.custom).toBe(true);
    const all = categoriesOfClass("real_estate", "en", tEn, enums, { includeInactive: true, includeCustom: false });
    expect(all.map((c) => [c.code, c.active])).toEqual([
      ["residential", true],
      ["commercial", false],
      ["industrial", true],
      ["old_kind", false],
      ["parking", true],
    ]);
    expect(hasAvailableCategories(all)).toBe(true);
    // Every category of commodities deactivated: none to offer but "custom" ("No categories available").
    const off = [701, 702, 703].map((id, i) =>
      enumValue({ id, type: "asset_category", code: ["precious_metals", "energy", "agricultural"][i]!, parentId: 7, active: false }),
    );
    const commodities = categoriesOfClass("commodities", "es", tEs, off, { includeInactive: true });
    expect(commodities.map((c) => [c.code, c.active])).toEqual([
      ["precious_metals", false],
      ["energy", false],
      ["agricultural", false],
      ["custom", true],
    ]);
    expect(hasAvailableCategories(commodities)).toBe(false);
    expect(hasAvailableCategories(categoriesOfClass("commodities", "es", tEs, off.slice(1), { includeInactive: true }))).toBe(true);
    // Without a cache (a device that never fetched): the fixed list, offline.
    expect(categoriesOfClass("vehicles", "es", tEs).map((c) => c.label)).toEqual(["Automóvil", "Motocicleta", "Embarcación", "Aeronave", "Categoría personalizada"]);
    expect(categoryIdOf("parking", "real_estate", enums)).toBe(1000004);
    expect(categoryIdOf("parking", "vehicles", enums)).toBeUndefined();
    expect(categoryCodeOf(1000003, enums)).toEqual({ code: "yacht_share", classCode: "vehicles" });
  });
});

describe("search", () => {
  const assets = [
    rec({ name: "Cartera de Inversión", assetClass: "investments", category: "fund", institution: "Banco Ñandú", isin: "ES0000012345" }),
    rec({ name: "Piso en Sevilla", taxLocation: { country: "ES", state: "Sevilla", city: "Dos Hermanas" } }),
    rec({ name: "Trastero", category: "custom", customCategory: "Almacén rústico" }),
    rec({ name: "Casa en Lisboa", category: "commercial", taxLocation: { country: "PT" } }),
  ];
  const ctx = {
    categoryLabel: (code: string, custom?: string) => categoryLabelOf(code, "es", tEs, undefined, custom),
    countryName: (code: string) => ({ ES: "España", PT: "Portugal" })[code] ?? code,
  };
  const index = buildAssetSearchIndex(assets, ctx);
  const names = (q: string) => searchAssets(index, q).map((a) => a.fields.name);

  test("finds by name ignoring accents and case", () => {
    expect(names("inversion")).toEqual(["Cartera de Inversión"]);
    expect(names("INVERSIÓN")).toEqual(["Cartera de Inversión"]);
    expect(names("")).toHaveLength(4);
    expect(names("   ")).toHaveLength(4);
    expect(names("nothing like it")).toEqual([]);
  });

  test("finds by category label, custom name, institution, ISIN and tax location", () => {
    expect(names("fondo de inversion")).toEqual(["Cartera de Inversión"]);
    expect(names("comercial")).toEqual(["Casa en Lisboa"]);
    expect(names("rustico")).toEqual(["Trastero"]);
    expect(names("nandu")).toEqual(["Cartera de Inversión"]);
    expect(names("es00000123")).toEqual(["Cartera de Inversión"]);
    expect(names("dos hermanas")).toEqual(["Piso en Sevilla"]);
    expect(names("portugal")).toEqual(["Casa en Lisboa"]);
    expect(names("espana")).toEqual(["Piso en Sevilla"]);
    // Every word must match, in any field.
    expect(names("piso sevilla")).toEqual(["Piso en Sevilla"]);
    expect(names("piso lisboa")).toEqual([]);
  });

  test("finds a province stored as its code by its name in the reader's language", () => {
    const subdivisions = indexSubdivisions([
      { id: 2, type: "state", code: "ES-PM", parentId: 1, level: "province", labels: { es: "Illes Balears", en: "Balearic Islands" }, order: 1, active: true },
    ]);
    const coded = buildAssetSearchIndex([rec({ name: "Piso en Palma", taxLocation: { country: "ES", state: "ES-PM" } })], {
      ...ctx,
      stateName: (country: string | undefined, state: string) => subdivisionText(subdivisions, country, state, "en"),
    });
    expect(searchAssets(coded, "balearic").map((a) => a.fields.name)).toEqual(["Piso en Palma"]);
  });
});

describe("totals and grouping", () => {
  test("sums exact decimals per currency, never floats", () => {
    expect(sumByCurrency([
      { amount: "0.1", currency: "EUR" },
      { amount: "0.2", currency: "EUR" },
      { amount: "1000000000000000.0001", currency: "USD" },
      { amount: "0.0002", currency: "USD" },
      { amount: undefined, currency: "GBP" },
      { amount: "-0.05", currency: "EUR" },
      { amount: "1e2", currency: "EUR" },
    ])).toEqual([
      { currency: "EUR", amount: "100.25" },
      { currency: "USD", amount: "1000000000000000.0003" },
    ]);
    expect(sumByCurrency([{ amount: "0.10", currency: "EUR" }, { amount: "-0.1", currency: "EUR" }])).toEqual([{ currency: "EUR", amount: "0" }]);
    expect(sumByCurrency([{ amount: "1.5", currency: "EUR" }, { amount: "-3", currency: "EUR" }])).toEqual([{ currency: "EUR", amount: "-1.5" }]);
    expect(addTotals([{ currency: "EUR", amount: "1.5" }], [{ currency: "EUR", amount: "2.5" }, { currency: "CHF", amount: "3" }])).toEqual([
      { currency: "CHF", amount: "3" },
      { currency: "EUR", amount: "4" },
    ]);
    expect(subtractTotals([{ currency: "EUR", amount: "300000" }], [{ currency: "EUR", amount: "150000.50" }, { currency: "USD", amount: "10" }])).toEqual([
      { currency: "EUR", amount: "149999.5" },
      { currency: "USD", amount: "-10" },
    ]);
  });

  const assets = [
    rec({ name: "Coche", assetClass: "vehicles", category: "car", currentValue: "10000.10" }),
    rec({ name: "Piso", currentValue: "200000", participation: "50" }),
    rec({ name: "Local", category: "commercial", currentValue: "100000", currency: "USD", participation: "33.33" }),
    rec({ name: "Solar", category: "custom", customCategory: "Solar" }),
    rec({ name: "Nave", category: "industrial", currentValue: "0.05" }),
    rec({ name: "Garaje", category: "parking", currentValue: "15000" }),
  ];

  test("groups per class in class order with counts and totals per currency", () => {
    const groups = groupByClass(assets);
    expect(groups.map((g) => [g.classId, g.classCode, g.count])).toEqual([
      [1, "real_estate", 5],
      [2, "vehicles", 1],
    ]);
    expect(groups[0]!.totals).toEqual([
      { currency: "EUR", amount: "215000.05" },
      { currency: "USD", amount: "100000" },
    ]);
    // participation values: 200000 × 50 % = 100000; 100000 × 33.33 % = 33330; 0.05; 15000.
    expect(groups[0]!.participationTotals).toEqual([
      { currency: "EUR", amount: "115000.05" },
      { currency: "USD", amount: "33330" },
    ]);
    expect(groups[1]!.totals).toEqual([{ currency: "EUR", amount: "10000.1" }]);
  });

  test("groups per category: fixed ones in order, admin-added by id, custom last", () => {
    const enums = [enumValue({ id: 1000009, type: "asset_category", code: "parking", parentId: 1 })];
    const groups = groupByCategory(assets, "real_estate", enums);
    expect(groups.map((g) => [g.categoryId, g.code, g.count])).toEqual([
      [101, "residential", 1],
      [102, "commercial", 1],
      [103, "industrial", 1],
      [1000009, "parking", 1],
      [199, "custom", 1],
    ]);
    expect(assetsOfCategory(assets, "real_estate", 199).map((a) => a.fields.name)).toEqual(["Solar"]);
    expect(assetsOfCategory(assets, "real_estate", 1000009, enums).map((a) => a.fields.name)).toEqual(["Garaje"]);
    expect(assetsOfCategory(assets, "real_estate", 101).map((a) => a.fields.name)).toEqual(["Piso"]);
  });
});

describe("look-through", () => {
  const structures = structuresMap([
    { id: "top", fields: { ownershipPercentage: "80" } },
    { id: "mid", fields: { ownershipPercentage: "50", parentStructureId: "top" } },
    { id: "low", fields: { parentStructureId: "mid" } },
    { id: "loopA", fields: { ownershipPercentage: "50", parentStructureId: "loopB" } },
    { id: "loopB", fields: { ownershipPercentage: "50", parentStructureId: "loopA" } },
    { id: "orphan", fields: { ownershipPercentage: "10", parentStructureId: "deleted" } },
  ]);

  test("multiplies the percentages along the chain and the participation (checked by hand)", () => {
    // 75 % × 100 % (low: no percentage) × 50 % × 80 % = 30 %; 400000 × 30 % = 120000.
    expect(lookThrough({ currentValue: "400000", participation: "75", legalStructureId: "low" }, structures)).toEqual({
      chain: ["low", "mid", "top"],
      sharePercent: "30",
      value: "120000",
      cycle: false,
      broken: false,
    });
    // 33.33 % × 80 % = 26.664 %; 1000.01 × 26.664 % = 266.6426664 → 266.6427.
    expect(lookThrough({ currentValue: "1000.01", participation: "33.33", legalStructureId: "top" }, structures)).toMatchObject({
      sharePercent: "26.664",
      value: "266.6427",
    });
    expect(lookThrough({ currentValue: "10", participation: "100" }, structures)).toEqual({
      chain: [],
      sharePercent: "100",
      value: "10",
      cycle: false,
      broken: false,
    });
    expect(lookThrough({ participation: "100", legalStructureId: "top" }, structures).value).toBeUndefined();
  });

  test("a structure's own effective share", () => {
    expect(structureShare("low", structures)).toEqual({ chain: ["low", "mid", "top"], sharePercent: "40", cycle: false, broken: false });
    expect(structureShare("top", structures).sharePercent).toBe("80");
    expect(structureShare("loopB", structures)).toMatchObject({ sharePercent: "25", cycle: true });
  });

  test("a cycle counts each structure once and stays finite; a missing parent is reported", () => {
    const looped = lookThrough({ currentValue: "100", participation: "100", legalStructureId: "loopA" }, structures);
    expect(looped).toEqual({ chain: ["loopA", "loopB"], sharePercent: "25", value: "25", cycle: true, broken: false });
    expect(lookThrough({ currentValue: "100", participation: "100", legalStructureId: "orphan" }, structures)).toEqual({
      chain: ["orphan"],
      sharePercent: "10",
      value: "10",
      cycle: false,
      broken: true,
    });
  });
});

/** An independent RFC 4180 reader (quotes, doubled quotes, separators and line breaks inside quotes). */
function parseCsv(text: string, sep: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === sep) {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}

describe("CSV", () => {
  const assets = [
    rec({ name: 'Piso "Centro"; 2º', currentValue: "1234567.8901", participation: "50", valuationDate: "2025-03-10", taxLocation: { country: "ES", city: "Madrid" } }),
    rec({ name: "Cuenta, ahorro\nnueva", assetClass: "bank_accounts", category: "savings_account", institution: "Banco" }),
    rec({ name: "=HYPERLINK(1)", category: "custom", customCategory: "Otros, varios", currentValue: "-5.5", currency: "USD", participation: "100" }),
  ];

  for (const [language, t, sep] of [
    ["es", tEs, ";"],
    ["en", tEn, ","],
  ] as const) {
    test(`${language}: BOM, translated headers, "${sep}" separator, exact decimals, quoting that parses back`, () => {
      const text = assetsCsv(assets, {
        language,
        t,
        classLabel: (c) => classLabelOf(c, language, t),
        categoryLabel: (c, custom) => categoryLabelOf(c, language, t, undefined, custom),
      });
      expect(text.startsWith("\uFEFF")).toBe(true);
      expect(Array.from(new TextEncoder().encode(text).slice(0, 3))).toEqual([0xef, 0xbb, 0xbf]);
      const rows = parseCsv(text.slice(1), sep);
      expect(rows).toHaveLength(4);
      expect(rows[0]!.slice(0, 7)).toEqual(
        language === "es"
          ? ["Nombre", "Clase", "Categoría", "Moneda", "Valor actual", "Participación (%)", "Valor de la participación"]
          : ["Name", "Class", "Category", "Currency", "Current value", "Participation (%)", "Participation value"],
      );
      const dec = (s: string) => (language === "es" ? s.replace(".", ",") : s);
      expect(rows[1]!.slice(0, 8)).toEqual([
        'Piso "Centro"; 2º',
        language === "es" ? "Inmuebles" : "Real estate",
        language === "es" ? "Residencial" : "Residential",
        "EUR",
        dec("1234567.8901"),
        "50",
        dec("617283.9451"),
        "2025-03-10",
      ]);
      expect(rows[1]!.slice(10, 13)).toEqual(["ES", "", "Madrid"]);
      expect(rows[2]![0]).toBe("Cuenta, ahorro\nnueva");
      expect(rows[2]![4]).toBe("");
      // A formula-looking text is neutralised; a negative amount stays a number.
      expect(rows[3]![0]).toBe("'=HYPERLINK(1)");
      expect(rows[3]![2]).toBe("Otros, varios");
      expect(rows[3]![4]).toBe(dec("-5.5"));
      expect(rows.every((r) => r.length === rows[0]!.length)).toBe(true);
    });
  }

  test("says each asset's state, disposal date and amount (the reader's decimals)", () => {
    const rows = [
      rec({ name: "Casa", currentValue: "100000", participation: "100" }),
      rec({ name: "Piso vendido", currentValue: "250000", participation: "100", disposal: { kind: "sold", date: "2025-01-15", amount: "260000.5" } }),
      rec({ name: "Reloj", assetClass: "collectibles", category: "watches", disposal: { kind: "gifted", date: "2024-12-24" } }),
    ];
    for (const [language, t, sep, header, states, amount] of [
      ["es", tEs, ";", ["Estado", "Fecha de baja", "Importe de venta o valor de baja"], ["En cartera", "Vendido", "Regalado o donado"], "260000,5"],
      ["en", tEn, ",", ["Status", "Disposal date", "Sale amount or value at disposal"], ["Held", "Sold", "Given away"], "260000.5"],
    ] as const) {
      const text = assetsCsv(rows, { language, t, classLabel: (c) => classLabelOf(c, language, t), categoryLabel: (c, custom) => categoryLabelOf(c, language, t, undefined, custom) });
      const parsed = parseCsv(text.slice(1), sep);
      expect(parsed[0]!.slice(-3)).toEqual([...header]);
      expect(parsed.slice(1).map((r) => r.slice(-3))).toEqual([
        [states[0], "", ""],
        [states[1], "2025-01-15", amount],
        [states[2], "2024-12-24", ""],
      ]);
    }
  });

  test("the tax country and province in the reader's language (a code, or a name stored before codes)", () => {
    const subdivisions = indexSubdivisions([
      { id: 2, type: "state", code: "ES-PM", parentId: 1, level: "province", labels: { es: "Illes Balears", en: "Balearic Islands" }, order: 1, active: true },
    ]);
    const rows = [
      rec({ name: "Piso", taxLocation: { country: "ES", state: "ES-PM", city: "Palma" } }),
      rec({ name: "Casa", taxLocation: { country: "ES", state: "Illes Balears" } }),
      rec({ name: "Maison", taxLocation: { country: "FR", state: "Bretagne" } }),
    ];
    for (const [language, t, sep, spain, baleares, france] of [
      ["es", tEs, ";", "España", "Illes Balears", "Francia"],
      ["en", tEn, ",", "Spain", "Balearic Islands", "France"],
    ] as const) {
      const text = assetsCsv(rows, {
        language,
        t,
        classLabel: (c) => classLabelOf(c, language, t),
        categoryLabel: (c, custom) => categoryLabelOf(c, language, t, undefined, custom),
        countryName: intlCountryName(language),
        stateName: (country, state) => subdivisionText(subdivisions, country, state, language),
      });
      const parsed = parseCsv(text.slice(1), sep);
      expect(parsed.slice(1).map((r) => r.slice(10, 13))).toEqual([
        [spain, baleares, "Palma"],
        [spain, baleares, ""],
        [france, "Bretagne", ""],
      ]);
    }
  });

  test("quotes only when needed", () => {
    expect(csvField("plain", ";")).toBe("plain");
    expect(csvField("a;b", ";")).toBe('"a;b"');
    expect(csvField("a,b", ";")).toBe("a,b");
    expect(csvField("a,b", ",")).toBe('"a,b"');
    expect(csvField('say "hi"', ",")).toBe('"say ""hi"""');
    expect(csvField(" padded", ",")).toBe('" padded"');
    expect(toCsv([["a", { text: "1,5" }]], "es")).toBe("\uFEFFa;1,5\r\n");
    expect(toCsv([["a", { text: "1,500" }]], "en")).toBe('\uFEFFa,"1,500"\r\n');
  });
});

describe("valuation age", () => {
  test("days under a month, months under a year, then years; calendar months", () => {
    expect(valuationAge("2025-03-10", "2025-03-10")).toEqual({ unit: "days", count: 0 });
    expect(valuationAge("2025-03-10", "2025-03-11")).toEqual({ unit: "days", count: 1 });
    expect(valuationAge("2025-03-10", "2025-04-09")).toEqual({ unit: "days", count: 30 });
    expect(valuationAge("2025-03-10", "2025-04-10")).toEqual({ unit: "months", count: 1 });
    expect(valuationAge("2025-01-31", "2025-02-28")).toEqual({ unit: "months", count: 1 });
    expect(valuationAge("2025-01-31", "2025-02-27")).toEqual({ unit: "days", count: 27 });
    expect(valuationAge("2024-03-10", "2025-03-09")).toEqual({ unit: "months", count: 11 });
    expect(valuationAge("2024-03-10", "2025-03-10")).toEqual({ unit: "years", count: 1 });
    expect(valuationAge("2020-02-29", "2025-02-28")).toEqual({ unit: "years", count: 5 });
    expect(valuationAge("2025-03-11", "2025-03-10")).toBeUndefined();
    expect(valuationAge("not a date", "2025-03-10")).toBeUndefined();
  });

  test("as text in both languages", () => {
    expect(valuationAgeText(tEs, "2025-03-10", "2025-03-10")).toBe("hoy");
    expect(valuationAgeText(tEs, "2025-03-09", "2025-03-10")).toBe("hace 1 día");
    expect(valuationAgeText(tEs, "2024-12-10", "2025-03-10")).toBe("hace 3 meses");
    expect(valuationAgeText(tEn, "2023-03-10", "2025-03-10")).toBe("2 years ago");
    expect(valuationAgeText(tEn, "2025-04-10", "2025-03-10")).toBe("future date");
  });
});
