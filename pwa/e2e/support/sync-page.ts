// Page models for sync: the sync indicator (top bar of the app shell, and the test page) and the
// sync test page of the e2e build (sync-page/main.tsx), whose controls write only through the
// device database's commands.
import { expect, type Locator, type Page, type WebSocket } from "@playwright/test";
import { SYNC_PAGE_PATH } from "../sync-page/marker";

/** The sync indicator (data-testid="sync-status"): its state and its badges. */
export class SyncIndicator {
  readonly root: Locator;
  readonly pending: Locator;
  readonly conflicts: Locator;
  readonly rejected: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId("sync-status");
    this.pending = this.root.locator("[data-kind='pending']");
    this.conflicts = this.root.locator("[data-kind='conflicts']");
    this.rejected = this.root.locator("[data-kind='rejected']");
  }

  async toHaveState(state: "synced" | "syncing" | "offline"): Promise<void> {
    await expect(this.root).toHaveAttribute("data-state", state);
  }
}

export interface ShownRecord {
  collection: string;
  id: string;
  fields: Record<string, unknown>;
  pending: number;
  rejected: number;
  deleted: boolean;
  conflicts: number;
}

export interface ShownConflict {
  id: string;
  collection: string;
  recordId: string;
  field: string;
  /** The losing value. */
  value: unknown;
  /** The value shown now (the winner). */
  current: unknown;
}

/** What the page shows, in a stable order (to compare two devices). */
export interface Shown {
  records: ShownRecord[];
  conflicts: ShownConflict[];
}

export type CommandOutcome = { ok: true; id?: string } | { ok: false; issues?: unknown; error?: string };

/** The sync test page of one tab. Listens to the tab's WebSockets from the start. */
export class SyncTestPage {
  readonly root: Locator;
  readonly status: SyncIndicator;
  readonly result: Locator;
  /** Every sync WebSocket this tab opened, in order. */
  readonly sockets: WebSocket[] = [];
  /** The tab brought back to the front after each command (see beside()). */
  readonly #returnTo: Page | undefined;

  /**
   * Opens the sync test page in a new tab beside `page` (same browser context: the same device
   * database) and brings `page` back to the front, as after each command of this tab. Once this
   * tab had opened beside the app's, headless Chromium ran the app's tab at one animation frame a
   * second (measured: 955, 1972, 2988 ms; its `visibilityState` still said visible) until it was
   * brought to the front: each click there waited about two seconds for the element to be stable,
   * and a Select handed focus back to its button that late. Recording a trace hid it (the
   * screencast keeps frames coming).
   */
  static async beside(page: Page): Promise<SyncTestPage> {
    const tab = new SyncTestPage(await page.context().newPage(), page);
    await tab.open();
    await page.bringToFront();
    return tab;
  }

  constructor(
    readonly page: Page,
    returnTo?: Page,
  ) {
    this.#returnTo = returnTo;
    this.root = page.getByTestId("sync-page");
    this.status = new SyncIndicator(page);
    this.result = page.getByTestId("result");
    page.on("websocket", (ws) => {
      if (new URL(ws.url()).pathname === "/api/v1/sync") this.sockets.push(ws);
    });
  }

  /** Sync sockets of this tab that are still open. */
  openSockets(): WebSocket[] {
    return this.sockets.filter((ws) => !ws.isClosed());
  }

  async open(): Promise<void> {
    await this.page.goto(SYNC_PAGE_PATH);
    await this.ready();
  }

  /** Reloads the tab (online or not) and waits until the device database is shown again. */
  async reload(): Promise<void> {
    await this.page.reload();
    await this.ready();
  }

  /** Waits for the device database and every list on the page to be loaded. */
  async ready(): Promise<void> {
    await expect(this.root).toHaveAttribute("data-ready", "true");
    await expect(this.page.getByTestId("collection").first()).toBeAttached();
    await expect(this.page.locator("[data-loaded='false']")).toHaveCount(0);
  }

  /** Resolves once the app's service worker is active (the page is precached for offline use). */
  async serviceWorkerReady(): Promise<void> {
    await this.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
  }

  /** The sync election's Web Lock as this tab's browser sees it (navigator.locks.query): how many
   * tabs hold it (at most one) and how many wait in its queue. */
  async syncLock(): Promise<{ held: number; pending: number }> {
    const name = await this.root.getAttribute("data-lock-name");
    if (!name) throw new Error("the sync page has no device database yet");
    return this.page.evaluate(async (lock) => {
      const state = await navigator.locks.query();
      return {
        held: (state.held ?? []).filter((l) => l.name === lock).length,
        pending: (state.pending ?? []).filter((l) => l.name === lock).length,
      };
    }, name);
  }

  record(id: string): Locator {
    return this.page.locator(`[data-testid='record'][data-id='${id}']`);
  }

  /** The record's shown fields. */
  async fieldsOf(id: string): Promise<Record<string, unknown>> {
    const text = await this.record(id).getByTestId("record-fields").textContent();
    return JSON.parse(text ?? "null") as Record<string, unknown>;
  }

