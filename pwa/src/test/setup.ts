// Runs around every pwa test: unmount what was rendered (vitest runs without globals, so
// testing-library cannot do it alone) and give each test a clean document and clean storage.
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";
import "../i18n/bundled"; // both languages for createI18n

// jsdom has no scrolling: Element#scrollTo is missing and window.scrollTo only logs "not implemented".
// The router calls both on navigation; tests that care spy on them.
Element.prototype.scrollTo = function scrollTo() {};
window.scrollTo = function scrollTo() {};
// jsdom lays nothing out and has no ResizeObserver; Radix's primitives (radio group, menus, popovers)
// measure with one, and whole-app tests render screens built from them.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  const root = document.documentElement;
  root.className = "";
  root.removeAttribute("data-theme");
  root.removeAttribute("style");
  root.removeAttribute("lang");
  document.head.querySelectorAll('meta[name="theme-color"]').forEach((meta) => meta.remove());
});
