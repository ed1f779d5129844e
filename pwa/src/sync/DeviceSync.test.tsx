// The shell's wiring: signed in, the device database opens and the top bar shows its sync status;
// signed out, nothing. jsdom has neither IndexedDB nor Web Locks: the test provides both.
import "fake-indexeddb/auto";
import { MemoryLockManager } from "@patrimonio/clientdb";
import { PROTOCOL_VERSION, SCHEMA_VERSION } from "@patrimonio/shared-schema";
import { QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen, waitFor } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { queryKeys } from "../api/queries";
import { createI18n } from "../i18n/i18n";
import { createQueryClient } from "../query/queryClient";
import { createFakeServer } from "../test/fakeServer";
import { renderApp } from "../test/renderApp";
import { FakeSyncSocket as FakeSocket } from "../test/fakeSyncSocket";
import { DeviceSync, deviceDbName } from "./DeviceSync";
import { keepStorage } from "./engine";

beforeEach(() => {
  Object.defineProperty(navigator, "locks", { value: new MemoryLockManager(), configurable: true });
});

afterEach(() => {
  Reflect.deleteProperty(navigator, "locks");
});

describe("device sync in the shell", () => {
  test("signed in, the top bar shows the device's sync status", async () => {
    await renderApp("/", "en");
    // The shell paints before the device database (loaded after the first paint) is ready.
    await screen.findByTestId("sync-status");
    // No server in this test: once open, the device is offline and has never synced.
    await waitFor(() => expect(screen.getByTestId("sync-status").textContent).toBe("OfflineNot synced yet"));
    const status = screen.getByTestId("sync-status");
    expect(status.getAttribute("role")).toBe("status");
    expect(status.dataset.state).toBe("offline");
    expect(status.closest("[data-slot='sync-status']")).not.toBeNull();
    expect((await indexedDB.databases()).map((d) => d.name)).toContain(deviceDbName("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"));
  });

  test("once the device database is open, the browser is asked to keep the site's storage", async () => {
    const storage = { persisted: vi.fn(async () => false), persist: vi.fn(async () => true) };
    Object.defineProperty(navigator, "storage", { value: storage, configurable: true });
    try {
      await renderApp("/", "en");
      await waitFor(() => expect(screen.getByTestId("sync-status").dataset.state).toBe("offline"));
      await waitFor(() => expect(storage.persist).toHaveBeenCalledTimes(1));
    } finally {
      Reflect.deleteProperty(navigator, "storage");
    }
  });

  test("signed out, there is no indicator", async () => {
    await renderApp("/signin", "en", createFakeServer({ me: null }));
    await screen.findByRole("heading", { level: 1 });
    expect(screen.queryByTestId("sync-status")).toBeNull();
  });
});

describe("a workspace the server denies (the user was removed from it)", () => {
  test("the lists of workspaces are asked again, not only /me: the switcher and the role come from them", async () => {
    const USER = "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c";
    const TEAM = "0a1b2c3d-0000-4000-8000-000000000002";
    const sockets: FakeSocket[] = [];
    const queryClient = createQueryClient();
    queryClient.setQueryData(queryKeys.me, { user: { id: USER } });
    queryClient.setQueryData(queryKeys.workspaces, [{ id: TEAM, name: "Team", kind: "team", role: "editor", createdAt: "2025-01-01T00:00:00Z" }]);
    queryClient.setQueryData(queryKeys.workspace(TEAM), { workspace: { id: TEAM } });
    const view = render(
      <I18nextProvider i18n={createI18n({ lng: "en" })}>
        <QueryClientProvider client={queryClient}>
          <DeviceSync
            user={{ id: USER }}
            workspaceIds={[TEAM]}
            clientOptions={{
              socket: () => {
                const s = new FakeSocket();
                sockets.push(s);
                return s;
              },
              network: { online: () => true, subscribe: () => () => {} },
              pingIntervalMs: 0,
            }}
          />
        </QueryClientProvider>
      </I18nextProvider>,
    );
    await waitFor(() => expect(sockets).toHaveLength(1));
    const s = sockets[0]!;
    act(() => s.open());
    await waitFor(() => expect(s.sent.some((m) => m.type === "hello")).toBe(true));
    expect(queryClient.getQueryState(queryKeys.workspaces)?.isInvalidated).toBe(false);
    act(() => {
      s.receive({
        type: "welcome",
        protocolVersion: PROTOCOL_VERSION,
        schemaVersion: SCHEMA_VERSION,
        serverTime: "2025-03-01T10:00:00.000Z-0000-5e5e5e5e5e5e5e5e",
        limits: { maxMessageBytes: 1_048_576, maxMutationsPerPush: 500, maxChangesPerPage: 500, maxMessagesPerSecond: 100 },
      });
      s.receive({ type: "accessDenied", workspaceId: TEAM, reason: "not_a_member" });
    });
    await waitFor(() => expect(queryClient.getQueryState(queryKeys.me)?.isInvalidated).toBe(true));
    expect(queryClient.getQueryState(queryKeys.workspaces)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(queryKeys.workspace(TEAM))?.isInvalidated).toBe(true);
    view.unmount();
  });
});

