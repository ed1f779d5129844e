// Live queries need a global IndexedDB (Dexie reads it when it loads): before anything imports Dexie.
import "fake-indexeddb/auto";
import { ClientDb, ClientDbProvider, type SyncStatus as Status } from "@patrimonio/clientdb";
import { QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { I18nextProvider } from "react-i18next";
import { describe, expect, test, vi } from "vitest";
import { createI18n, type Language } from "../i18n/i18n";
import { createQueryClient } from "../query/queryClient";
import { syncUrl } from "./DeviceSync";
import { DeviceSyncActive, DeviceSyncOpenFailed, loadSyncEngine } from "./engineContext";
import { setServerBehind } from "./serverBehind";
import { SyncStatus, SyncStatusView } from "./SyncStatus";

const NOW = Date.UTC(2025, 2, 1, 10, 30);
const base: Status = { state: "synced", pending: 0, rejected: 0, conflicts: 0, lastSyncedAt: NOW - 60_000, snapshot: null, error: null };

function show(status: Status, language: Language = "en") {
  return render(
    <I18nextProvider i18n={createI18n({ lng: language })}>
      <SyncStatusView status={status} />
    </I18nextProvider>,
  );
}

describe("the sync indicator", () => {
  test("is a polite live region with an icon and the state in words", () => {
    show(base);
    const region = screen.getByRole("status");
    expect(region.getAttribute("aria-live")).toBe("polite");
    expect(region.dataset.state).toBe("synced");
    expect(region.querySelector("svg")?.getAttribute("aria-hidden")).toBe("true");
    expect(region.textContent).toBe("Synced");
    expect(region.title).toMatch(/^Last synced \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}$/);
  });

  test.each([
    ["es" as const, { ...base, state: "syncing" as const, pending: 3 }, "Sincronizando…3 cambios por enviar"],
    ["en" as const, { ...base, state: "syncing" as const, pending: 1 }, "Syncing…1 change to send"],
    ["es" as const, { ...base, rejected: 2, conflicts: 1 }, "Sincronizado2 cambios rechazados1 conflicto"],
    ["en" as const, { ...base, state: "syncing" as const, snapshot: { received: 1500 } }, "Downloading… 1,500 records"],
    ["en" as const, { ...base, state: "offline" as const, pending: 2, lastSyncedAt: null }, "OfflineNot synced yet2 changes to send"],
    ["es" as const, { ...base, state: "connecting" as const, pending: 2 }, "Conectando…2 cambios por enviar"],
    ["en" as const, { ...base, state: "connecting" as const, snapshot: { received: 1500 } }, "Connecting…"],
    ["es" as const, { ...base, state: "offline" as const, error: "unauthorized" }, "Sesión terminada: inicia sesión para sincronizar"],
    ["en" as const, { ...base, state: "offline" as const, error: "schema_version" }, "Update the app to keep syncing"],
    ["es" as const, { ...base, state: "offline" as const, error: "storage_full" }, "Almacenamiento del dispositivo lleno: libera espacio para sincronizar"],
    ["en" as const, { ...base, state: "syncing" as const, error: "storage_full" }, "Device storage is full: free up space to sync"],
    ["es" as const, { ...base, state: "offline" as const, error: "local_error" }, "Error al guardar la sincronización en este dispositivo; reintentando"],
    ["en" as const, { ...base, state: "offline" as const, error: "local_error" }, "Sync could not be saved on this device; retrying"],
  ])("in %s shows %j as %s", (language, status, text) => {
    show(status, language);
    expect(screen.getByRole("status").textContent).toBe(text);
  });

  test.each([
    ["es" as const, "El servidor tiene una versión anterior de la app: tus cambios esperan en este dispositivo3 cambios por enviar"],
    ["en" as const, "The server runs an older version of the app: your changes wait on this device3 changes to send"],
  ])("in %s, a version refusal by a server older than the app says the changes wait instead of asking for an update", (language, text) => {
    setServerBehind(true);
    try {
      show({ ...base, state: "offline", pending: 3, error: "schema_version" }, language);
      expect(screen.getByRole("status").textContent).toBe(text);
    } finally {
      act(() => setServerBehind(false));
    }
    expect(screen.getByRole("status").textContent).toMatch(/^(Actualiza la app|Update the app)/);
  });

  test("offline, it says when the device last synced", () => {
    show({ ...base, state: "offline", lastSyncedAt: NOW - 3 * 86400_000 }, "es");
    expect(screen.getByRole("status").textContent).toMatch(/^Sin conexiónÚltima sincronización: 26\/2\/25, \d{1,2}:\d{2}$/);
  });

  test("follows the device database live", async () => {
    // DeviceSync provides a database only once the engine (live indicator included) has loaded.
    await loadSyncEngine();
    const db = await ClientDb.open({ name: "sync-status-test", indexedDB: new IDBFactory(), IDBKeyRange });
    // The app's providers: the live indicator asks the workspaces again after a refusal.
    render(
      <I18nextProvider i18n={createI18n({ lng: "en" })}>
        <QueryClientProvider client={createQueryClient()}>
          <ClientDbProvider db={db}>
            <SyncStatus />
          </ClientDbProvider>
        </QueryClientProvider>
      </I18nextProvider>,
    );
    // Neutral ("Starting…") until the live query has read the database, then its status.
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe("OfflineNot synced yet"));
    await act(async () => {
      await db.create("tasks", "0a1b2c3d-0000-4000-8000-000000000001", { title: "Renovar el seguro", status: "todo" });
    });
    await screen.findByText("1 change to send");
    db.close();
  });

  test.each([
    ["es" as const, "No se puede abrir el almacenamiento de este dispositivo", "Reintentar"],
    ["en" as const, "This device's storage cannot be opened", "Retry"],
  ])("in %s, a device database that cannot be opened says so, with a retry", (language, text, action) => {
    const retry = vi.fn();
    render(
      <I18nextProvider i18n={createI18n({ lng: language })}>
        <DeviceSyncActive.Provider value={true}>
          <DeviceSyncOpenFailed.Provider value={{ reason: null, retry }}>
            <ClientDbProvider db={null}>
              <SyncStatus />
            </ClientDbProvider>
          </DeviceSyncOpenFailed.Provider>
        </DeviceSyncActive.Provider>
      </I18nextProvider>,
    );
    expect(screen.getByRole("status").textContent).toBe(text + action);
    expect(screen.getByRole("status").dataset.state).toBe("failed");
    fireEvent.click(screen.getByRole("button", { name: action }));
    expect(retry).toHaveBeenCalledTimes(1);
  });

  test("renders nothing without a device database (signed out)", () => {
    const { container } = render(
      <I18nextProvider i18n={createI18n({ lng: "en" })}>
        <ClientDbProvider db={null}>
          <SyncStatus />
        </ClientDbProvider>
      </I18nextProvider>,
    );
    expect(container.textContent).toBe("");
  });

  test("the socket address follows the page's scheme and host", () => {
    const user = "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";
    expect(syncUrl({ protocol: "https:", host: "app.example.com" }, user)).toBe(`wss://app.example.com/api/v1/sync?user=${user}`);
    expect(syncUrl({ protocol: "http:", host: "127.0.0.1:8080" }, user)).toBe(`ws://127.0.0.1:8080/api/v1/sync?user=${user}`);
  });
});
