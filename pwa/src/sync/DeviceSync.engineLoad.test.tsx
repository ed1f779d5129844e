// The engine's chunk (Dexie, clientdb) that cannot be loaded (offline before the app was saved on
// this device): the screens hear that the device database could not be opened, why, and a retry
// that loads it again, instead of waiting on their skeletons for good.
import "fake-indexeddb/auto";
import { MemoryLockManager } from "@patrimonio/clientdb";
import { QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { createI18n } from "../i18n/i18n";
import { createQueryClient } from "../query/queryClient";
import { DeviceDataProblem, useDeviceData } from "./DeviceData";
import { DeviceSync } from "./DeviceSync";

const loads = vi.hoisted(() => ({ failing: true, tries: 0 }));

vi.mock("./engineContext", async (importOriginal) => {
  const real = await importOriginal<typeof import("./engineContext")>();
  return {
    ...real,
    loadSyncEngine: () => {
      loads.tries++;
      return loads.failing ? Promise.reject(new TypeError("Failed to fetch dynamically imported module")) : real.loadSyncEngine();
    },
  };
});

beforeEach(() => {
  Object.defineProperty(navigator, "locks", { value: new MemoryLockManager(), configurable: true });
});

afterEach(() => {
  Reflect.deleteProperty(navigator, "locks");
});

/** What a screen behind DeviceDataGate would show. */
function Probe() {
  const data = useDeviceData();
  if (data.state === "failed" || data.state === "unsupported") return <DeviceDataProblem data={data} />;
  return <p data-testid="device-data-state">{data.state}</p>;
}

test("an engine that cannot be loaded is an open that failed, with a retry that loads it again", async () => {
  vi.spyOn(console, "error").mockImplementation(() => {});
  render(
    <I18nextProvider i18n={createI18n({ lng: "en" })}>
      <QueryClientProvider client={createQueryClient()}>
        <DeviceSync user={{ id: "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c" }} workspaceIds={[]}>
          <Probe />
        </DeviceSync>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  expect(screen.getByTestId("device-data-state").textContent).toBe("starting");
  const alert = await screen.findByTestId("device-data-failed");
  expect(alert.dataset.reason).toBe("engine");
  expect(alert.textContent).toContain("Connect and try again");
  loads.failing = false;
  await act(async () => {
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
  });
  // Loaded and opened this time.
  await screen.findByText("ready");
  expect(loads.tries).toBe(2);
});
