import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { FALLBACK_LANGUAGE, SCHEMA_NAMESPACE, activeLanguage, bindDocumentLanguage, createI18n, createLazyI18n, ensureLanguage } from "./i18n";

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

  test("a Spanish reader gets Spanish texts", async () => {
    browserLanguages(["es-ES"]);
    const { i18n, ready } = createLazyI18n();
    await ready;
    expect(activeLanguage(i18n)).toBe("es");
    expect(i18n.t("sync.state.offline")).toBe("Sin conexión");
    expect(i18n.hasResourceBundle("en", "translation")).toBe(false);
  });
});
