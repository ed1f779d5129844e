// The refused-changes panel over a real device database whose changes a scripted sync server
// refuses (the SyncClient applies its answers, as in the app): what each entry says in both
// languages, and that "Descartar" and "Reintentar" act on the database and the list follows live.
// Live queries need a global IndexedDB (Dexie reads it when it loads): before anything imports Dexie.
import "fake-indexeddb/auto";
import "@patrimonio/clientdb/validation";
import { ClientDb, ClientDbProvider, MemoryLockManager, SyncClient, type SocketLike } from "@patrimonio/clientdb";
import { PROTOCOL_VERSION, SCHEMA_VERSION } from "@patrimonio/shared-schema";
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { useState } from "react";
import { I18nextProvider } from "react-i18next";
import { QueryClientProvider } from "@tanstack/react-query";
import { queryKeys } from "../api/queries";
import { createQueryClient } from "../query/queryClient";
import { afterEach, describe, expect, test } from "vitest";
import { createI18n, type Language } from "../i18n/i18n";
import { RejectedChangesPanel } from "./RejectedChanges";
import { SyncStatusView } from "./SyncStatus";
import { LiveSyncStatus } from "./engine";

const WORKSPACE = "0a1b2c3d-0000-4000-8000-000000000001";
const OTHER_DEVICE = "0f0f0f0f-0000-4000-8000-00000000000f";
const TASK = "0190a000-0000-7000-8000-0000000000f1";
const STAMP = "2025-03-01T09:00:00.000Z-0000-5e5e5e5e5e5e5e5e";
const NOW = Date.UTC(2025, 2, 1, 10, 30);

/** The server side of one sync connection, played by the test. */
class ScriptedSocket implements SocketLike {
  readyState = 0;
  readonly sent: Record<string, unknown>[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number; reason: string }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  send(data: string) {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close(code = 1000) {
    if (this.readyState === 3) return;
    this.readyState = 3;
    queueMicrotask(() => this.onclose?.({ code, reason: "" }));
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  pushed(): { mutationId: number; op: string }[] {
    return this.sent.filter((m) => m.type === "push").flatMap((m) => m.mutations as { mutationId: number; op: string }[]);
  }
}

async function until(check: () => boolean | Promise<boolean>) {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 1));
}

let n = 0;
const opened: { db: ClientDb; client: SyncClient }[] = [];

afterEach(async () => {
  cleanup();
  for (const { db, client } of opened.splice(0)) {
    await client.stop();
    db.close();
  }
});

/**
 * A device connected to the scripted server, holding one task another device made ("Renovar el
 * seguro") which this device deleted, and a task it created whose title the server finds too long; the
 * server refuses both (the user is a viewer now; the title breaks a rule).
 */
async function refusedDevice(beforeRefusals: (db: ClientDb) => Promise<void> = async () => {}) {
  const db = await ClientDb.open({ name: `rejected-panel-${++n}`, indexedDB: new IDBFactory(), IDBKeyRange, now: () => NOW });
  const sockets: ScriptedSocket[] = [];
  const client = new SyncClient(db, {
    url: "ws://sync.test/api/v1/sync",
    workspaces: () => [WORKSPACE],
    socket: () => {
      const s = new ScriptedSocket();
      sockets.push(s);
      return s;
    },
    locks: new MemoryLockManager(),
    pingIntervalMs: 0,
  });
  opened.push({ db, client });
  client.start();
  await until(() => sockets.length > 0);
  const s = sockets[0]!;
  s.open();
  await until(() => s.sent.some((m) => m.type === "hello"));
  s.receive({
    type: "welcome",
    protocolVersion: PROTOCOL_VERSION,
    schemaVersion: SCHEMA_VERSION,
    serverTime: STAMP,
    limits: { maxMessageBytes: 1_048_576, maxMutationsPerPush: 500, maxChangesPerPage: 500, maxMessagesPerSecond: 100 },
  });
  s.receive({ type: "snapshot", workspaceId: WORKSPACE, records: [], cursor: 0, hasMore: false });
  s.receive({
    type: "changes",
    workspaceId: WORKSPACE,
    changes: [{ seq: 1, collection: "tasks", recordId: TASK, author: OTHER_DEVICE, mutationId: 1, op: "put", stamp: STAMP, fields: { title: "Renovar el seguro", status: "todo" }, base: {} }],
    cursor: 1,
    hasMore: false,
  });
  await until(async () => (await db.get("tasks", TASK)) !== undefined);
  await beforeRefusals(db);

  expect(await db.delete("tasks", TASK)).toEqual({ ok: true });
  await until(() => s.pushed().length === 1);
  s.receive({ type: "reject", mutationId: s.pushed()[0]!.mutationId, code: "forbidden", issues: [{ path: "", key: "sync.reject.readOnly", params: { role: "viewer" }, message: "read only" }] });
  const created = await db.create("tasks", WORKSPACE, { title: "Llamar al notario", status: "todo" });
  if (!created.ok) throw new Error("create refused on the device");
  await until(() => s.pushed().length === 2);
  s.receive({ type: "reject", mutationId: s.pushed()[1]!.mutationId, code: "invalid", issues: [{ path: "title", key: "validation.string.max", params: { max: 12000 }, message: "too long" }] });
  await until(async () => (await db.rejected()).length === 2);
  return { db, socket: s, createdId: created.id };
}