  // ---------------------------------------------------------- commands (each through ClientDb)

  async #command(act: () => Promise<void>): Promise<CommandOutcome> {
    if (this.#returnTo) await this.page.bringToFront();
    try {
      const before = Number(await this.result.getAttribute("data-seq"));
      await act();
      await expect(this.result).toHaveAttribute("data-seq", String(before + 1));
      return JSON.parse((await this.result.textContent()) ?? "null") as CommandOutcome;
    } finally {
      if (this.#returnTo) await this.#returnTo.bringToFront();
    }
  }

  async #chooseCollection(collection: string): Promise<void> {
    await this.page.getByLabel("Collection").selectOption(collection);
  }

  /** Creates a record (ClientDb.create) and returns its id. */
  async create(collection: string, fields: Record<string, unknown>): Promise<string> {
    const outcome = await this.#command(async () => {
      await this.#chooseCollection(collection);
      await this.page.getByLabel("Fields (JSON)").fill(JSON.stringify(fields));
      await this.page.getByRole("button", { name: "Create", exact: true }).click();
    });
    expect(outcome, "create").toMatchObject({ ok: true });
    if (!outcome.ok || outcome.id === undefined) throw new Error(`create answered ${JSON.stringify(outcome)}`);
    await expect(this.record(outcome.id)).toBeVisible();
    return outcome.id;
  }

  /** Sets one field (ClientDb.update). */
  async update(collection: string, id: string, field: string, value: unknown): Promise<void> {
    const outcome = await this.#command(async () => {
      await this.#chooseCollection(collection);
      await this.page.getByLabel("Record id").fill(id);
      await this.page.getByLabel("Field", { exact: true }).fill(field);
      await this.page.getByLabel("Value (JSON)").fill(JSON.stringify(value));
      await this.page.getByRole("button", { name: "Update", exact: true }).click();
    });
    expect(outcome, `update ${field}`).toEqual({ ok: true });
  }

  /** Deletes a record (ClientDb.delete). */
  async delete(id: string): Promise<void> {
    const outcome = await this.#command(() => this.record(id).getByRole("button", { name: "Delete" }).click());
    expect(outcome, "delete").toEqual({ ok: true });
  }

  /** Writes a conflict's losing value back (ClientDb.restoreConflict). */
  async restoreConflict(conflictId: string): Promise<void> {
    const conflict = this.page.locator(`[data-testid='conflict'][data-id='${conflictId}']`);
    const outcome = await this.#command(() => conflict.getByRole("button", { name: "Restore losing value" }).click());
    expect(outcome, "restore conflict").toEqual({ ok: true });
  }

  // ---------------------------------------------------------- what the page shows

  async shown(): Promise<Shown> {
    const records = await this.page.getByTestId("record").evaluateAll((items) =>
      items.map((el) => ({
        collection: el.getAttribute("data-collection") ?? "",
        id: el.getAttribute("data-id") ?? "",
        fields: JSON.parse(el.querySelector("[data-testid='record-fields']")?.textContent ?? "null") as Record<string, unknown>,
        pending: Number(el.getAttribute("data-pending")),
        rejected: Number(el.getAttribute("data-rejected")),
        deleted: el.getAttribute("data-deleted") === "true",
        conflicts: Number(el.getAttribute("data-conflicts")),
      })),
    );
    const conflicts = await this.page.getByTestId("conflict").evaluateAll((items) =>
      items.map((el) => ({
        id: el.getAttribute("data-id") ?? "",
        collection: el.getAttribute("data-collection") ?? "",
        recordId: el.getAttribute("data-record-id") ?? "",
        field: el.getAttribute("data-field") ?? "",
        value: JSON.parse(el.querySelector("[data-testid='conflict-value']")?.textContent ?? "null") as unknown,
        current: JSON.parse(el.querySelector("[data-testid='conflict-current']")?.textContent ?? "null") as unknown,
      })),
    );
    records.sort((a, b) => `${a.collection}/${a.id}`.localeCompare(`${b.collection}/${b.id}`));
    conflicts.sort((a, b) => a.id.localeCompare(b.id));
    return { records, conflicts };
  }

  /** Reads the device database itself (IndexedDB, no Dexie): how many mutations wait in the outbox. */
  async outboxSize(): Promise<number> {
    const name = await this.root.getAttribute("data-db-name");
    if (!name) throw new Error("the sync page has no device database yet");
    return this.page.evaluate(
      (dbName) =>
        new Promise<number>((resolve, reject) => {
          const open = indexedDB.open(dbName);
          open.onerror = () => reject(open.error ?? new Error("indexedDB.open failed"));
          open.onsuccess = () => {
            const db = open.result;
            const count = db.transaction("outbox", "readonly").objectStore("outbox").count();
            count.onsuccess = () => {
              resolve(count.result);
              db.close();
            };
            count.onerror = () => reject(count.error ?? new Error("count failed"));
          };
        }),
      name,
    );
  }
}
