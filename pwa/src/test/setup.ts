// Runs around every pwa test: unmount what was rendered (vitest runs without globals, so
// testing-library cannot do it alone) and give each test a clean document and clean storage.
import { cleanup, configure } from "@testing-library/react";
import { afterAll, afterEach } from "vitest";
import "../i18n/bundled"; // both languages for createI18n

// findBy*/waitFor wait up to 1 s by default; a whole-app render (lazy screens, the device
// database) takes longer than that on two cores that other work shares, and the test then fails
// for nothing. They still return as soon as what they wait for is there.
configure({ asyncUtilTimeout: 5_000 });

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

// sonner removes a dismissed toast on a timer (200 ms, its TIME_BEFORE_UNMOUNT) that unmounting
// does not clear. Fired after the file's jsdom environment is torn down, React's state update finds
// no `window` and Vitest fails the run with an unhandled error (seen once, UpdatePrompt.test.tsx,
// with two workers). So a file that showed a toast lets those timers run before it ends.
const SONNER_REMOVAL_MS = 200;
let toastShown = false;

afterEach(() => {
  if (document.querySelector("[data-sonner-toast]") !== null) toastShown = true;
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

afterAll(async () => {
  if (toastShown) await new Promise((resolve) => setTimeout(resolve, SONNER_REMOVAL_MS + 50));
});
