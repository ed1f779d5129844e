// The screens that read device data, when the device database cannot be read: a failed open (the
// browser refused, storage full, a blocked upgrade) and a browser without IndexedDB or Web Locks.
// Whole-app renders; the database is fake-indexeddb, put in place per test (jsdom has none).
import { ClientDb, MemoryLockManager, type OpenOptions } from "@patrimonio/clientdb";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterEach, describe, expect, test, vi } from "vitest";
import { renderApp } from "../test/renderApp";

const realOpen = ClientDb.open.bind(ClientDb);

/** A browser with IndexedDB and Web Locks. */
function supportedBrowser() {
  Object.defineProperty(globalThis, "indexedDB", { value: new IDBFactory(), configurable: true, writable: true });
  Object.defineProperty(globalThis, "IDBKeyRange", { value: IDBKeyRange, configurable: true, writable: true });
  Object.defineProperty(navigator, "locks", { value: new MemoryLockManager(), configurable: true });
}

/** Opens of the device database fail with `name` (wrapped as Dexie does) until `heal()`; then they
 * open a real (fake-indexeddb) database. */
function failingOpens(name: string) {
  let failing = true;
  const open = vi.spyOn(ClientDb, "open").mockImplementation(async (options: OpenOptions) => {
    if (failing) throw Object.assign(new Error("Dexie: open failed"), { name: "OpenFailedError", inner: new DOMException("The open failed", name) });
    return realOpen({ ...options, indexedDB: globalThis.indexedDB, IDBKeyRange });
  });
  return { open, heal: () => (failing = false) };
}

afterEach(() => {
  vi.restoreAllMocks();
  Reflect.deleteProperty(globalThis, "indexedDB");
  Reflect.deleteProperty(globalThis, "IDBKeyRange");
  Reflect.deleteProperty(navigator, "locks");
});

/** Every screen that reads the device database, at one of its addresses, with its title. */
const SCREENS = [
  ["/", "Dashboard"],
  ["/map", "Wealth map"],
  ["/assets/", "Assets"],
  ["/assets/new", "New asset"],
  ["/assets/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/", "Asset"],
  ["/assets/classes/1/", "Asset class"],
  ["/assets/classes/1/category/1", "Category"],
  ["/liabilities", "Liabilities"],
  ["/flows", "Flows"],
  ["/tasks", "Tasks"],
  ["/beneficiaries", "Beneficiaries and legacy"],
  ["/beneficiaries/binder", "Beneficiaries and legacy"],
  ["/logins", "Logins"],
  ["/import", "Import statement"],
] as const;

describe("a device database that cannot be opened", () => {
  test.each(SCREENS)("%s says so under its title, with a retry, instead of a skeleton or an empty state", async (path, title) => {
    supportedBrowser();
    vi.spyOn(console, "error").mockImplementation(() => {});
    failingOpens("UnknownError");
    await renderApp(path, "en");
    const alert = await screen.findByTestId("device-data-failed");
    expect(alert.getAttribute("role")).toBe("alert");
    expect(within(alert).getByRole("heading", { level: 2 }).textContent).toBe("The data on this device could not be opened");
    expect(alert.dataset.reason).toBe("unknown");
    expect(within(screen.getByRole("main")).getByRole("heading", { level: 1 }).textContent).toBe(title);
    expect(within(alert).getByRole("button", { name: "Try again" })).toBeTruthy();
    expect(screen.queryByTestId("dashboard-empty")).toBeNull();
  });

  test.each([
    ["es" as const, "QuotaExceededError", "No se han podido abrir los datos de este dispositivo", "El almacenamiento de este dispositivo está lleno", "Volver a intentarlo"],
    ["en" as const, "InvalidStateError", "The data on this device could not be opened", "The browser does not let this site keep data", "Try again"],
  ])("in %s, a %s says why; Try again opens it and the screen comes back", async (language, error, title, why, retry) => {
    supportedBrowser();
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { open, heal } = failingOpens(error);
    await renderApp("/", language);
    const alert = await screen.findByTestId("device-data-failed");
    expect(within(alert).getByRole("heading").textContent).toBe(title);
    expect(alert.textContent).toContain(why);
    const tries = open.mock.calls.length;
    heal();
    await act(async () => {
      fireEvent.click(within(alert).getByRole("button", { name: retry }));
    });
    // The dashboard of an empty workspace, now that it can be read.
    expect(await screen.findByTestId("dashboard-empty")).toBeTruthy();
    expect(screen.queryByTestId("device-data-failed")).toBeNull();
    expect(open.mock.calls.length).toBe(tries + 1);
  });

  test("an upgrade that waits for another tab says so, and the screen comes once it goes through", async () => {
    supportedBrowser();
    vi.spyOn(console, "error").mockImplementation(() => {});
    let release!: () => void;
    vi.spyOn(ClientDb, "open").mockImplementation(async (options: OpenOptions) => {
      options.onBlocked?.();
      await new Promise<void>((resolve) => (release = resolve));
      return realOpen({ ...options, indexedDB: globalThis.indexedDB, IDBKeyRange });
    });
    await renderApp("/", "en");
    const alert = await screen.findByTestId("device-data-failed");
    expect(alert.dataset.reason).toBe("blocked");
    expect(alert.textContent).toContain("Close the app's other tabs");
    act(() => release());
    expect(await screen.findByTestId("dashboard-empty")).toBeTruthy();
  });

  test("screens that do not read device data show as usual", async () => {
    supportedBrowser();
    vi.spyOn(console, "error").mockImplementation(() => {});
    failingOpens("UnknownError");
    await renderApp("/help", "en");
    // The top bar says it; the help screen is not replaced.
    await waitFor(() => expect(screen.getByTestId("sync-status").dataset.state).toBe("failed"));
    expect(screen.queryByTestId("device-data-gate")).toBeNull();
    expect(within(screen.getByRole("main")).getByRole("heading", { level: 1 }).textContent).toBe("Help");
  });
});

describe("a browser that cannot keep a device database", () => {
  test.each([
    ["es" as const, "Este navegador no puede guardar tus datos en este dispositivo", "sal del modo privado"],
    ["en" as const, "This browser cannot keep your data on this device", "leave private mode"],
  ])("without IndexedDB, in %s, the dashboard says so instead of \"no assets yet\"", async (language, title, advice) => {
    await renderApp("/", language);
    const alert = await screen.findByTestId("device-data-unsupported");
    expect(alert.getAttribute("role")).toBe("alert");
    expect(within(alert).getByRole("heading").textContent).toBe(title);
    expect(alert.textContent).toContain(advice);
    expect(screen.queryByTestId("dashboard-empty")).toBeNull();
  });

  test("without Web Locks (IndexedDB present), the asset list says so", async () => {
    Object.defineProperty(globalThis, "indexedDB", { value: new IDBFactory(), configurable: true, writable: true });
    await renderApp("/assets/", "en");
    expect(await screen.findByTestId("device-data-unsupported")).toBeTruthy();
    expect(within(screen.getByRole("main")).getByRole("heading", { level: 1 }).textContent).toBe("Assets");
  });
});