/** The panel inside a router (its links) and the app's providers; `total` is the badge's count. */
async function showPanel(db: ClientDb, language: Language, total = 2) {
  function Harness() {
    const [open, setOpen] = useState(true);
    return <RejectedChangesPanel open={open} onOpenChange={setOpen} workspaceId={WORKSPACE} total={total} />;
  }
  const root = createRootRoute({ component: Harness });
  const router = createRouter({ routeTree: root, history: createMemoryHistory({ initialEntries: ["/"] }) });
  await act(async () => {
    render(
      <I18nextProvider i18n={createI18n({ lng: language })}>
        <ClientDbProvider db={db}>
          <RouterProvider router={router} />
        </ClientDbProvider>
      </I18nextProvider>,
    );
    await router.load();
  });
  const dialog = await screen.findByRole("dialog");
  await waitFor(() => expect(within(dialog).getAllByTestId("rejected-change")).toHaveLength(2));
  return dialog;
}

// A device database, a sync client and a router per test: slower than the default 5 s on a busy machine.
describe("the refused-changes panel", { timeout: 20_000 }, () => {
  test("in Spanish, says which record, what changed, why and when, with the actions and a link", async () => {
    const { db } = await refusedDevice();
    const dialog = await showPanel(db, "es");
    expect(within(dialog).getByRole("heading", { name: "Cambios rechazados" })).toBeTruthy();
    const [deleted, created] = within(dialog).getAllByTestId("rejected-change");

    expect(deleted!.dataset.op).toBe("delete");
    expect(deleted!.textContent).toContain("Tarea");
    // The name of the record as the server has it (its values stay under the delete).
    await waitFor(() => expect(deleted!.textContent).toContain("Renovar el seguro"));
    expect(deleted!.textContent).toContain("Eliminación del registro");
    // The server's key in Spanish, the role in words (not the server's English text).
    expect(within(deleted!).getByRole("list", { name: "Motivo del rechazo" }).textContent).toBe(
      "Tu rol en este espacio de trabajo (lector/a) no permite modificar registros",
    );
    expect(deleted!.textContent).toMatch(/Rechazado el 1\/3\/25, \d{1,2}:30/);
    // Deleted on this device: nothing to open until the delete is discarded.
    expect(within(deleted!).queryByRole("link")).toBeNull();
    expect(within(deleted!).getByRole("button", { name: "Descartar el cambio de «Renovar el seguro»" })).toBeTruthy();
    expect(within(deleted!).getByRole("button", { name: "Reintentar el cambio de «Renovar el seguro»" })).toBeTruthy();

    expect(created!.textContent).toContain("Llamar al notario");
    expect(created!.textContent).toContain("Creación del registro");
    // A field's issue names the field with the tasks screen's label; numbers the reader's way.
    await waitFor(() => expect(within(created!).getByRole("list", { name: "Motivo del rechazo" }).textContent).toBe("Título: Debe tener como máximo 12.000 caracteres"));
    expect(within(created!).getByRole("link", { name: "Ver el registro" }).getAttribute("href")).toBe("/tasks");
  });

  test("in English, the same texts in English; refused changes of other workspaces are mentioned", async () => {
    const { db } = await refusedDevice();
    const dialog = await showPanel(db, "en", 3);
    const [deleted, created] = within(dialog).getAllByTestId("rejected-change");
    await waitFor(() => expect(deleted!.textContent).toContain("Renovar el seguro"));
    expect(deleted!.textContent).toContain("Record deleted");
    expect(within(deleted!).getByRole("list", { name: "Why it was refused" }).textContent).toBe(
      "Your role in this workspace (viewer) does not allow changing records",
    );
    expect(created!.textContent).toContain("Record created");
    await waitFor(() => expect(within(created!).getByRole("list", { name: "Why it was refused" }).textContent).toBe("Title: Must have at most 12,000 characters"));
    expect(within(deleted!).getByRole("button", { name: "Discard the change to “Renovar el seguro”" })).toBeTruthy();
    expect(within(dialog).getByTestId("rejected-elsewhere").textContent).toBe(
      "There is 1 refused change in another workspace: switch to that workspace to see it.",
    );
  });

  test("Descartar todos asks first, saying how many, then discards every one of the workspace", async () => {
    const { db, createdId } = await refusedDevice();
    const dialog = await showPanel(db, "es");
    fireEvent.click(within(dialog).getByRole("button", { name: "Descartar todos" }));
    expect(within(dialog).getByText("¿Descartar los 2 cambios rechazados de este espacio de trabajo? Se deshacen todos y se vuelve a mostrar lo que tiene el servidor.")).toBeTruthy();
    // "No descartar" keeps them.
    fireEvent.click(within(dialog).getByRole("button", { name: "No descartar" }));
    expect(within(dialog).getAllByTestId("rejected-change")).toHaveLength(2);
    expect(await db.rejected(WORKSPACE)).toHaveLength(2);

    fireEvent.click(within(dialog).getByRole("button", { name: "Descartar todos" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Descartar los 2 cambios" }));
    await waitFor(() => expect(within(dialog).getByTestId("rejected-empty")).toBeTruthy());
    expect(await db.rejected(WORKSPACE)).toHaveLength(0);
    // The refused delete is undone, the refused create is gone.
    expect((await db.list("tasks", WORKSPACE)).map((t) => t.fields.title)).toEqual(["Renovar el seguro"]);
    expect(await db.get("tasks", createdId)).toBeUndefined();
    expect(within(dialog).queryByRole("button", { name: "Descartar todos" })).toBeNull();
  });

  test("Descartar brings back a record whose delete was refused, and the entry leaves", async () => {
    const { db } = await refusedDevice();
    const dialog = await showPanel(db, "es");
    expect(await db.list("tasks", WORKSPACE)).toHaveLength(1);
    const [deleted] = within(dialog).getAllByTestId("rejected-change");
    fireEvent.click(within(deleted!).getByRole("button", { name: /^Descartar/ }));
    await waitFor(() => expect(within(dialog).getAllByTestId("rejected-change")).toHaveLength(1));
    expect((await db.list("tasks", WORKSPACE)).map((t) => t.fields.title).sort()).toEqual(["Llamar al notario", "Renovar el seguro"]);
    expect(await db.rejected(WORKSPACE)).toHaveLength(1);
  });

  test("Reintentar sends the refused delete again; when nothing is left the panel says so", async () => {
    const { db, socket } = await refusedDevice();
    const dialog = await showPanel(db, "es");
    const [deleted, created] = within(dialog).getAllByTestId("rejected-change");
    fireEvent.click(within(deleted!).getByRole("button", { name: /^Reintentar/ }));
    await waitFor(() => expect(within(dialog).getAllByTestId("rejected-change")).toHaveLength(1));
    await until(() => socket.pushed().length === 3);
    expect(socket.pushed()[2]).toMatchObject({ op: "delete" });
    // The refused create discarded: the record the server never had is gone.
    fireEvent.click(within(created!).getByRole("button", { name: /^Descartar/ }));
    await waitFor(() => expect(within(dialog).getByTestId("rejected-empty").textContent).toBe("No hay cambios rechazados en este espacio de trabajo."));
    expect(await db.list("tasks", WORKSPACE)).toHaveLength(0);
  });
});

describe("the refused badge", () => {
  test("is a button that opens the panel", async () => {
    render(
      <I18nextProvider i18n={createI18n({ lng: "es" })}>
        <SyncStatusView status={{ state: "synced", pending: 0, rejected: 2, conflicts: 0, lastSyncedAt: NOW, snapshot: null, error: null }} />
      </I18nextProvider>,
    );
    const badge = screen.getByRole("button", { name: "2 cambios rechazados" });
    expect(badge.getAttribute("aria-haspopup")).toBe("dialog");
  });
});

describe("the live indicator", { timeout: 20_000 }, () => {
  test("a change refused while it is shown asks the workspaces again: the role may have changed on another device", async () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData(queryKeys.workspaces, [{ id: WORKSPACE, name: "Familia", kind: "team", role: "editor", createdAt: "2025-01-01T00:00:00Z" }]);
    await refusedDevice(async (db) => {
      render(
        <I18nextProvider i18n={createI18n({ lng: "es" })}>
          <QueryClientProvider client={queryClient}>
            <ClientDbProvider db={db}>
              <LiveSyncStatus />
            </ClientDbProvider>
          </QueryClientProvider>
        </I18nextProvider>,
      );
      await screen.findByTestId("sync-status");
      expect(queryClient.getQueryState(queryKeys.workspaces)?.isInvalidated).toBe(false);
    });
    await waitFor(() => expect(queryClient.getQueryState(queryKeys.workspaces)?.isInvalidated).toBe(true));
  });
});
