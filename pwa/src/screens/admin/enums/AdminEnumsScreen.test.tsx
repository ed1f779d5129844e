// The enumerations screen through the real app (router, queries, kit), against the fake /api/v1
// with a small in-memory enumeration store that filters like the server (type, parentId, levels).
import type { Enumeration } from "@patrimonio/shared-schema";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { createFakeServer, fakeMe, json, type FakeRoute } from "../../../test/fakeServer";
import { renderApp } from "../../../test/renderApp";

function value(id: number, type: string, code: string, es: string, en: string, order: number, parentId?: number, level = type): Enumeration {
  return { id, type, code, level, labels: { es, en }, order, active: true, ...(parentId ? { parentId } : {}) };
}

function enumStore() {
  const values: Enumeration[] = [
    value(3724, "country", "ES", "España", "Spain", 1),
    value(3250, "country", "FR", "Francia", "France", 2),
    value(10100, "state", "ES-MD", "Madrid, Comunidad de", "Community of Madrid", 1, 3724, "autonomous_community"),
    value(10101, "state", "ES-M", "Madrid", "Madrid", 1, 10100, "province"),
    value(10102, "state", "ES-AN", "Andalucía", "Andalusia", 2, 3724, "autonomous_community"),
    value(10103, "state", "ES-SE", "Sevilla", "Seville", 1, 10102, "province"),
  ];
  const audit: unknown[] = [];
  const descendants = (id: number): Enumeration[] =>
    values.filter((v) => v.parentId === id).flatMap((v) => [v, ...descendants(v.id)]);
  const route: FakeRoute = (method, path, body, _state, { url }) => {
    if (method === "GET" && path === "/enums/types") {
      const types = ["country", "state", "city"].map((type) => {
        const of = values.filter((v) => v.type === type);
        return { type, count: of.length, active: of.length, levels: [...new Set(of.map((v) => v.level))].sort() };
      });
      return json(200, types);
    }
    if (method === "GET" && path === "/enums/") {
      const type = url.searchParams.get("type");
      const parentId = Number(url.searchParams.get("parentId") ?? 0);
      const levels = (url.searchParams.get("levels") ?? "").split(",").filter(Boolean);
      let out = parentId ? (levels.length ? descendants(parentId) : values.filter((v) => v.parentId === parentId)) : values;
      if (type) out = out.filter((v) => v.type === type);
      if (levels.length) out = out.filter((v) => levels.includes(v.level));
      return json(200, [...out].sort((a, b) => a.order - b.order));
    }
    const one = /^\/enums\/id\/(\d+)$/.exec(path);
    if (method === "GET" && one) {
      const found = values.find((v) => v.id === Number(one[1]));
      return found ? json(200, found) : json(404, { error: { code: "not_found", message: "Not found." } });
    }
    if (method === "GET" && path === "/admin/enums/audit") return json(200, audit);
    if (method === "POST" && path === "/admin/enums") {
      const b = body as { type: string; code: string; parentId?: number; labels: { es: string; en: string } };
      if (values.some((v) => v.type === b.type && v.code === b.code)) {
        return json(409, { error: { code: "conflict", message: `Ya existe un valor con el código ${b.code} en este tipo.` } });
      }
      const siblings = values.filter((v) => v.type === b.type && v.parentId === b.parentId);
      const made = value(1_000_000 + values.length, b.type, b.code, b.labels.es, b.labels.en, siblings.length + 1, b.parentId, "autonomous_community");
      values.push(made);
      audit.unshift({ id: audit.length + 1, enumId: made.id, action: "create", actorEmail: "root@example.com", at: "2030-05-01T09:00:00Z", before: null, after: made });
      return json(201, made);
    }
    const put = /^\/admin\/enums\/(\d+)$/.exec(path);
    if (method === "PUT" && put) {
      const v = values.find((x) => x.id === Number(put[1]))!;
      const b = body as { code: string; labels: { es: string; en: string } };
      if (b.code !== v.code) return json(409, { error: { code: "conflict", message: "The code cannot be changed." } });
      v.labels = b.labels;
      return json(200, v);
    }
    if (method === "POST" && path === "/admin/enums/reorder") {
      const b = body as { ids: number[] };
      b.ids.forEach((id, i) => {
        const v = values.find((x) => x.id === id)!;
        v.order = i + 1;
      });
      return json(200, b.ids.map((id) => values.find((v) => v.id === id)));
    }
    return undefined;
  };
  return { values, route };
}

// The route loads the screen lazily: compile it once here, not inside the first test.
beforeAll(async () => {
  await import("./AdminEnumsScreen");
  await import("../AdminLayout");
});

beforeEach(() => {
  // jsdom has no layout: the DataTable's virtualizer needs a viewport size.
  vi.spyOn(Element.prototype, "clientHeight", "get").mockReturnValue(480);
  vi.spyOn(Element.prototype, "clientWidth", "get").mockReturnValue(800);
});
afterEach(() => vi.restoreAllMocks());

