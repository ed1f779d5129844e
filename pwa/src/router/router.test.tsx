// The dashboard reads the device database: the file gets one (jsdom has none).
import "../test/deviceDatabase";
import { act, screen } from "@testing-library/react";
import { describe, expect, test, vi } from "vitest";
import { renderApp } from "../test/renderApp";
import { createFakeServer } from "../test/fakeServer";
import { MAIN_SCROLL_ID, PUBLIC_SCROLL_ID, ROUTER_DEFAULTS } from "./config";
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

  test("resets exactly the scroll area of the layout on navigation: the app's <main>, or the plain page", async () => {
    expect(ROUTER_DEFAULTS.scrollToTopSelectors).toEqual([`#${MAIN_SCROLL_ID}`, `#${PUBLIC_SCROLL_ID}`]);
    const count = () => ROUTER_DEFAULTS.scrollToTopSelectors.map((selector) => document.querySelectorAll(selector).length);

    const app = await renderApp("/", "es");
    await screen.findByTestId("dashboard-empty");
    expect(count()).toEqual([1, 0]);
    expect(document.querySelector(`#${MAIN_SCROLL_ID}`)).toBe(screen.getByTestId("main-scroll"));
    expect(screen.getByTestId("main-scroll").tagName).toBe("MAIN");
    app.unmount();

    await renderApp("/signin", "es", createFakeServer({ me: null }));
    await screen.findByRole("heading", { name: "Iniciar sesión" });
    // The plain layout scrolls as a whole; its <main> is inside it.
    expect(count()).toEqual([1, 1]);
    expect(document.querySelector(`#${PUBLIC_SCROLL_ID}`)?.contains(screen.getByTestId("main-scroll"))).toBe(true);
  });

  test("a navigation scrolls the main area back to the top", async () => {
    const { router } = await renderApp("/", "es");
    const main = await screen.findByTestId("main-scroll");
    const scrollTo = vi.spyOn(main, "scrollTo");
    await act(() => router.navigate({ to: "/profile" }));
    expect(await screen.findByRole("heading", { name: "Perfil", level: 1 })).toBeTruthy();
    // The same shell stays; its main area went back to the top.
    expect(screen.getByTestId("main-scroll")).toBe(main);
    expect(scrollTo).toHaveBeenCalledWith(expect.objectContaining({ top: 0, left: 0 }));
  });

  test("/ shows the dashboard's empty state", async () => {
    await renderApp("/", "es");
    const empty = await screen.findByTestId("dashboard-empty");
    expect(empty.textContent).toContain("Aún no tienes activos");
    expect(screen.getByRole("link", { name: "Panel" }).getAttribute("aria-current")).toBe("page");
  });
});

describe("the spec's search params", () => {
  test("/admin/enums: type (text), parentId (number), levels (list of text); what does not parse is dropped", async () => {
    const { adminEnumsSearchSchema } = await import("./appRoutes");
    expect(adminEnumsSearchSchema.parse({ type: "state", parentId: "3724", levels: ["province"] })).toEqual({
      type: "state",
      parentId: 3724,
      levels: ["province"],
    });
    expect(adminEnumsSearchSchema.parse({ parentId: 12 })).toEqual({ parentId: 12 });
    // A list given as "a,b" in the URL is split; a parentId that is not a positive whole number is dropped.
    expect(adminEnumsSearchSchema.parse({ parentId: "x", levels: "province,city" })).toEqual({ levels: ["province", "city"] });
    expect(adminEnumsSearchSchema.parse({ parentId: -1 })).toEqual({});
  });
});
