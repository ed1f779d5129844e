import { fireEvent, render, screen } from "@testing-library/react";
import { I18nextProvider, useTranslation } from "react-i18next";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { FALLBACK_LANGUAGE, SCHEMA_NAMESPACE, activeLanguage, bindDocumentLanguage, createI18n } from "./i18n";
import { createLazyI18n, ensureLanguage, ensureSections, lazySections } from "./loading";
import en from "./locales/en.json";
import es from "./locales/es.json";
import { sectionsForMatches } from "./routeLocales";
import { useLanguage } from "./useLanguage";
import { CORE_SECTIONS } from "./sections";

function browserLanguages(languages: string[]) {
  vi.spyOn(navigator, "languages", "get").mockReturnValue(languages);
  vi.spyOn(navigator, "language", "get").mockReturnValue(languages[0] ?? "");
}

function clearCookie() {
  document.cookie = "i18next=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/";
}

beforeEach(() => {
  window.history.replaceState(null, "", "/");
  clearCookie();
});

afterEach(() => {
  vi.restoreAllMocks();
  clearCookie();
});

describe("language detection", () => {
  test("a Spanish browser (es-ES) gets Spanish, cached as plain es", () => {
    browserLanguages(["es-ES", "es"]);
    const i18n = createI18n();
    expect(activeLanguage(i18n)).toBe("es");
    expect(i18n.t("nav.title")).toBe("Tu patrimonio");
    expect(localStorage.getItem("i18nextLng")).toBe("es");
  });

  test("an English browser (en-US) gets English", () => {
    browserLanguages(["en-US", "en"]);
    const i18n = createI18n();
    expect(activeLanguage(i18n)).toBe("en");
    expect(i18n.t("nav.title")).toBe("Your Wealth");
  });

  test("an unsupported language falls back to Spanish", () => {
    browserLanguages(["fr-FR", "de"]);
    const i18n = createI18n();
    expect(FALLBACK_LANGUAGE).toBe("es");
    expect(activeLanguage(i18n)).toBe("es");
    expect(i18n.t("dashboard.empty.title")).toBe("Aún no tienes activos");
  });

  test("?lng= wins over everything else and is cached", () => {
    browserLanguages(["es-ES"]);
    localStorage.setItem("i18nextLng", "es");
    document.cookie = "i18next=es; path=/";
    window.history.replaceState(null, "", "/?lng=en");
    const i18n = createI18n();
    expect(activeLanguage(i18n)).toBe("en");
    expect(localStorage.getItem("i18nextLng")).toBe("en");
  });

  test("the i18next cookie wins over localStorage and the browser", () => {
    browserLanguages(["es-ES"]);
    localStorage.setItem("i18nextLng", "es");
    document.cookie = "i18next=en; path=/";
    expect(activeLanguage(createI18n())).toBe("en");
  });

  test("localStorage i18nextLng wins over the browser", () => {
    browserLanguages(["es-ES"]);
    localStorage.setItem("i18nextLng", "en");
    expect(activeLanguage(createI18n())).toBe("en");
  });

  test("sessionStorage wins over the browser", () => {
    browserLanguages(["es-ES"]);
    sessionStorage.setItem("i18nextLng", "en");
    expect(activeLanguage(createI18n())).toBe("en");
  });

  test("<html lang> is the last resort before the fallback", () => {
    browserLanguages([]);
    document.documentElement.lang = "en";
    expect(activeLanguage(createI18n())).toBe("en");
  });
});

describe("bindDocumentLanguage", () => {
  test("keeps <html lang> equal to the active language", async () => {
    const i18n = createI18n({ lng: "es" });
    const unbind = bindDocumentLanguage(i18n, document.documentElement);
    expect(document.documentElement.lang).toBe("es");
    await i18n.changeLanguage("en");
    expect(document.documentElement.lang).toBe("en");
    await i18n.changeLanguage("es-ES");
    expect(document.documentElement.lang).toBe("es");
    unbind();
    await i18n.changeLanguage("en");
    expect(document.documentElement.lang).toBe("es");
  });
});