function rowNames(): string[] {
  const table = screen.getByRole("table");
  return within(table)
    .getAllByRole("row")
    .filter((r) => r.getAttribute("aria-rowindex") !== "1")
    .map((r) => within(r).getAllByRole("cell")[0]?.textContent ?? "");
}

describe("the enumerations screen", { timeout: 20_000 }, () => {
  test("browses a type and drills into children with a breadcrumb, keeping the view in the URL", async () => {
    const store = enumStore();
    const server = createFakeServer({ me: fakeMe({ user: { isAdmin: true } }), routes: [store.route] });
    const { router } = await renderApp("/admin/enums?type=country", "es", server);

    await waitFor(() => expect(rowNames()).toEqual(["España", "Francia"]));
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Enumeraciones");

    fireEvent.click(screen.getByRole("link", { name: "España" }));
    await waitFor(() => expect(rowNames()).toEqual(["Madrid, Comunidad de", "Andalucía"]));
    expect(router.state.location.search).toEqual({ type: "state", parentId: 3724 });
    const crumbs = screen.getByRole("navigation", { name: "Ruta" });
    expect(within(crumbs).getByRole("link", { name: "Países" })).toBeTruthy();
    expect(within(crumbs).getByText("España").getAttribute("aria-current")).toBe("page");

    // Back up through the breadcrumb.
    fireEvent.click(within(crumbs).getByRole("link", { name: "Países" }));
    await waitFor(() => expect(router.state.location.search).toEqual({ type: "country" }));
  });

  test("filters by levels (descendants at any depth) and searches without accents or case", async () => {
    const store = enumStore();
    const server = createFakeServer({ me: fakeMe({ user: { isAdmin: true } }), routes: [store.route] });
    const { router } = await renderApp("/admin/enums?type=state&parentId=3724", "es", server);
    await waitFor(() => expect(rowNames()).toEqual(["Madrid, Comunidad de", "Andalucía"]));

    // Levels: provinces at any depth under Spain.
    fireEvent.click(screen.getByRole("checkbox", { name: "Provincia" }));
    await waitFor(() => expect(rowNames()).toEqual(["Madrid", "Sevilla"]));
    expect(router.state.location.search).toEqual({ type: "state", parentId: 3724, levels: ["province"] });
    expect(server.state.urls).toContain("/enums/?type=state&parentId=3724&levels=province");

    // Search is accent- and case-insensitive and matches codes too.
    fireEvent.change(screen.getByRole("searchbox"), { target: { value: "SEVI" } });
    await waitFor(() => expect(rowNames()).toEqual(["Sevilla"]));
    fireEvent.change(screen.getByRole("searchbox"), { target: { value: "es-m" } });
    await waitFor(() => expect(rowNames()).toEqual(["Madrid"]));
  });

  test("a URL restores the view: type, parent and levels", async () => {
    const store = enumStore();
    const server = createFakeServer({ me: fakeMe({ user: { isAdmin: true } }), routes: [store.route] });
    await renderApp("/admin/enums?type=state&parentId=3724&levels=province", "en", server);
    await waitFor(() => expect(rowNames()).toEqual(["Madrid", "Seville"]));
    expect((screen.getByRole("checkbox", { name: "Province" }) as HTMLElement).getAttribute("aria-checked")).toBe("true");
    await waitFor(() => expect(within(screen.getByRole("navigation", { name: "Path" })).getByText("Spain")).toBeTruthy());
  });

  test("an admin creates a value with both labels; a taken code is shown on its field", async () => {
    const store = enumStore();
    const server = createFakeServer({ me: fakeMe({ user: { isAdmin: true } }), routes: [store.route] });
    await renderApp("/admin/enums?type=state&parentId=3724", "es", server);
    await waitFor(() => expect(rowNames()).toHaveLength(2));

    fireEvent.click(screen.getByRole("button", { name: "Nuevo valor" }));
    const dialog = await screen.findByRole("dialog");
    // Both labels are required (the shared schema's rule and message).
    fireEvent.click(within(dialog).getByRole("button", { name: "Guardar" }));
    await waitFor(() => expect(within(dialog).getAllByText(/obligatorio|requerido/i).length).toBeGreaterThan(0));
    expect(server.state.calls).not.toContain("POST /admin/enums");

    fireEvent.change(within(dialog).getByLabelText(/Nombre en español/), { target: { value: "Cataluña/Catalunya" } });
    fireEvent.change(within(dialog).getByLabelText(/Nombre en inglés/), { target: { value: "Catalonia" } });
    fireEvent.change(within(dialog).getByLabelText(/Código/), { target: { value: "ES-MD" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Guardar" }));
    await waitFor(() => expect(within(dialog).getByText("Ya existe un valor con el código ES-MD en este tipo.")).toBeTruthy());

    fireEvent.change(within(dialog).getByLabelText(/Código/), { target: { value: "ES-CT" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Guardar" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const posted = server.state.bodies[server.state.calls.lastIndexOf("POST /admin/enums")];
    expect(posted).toEqual({ type: "state", code: "ES-CT", parentId: 3724, labels: { es: "Cataluña/Catalunya", en: "Catalonia" } });
    await waitFor(() => expect(rowNames()).toEqual(["Madrid, Comunidad de", "Andalucía", "Cataluña/Catalunya"]));
    // The audit log shows who did it.
    await waitFor(() => expect(screen.getByTestId("enum-audit").textContent).toContain("root@example.com creó «Cataluña/Catalunya»"));
  });

  test("reaches the cities of a country or a subdivision and adds one there (audit finding 10)", async () => {
    const store = enumStore();
    const server = createFakeServer({ me: fakeMe({ user: { isAdmin: true } }), routes: [store.route] });
    const { router } = await renderApp("/admin/enums?type=country", "es", server);
    await waitFor(() => expect(rowNames()).toEqual(["España", "Francia"]));

    // A country's row menu opens its cities.
    await openRowActions("España");
    await act(async () => fireEvent.click(screen.getByRole("menuitem", { name: "Ver ciudades" })));
    await waitFor(() => expect(router.state.location.search).toEqual({ type: "city", parentId: 3724 }));

    // Drill into a province, then switch from its subdivisions to its cities.
    await act(async () => router.navigate({ to: "/admin/enums", search: { type: "state", parentId: 10100 } }));
    await waitFor(() => expect(rowNames()).toEqual(["Madrid"]));
    fireEvent.click(screen.getByRole("link", { name: "Madrid" }));
    await waitFor(() => expect(router.state.location.search).toEqual({ type: "state", parentId: 10101 }));
    const kinds = screen.getByRole("group", { name: "Qué mostrar" });
    fireEvent.click(within(kinds).getByRole("button", { name: "Ciudades" }));
    await waitFor(() => expect(router.state.location.search).toEqual({ type: "city", parentId: 10101 }));
    expect(within(kinds).getByRole("button", { name: "Ciudades" }).getAttribute("aria-pressed")).toBe("true");

    const create = screen.getByRole("button", { name: "Nuevo valor" });
    expect(create.hasAttribute("disabled")).toBe(false);
    fireEvent.click(create);
    const dialog = await screen.findByRole("dialog");
    fireEvent.change(within(dialog).getByLabelText(/Nombre en español/), { target: { value: "Alcalá de Henares" } });
    fireEvent.change(within(dialog).getByLabelText(/Nombre en inglés/), { target: { value: "Alcalá de Henares" } });
    fireEvent.change(within(dialog).getByLabelText(/Código/), { target: { value: "ES-M-alcala" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Guardar" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const posted = server.state.bodies[server.state.calls.lastIndexOf("POST /admin/enums")];
    expect(posted).toEqual({ type: "city", code: "ES-M-alcala", parentId: 10101, labels: { es: "Alcalá de Henares", en: "Alcalá de Henares" } });
    await waitFor(() => expect(rowNames()).toEqual(["Alcalá de Henares"]));
  });

  test("the edit dialog is titled in the reader's language and shows the code read-only (audit findings 5, 14)", async () => {
    const store = enumStore();
    const server = createFakeServer({ me: fakeMe({ user: { isAdmin: true } }), routes: [store.route] });
    await renderApp("/admin/enums?type=state&parentId=3724", "en", server);
    await waitFor(() => expect(rowNames()).toEqual(["Community of Madrid", "Andalusia"]));

    await openRowActions("Community of Madrid");
    await act(async () => fireEvent.click(screen.getByRole("menuitem", { name: "Edit" })));
    const dialog = await screen.findByRole("dialog", { name: "Edit “Community of Madrid”" });
    const code = within(dialog).getByLabelText(/Code/) as HTMLInputElement;
    expect(code.readOnly).toBe(true);
    expect(code.value).toBe("ES-MD");
    expect(within(dialog).getByText(/cannot be changed once created/)).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText(/English name/), { target: { value: "Madrid Region" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const put = server.state.bodies[server.state.calls.lastIndexOf("PUT /admin/enums/10100")];
    expect(put).toEqual({ code: "ES-MD", labels: { es: "Madrid, Comunidad de", en: "Madrid Region" } });
  });
});

/** Opens the row menu of the value with that label. */
async function openRowActions(label: string) {
  const rowEl = screen.getAllByRole("row").find((r) => within(r).queryAllByRole("cell")[0]?.textContent === label)!;
  const button = within(rowEl).getByRole("button");
  await act(async () => {
    fireEvent.pointerDown(button, { button: 0, pointerType: "mouse" });
  });
  return screen.findByRole("menu");
}
