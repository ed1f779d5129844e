import { act, screen } from "@testing-library/react";
import { describe, expect, test, vi } from "vitest";
import { renderApp } from "../test/renderApp";
import { MAIN_SCROLL_ID, ROUTER_DEFAULTS } from "./config";
import { NotFound, RouteError, RoutePending } from "./fallbacks";

describe("the router", () => {
  test("uses the spec's defaults for preloading, pending views and scroll", async () => {
    const { router } = await renderApp("/", "es");
    expect(router.options).toMatchObject({
      defaultPreload: "intent",
      defaultPreloadDelay: 50,
      defaultPendingMs: 1000,
      defaultPendingMinMs: 500,
      defaultPreloadStaleTime: 30_000,
      scrollRestoration: true,
    });
    expect(router.options).toMatchObject(ROUTER_DEFAULTS);
  });

  test("uses the app's not-found, error and pending views", async () => {
    const { router } = await renderApp("/", "es");
    expect(router.options.defaultNotFoundComponent).toBe(NotFound);
    expect(router.options.defaultErrorComponent).toBe(RouteError);
    expect(router.options.defaultPendingComponent).toBe(RoutePending);
  });

  test("resets exactly the app's main scroll area on navigation", async () => {
    await renderApp("/", "es");
    expect(ROUTER_DEFAULTS.scrollToTopSelectors).toEqual([`#${MAIN_SCROLL_ID}`]);
    const targets = ROUTER_DEFAULTS.scrollToTopSelectors.map((selector) => document.querySelectorAll(selector));
    expect(targets.map((list) => list.length)).toEqual([1]);
    expect(targets[0]?.[0]).toBe(screen.getByTestId("main-scroll"));
    expect(targets[0]?.[0]?.tagName).toBe("MAIN");
  });

  test("a navigation scrolls the main area back to the top", async () => {
    const { router } = await renderApp("/", "es");
    const main = screen.getByTestId("main-scroll");
    const scrollTo = vi.spyOn(main, "scrollTo");
    // An untyped path on purpose (typed navigation only knows existing routes).
    act(() => router.history.push("/somewhere-else"));
    expect(await screen.findByRole("heading", { name: "No encontrado" })).toBeTruthy();
    expect(scrollTo).toHaveBeenCalledWith(expect.objectContaining({ top: 0, left: 0 }));
  });

  test("/ shows the dashboard's empty state", async () => {
    await renderApp("/", "es");
    const empty = screen.getByTestId("dashboard-empty");
    expect(empty.textContent).toContain("Aún no tienes activos");
    expect(screen.getByRole("link", { name: "Panel" }).getAttribute("aria-current")).toBe("page");
  });
});
