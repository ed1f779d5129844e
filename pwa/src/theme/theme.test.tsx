import { act, fireEvent, render, screen } from "@testing-library/react";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { I18nextProvider } from "react-i18next";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createI18n } from "../i18n/i18n";
import { ThemeSwitch } from "../shell/ThemeSwitch";
import {
  DARK_SCHEME_QUERY,
  THEME_COLORS,
  THEME_STORAGE_KEY,
  applyTheme,
  parseThemePreference,
  readThemePreference,
  resolveTheme,
  type ThemePreference,
} from "./theme";
import { ThemeProvider } from "./ThemeProvider";

/** A stand-in for the OS colour-scheme query (jsdom has no matchMedia), switchable by the test. */
class FakeDarkQuery extends EventTarget {
  readonly media = DARK_SCHEME_QUERY;
  onchange = null;
  constructor(public matches: boolean) {
    super();
  }
  setMatches(matches: boolean) {
    this.matches = matches;
    this.dispatchEvent(new Event("change"));
  }
  addListener() {}
  removeListener() {}
}

function fakeMatchMedia(query: FakeDarkQuery) {
  return (media: string) => {
    expect(media).toBe(DARK_SCHEME_QUERY);
    return query as unknown as MediaQueryList;
  };
}

function htmlTheme() {
  const root = document.documentElement;
  return {
    dataTheme: root.dataset.theme,
    darkClass: root.classList.contains("dark"),
    colorScheme: root.style.colorScheme,
    themeColor: document.querySelector('meta[name="theme-color"]')?.getAttribute("content"),
  };
}

beforeEach(() => {
  const meta = document.createElement("meta");
  meta.name = "theme-color";
  meta.content = "#000000";
  document.head.append(meta);
});

describe("resolveTheme", () => {
  test.each([
    ["system follows a dark OS", "system", true, "dark"],
    ["system follows a light OS", "system", false, "light"],
    ["an explicit light choice wins over a dark OS", "light", true, "light"],
    ["an explicit dark choice wins over a light OS", "dark", false, "dark"],
  ] as const)("%s", (_name, preference, systemDark, expected) => {
    expect(resolveTheme(preference, systemDark)).toBe(expected);
  });
});

describe("the stored preference", () => {
  test.each([
    [null, "system"],
    ["dark", "dark"],
    ["light", "light"],
    ["system", "system"],
    ["purple", "system"],
    ["DARK", "system"],
  ] as const)("%j reads as %s", (raw, expected) => {
    expect(parseThemePreference(raw)).toBe(expected);
  });

  test("storage that throws reads as system", () => {
    const blocked = {
      getItem(): string | null {
        throw new DOMException("blocked", "SecurityError");
      },
    };
    expect(readThemePreference(blocked)).toBe("system");
  });
});

describe("applyTheme", () => {
  test("dark sets the class, data-theme, color-scheme and the theme-color meta", () => {
    applyTheme(document, "dark");
    expect(htmlTheme()).toEqual({ dataTheme: "dark", darkClass: true, colorScheme: "dark", themeColor: THEME_COLORS.dark });
    applyTheme(document, "light");
    expect(htmlTheme()).toEqual({ dataTheme: "light", darkClass: false, colorScheme: "light", themeColor: THEME_COLORS.light });
  });
});

describe("ThemeProvider", () => {
  const i18n = createI18n({ lng: "es" });

  function renderSwitch(query: FakeDarkQuery) {
    return render(
      <ThemeProvider matchMedia={fakeMatchMedia(query)}>
        <I18nextProvider i18n={i18n}>
          <ThemeSwitch />
        </I18nextProvider>
      </ThemeProvider>,
    );
  }

  test("with nothing stored, follows the OS and keeps following it live", () => {
    const os = new FakeDarkQuery(true);
    renderSwitch(os);
    expect(screen.getByTestId("theme-switch")).toHaveProperty("value", "system");
    expect(htmlTheme().dataTheme).toBe("dark");
    expect(htmlTheme().darkClass).toBe(true);

    act(() => os.setMatches(false));
    expect(htmlTheme().dataTheme).toBe("light");
    expect(htmlTheme().darkClass).toBe(false);

    act(() => os.setMatches(true));
    expect(htmlTheme().dataTheme).toBe("dark");
  });

  test("a stored preference wins over the OS, and OS changes do not move it", () => {
    localStorage.setItem(THEME_STORAGE_KEY, "light");
    const os = new FakeDarkQuery(true);
    renderSwitch(os);
    expect(screen.getByTestId("theme-switch")).toHaveProperty("value", "light");
    expect(htmlTheme().dataTheme).toBe("light");
    act(() => os.setMatches(false));
    act(() => os.setMatches(true));
    expect(htmlTheme().dataTheme).toBe("light");
  });

  test("choosing in the switch applies the theme and stores it", () => {
    const os = new FakeDarkQuery(false);
    renderSwitch(os);
    fireEvent.change(screen.getByTestId("theme-switch"), { target: { value: "dark" } });
    expect(htmlTheme().dataTheme).toBe("dark");
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("dark");

    fireEvent.change(screen.getByTestId("theme-switch"), { target: { value: "system" } });
    expect(htmlTheme().dataTheme).toBe("light");
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("system");
  });

  test("the switch offers light, dark and system, labelled in the active language", () => {
    renderSwitch(new FakeDarkQuery(false));
    const select = screen.getByRole("combobox", { name: "Tema" });
    const options = [...select.querySelectorAll("option")].map((o) => [o.value, o.textContent]);
    expect(options).toEqual([
      ["light", "Claro"],
      ["dark", "Oscuro"],
      ["system", "Sistema"],
    ]);
  });

  test("a change made in another tab is followed", () => {
    renderSwitch(new FakeDarkQuery(false));
    act(() => {
      localStorage.setItem(THEME_STORAGE_KEY, "dark");
      window.dispatchEvent(new StorageEvent("storage", { key: THEME_STORAGE_KEY, newValue: "dark" }));
    });
    expect(htmlTheme().dataTheme).toBe("dark");
  });
});

describe("public/theme-init.js (runs before first paint)", () => {
  const source = readFileSync(join(import.meta.dirname, "..", "..", "public", "theme-init.js"), "utf8");
  const originalMatchMedia = window.matchMedia;

  afterEach(() => {
    window.matchMedia = originalMatchMedia;
  });

  const cases: [ThemePreference | null | "junk", boolean][] = [];
  for (const stored of [null, "junk", "light", "dark", "system"] as const) {
    for (const systemDark of [false, true]) cases.push([stored, systemDark]);
  }

  test.each(cases)("stored %j with a dark OS %s: marks <html> as the app would", (stored, systemDark) => {
    if (stored !== null) localStorage.setItem(THEME_STORAGE_KEY, stored);
    window.matchMedia = fakeMatchMedia(new FakeDarkQuery(systemDark));

    new Function(source)();
    const fromScript = htmlTheme();

    applyTheme(document, resolveTheme(readThemePreference(localStorage), systemDark));
    expect(fromScript).toEqual(htmlTheme());
  });

  test("without matchMedia it falls back to light", () => {
    window.matchMedia = undefined as unknown as typeof window.matchMedia;
    new Function(source)();
    expect(htmlTheme().dataTheme).toBe("light");
  });
});