describe("the app's instance (createLazyI18n)", () => {
  test("loads only the detected language's texts, and the other one when asked", async () => {
    browserLanguages(["en-GB", "en"]);
    const { i18n, ready } = createLazyI18n();
    await ready;
    expect(activeLanguage(i18n)).toBe("en");
    expect(i18n.hasResourceBundle("en", "translation")).toBe(true);
    expect(i18n.hasResourceBundle("en", SCHEMA_NAMESPACE)).toBe(true);
    expect(i18n.hasResourceBundle("es", "translation")).toBe(false);
    expect(i18n.t("sync.state.offline")).toBe("Offline");

    await ensureLanguage(i18n, "es");
    await i18n.changeLanguage("es");
    expect(activeLanguage(i18n)).toBe("es");
    expect(i18n.t("sync.state.offline")).toBe("Sin conexión");
    expect(i18n.hasResourceBundle("es", SCHEMA_NAMESPACE)).toBe(true);
  });

  test("starts with the core sections only; a lazy section comes when asked, in every loaded language", async () => {
    browserLanguages(["es-ES"]);
    const { i18n, ready } = createLazyI18n();
    await ready;
    expect(i18n.t("auth.signIn.title")).toBe(es.auth.signIn.title);
    expect(i18n.exists("dashboard.empty.title")).toBe(false);

    await ensureSections(i18n, ["dashboard", "auth"]); // "auth" is core: ignored
    expect(i18n.t("dashboard.empty.title")).toBe("Aún no tienes activos");
    expect(i18n.exists("assetDetail.tabs.details")).toBe(false);

    // The other language brings its core and the sections loaded so far.
    await ensureLanguage(i18n, "en");
    await i18n.changeLanguage("en");
    expect(i18n.t("dashboard.empty.title")).toBe(en.dashboard.empty.title);
    expect(i18n.t("auth.signIn.title")).toBe(en.auth.signIn.title);

    await ensureSections(i18n, "all");
    expect(i18n.getResourceBundle("en", "translation")).toEqual(en);
    expect(i18n.getResourceBundle("es", "translation")).toEqual(es);
  });

  test("a text of a section nobody asked for loads its section (the safety net for undeclared use)", async () => {
    browserLanguages(["es-ES"]);
    const { i18n, ready } = createLazyI18n();
    await ready;
    const added = vi.fn();
    i18n.store.on("added", added);
    expect(i18n.t("dashboard.empty.title")).toBe("dashboard.empty.title");
    await vi.waitFor(() => expect(i18n.t("dashboard.empty.title")).toBe("Aún no tienes activos"));
    expect(added).toHaveBeenCalledWith("es", "translation", expect.objectContaining({ dashboard: es.dashboard }));
  });

  test("a Spanish reader gets Spanish texts", async () => {
    browserLanguages(["es-ES"]);
    const { i18n, ready } = createLazyI18n();
    await ready;
    expect(activeLanguage(i18n)).toBe("es");
    expect(i18n.t("sync.state.offline")).toBe("Sin conexión");
    expect(i18n.hasResourceBundle("en", "translation")).toBe(false);
  });
});

describe("the split of the locale files", () => {
  test("every top-level section is either core or its own lazy chunk, none both", () => {
    const core = new Set<string>(CORE_SECTIONS);
    for (const section of CORE_SECTIONS) expect(Object.keys(es)).toContain(section);
    expect(lazySections.filter((s) => core.has(s))).toEqual([]);
    expect([...core, ...lazySections].sort()).toEqual(Object.keys(es).sort());
  });

  test("a route's sections are its matches' union; all of them when the deepest route declares none", () => {
    expect(sectionsForMatches([{ staticData: {} }, { staticData: { locales: ["workspaces"] } }, { staticData: { locales: ["dashboard", "money"] } }])).toEqual([
      "workspaces",
      "dashboard",
      "money",
    ]);
    expect(sectionsForMatches([{ staticData: { locales: ["workspaces"] } }, { staticData: {} }])).toBe("all");
    expect(sectionsForMatches([{ staticData: { locales: [] } }])).toEqual([]);
    expect(sectionsForMatches([])).toBe("all");
  });
});

describe("useLanguage on the app's instance", () => {
  test("switching loads the other language's texts and the whole app follows", async () => {
    browserLanguages(["es-ES"]);
    const { i18n, ready } = createLazyI18n();
    await ready;
    await ensureSections(i18n, ["dashboard"]);
    function Switch() {
      const { t } = useTranslation();
      const { language, setLanguage } = useLanguage();
      return (
        <button type="button" onClick={() => setLanguage(language === "es" ? "en" : "es")}>
          {t("dashboard.empty.title")}
        </button>
      );
    }
    render(
      <I18nextProvider i18n={i18n}>
        <Switch />
      </I18nextProvider>,
    );
    fireEvent.click(screen.getByRole("button", { name: "Aún no tienes activos" }));
    expect(await screen.findByRole("button", { name: en.dashboard.empty.title })).toBeTruthy();
    expect(activeLanguage(i18n)).toBe("en");
  });
});

describe("numbers in texts", () => {
  test("{{count}} and the other numbers are written the reader's way; the plural still follows the number", () => {
    const es = createI18n({ lng: "es" });
    expect(es.t("assetList.summary.count", { count: 10000 })).toBe("10.000 activos");
    expect(es.t("assetList.summary.count", { count: 1 })).toBe("1 activo");
    expect(es.t("assetList.summary.found", { count: 1234, total: 10000 })).toBe("1.234 de 10.000 activos");
    expect(es.t("assetDetail.delete.valuations", { count: 1500 })).toBe("Se eliminan 1.500 valoraciones de su historial.");
    const en = createI18n({ lng: "en" });
    expect(en.t("assetList.summary.count", { count: 10000 })).toBe("10,000 assets");
    expect(en.t("assetList.summary.count", { count: 1 })).toBe("1 asset");
    expect(en.t("assetList.summary.found", { count: 0.5, total: 2 })).toBe("0.5 of 2 assets");
  });

  test("a text (a year, a line of a file, a code passed as a string) is left as it is", () => {
    const es = createI18n({ lng: "es" });
    expect(es.t("statementImport.errors.atLine", { line: "1234", text: "x" })).toBe("Línea 1234: x");
  });
});
