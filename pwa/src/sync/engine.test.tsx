// The engine's wiring of the sync client to the app: what it does when the server refuses the app's
// version or a workspace, that the client's errors reach the console, and a device database that
// cannot be opened. The test plays the server on a fake socket; the database is fake-indexeddb.
import "fake-indexeddb/auto";
import { ClientDb, MemoryLockManager, type TimersLike } from "@patrimonio/clientdb";
import { PROTOCOL_VERSION, SCHEMA_VERSION } from "@patrimonio/shared-schema";
import { act, render, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, test, vi } from "vitest";
import { FakeSyncSocket as FakeSocket } from "../test/fakeSyncSocket";
import { DeviceEngine, SERVER_BEHIND_RETRY_MS, type DeviceEngineProps } from "./engine";
import { serverIsBehind, setServerBehind } from "./serverBehind";

const USER = "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c";
const WORKSPACE = "0a1b2c3d-0000-4000-8000-000000000001";
const OTHER = "0a1b2c3d-0000-4000-8000-000000000002";

function setup(over: Partial<DeviceEngineProps> = {}) {
  const sockets: FakeSocket[] = [];
  const props: DeviceEngineProps = {
    userId: USER,
    workspaces: [WORKSPACE, OTHER].join(","),
    language: "en",
    onOpened: vi.fn(),
    onOpenFailed: vi.fn(),
    onUnauthorized: vi.fn(async () => null),
    onUpdateRequired: vi.fn(),
    onAccessDenied: vi.fn(),
    ...over,
    // Options a test gives join the fake socket's.
    clientOptions: {
      socket: () => {
        const s = new FakeSocket();
        sockets.push(s);
        return s;
      },
      locks: new MemoryLockManager(),
      network: { online: () => true, subscribe: () => () => {} },
      pingIntervalMs: 0,
      ...over.clientOptions,
    },
  };
  const view = render(<DeviceEngine {...props} />);
  return { props, sockets, view };
}

/** Timers the test fires by hand. */
class HandTimers implements TimersLike {
  #next = 1;
  readonly pending = new Map<number, { fn: () => void; ms: number }>();
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.#next++;
    this.pending.set(id, { fn, ms });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  delays(): number[] {
    return [...this.pending.values()].map((p) => p.ms);
  }
  /** Fires the pending timers of this delay. */
  fire(ms: number): void {
    for (const [id, p] of [...this.pending]) {
      if (p.ms !== ms) continue;
      this.pending.delete(id);
      p.fn();
    }
  }
}

/** Waits for the engine's socket and answers its hello with a welcome. */
async function connected(sockets: FakeSocket[]): Promise<FakeSocket> {
  await waitFor(() => expect(sockets).toHaveLength(1));
  const s = sockets[0]!;
  act(() => s.open());
  await waitFor(() => expect(s.sent.some((m) => m.type === "hello")).toBe(true));
  return s;
}

afterEach(() => {
  vi.restoreAllMocks();
  setServerBehind(false);
});

