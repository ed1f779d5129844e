import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { DataTable, type DataTableColumn } from "./DataTable";
import { MenuItem } from "./DropdownMenu";
import { renderWithI18n } from "./testing";

interface Asset {
  id: string;
  name: string;
  value: string;
}

const ROWS: Asset[] = Array.from({ length: 10_000 }, (_, i) => ({
  id: `a${i}`,
  name: `Activo ${String(i).padStart(5, "0")}`,
  // Decimal strings whose text order differs from their numeric order.
  value: i % 2 === 0 ? `${i}.5` : `${(i * 7) % 1000}.25`,
}));

const COLUMNS: DataTableColumn<Asset>[] = [
  { id: "name", header: "Nombre", cell: (a) => a.name, sortValue: (a) => a.name, width: "2fr" },
  { id: "value", header: "Valor", cell: (a) => a.value, sortValue: (a) => a.value, sortType: "decimal", align: "end" },
  { id: "id", header: "Id", cell: (a) => a.id },
];

// jsdom has no layout: give elements the size a browser would so the virtualizer sees a 480 px viewport.
beforeEach(() => {
  vi.spyOn(Element.prototype, "clientHeight", "get").mockReturnValue(480);
  vi.spyOn(Element.prototype, "clientWidth", "get").mockReturnValue(800);
});
afterEach(() => vi.restoreAllMocks());

function bodyRows() {
  return screen.getAllByRole("row").filter((r) => r.getAttribute("aria-rowindex") !== "1");
}

