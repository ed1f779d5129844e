import { describe, expect, test } from "vitest";
import en from "../i18n/locales/en.json";
import es from "../i18n/locales/es.json";
import { createMemoryHistory } from "@tanstack/react-router";
import { createApiClient } from "../api/client";
import { createQueryClient } from "../query/queryClient";
import { createAppRouter } from "../router/router";
import { createFakeServer } from "../test/fakeServer";
import { NAV_ENTRIES, NAV_ITEMS } from "./navigation";

describe("the sidebar's entries", () => {
  test("are the spec's 'Your Wealth' items, in the spec's order", () => {
    // Spec §2: "Dashboard, Asset List, Wealth Map, Tasks, Liabilities, Flows, Beneficiaries, Logins, Help".
    expect(NAV_ENTRIES.map((e) => en.nav[e.id])).toEqual([
      "Dashboard",
      "Asset List",
      "Wealth Map",
      "Tasks",
      "Liabilities",
      "Flows",
      "Beneficiaries",
      "Logins",
      "Help",
    ]);
    expect(NAV_ENTRIES.map((e) => e.labelKey)).toEqual(NAV_ENTRIES.map((e) => `nav.${e.id}`));
    for (const entry of NAV_ENTRIES) expect(es.nav[entry.id], entry.id).toBeTruthy();
  });

  test("shown are exactly the entries with a screen, in the same order", () => {
    expect(NAV_ITEMS.map((i) => i.id)).toEqual(NAV_ENTRIES.filter((e) => e.to !== null).map((e) => e.id));
    // Each area enables its entry when its screen exists (issue 13 adds them one by one).
    expect(NAV_ITEMS.map((i) => i.id)).toEqual(expect.arrayContaining(["dashboard", "assets", "wealthMap", "tasks", "help"]));
  });

  test("every shown entry leads to a route of the app", () => {
    const router = createAppRouter({
      queryClient: createQueryClient(),
      api: createApiClient({ language: () => "es", fetch: createFakeServer().fetch }),
      history: createMemoryHistory(),
    });
    const paths = Object.keys(router.routesByPath);
    expect(paths).toContain("/profile");
    for (const item of NAV_ITEMS) expect(paths, String(item.to)).toContain(item.to);
  });
});
