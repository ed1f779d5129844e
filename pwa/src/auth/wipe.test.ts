import { IDBFactory } from "fake-indexeddb";
import { describe, expect, test } from "vitest";
import { THEME_STORAGE_KEY } from "../theme/theme";
import { ME_CACHE_KEY } from "./session";
import { SIGN_OUT_EVENT, signOut } from "./signOut";
import { createApiClient } from "../api/client";
import { createFakeServer } from "../test/fakeServer";
import { isAppShellCache, rememberDeviceSettings, wipeDevice } from "./wipe";

/** Opens (creating) a database with one store and one record, then closes it. */
function createDatabase(factory: IDBFactory, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = factory.open(name, 1);
    request.onupgradeneeded = () => request.result.createObjectStore("records");
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const db = request.result;
      const tx = db.transaction("records", "readwrite");
      tx.objectStore("records").put({ amount: "250000.00" }, "house");
      tx.oncomplete = () => {
        db.close();
        resolve();
      };
    };
  });
}

function openDatabase(factory: IDBFactory, name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = factory.open(name);
    request.onerror = () => reject(request.error);
    request.onsuccess = () => resolve(request.result);
  });
}

async function databaseNames(factory: IDBFactory): Promise<string[]> {
  return (await factory.databases()).map((db) => db.name ?? "").sort();
}

/** Cache Storage as the wipe uses it (jsdom has none): names and deletion. */
class MemoryCacheStorage {
  readonly names: Set<string>;
  constructor(names: string[]) {
    this.names = new Set(names);
  }
  async keys(): Promise<string[]> {
    return [...this.names];
  }
  async delete(name: string): Promise<boolean> {
    return this.names.delete(name);
  }
  asCacheStorage(): CacheStorage {
    return this as unknown as CacheStorage;
  }
}

function fillStorage() {
  localStorage.setItem("i18nextLng", "en");
  localStorage.setItem(THEME_STORAGE_KEY, "dark");
  localStorage.setItem(ME_CACHE_KEY, JSON.stringify({ user: { id: "u1", email: "ana@example.com" } }));
  localStorage.setItem("patrimonio.activeWorkspace", "w1");
  sessionStorage.setItem("patrimonio.draft", "{}");
  sessionStorage.setItem("i18nextLng", "en");
}

describe("wipeDevice", () => {
  test("deletes every IndexedDB database", async () => {
    const factory = new IDBFactory();
    await createDatabase(factory, "patrimonio");
    await createDatabase(factory, "patrimonio-outbox");
    await createDatabase(factory, "some-library-cache");
    expect(await databaseNames(factory)).toEqual(["patrimonio", "patrimonio-outbox", "some-library-cache"]);

    const report = await wipeDevice({ indexedDB: factory });

    expect(await databaseNames(factory)).toEqual([]);
    expect(report.databases.sort()).toEqual(["patrimonio", "patrimonio-outbox", "some-library-cache"]);
    expect(report.blocked).toEqual([]);
  });

  test("a database held open elsewhere is reported blocked and goes once it is let go", async () => {
    const factory = new IDBFactory();
    await createDatabase(factory, "patrimonio");
    const otherTab = await openDatabase(factory, "patrimonio");

    const report = await wipeDevice({ indexedDB: factory });
    expect(report.blocked).toEqual(["patrimonio"]);

    otherTab.close();
    // The queued deletion now runs; a new open finds an empty database at version 1.
    const reopened = await openDatabase(factory, "patrimonio");
    expect([reopened.version, [...reopened.objectStoreNames]]).toEqual([1, []]);
    reopened.close();
  });

  test("deletes the caches that may hold user data and keeps the app shell's precache", async () => {
    const caches = new MemoryCacheStorage([
      "workbox-precache-v2-http://localhost:8080/",
      "api-responses",
      "images",
      "workbox-runtime-http://localhost:8080/",
    ]);
    const report = await wipeDevice({ caches: caches.asCacheStorage() });
    expect([...caches.names]).toEqual(["workbox-precache-v2-http://localhost:8080/"]);
    expect(report.caches.sort()).toEqual(["api-responses", "images", "workbox-runtime-http://localhost:8080/"]);
  });

  test("removes the user's keys from local and session storage and keeps language and theme", async () => {
    fillStorage();
    const report = await wipeDevice({ storages: [localStorage, sessionStorage] });
    expect(Object.keys(localStorage).sort()).toEqual(["i18nextLng", THEME_STORAGE_KEY].sort());
    expect(localStorage.getItem("i18nextLng")).toBe("en");
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("dark");
    expect(Object.keys(sessionStorage)).toEqual(["i18nextLng"]);
    expect(report.storageKeys.sort()).toEqual([ME_CACHE_KEY, "patrimonio.activeWorkspace", "patrimonio.draft"].sort());
  });

  test("isAppShellCache knows Workbox's precache by name", () => {
    expect(isAppShellCache("workbox-precache-v2-https://app.example/")).toBe(true);
    expect(isAppShellCache("api")).toBe(false);
  });
});

describe("rememberDeviceSettings", () => {
  test("puts language and theme back after the storage was emptied (Clear-Site-Data)", () => {
    fillStorage();
    const restore = rememberDeviceSettings([localStorage]);
    localStorage.clear();
    restore();
    expect(Object.fromEntries(Object.entries(localStorage))).toEqual({ i18nextLng: "en", [THEME_STORAGE_KEY]: "dark" });
  });
});

describe("signOut", () => {
  test("ends the session on the server, wipes the device, keeps the settings and leaves for /signin", async () => {
    const server = createFakeServer();
    const api = createApiClient({ fetch: server.fetch, language: () => "es" });
    const factory = new IDBFactory();
    await createDatabase(factory, "patrimonio");
    fillStorage();
    const left: string[] = [];
    // The sync engine is told first, while its database still exists, so it can close it.
    const databasesAtEvent: string[][] = [];
    const onSignOut = () => void databaseNames(factory).then((names) => databasesAtEvent.push(names));
    window.addEventListener(SIGN_OUT_EVENT, onSignOut);

    await signOut({ api, targets: { indexedDB: factory, storages: [localStorage] }, leave: (path) => left.push(path) });
    window.removeEventListener(SIGN_OUT_EVENT, onSignOut);

    expect(databasesAtEvent).toEqual([["patrimonio"]]);
    expect(server.state.calls).toContain("POST /auth/signout");
    expect(server.state.me).toBeNull();
    expect(await databaseNames(factory)).toEqual([]);
    expect(localStorage.getItem(ME_CACHE_KEY)).toBeNull();
    expect(localStorage.getItem("i18nextLng")).toBe("en");
    expect(left).toEqual(["/signin"]);
  });

  test("offline, the device is wiped all the same", async () => {
    const api = createApiClient({
      fetch: () => Promise.reject(new TypeError("Failed to fetch")),
      language: () => "es",
    });
    const factory = new IDBFactory();
    await createDatabase(factory, "patrimonio");
    const left: string[] = [];
    await signOut({ api, targets: { indexedDB: factory, storages: [] }, leave: (path) => left.push(path) });
    expect(await databaseNames(factory)).toEqual([]);
    expect(left).toEqual(["/signin"]);
  });
});
