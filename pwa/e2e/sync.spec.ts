// The device side of sync in real Chromium against the real binary: the sync test page of the e2e
// build (sync-page/: the real @patrimonio/clientdb, its commands, the SyncClient with its Web Locks
// election, the app's DeviceSync provider) and the real app shell's sync indicator.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { AppShell } from "./support/app-shell";
import { REPO_ROOT } from "./support/server";
import { E2E_WEB_DIR, expect, syncTest as test, type Devices } from "./support/sync-fixtures";
import { SyncIndicator, SyncTestPage, type Shown } from "./support/sync-page";
import { SYNC_PAGE_MARKER, SYNC_PAGE_PATH } from "./sync-page/marker";

/** A valid asset (shared schema: a residential property wholly owned, in euros). */
const FLAT = {
  name: "Piso de la calle Mayor",
  assetClass: "real_estate",
  category: "residential",
  currency: "EUR",
  participation: "100",
  currentValue: "250000",
};

/** Every file under a directory. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * Two devices of one user. A goes offline, edits, reloads (still offline) and edits again; B edits
 * the same field of the same record online; A reconnects. Both must show the same records, the
 * conflict with A's losing value, and a restore made on B must reach A.
 */
async function offlineEditsConverge(devices: Devices): Promise<void> {
  const a = await devices.open();
  const b = await devices.open();
  const pageA = new SyncTestPage(a.page);
  const pageB = new SyncTestPage(b.page);
  await pageA.open();
  await pageA.serviceWorkerReady();
  await pageA.status.toHaveState("synced");
  await pageB.open();
  await pageB.status.toHaveState("synced");

  // A record both devices have.
  const flat = await pageA.create("assets", FLAT);
  await expect(pageA.record(flat)).toHaveAttribute("data-pending", "0");
  await expect(pageB.record(flat)).toBeVisible();
  expect(await pageB.fieldsOf(flat)).toEqual(FLAT);

  // A goes offline and edits: a field of the shared record and a new record.
  await a.context.setOffline(true);
  await pageA.status.toHaveState("offline");
  await pageA.update("assets", flat, "currentValue", "262000");
  const task = await pageA.create("tasks", { title: "Renovar el seguro del piso", status: "todo" });
  await expect(pageA.status.pending).toHaveText("2 cambios por enviar");

  // A reload while offline: the page comes from the service worker, the edits from IndexedDB.
  await pageA.reload();
  await pageA.status.toHaveState("offline");
  await expect(pageA.status.pending).toHaveText("2 cambios por enviar");
  expect(await pageA.outboxSize()).toBe(2);
  expect(await pageA.fieldsOf(flat)).toEqual({ ...FLAT, currentValue: "262000" });
  await expect(pageA.record(flat)).toHaveAttribute("data-pending", "1");
  await expect(pageA.record(task)).toHaveAttribute("data-pending", "1");

  // Still offline, A renames the flat; B, online, renames it too (later, so B's write wins).
  await pageA.update("assets", flat, "name", "Piso de Mayor (portátil)");
  expect(await pageA.outboxSize()).toBe(3);
  await pageB.update("assets", flat, "name", "Piso de Mayor (móvil)");
  await expect(pageB.record(flat)).toHaveAttribute("data-pending", "0");
  await pageB.status.toHaveState("synced");
  // Nothing of A's offline work reached B.
  await expect(pageB.record(task)).toHaveCount(0);
  expect(await pageB.fieldsOf(flat)).toEqual({ ...FLAT, name: "Piso de Mayor (móvil)" });

  // A comes back: both converge, and the conflict keeps A's losing name on both devices.
  await a.context.setOffline(false);
  const converged: Shown = {
    records: [
      {
        collection: "assets",
        id: flat,
        fields: { ...FLAT, currentValue: "262000", name: "Piso de Mayor (móvil)" },
        pending: 0,
        rejected: 0,
        deleted: false,
        conflicts: 1,
      },
      {
        collection: "tasks",
        id: task,
        fields: { title: "Renovar el seguro del piso", status: "todo" },
        pending: 0,
        rejected: 0,
        deleted: false,
        conflicts: 0,
      },
    ],
    conflicts: [
      {
        id: expect.any(String) as unknown as string,
        collection: "assets",
        recordId: flat,
        field: "name",
        value: "Piso de Mayor (portátil)",
        current: "Piso de Mayor (móvil)",
      },
    ],
  };
  await expect.poll(() => pageA.shown(), { message: "device A after reconnecting" }).toEqual(converged);
  await expect.poll(() => pageB.shown(), { message: "device B after A reconnected" }).toEqual(converged);
  expect(await pageA.shown()).toEqual(await pageB.shown());
  await pageA.status.toHaveState("synced");
  await pageB.status.toHaveState("synced");
  await expect(pageA.status.conflicts).toHaveText("1 conflicto");
  await expect(pageB.status.conflicts).toHaveText("1 conflicto");
  expect(await pageA.outboxSize()).toBe(0);

  // B restores A's losing name; it reaches A and the conflict closes on both.
  const [conflict] = (await pageB.shown()).conflicts;
  await pageB.restoreConflict(conflict!.id);
  const restored: Shown = {
    records: converged.records.map((r) =>
      r.id === flat ? { ...r, fields: { ...r.fields, name: "Piso de Mayor (portátil)" }, conflicts: 0 } : r,
    ),
    conflicts: [],
  };
  await expect.poll(() => pageB.shown(), { message: "device B after restoring" }).toEqual(restored);
  await expect.poll(() => pageA.shown(), { message: "device A after B restored" }).toEqual(restored);

  // And a delete on A reaches B.
  await pageA.delete(task);
  await expect(pageB.record(task)).toHaveAttribute("data-deleted", "true");
  await expect(pageA.record(task)).toHaveAttribute("data-pending", "0");
  expect(await pageA.shown()).toEqual(await pageB.shown());
}