describe("the device engine", () => {
  test.each(["protocol_version", "schema_version"])("the server refuses the app's version (%s) and is newer: the app is asked to update, and the error is logged", async (code) => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const { props, sockets, view } = setup({ compareVersions: async () => "ahead" as const });
    const s = await connected(sockets);
    act(() => {
      s.receive({ type: "error", code, message: "Update the app." });
      s.drop(4426);
    });
    await waitFor(() => expect(props.onUpdateRequired).toHaveBeenCalledTimes(1));
    expect(props.onUnauthorized).not.toHaveBeenCalled();
    expect(logged).toHaveBeenCalledWith("Sync:", { code, message: "Update the app." });
    view.unmount();
  });

  test("a server older than the app (rolled back) refuses its version: no update is asked, the changes wait, and the sync tries again later", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const timers = new HandTimers();
    const { props, sockets, view } = setup({
      compareVersions: async () => "behind" as const,
      // (No answer watchdog: its delay is a minute too.)
      clientOptions: { timers, answerTimeoutMs: 0 },
    });
    const s = await connected(sockets);
    act(() => {
      s.receive({ type: "error", code: "schema_version", message: "Update the app." });
      s.drop(4426);
    });
    await waitFor(() => expect(timers.delays()).toContain(SERVER_BEHIND_RETRY_MS));
    expect(props.onUpdateRequired).not.toHaveBeenCalled();
    expect(serverIsBehind()).toBe(true);
    // A minute later it says hello again; once the server (updated) welcomes it, all is as before.
    act(() => timers.fire(SERVER_BEHIND_RETRY_MS));
    await waitFor(() => expect(sockets).toHaveLength(2));
    const again = sockets[1]!;
    act(() => again.open());
    await waitFor(() => expect(again.sent.some((m) => m.type === "hello")).toBe(true));
    act(() =>
      again.receive({
        type: "welcome",
        protocolVersion: PROTOCOL_VERSION,
        schemaVersion: SCHEMA_VERSION,
        serverTime: "2025-03-01T10:00:00.000Z-0000-5e5e5e5e5e5e5e5e",
        limits: { maxMessageBytes: 1_048_576, maxMutationsPerPush: 500, maxChangesPerPage: 500, maxMessagesPerSecond: 100 },
      }),
    );
    await waitFor(() => expect(serverIsBehind()).toBe(false));
    expect(props.onUpdateRequired).not.toHaveBeenCalled();
    view.unmount();
  });

  test("a workspace the server denies makes the app fetch its workspaces again", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { props, sockets, view } = setup();
    const s = await connected(sockets);
    act(() => {
      s.receive({
        type: "welcome",
        protocolVersion: PROTOCOL_VERSION,
        schemaVersion: SCHEMA_VERSION,
        serverTime: "2025-03-01T10:00:00.000Z-0000-5e5e5e5e5e5e5e5e",
        limits: { maxMessageBytes: 1_048_576, maxMutationsPerPush: 500, maxChangesPerPage: 500, maxMessagesPerSecond: 100 },
      });
      s.receive({ type: "accessDenied", workspaceId: OTHER, reason: "not_a_member" });
    });
    await waitFor(() => expect(props.onAccessDenied).toHaveBeenCalledTimes(1));
    view.unmount();
  });

  test("a device database that cannot be opened is reported with a retry that opens it again", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    let fail = true;
    const open = vi.fn(async (name: string) => {
      if (fail) throw new DOMException("The operation failed for reasons unrelated to the database itself.", "UnknownError");
      return ClientDb.open({ name });
    });
    const { props, view } = setup({ open, workspaces: "" });
    await waitFor(() => expect(props.onOpenFailed).toHaveBeenLastCalledWith({ reason: null, retry: expect.any(Function) }));
    expect(props.onOpened).not.toHaveBeenLastCalledWith(expect.objectContaining({ userId: USER }));
    const { retry } = vi.mocked(props.onOpenFailed).mock.lastCall![0]!;
    fail = false;
    act(() => retry());
    await waitFor(() => expect(props.onOpened).toHaveBeenLastCalledWith(expect.objectContaining({ userId: USER })));
    expect(props.onOpenFailed).toHaveBeenLastCalledWith(null);
    expect(open).toHaveBeenCalledTimes(2);
    view.unmount();
  });

  test.each([
    ["QuotaExceededError", "storage_full"],
    ["InvalidStateError", "refused"],
    ["VersionError", "version"],
  ] as const)("an open that fails with %s is reported as %s", async (name, reason) => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    // As Dexie does: its OpenFailedError wraps the browser's error.
    const open = vi.fn(async () => {
      throw Object.assign(new Error("Dexie: open failed"), { name: "OpenFailedError", inner: new DOMException("refused", name) });
    });
    const { props, view } = setup({ open, workspaces: "" });
    await waitFor(() => expect(props.onOpenFailed).toHaveBeenLastCalledWith({ reason, retry: expect.any(Function) }));
    view.unmount();
  });

  test("an open that waits for another tab is reported as blocked, and clears once it goes through", async () => {
    let release!: () => void;
    const open = vi.fn(async (name: string, hooks?: { onBlocked?: () => void }) => {
      hooks?.onBlocked?.();
      await new Promise<void>((resolve) => (release = resolve));
      return ClientDb.open({ name });
    });
    const { props, view } = setup({ open, workspaces: "" });
    await waitFor(() => expect(props.onOpenFailed).toHaveBeenLastCalledWith({ reason: "blocked", retry: expect.any(Function) }));
    act(() => release());
    await waitFor(() => expect(props.onOpened).toHaveBeenLastCalledWith(expect.objectContaining({ userId: USER })));
    expect(props.onOpenFailed).toHaveBeenLastCalledWith(null);
    view.unmount();
  });
});
