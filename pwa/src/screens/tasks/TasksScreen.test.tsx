// The tasks screen in a router against a real device database: the filters written to the address
// as the route documents them, and the edit form writing only what the reader changed.
import "fake-indexeddb/auto";
import { createAsset, createTask, updateAsset, updateTask } from "@patrimonio/clientdb";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import { tasksSearchSchema } from "../../router/areaRoutes";
import { AREA_WORKSPACE, openTestDb, renderAreaScreen } from "../../test/renderAreaScreen";
import { TasksScreen } from "./TasksScreen";

async function setUp(url: string) {
  const db = await openTestDb();
  const created = await createTask(db, AREA_WORKSPACE, { title: "Renovar el seguro", status: "todo", dueDate: "2020-03-14", priority: "high" });
  if (!created.ok) throw new Error(JSON.stringify(created));
  const view = await renderAreaScreen({ db, url, path: "/tasks", component: TasksScreen, validateSearch: (s) => tasksSearchSchema.parse(s) });
  await screen.findByText("Renovar el seguro");
  return { ...view, db, id: created.id };
}

describe("tasks screen", () => {
  test("the overdue filter is written to the address as ?overdue=1, and read back from it", async () => {
    const { router } = await setUp("/tasks");
    const overdue = screen.getByRole("switch", { name: "Solo vencidas" });
    await act(async () => {
      fireEvent.click(overdue);
      await router.load();
    });
    expect(router.state.location.href).toBe("/tasks?overdue=1");
    expect(screen.getByRole("switch", { name: "Solo vencidas" }).getAttribute("aria-checked")).toBe("true");
    await act(async () => {
      fireEvent.click(screen.getByRole("switch", { name: "Solo vencidas" }));
      await router.load();
    });
    expect(router.state.location.href).toBe("/tasks");
  });

  test("saving the form writes only what was changed: another device's newer due date, synced in while it was open, stays", async () => {
    const { db, id } = await setUp("/tasks");
    fireEvent.click(screen.getByRole("button", { name: "Editar «Renovar el seguro»" }));
    const form = await screen.findByTestId("task-form");
    expect(await updateTask(db, id, { dueDate: "2020-04-30" })).toEqual({ ok: true });
    fireEvent.change(within(form).getByTestId("task-title"), { target: { value: "Renovar el seguro del coche" } });
    await act(async () => {
      fireEvent.click(within(form).getByTestId("task-submit"));
    });
    await waitFor(() => expect(screen.queryByTestId("task-form")).toBeNull());
    expect((await db.get("tasks", id))?.fields).toEqual({ title: "Renovar el seguro del coche", status: "todo", dueDate: "2020-04-30", priority: "high" });
  });

  test("filters restored from the address are shown, and one button clears them all while tasks still match", async () => {
    const { router } = await setUp("/tasks?status=todo&priority=high&overdue=1");
    expect(screen.getByRole("switch", { name: "Solo vencidas" }).getAttribute("aria-checked")).toBe("true");
    expect(screen.getByText("Renovar el seguro")).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Quitar los filtros" }));
      await router.load();
    });
    expect(router.state.location.href).toBe("/tasks");
    expect(screen.getByRole("switch", { name: "Solo vencidas" }).getAttribute("aria-checked")).toBe("false");
    expect(screen.queryByRole("button", { name: "Quitar los filtros" })).toBeNull();
    // Filters that leave nothing: the empty state's button is the only one.
    await act(async () => {
      await router.navigate({ to: "/tasks", search: { priority: "low" } as never });
    });
    expect(await screen.findByTestId("tasks-no-match")).toBeTruthy();
    expect(screen.getAllByRole("button", { name: "Quitar los filtros" })).toHaveLength(1);
  });

  test("the asset filter lists held assets and a sold one only while a task is about it; the form offers a sold asset only to the task already about it", async () => {
    const db = await openTestDb();
    const asset = async (name: string, sold: boolean) => {
      const made = await createAsset(db, AREA_WORKSPACE, { name, assetClass: "real_estate", category: "residential", currency: "EUR", participation: "100", currentValue: "90000", valuationDate: "2025-01-15" });
      if (!made.ok) throw new Error(JSON.stringify(made));
      if (sold) expect(await updateAsset(db, made.id, { disposal: { kind: "sold", date: "2025-06-01", amount: "95000" } })).toEqual({ ok: true });
      return made.id;
    };
    await asset("Piso de Valencia", false);
    const house = await asset("Casa de la playa", true);
    await asset("Local de Cádiz", true);
    const task = await createTask(db, AREA_WORKSPACE, { title: "Escriturar la venta", status: "done", assetId: house });
    if (!task.ok) throw new Error(JSON.stringify(task));
    await renderAreaScreen({ db, url: "/tasks", path: "/tasks", component: TasksScreen, validateSearch: (s) => tasksSearchSchema.parse(s) });
    await screen.findByRole("button", { name: /^Hechas/ });
    expect(await pickerOptions(screen.getByTestId("filter-asset"))).toEqual(["Sin activo relacionado", "Casa de la playa", "Piso de Valencia"]);

    // A new task: held assets only.
    await waitFor(() => expect((screen.getByTestId("task-new") as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId("task-new"));
    expect(await pickerOptions(within(await screen.findByTestId("task-form")).getByTestId("task-asset"))).toEqual(["Piso de Valencia"]);
    fireEvent.click(within(screen.getByTestId("task-form")).getByRole("button", { name: "Cancelar" }));
    await waitFor(() => expect(screen.queryByTestId("task-form")).toBeNull());

    // The task about the sold house: it is still there (and chosen).
    await openDone();
    fireEvent.click(screen.getByRole("button", { name: "Editar «Escriturar la venta»" }));
    const form = await screen.findByTestId("task-form");
    expect((within(within(form).getByTestId("task-asset")).getByRole("combobox") as HTMLInputElement).value).toBe("Casa de la playa");
    expect(await pickerOptions(within(form).getByTestId("task-asset"))).toEqual(["Casa de la playa", "Piso de Valencia"]);
  });
});

/** The options a kit Combobox lists when opened (then closed again by a second click). */
async function pickerOptions(picker: HTMLElement): Promise<string[]> {
  const input = within(picker).getByRole("combobox");
  fireEvent.click(input);
  const texts = within(await screen.findByRole("listbox")).queryAllByRole("option").map((o) => o.textContent ?? "");
  fireEvent.click(input);
  await waitFor(() => expect(screen.queryByRole("listbox")).toBeNull());
  return texts;
}

/** Unfolds the done group if it is folded. */
async function openDone(): Promise<void> {
  if (screen.queryByRole("button", { name: "Editar «Escriturar la venta»" })) return;
  fireEvent.click(screen.getByRole("button", { name: /^Hechas/ }));
  await screen.findByRole("button", { name: "Editar «Escriturar la venta»" });
}