describe("the sync socket refused as unauthorized (4401)", () => {
  const USER = "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c";
  const TEAM = "0a1b2c3d-0000-4000-8000-000000000002";

  /** DeviceSync signed in as USER, whose /me answers `me()` each time it is asked. */
  function renderSync(me: () => { user: { id: string } } | null) {
    const sockets: FakeSocket[] = [];
    const asked = { me: 0 };
    const queryClient = createQueryClient();
    queryClient.setQueryDefaults(queryKeys.me, {
      queryFn: async () => {
        asked.me++;
        return me();
      },
    });
    queryClient.setQueryData(queryKeys.me, { user: { id: USER } });
    const view = render(
      <I18nextProvider i18n={createI18n({ lng: "en" })}>
        <QueryClientProvider client={queryClient}>
          <DeviceSync
            user={{ id: USER }}
            workspaceIds={[TEAM]}
            clientOptions={{
              socket: () => {
                const s = new FakeSocket();
                sockets.push(s);
                return s;
              },
              network: { online: () => true, subscribe: () => () => {} },
              pingIntervalMs: 0,
              backoff: { baseMs: 2, maxMs: 8 },
            }}
          />
        </QueryClientProvider>
      </I18nextProvider>,
    );
    return { sockets, asked, queryClient, view };
  }

  /** The socket number n opens, says hello, and the server refuses it as unauthorized. */
  async function refused(sockets: FakeSocket[], n: number) {
    await waitFor(() => expect(sockets).toHaveLength(n));
    const s = sockets[n - 1]!;
    act(() => s.open());
    await waitFor(() => expect(s.sent.some((m) => m.type === "hello")).toBe(true));
    act(() => s.drop(4401));
  }

  test("while /me still answers the same user (a refusal during a session refresh), the sync tries again with backoff", async () => {
    const { sockets, asked, view } = renderSync(() => ({ user: { id: USER } }));
    await refused(sockets, 1);
    await refused(sockets, 2);
    await waitFor(() => expect(sockets).toHaveLength(3));
    expect(asked.me).toBe(2);
    // The third connection is welcomed: the sync runs again.
    const s = sockets[2]!;
    act(() => s.open());
    await waitFor(() => expect(s.sent.some((m) => m.type === "hello")).toBe(true));
    view.unmount();
  });

  test.each([
    ["the session ended (/me answers nobody)", () => null],
    ["the session changed hands (/me answers another user)", () => ({ user: { id: "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a99" } })],
  ])("stops when %s", async (_, me) => {
    const { sockets, asked, queryClient, view } = renderSync(me);
    await refused(sockets, 1);
    await waitFor(() => expect(asked.me).toBe(1));
    await waitFor(() => expect(queryClient.getQueryState(queryKeys.me)?.fetchStatus).toBe("idle"));
    for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 10));
    expect(sockets).toHaveLength(1);
    view.unmount();
  });
});

describe("the device database deleted under the shell (sign-out in another tab)", () => {
  test("the shell lets the closed database go and never makes it again", async () => {
    await renderApp("/", "en");
    await waitFor(() => expect(screen.getByTestId("sync-status").textContent).toBe("OfflineNot synced yet"));
    const name = deviceDbName("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");
    // Another tab's sign-out deletes the database while this tab has it open.
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.deleteDatabase(name);
      request.onsuccess = () => resolve();
      request.onerror = () => reject(request.error ?? new Error("delete failed"));
    });
    // The indicator goes back to waiting for a database, without an error, and nothing opened the
    // deleted database again (Dexie would reopen it on the next read).
    await waitFor(() => expect(screen.getByTestId("sync-status").dataset.state).toBe("starting"));
    for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 10));
    expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(name);
    expect(screen.getByTestId("sync-status").dataset.state).toBe("starting");
  });
});

describe("keepStorage", () => {
  test("asks only while the storage is not persistent, and never throws", async () => {
    const asks = { persisted: vi.fn(async () => false), persist: vi.fn(async () => false) };
    expect(await keepStorage(asks)).toBe(false);
    expect(asks.persist).toHaveBeenCalledTimes(1);
    const kept = { persisted: vi.fn(async () => true), persist: vi.fn(async () => true) };
    expect(await keepStorage(kept)).toBe(true);
    expect(kept.persist).not.toHaveBeenCalled();
    expect(await keepStorage(undefined)).toBe(false);
    const broken = { persisted: vi.fn(async () => Promise.reject(new Error("no"))), persist: vi.fn(async () => true) };
    expect(await keepStorage(broken)).toBe(false);
  });
});