test.describe("sync in the browser", () => {
  test("offline edits across a reload converge with a concurrent edit; the conflict is restorable (SQLite)", async ({ devices }) => {
    await offlineEditsConverge(devices);
  });

  test("offline edits across a reload converge with a concurrent edit; the conflict is restorable (Postgres)", async ({ pgDevices }) => {
    await offlineEditsConverge(pgDevices);
  });

  test("two tabs of one browser: only the leader holds the socket, and closing it hands over", async ({ devices }) => {
    const device = await devices.open();
    const first = new SyncTestPage(device.page);
    await first.open();
    await expect(first.root).toHaveAttribute("data-role", "leader");
    await first.status.toHaveState("synced");

    const second = new SyncTestPage(await device.context.newPage());
    await second.open();
    await second.status.toHaveState("synced");
    await expect(second.root).toHaveAttribute("data-role", "follower");
    await expect.poll(() => second.syncLock(), { message: "the sync lock: one holder, one tab queued" }).toEqual({ held: 1, pending: 1 });

    // Another device, to see what reaches the server.
    const observer = new SyncTestPage((await devices.open()).page);
    await observer.open();

    // An edit in the follower tab goes out through the leader tab's socket.
    const early = await second.create("tasks", { title: "Revisar la hipoteca", status: "todo" });
    await expect(second.record(early)).toHaveAttribute("data-pending", "0");
    await expect(observer.record(early)).toBeVisible();
    expect(second.sockets).toHaveLength(0);
    expect(first.openSockets()).toHaveLength(1);

    // Closing the leader tab hands the socket to the other tab, which then syncs a new edit.
    const handedOver = second.page.waitForEvent("websocket");
    await first.page.close();
    await handedOver;
    await expect(second.root).toHaveAttribute("data-role", "leader");
    await expect(second.root).toHaveAttribute("data-socket", "open");
    await expect.poll(() => second.syncLock(), { message: "the sync lock: held by the remaining tab" }).toEqual({ held: 1, pending: 0 });
    const late = await second.create("tasks", { title: "Llamar al notario", status: "todo" });
    await expect(second.record(late)).toHaveAttribute("data-pending", "0");
    await expect(observer.record(late)).toBeVisible();
    await second.status.toHaveState("synced");
    expect(second.openSockets()).toHaveLength(1);
  });

  test("a sign-out and sign-in in another tab: the old leader lets go, and the new database's first edit reaches the server", async ({ devices }) => {
    const device = await devices.open();
    const first = new SyncTestPage(device.page);
    await first.open();
    await expect(first.root).toHaveAttribute("data-role", "leader");
    await first.status.toHaveState("synced");
    const observer = new SyncTestPage((await devices.open()).page);
    await observer.open();
    // The leader tab's mutation 1, acknowledged.
    const before = await first.create("tasks", { title: "Revisar la hipoteca", status: "todo" });
    await expect(first.record(before)).toHaveAttribute("data-pending", "0");

    // Another tab wipes the device as a sign-out does (every IndexedDB database deleted while the
    // leader tab holds its handle open), then loads again: a new device database under the same
    // name, whose first command is mutation 1 again.
    const second = new SyncTestPage(await device.context.newPage());
    await second.open();
    await second.page.evaluate(async () => {
      const names = (await indexedDB.databases()).map((d) => d.name).filter((n): n is string => typeof n === "string");
      await Promise.all(
        names.map(
          (name) =>
            new Promise<void>((resolve, reject) => {
              const request = indexedDB.deleteDatabase(name);
              request.onsuccess = () => resolve();
              request.onerror = () => reject(request.error ?? new Error("delete failed"));
            }),
        ),
      );
    });
    // The old leader's handle closed for good: its client stopped and let the socket and the lock go.
    await expect(first.root).toHaveAttribute("data-role", "follower");
    await expect.poll(() => first.openSockets().length, { message: "the old leader's sockets" }).toBe(0);
    await second.reload();
    await expect(second.root).toHaveAttribute("data-role", "leader");
    await expect(second.root).toHaveAttribute("data-socket", "open");
    const after = await second.create("tasks", { title: "Llamar al notario", status: "todo" });
    await expect(second.record(after)).toHaveAttribute("data-pending", "0");
    await expect(observer.record(after)).toBeVisible();
    expect(await second.outboxSize()).toBe(0);
    // The old tab opened nothing again (no socket, no database made under the name by it).
    expect(first.openSockets()).toHaveLength(0);
    await expect(first.root).toHaveAttribute("data-role", "follower");
  });

  test("the top bar of the app shell shows synced, offline, and the changes waiting to be sent", async ({ devices }) => {
    const device = await devices.open();
    const shell = new AppShell(device.page);
    await shell.open("/");
    await shell.serviceWorkerReady();
    const indicator = new SyncIndicator(device.page);
    await indicator.toHaveState("synced");
    await expect(indicator.root).toContainText("Sincronizado");
    await expect(indicator.pending).toHaveCount(0);

    // The edits come from the test page in another tab of the same browser (same device database).
    const tab = new SyncTestPage(await device.context.newPage());
    await tab.open();

    await device.context.setOffline(true);
    await indicator.toHaveState("offline");
    await expect(indicator.root).toContainText("Sin conexión");
    await expect(indicator.pending).toHaveCount(0);

    const id = await tab.create("tasks", { title: "Pagar el IBI", status: "todo" });
    await expect(indicator.pending).toHaveText("1 cambio por enviar");
    await tab.update("tasks", id, "status", "in_progress");
    await expect(indicator.pending).toHaveText("2 cambios por enviar");
    await indicator.toHaveState("offline");

    // The shell opens offline with the same status (service worker + device database).
    await device.page.reload();
    await expect(shell.sidebarTitle).toBeVisible();
    await indicator.toHaveState("offline");
    await expect(indicator.pending).toHaveText("2 cambios por enviar");

    await device.context.setOffline(false);
    await indicator.toHaveState("synced");
    await expect(indicator.root).toContainText("Sincronizado");
    await expect(indicator.pending).toHaveCount(0);
    await expect(tab.record(id)).toHaveAttribute("data-pending", "0");
  });

  test("a server older than the app refuses its version: no update is offered, the changes wait on the device, and go once it is updated", async ({ devices }) => {
    const device = await devices.open();
    // The server "rolled back": its socket refuses this app's schema version, and its health says
    // an older one. Until `older` is false.
    let older = true;
    await device.context.routeWebSocket(/\/api\/v1\/sync(\?|$)/, (ws) => {
      if (!older) {
        ws.connectToServer();
        return;
      }
      ws.onMessage(() => {
        ws.send(JSON.stringify({ type: "error", code: "schema_version", message: "Versión de esquema distinta: actualiza la app." }));
        ws.close({ code: 4426, reason: "schema_version" });
      });
    });
    await device.context.route("**/api/v1/health", async (route) => {
      if (!older) return route.fallback();
      const response = await route.fetch();
      const body = (await response.json()) as { sync: { protocolVersion: number; schemaVersion: number } };
      await route.fulfill({ response, json: { ...body, sync: { ...body.sync, schemaVersion: body.sync.schemaVersion - 1 } } });
    });
    const shell = new AppShell(device.page);
    await shell.open("/");
    const indicator = new SyncIndicator(device.page);
    await expect(indicator.root).toContainText("El servidor tiene una versión anterior de la app: tus cambios esperan en este dispositivo");

    const tab = new SyncTestPage(await device.context.newPage());
    await tab.open();
    const id = await tab.create("tasks", { title: "Pagar el IBI", status: "todo" });
    await expect(indicator.pending).toHaveText("1 cambio por enviar");
    await indicator.toHaveState("offline");
    // No "new version: reload" (it would have reloaded into nothing newer).
    await expect(device.page.getByText(/versión nueva/)).toHaveCount(0);

    // The server is updated again: the next hello (a reload here, instead of the minute's wait) is
    // welcomed, and the change goes.
    older = false;
    await device.page.reload();
    await indicator.toHaveState("synced");
    await expect(indicator.pending).toHaveCount(0);
    await expect(tab.record(id)).toHaveAttribute("data-pending", "0");
  });

  test("the test page is only in the e2e build, never in the production build", async ({ request }) => {
    const production = path.join(REPO_ROOT, "pwa", "dist");
    const productionFiles = filesUnder(production);
    expect(productionFiles.length).toBeGreaterThan(0);
    for (const file of productionFiles) {
      expect(readFileSync(file, "latin1").includes(SYNC_PAGE_MARKER), file).toBe(false);
      expect(readFileSync(file, "latin1").includes("e2e/sync-page"), file).toBe(false);
    }
    expect(existsSync(path.join(production, "e2e"))).toBe(false);
    // The search above does find the page where it is: the e2e build, service worker included.
    expect(filesUnder(E2E_WEB_DIR).some((file) => readFileSync(file, "latin1").includes(SYNC_PAGE_MARKER))).toBe(true);
    expect(readFileSync(path.join(E2E_WEB_DIR, "sw.js"), "utf8")).toContain("e2e/sync-page/index.html");

    // The server of the production build answers the page's address with the app itself.
    const base = process.env.E2E_BASE_URL;
    if (!base) throw new Error("E2E_BASE_URL is unset: global setup did not start the server");
    const [testPath, app] = await Promise.all([request.get(`${base}${SYNC_PAGE_PATH}`), request.get(`${base}/index.html`)]);
    expect(await testPath.text()).toBe(await app.text());
  });
});
