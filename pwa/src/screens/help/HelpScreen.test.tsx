// The help screen in a router: the search box against the route's q (audit finding 7: the box takes
// no more than the URL keeps, so a long search is never dropped from the URL and then wiped from the
// box), what a search found is read out, and the entries link to the screens they talk about.
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { describe, expect, onTestFinished, test, vi } from "vitest";
import { HELP_QUERY_MAX, helpSearchSchema } from "../../router/areaRoutes";
import { renderWithI18n } from "../../ui/testing";
import { HelpScreen } from "./HelpScreen";

async function renderHelp(url = "/help") {
  const root = createRootRoute();
  const help = createRoute({ getParentRoute: () => root, path: "/help", validateSearch: (s: Record<string, unknown>) => helpSearchSchema.parse(s), component: HelpScreen });
  const others = ["/tasks", "/logins"].map((path) => createRoute({ getParentRoute: () => root, path, component: () => <p>{path}</p> }));
  const router = createRouter({ routeTree: root.addChildren([help, ...others]), history: createMemoryHistory({ initialEntries: [url] }) });
  await act(async () => {
    renderWithI18n(<RouterProvider router={router} />);
    await router.load();
  });
  return router;
}

describe("help search box", () => {
  test("takes at most the q the route keeps", async () => {
    await renderHelp();
    const box = (await screen.findByTestId("help-search")) as HTMLInputElement;
    expect(box.maxLength).toBe(HELP_QUERY_MAX);
    expect(helpSearchSchema.parse({ q: "a".repeat(HELP_QUERY_MAX) })).toEqual({ q: "a".repeat(HELP_QUERY_MAX) });
    expect(helpSearchSchema.parse({ q: "a".repeat(HELP_QUERY_MAX + 1) })).toEqual({});
  });

  test("a search that finds nothing is read out, not only shown", async () => {
    await renderHelp();
    const box = await screen.findByTestId("help-search");
    const live = screen.getByTestId("help-result-count");
    expect(live.getAttribute("aria-live")).toBe("polite");
    fireEvent.change(box, { target: { value: "llave de acceso" } });
    expect(live.textContent).toMatch(/^\d+ resultados?$/);
    fireEvent.change(box, { target: { value: "xyzzy" } });
    expect(screen.getByTestId("help-no-results")).toBeTruthy();
    expect(live.textContent).toBe("Nada en la ayuda coincide con «xyzzy»");
  });
});

describe("a punctuation-only search", () => {
  test("behaves as an empty one: everything, and no count read out", async () => {
    await renderHelp();
    const box = await screen.findByTestId("help-search");
    const live = screen.getByTestId("help-result-count");
    const all = screen.getAllByTestId("help-entry").length;
    for (const q of ["?", "¿!", "--"]) {
      fireEvent.change(box, { target: { value: q } });
      expect(live.textContent, q).toBe("");
      expect(screen.queryByTestId("help-no-results"), q).toBeNull();
      expect(screen.getAllByTestId("help-entry").length, q).toBe(all);
    }
  });
});

describe("help topics", () => {
  test("clicking the topic already open again brings focus back to its heading", async () => {
    // jsdom does not lay out, and has no scrollIntoView.
    const scroll = vi.fn();
    Object.defineProperty(Element.prototype, "scrollIntoView", { value: scroll, configurable: true });
    onTestFinished(() => void delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView);
    await renderHelp("/help?topic=sync");
    const heading = document.getElementById("help-sync-title")!;
    await waitFor(() => expect(document.activeElement).toBe(heading));
    const box = screen.getByTestId("help-search");
    act(() => box.focus());
    expect(document.activeElement).toBe(box);
    const scrolled = scroll.mock.calls.length;
    await act(async () => fireEvent.click(screen.getByTestId("help-topic-sync")));
    await waitFor(() => expect(document.activeElement).toBe(document.getElementById("help-sync-title")));
    expect(scroll.mock.calls.length).toBeGreaterThan(scrolled);
  });
});

describe("help links", () => {
  test("an entry links to its screen, with the screen's filter; the link opens it", async () => {
    const router = await renderHelp();
    const overdue = screen.getByRole("link", { name: "Ver las tareas vencidas" });
    expect(overdue.getAttribute("href")).toBe("/tasks?overdue=1");
    const vault = within(document.querySelector('[data-entry="security.vault"]') as HTMLElement).getByRole("link", { name: "Accesos" });
    expect(vault.getAttribute("href")).toBe("/logins");
    await act(async () => {
      fireEvent.click(overdue);
      await router.load();
    });
    expect(router.state.location.pathname).toBe("/tasks");
    expect(router.state.location.search).toEqual({ overdue: 1 });
  });
});
