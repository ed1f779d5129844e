// The server's Content-Security-Policy allows scripts from 'self' only, never inline ones.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";

const html = readFileSync(join(import.meta.dirname, "..", "index.html"), "utf8");
const doc = new DOMParser().parseFromString(html, "text/html");

describe("index.html", () => {
  test("has no inline script and no inline event handler", () => {
    const scripts = [...doc.querySelectorAll("script")];
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((s) => !s.getAttribute("src") || s.textContent?.trim()).map((s) => s.outerHTML)).toEqual([]);
    const handlers = [...doc.querySelectorAll("*")].flatMap((el) =>
      [...el.attributes].filter((a) => a.name.startsWith("on")).map((a) => `${el.tagName}[${a.name}]`),
    );
    expect(handlers).toEqual([]);
  });

  test("loads theme-init.js in <head>, synchronously, before any module script", () => {
    const themeInit = doc.head.querySelector('script[src="/theme-init.js"]');
    expect(themeInit).not.toBeNull();
    expect(themeInit?.hasAttribute("async") || themeInit?.hasAttribute("defer")).toBe(false);
    expect(themeInit?.getAttribute("type")).toBeNull();
    const all = [...doc.querySelectorAll("script")];
    expect(all[0]).toBe(themeInit);
  });

  test("paints the brand inside #root while the script loads (React replaces it), hidden from screen readers, with no inline style", () => {
    const shell = doc.querySelector("#root > .boot-shell");
    expect(shell?.getAttribute("aria-hidden")).toBe("true");
    expect(shell?.textContent).toBe("Patrimonio");
    expect(shell?.querySelector("svg")).not.toBeNull();
    expect([...doc.querySelectorAll("[style]")].map((el) => el.outerHTML)).toEqual([]);
  });

  test("starts in Spanish, the app's language", () => {
    expect(doc.documentElement.lang).toBe("es");
  });
});
