import { readdirSync, readFileSync } from "node:fs";
import i18next from "i18next";
import * as z from "zod";
import { describe, expect, it } from "vitest";
import {
  createErrorMap,
  ENUM_LISTS,
  issuesFromError,
  keyErrorMap,
  labelKey,
  MESSAGES,
  messageKeys,
  messageTemplate,
  personalIdentitySchema,
  translate,
  validate,
} from "../src/index";

const placeholders = (s: string) => [...s.matchAll(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g)].map((m) => m[1]).sort();

describe("message files", () => {
  it("have the same keys in Spanish and English", () => {
    expect(messageKeys(MESSAGES.en)).toEqual(messageKeys(MESSAGES.es));
  });

  it("have the same placeholders for every key in both languages", () => {
    for (const key of messageKeys(MESSAGES.es)) {
      expect(placeholders(messageTemplate("en", key)!), key).toEqual(placeholders(messageTemplate("es", key)!));
    }
  });

  it("have no empty message", () => {
    for (const lang of ["es", "en"] as const) {
      for (const key of messageKeys(MESSAGES[lang])) expect(messageTemplate(lang, key)!.trim(), `${lang} ${key}`).not.toBe("");
    }
  });

  it("label every value of every enum in both languages", () => {
    for (const [list, values] of Object.entries(ENUM_LISTS)) {
      for (const value of values) {
        const key = labelKey(list as keyof typeof ENUM_LISTS, value);
        expect(messageTemplate("es", key), key).toBeTypeOf("string");
        expect(messageTemplate("en", key), key).toBeTypeOf("string");
      }
    }
  });

  it("carry the spec's exact Spanish personal-identity messages", () => {
    expect(translate("es", "validation.personalIdentity.firstNameRequired")).toBe("El primer nombre es requerido");
    expect(translate("es", "validation.personalIdentity.lastNameRequired")).toBe("El apellido es requerido");
    expect(translate("es", "validation.personalIdentity.birthdayRequired")).toBe("La fecha de nacimiento es requerida");
    expect(translate("es", "validation.personalIdentity.genderRequired")).toBe("El sexo es requerido");
    expect(translate("es", "validation.personalIdentity.countryRequired")).toBe("El país es requerido");
    expect(translate("es", "validation.personalIdentity.stateRequired")).toBe("La provincia es requerida");
  });

  it("hold every message key the TypeScript and Go sources use", () => {
    const dir = new URL("../", import.meta.url);
    const sources = [
      ...readdirSync(new URL("src/", dir)).map((f) => `src/${f}`),
      ...readdirSync(dir).filter((f) => f.endsWith(".go")),
    ].filter((f) => /\.(ts|go)$/.test(f) && !f.endsWith(".test.ts") && !f.endsWith("_test.go"));
    const used = new Set<string>();
    for (const file of sources) {
      for (const m of readFileSync(new URL(file, dir), "utf8").matchAll(/"(validation\.[A-Za-z.]+[A-Za-z])"/g)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(20);
    for (const key of used) expect(messageTemplate("es", key), key).toBeTypeOf("string");
  });

  it("hold a message for every format and JSON type the schemas can report", () => {
    const formats = new Set<string>();
    for (const f of readdirSync(new URL("../jsonschema/", import.meta.url))) {
      const text = readFileSync(new URL(`../jsonschema/${f}`, import.meta.url), "utf8");
      for (const m of text.matchAll(/"format": "([^"]+)"/g)) formats.add(m[1]!);
    }
    for (const f of formats) expect(messageTemplate("es", `validation.format.${f}`), f).toBeTypeOf("string");
    for (const t of ["string", "number", "integer", "boolean", "object", "array"]) {
      expect(messageTemplate("es", `validation.type.${t}`), t).toBeTypeOf("string");
    }
  });
});

describe("translating issues", () => {
  it("fills params", () => {
    expect(translate("es", "validation.percent.remaining", { remaining: 12.5 })).toBe("Faltan 12.5% para llegar al 100%");
    expect(translate("en", "validation.string.max", { max: 140 })).toBe("Must have at most 140 characters");
  });

  it("gives back an unknown key as is", () => {
    expect(translate("es", "validation.nope")).toBe("validation.nope");
  });

  it("works through i18next with createErrorMap", async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: "es", fallbackLng: "es", resources: {} });
    // As README.md tells the PWA to do it: a "schema" namespace.
    i18n.addResourceBundle("es", "schema", MESSAGES.es);
    i18n.addResourceBundle("en", "schema", MESSAGES.en);
    const map = createErrorMap((key, params) => i18n.t(key, { ...params, ns: "schema" }));
    const messagesOf = (input: unknown) =>
      personalIdentitySchema.safeParse(input, { error: map }).error?.issues.map((i) => [i.path.join("."), i.message]);

    expect(messagesOf({ first_name: "", last_name: "x".repeat(257), birthday: "1980-01-01", gender: "female", country: "ES" })).toEqual([
      ["first_name", "El primer nombre es requerido"],
      ["last_name", "Debe tener como máximo 256 caracteres"],
      ["state", "La provincia es requerida"],
    ]);
    await i18n.changeLanguage("en");
    expect(messagesOf({ first_name: "Ana", last_name: "Ruiz", birthday: "1980-01-01", gender: "female", country: "ES" })).toEqual([
      ["state", "State or province is required"],
    ]);
    expect(i18n.t(labelKey("assetClass", "real_estate"), { ns: "schema" })).toBe("Real estate");
  });

  it("can be installed globally with z.config", () => {
    const before = z.config().customError;
    z.config({ customError: createErrorMap((key, params) => translate("en", key, params)) });
    try {
      const result = z.strictObject({ name: z.string().max(3) }).safeParse({ name: "abcd", x: 1 });
      expect(result.error?.issues.map((i) => i.message)).toEqual(["Must have at most 3 characters", "Unknown field"]);
    } finally {
      z.config({ customError: before });
    }
  });

  it("turns errors parsed with keyErrorMap into issues, and others as well as it can", () => {
    const input = { first_name: "", last_name: "Ruiz", birthday: "1980-01-01", gender: "female", country: "ES", state: "Madrid", x: 1 };
    const keyed = personalIdentitySchema.safeParse(input, { error: keyErrorMap });
    expect(issuesFromError(keyed.error!)).toEqual([
      { path: "first_name", key: "validation.personalIdentity.firstNameRequired", params: {} },
      { path: "x", key: "validation.unknownField", params: {} },
    ]);
    const { state: _state, ...withoutState } = input;
    const plain = personalIdentitySchema.safeParse({ ...withoutState, last_name: "r".repeat(257) });
    expect(issuesFromError(plain.error!)).toEqual([
      { path: "first_name", key: "validation.personalIdentity.firstNameRequired", params: {} },
      { path: "last_name", key: "validation.string.max", params: { max: 256 } },
      // A missing field's override lives on the schema, which a finished issue no longer holds.
      { path: "state", key: "validation.required", params: {} },
      { path: "x", key: "validation.unknownField", params: {} },
    ]);
  });

  it("reports keys, not values: a login secret never appears in an issue", () => {
    const secret = "hunter2-hunter2-" + "s".repeat(1000);
    const result = validate("login", { institution: "Banco", secret });
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).not.toContain("hunter2");
  });
});
