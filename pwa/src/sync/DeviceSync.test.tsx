// The shell's wiring: signed in, the device database opens and the top bar shows its sync status;
// signed out, nothing. jsdom has neither IndexedDB nor Web Locks: the test provides both.
import "fake-indexeddb/auto";
import { MemoryLockManager } from "@patrimonio/clientdb";
import { screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createFakeServer } from "../test/fakeServer";
import { renderApp } from "../test/renderApp";
import { deviceDbName } from "./DeviceSync";

beforeEach(() => {
  Object.defineProperty(navigator, "locks", { value: new MemoryLockManager(), configurable: true });
});

afterEach(() => {
  Reflect.deleteProperty(navigator, "locks");
});

describe("device sync in the shell", () => {
  test("signed in, the top bar shows the device's sync status", async () => {
    await renderApp("/", "en");
    const status = await screen.findByTestId("sync-status");
    expect(status.getAttribute("role")).toBe("status");
    expect(status.closest("[data-slot='sync-status']")).not.toBeNull();
    // No server in this test: the device is offline and has never synced.
    expect(status.textContent).toBe("OfflineNot synced yet");
    expect((await indexedDB.databases()).map((d) => d.name)).toContain(deviceDbName("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"));
  });

  test("signed out, there is no indicator", async () => {
    await renderApp("/signin", "en", createFakeServer({ me: null }));
    await screen.findByRole("heading", { level: 1 });
    expect(screen.queryByTestId("sync-status")).toBeNull();
  });
});
