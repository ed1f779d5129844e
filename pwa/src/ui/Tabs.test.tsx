import { act, fireEvent, screen } from "@testing-library/react";
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { useState } from "react";
import { describe, expect, test } from "vitest";
import { SearchInput } from "./SearchInput";
import { Tab, TabList, TabPanel, Tabs, useSearchParamTab } from "./Tabs";
import { renderWithI18n } from "./testing";

const TABS = ["summary", "valuations", "documents"] as const;

function AssetTabs() {
  const [tab, setTab] = useSearchParamTab("tab", TABS, "summary");
  return (
    <Tabs value={tab} onChange={setTab}>
      <TabList label="Secciones del activo">
        <Tab value="summary">Resumen</Tab>
        <Tab value="valuations">Valoraciones</Tab>
        <Tab value="documents">Documentos</Tab>
      </TabList>
      <TabPanel value="summary">Panel resumen</TabPanel>
      <TabPanel value="valuations">Panel valoraciones</TabPanel>
      <TabPanel value="documents">Panel documentos</TabPanel>
    </Tabs>
  );
}

async function renderAt(url: string) {
  const rootRoute = createRootRoute();
  const assetRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: "/assets/$id",
    validateSearch: (search: Record<string, unknown>) => ({
      ...(typeof search.tab === "string" ? { tab: search.tab } : {}),
      ...(typeof search.q === "string" ? { q: search.q } : {}),
    }),
    component: AssetTabs,
  });
  const router = createRouter({ routeTree: rootRoute.addChildren([assetRoute]), history: createMemoryHistory({ initialEntries: [url] }) });
  await act(async () => {
    renderWithI18n(<RouterProvider router={router} />);
    await router.load();
  });
  return router;
}

describe("Tabs kept in a search param", () => {
  test("the URL picks the tab; an unknown one falls back", async () => {
    await renderAt("/assets/1?tab=valuations");
    expect(screen.getByRole("tab", { name: "Valoraciones" }).getAttribute("aria-selected")).toBe("true");
    expect(screen.getByRole("tabpanel").textContent).toBe("Panel valoraciones");
  });

  test("an unknown value shows the default tab", async () => {
    await renderAt("/assets/1?tab=nope");
    expect(screen.getByRole("tab", { name: "Resumen" }).getAttribute("aria-selected")).toBe("true");
  });

  test("choosing a tab writes it to the URL, keeps other params, and the default removes it", async () => {
    const router = await renderAt("/assets/1?q=piso");
    const tabs = screen.getByRole("tablist", { name: "Secciones del activo" });
    expect(tabs).toBeTruthy();
    await act(async () => {
      fireEvent.mouseDown(screen.getByRole("tab", { name: "Documentos" }), { button: 0 });
    });
    expect(router.state.location.search).toEqual({ q: "piso", tab: "documents" });
    expect(screen.getByRole("tabpanel").textContent).toBe("Panel documentos");
    await act(async () => {
      fireEvent.mouseDown(screen.getByRole("tab", { name: "Resumen" }), { button: 0 });
    });
    expect(router.state.location.search).toEqual({ q: "piso" });
  });
});

describe("SearchInput", () => {
  test("is a named search box; the clear button and Escape empty it", () => {
    function Search() {
      const [q, setQ] = useState("");
      return <SearchInput value={q} onChange={setQ} />;
    }
    renderWithI18n(<Search />);
    const box = screen.getByRole("searchbox", { name: "Buscar" }) as HTMLInputElement;
    expect(screen.queryByRole("button", { name: "Borrar" })).toBeNull();
    fireEvent.change(box, { target: { value: "piso" } });
    fireEvent.click(screen.getByRole("button", { name: "Borrar" }));
    expect(box.value).toBe("");
    expect(document.activeElement).toBe(box);
    fireEvent.change(box, { target: { value: "coche" } });
    fireEvent.keyDown(box, { key: "Escape" });
    expect(box.value).toBe("");
  });
});