describe("DataTable", () => {
  test("10,000 rows: the table says so, but only a window of them is in the DOM", () => {
    renderWithI18n(<DataTable label="Activos" rows={ROWS} columns={COLUMNS} rowKey={(a) => a.id} />);
    const table = screen.getByRole("table", { name: "Activos" });
    expect(table.getAttribute("aria-rowcount")).toBe("10001");
    expect(table.getAttribute("aria-colcount")).toBe("3");
    // The count below the table is grouped the Spanish way.
    expect(screen.getByText("10.000 filas")).toBeTruthy();
    const rendered = bodyRows();
    expect(rendered.length).toBeGreaterThan(5);
    expect(rendered.length).toBeLessThan(40);
    expect(rendered[0]!.getAttribute("aria-rowindex")).toBe("2");
    expect(within(rendered[0]!).getAllByRole("cell").map((c) => c.textContent)).toEqual(["Activo 00000", "0.5", "a0"]);
  });

  test("scrolling renders another window, with its row indexes", () => {
    renderWithI18n(<DataTable label="Activos" rows={ROWS} columns={COLUMNS} rowKey={(a) => a.id} />);
    const viewport = screen.getByRole("region", { name: "Activos" });
    act(() => {
      viewport.scrollTop = 44 * 5000;
      fireEvent.scroll(viewport);
    });
    const indexes = bodyRows().map((r) => Number(r.getAttribute("aria-rowindex")));
    expect(indexes.length).toBeLessThan(40);
    expect(indexes).toContain(5002);
    expect(Math.min(...indexes)).toBeGreaterThan(4900);
  });

  test("the row that holds focus stays rendered while scrolled out of the window, until focus leaves the table", () => {
    renderWithI18n(
      <>
        <DataTable label="Activos" rows={ROWS} columns={COLUMNS} rowKey={(a) => a.id} rowLabel={(a) => a.name} rowActions={() => <MenuItem onSelect={() => undefined}>Editar</MenuItem>} />
        <button type="button">Fuera</button>
      </>,
    );
    const viewport = screen.getByRole("region", { name: "Activos" });
    const actions = screen.getByRole("button", { name: "Acciones de Activo 00001" });
    act(() => actions.focus());
    const scrollTo = (top: number) =>
      act(() => {
        viewport.scrollTop = top;
        fireEvent.scroll(viewport);
      });
    scrollTo(44 * 5000);
    const indexes = () => bodyRows().map((r) => Number(r.getAttribute("aria-rowindex")));
    // The window moved, and row 3 (Activo 00001) is still there, focused, in its place in the order.
    expect(Math.min(...indexes().filter((i) => i !== 3))).toBeGreaterThan(4900);
    expect(indexes()[0]).toBe(3);
    expect(actions.isConnected).toBe(true);
    expect(document.activeElement).toBe(actions);
    // Focus elsewhere: the next window no longer keeps it.
    act(() => screen.getByRole("button", { name: "Fuera" }).focus());
    scrollTo(44 * 6000);
    expect(indexes()).not.toContain(3);
  });

  test("sorting: aria-sort on the header, ascending then descending, decimals in numeric order", () => {
    const rows = ROWS.slice(0, 5);
    renderWithI18n(<DataTable label="Activos" rows={rows} columns={COLUMNS} rowKey={(a) => a.id} />);
    const headers = screen.getAllByRole("columnheader");
    expect(headers.map((h) => h.getAttribute("aria-sort"))).toEqual(["none", "none", null]);
    // "Id" is not sortable: no button.
    expect(within(headers[2]!).queryByRole("button")).toBeNull();

    fireEvent.click(within(headers[1]!).getByRole("button", { name: "Valor" }));
    expect(headers[1]!.getAttribute("aria-sort")).toBe("ascending");
    expect(headers[0]!.getAttribute("aria-sort")).toBe("none");
    // 0.5, 7.25, 2.5, 21.25, 4.5 → numeric order (as text "21.25" < "4.5" < "7.25" would be wrong).
    const values = () => bodyRows().map((r) => within(r).getAllByRole("cell")[1]!.textContent);
    expect(values()).toEqual(["0.5", "2.5", "4.5", "7.25", "21.25"]);

    fireEvent.click(within(headers[1]!).getByRole("button", { name: "Valor" }));
    expect(headers[1]!.getAttribute("aria-sort")).toBe("descending");
    expect(values()).toEqual(["21.25", "7.25", "4.5", "2.5", "0.5"]);
  });

  test("sorting 10,000 rows by name descending shows the last ones first", () => {
    renderWithI18n(<DataTable label="Activos" rows={ROWS} columns={COLUMNS} rowKey={(a) => a.id} defaultSort={{ column: "name", direction: "descending" }} />);
    expect(screen.getAllByRole("columnheader")[0]!.getAttribute("aria-sort")).toBe("descending");
    expect(within(bodyRows()[0]!).getAllByRole("cell")[0]!.textContent).toBe("Activo 09999");
  });

  test("row actions: a named menu button per row", async () => {
    const onEdit = vi.fn();
    renderWithI18n(
      <DataTable
        label="Activos"
        rows={ROWS.slice(0, 3)}
        columns={COLUMNS}
        rowKey={(a) => a.id}
        rowLabel={(a) => a.name}
        rowActions={(a) => <MenuItem onSelect={() => onEdit(a.id)}>Editar</MenuItem>}
      />,
    );
    expect(screen.getByRole("table").getAttribute("aria-colcount")).toBe("4");
    const button = screen.getByRole("button", { name: "Acciones de Activo 00001" });
    await act(async () => {
      fireEvent.pointerDown(button, { button: 0, pointerType: "mouse" });
    });
    const menu = await screen.findByRole("menu");
    await act(async () => fireEvent.click(within(menu).getByRole("menuitem", { name: "Editar" })));
    expect(onEdit).toHaveBeenCalledWith("a1");
  });

  describe("a row that goes away with focus in it", () => {
    function Table({ rows }: { rows: Asset[] }) {
      return (
        <DataTable
          label="Activos"
          rows={rows}
          columns={COLUMNS}
          rowKey={(a) => a.id}
          rowLabel={(a) => a.name}
          rowActions={() => <MenuItem onSelect={() => undefined}>Eliminar</MenuItem>}
        />
      );
    }
    const actions = (name: string) => screen.getByRole("button", { name: `Acciones de ${name}` });
    /** Renders the table with the first three rows; the returned function changes its rows. */
    function renderTable(): (rows: Asset[]) => void {
      let setRows: (rows: Asset[]) => void = () => undefined;
      function Harness() {
        const [rows, set] = useState(ROWS.slice(0, 3));
        setRows = set;
        return <Table rows={rows} />;
      }
      renderWithI18n(<Harness />);
      return (rows) => act(() => setRows(rows));
    }

    test("hands focus to the same control of the row now in its place, the last row's to the one before, the last of all to the table", async () => {
      const setRows = renderTable();
      act(() => actions("Activo 00001").focus());
      setRows([ROWS[0]!, ROWS[2]!]);
      await waitFor(() => expect(document.activeElement).toBe(actions("Activo 00002")));
      setRows([ROWS[0]!]);
      await waitFor(() => expect(document.activeElement).toBe(actions("Activo 00000")));
      setRows([]);
      await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("region", { name: "Activos" })));
    });

    test("a row's menu opened by pointer (its button never focused) counts as focus in the row", async () => {
      const setRows = renderTable();
      await act(async () => {
        fireEvent.pointerDown(actions("Activo 00001"), { button: 0, pointerType: "mouse" });
      });
      const menu = await screen.findByRole("menu");
      await waitFor(() => expect(menu.contains(document.activeElement)).toBe(true));
      setRows([ROWS[0]!, ROWS[2]!]);
      await waitFor(() => expect(document.activeElement).toBe(actions("Activo 00002")));
    });

    test("waits while the row's confirmation dialog holds focus, and leaves focus alone when the user went elsewhere", async () => {
      const dialog = document.createElement("div");
      dialog.setAttribute("role", "alertdialog");
      const confirm = dialog.appendChild(document.createElement("button"));
      const elsewhere = document.createElement("button");
      document.body.append(dialog, elsewhere);
      try {
        const setRows = renderTable();
        act(() => actions("Activo 00001").focus());
        act(() => confirm.focus());
        setRows([ROWS[0]!, ROWS[2]!]);
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(document.activeElement).toBe(confirm);
        act(() => dialog.remove());
        await waitFor(() => expect(document.activeElement).toBe(actions("Activo 00002")));

        act(() => elsewhere.focus());
        setRows([ROWS[0]!]);
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(document.activeElement).toBe(elsewhere);
      } finally {
        dialog.remove();
        elsewhere.remove();
      }
    });
  });

  test("no rows: an empty state", () => {
    renderWithI18n(<DataTable label="Activos" rows={[]} columns={COLUMNS} rowKey={(a) => a.id} />, "en");
    expect(screen.getByRole("heading", { name: "Nothing to show." })).toBeTruthy();
    expect(screen.getByRole("table").getAttribute("aria-rowcount")).toBe("1");
  });
});
