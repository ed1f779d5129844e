// @vitest-environment jsdom
// The live-query hooks re-render when the data they read changes.
// Live queries need a global IndexedDB (Dexie reads it when it loads): before anything imports Dexie.
import "fake-indexeddb/auto";
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { createElement, type ReactNode } from "react";
import { afterEach, describe, expect, test } from "vitest";
import { applyPage, applyRejects, startResync } from "../src/apply";
import { ClientDb } from "../src/clientdb";
import { ClientDbProvider, useConflicts, useRecord, useRecords, useRejected, useSyncStatus, useWorkspaceHeld } from "../src/hooks";
import { uuidv7 } from "../src/ids";
import { internals } from "../src/internal";
import { WORKSPACE, task } from "./support";

afterEach(cleanup);

let n = 0;
async function setup() {
  const db = await ClientDb.open({ name: `hooks-${++n}` });
  const wrapper = ({ children }: { children?: ReactNode }) => createElement(ClientDbProvider, { db }, children);
  return { db, wrapper };
}

describe("hooks", () => {
  test("useRecords and useRecord follow commands", async () => {
    const { db, wrapper } = await setup();
    const list = renderHook(() => useRecords("tasks", WORKSPACE), { wrapper });
    await waitFor(() => expect(list.result.current).toEqual([]));
    let id = "";
    await act(async () => {
      const r = await db.create("tasks", WORKSPACE, task());
      if (r.ok) id = r.id;
    });
    await waitFor(() => expect(list.result.current?.map((t) => t.fields.title)).toEqual([task().title]));
    const one = renderHook(() => useRecord("tasks", id), { wrapper });
    await waitFor(() => expect(one.result.current?.fields.status).toBe("todo"));
    await act(async () => {
      await db.update("tasks", id, { status: "done" });
      await db.delete("tasks", id);
    });
    await waitFor(() => expect(list.result.current).toEqual([]));
    await waitFor(() => expect(one.result.current).toMatchObject({ deleted: true, fields: { status: "done" } }));
    db.close();
  });

  test("useConflicts, useRejected and useSyncStatus follow what the server says", async () => {
    const { db, wrapper } = await setup();
    const conflicts = renderHook(() => useConflicts(WORKSPACE), { wrapper });
    const rejected = renderHook(() => useRejected(WORKSPACE), { wrapper });
    const status = renderHook(() => useSyncStatus(), { wrapper });
    await waitFor(() => expect(status.result.current?.state).toBe("offline"));
    const id = uuidv7(0);
    const a = "2025-03-01T09:00:00.000Z-0000-aaaaaaaaaaaaaaaa";
    await act(async () => {
      await applyPage(internals(db), {
        workspaceId: WORKSPACE,
        snapshot: false,
        hasMore: false,
        cursor: 3,
        changes: [
          { seq: 1, collection: "tasks", recordId: id, kind: "mutation", mutationId: 1, mutation: { op: "put", stamp: a, author: "x", fields: { title: "a", status: "todo" }, base: {} } },
          { seq: 2, collection: "tasks", recordId: id, kind: "mutation", mutationId: 1, mutation: { op: "put", stamp: "2025-03-01T09:00:02.000Z-0000-bbbbbbbbbbbbbbbb", author: "y", fields: { title: "b" }, base: { title: a } } },
          { seq: 3, collection: "tasks", recordId: id, kind: "mutation", mutationId: 1, mutation: { op: "put", stamp: "2025-03-01T09:00:01.000Z-0000-cccccccccccccccc", author: "z", fields: { title: "c" }, base: { title: a } } },
        ],
      });
    });
    await waitFor(() => expect(conflicts.result.current?.map((c) => [c.value, c.current])).toEqual([["c", "b"]]));
    await waitFor(() => expect(status.result.current?.conflicts).toBe(1));

    await act(async () => {
      await db.update("tasks", id, { status: "done" });
      await applyRejects(internals(db), [{ mutationId: 1, code: "forbidden", issues: [{ path: "", key: "sync.reject.readOnly", params: { role: "viewer" }, message: "" }] }]);
    });
    await waitFor(() => expect(rejected.result.current?.map((r) => [r.code, r.fields])).toEqual([["forbidden", { status: "done" }]]));
    await waitFor(() => expect(status.result.current).toMatchObject({ rejected: 1, pending: 0 }));

    await act(async () => {
      await db.dismissConflict(conflicts.result.current![0]!.id);
    });
    await waitFor(() => expect(conflicts.result.current).toEqual([]));
    await waitFor(() => expect(status.result.current).toMatchObject({ conflicts: 0, pending: 1 }));
    db.close();
  });

  test("useWorkspaceHeld is true once a first sync has been applied whole, and false again during a resync", async () => {
    const { db, wrapper } = await setup();
    const held = renderHook(() => useWorkspaceHeld(WORKSPACE), { wrapper });
    await waitFor(() => expect(held.result.current).toBe(false));
    const page = (hasMore: boolean) => ({ workspaceId: WORKSPACE, snapshot: true, hasMore, cursor: 7, changes: [], ...(hasMore ? { resume: "t" } : {}) });
    // Part of the snapshot: the device does not hold the workspace yet.
    await act(async () => {
      await applyPage(internals(db), page(true));
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(held.result.current).toBe(false);
    await act(async () => {
      await applyPage(internals(db), page(false));
    });
    await waitFor(() => expect(held.result.current).toBe(true));
    // An empty workspace held is held too; another one is not.
    const other = renderHook(() => useWorkspaceHeld("0a1b2c3d-0000-4000-8000-000000000009"), { wrapper });
    await waitFor(() => expect(other.result.current).toBe(false));
    await act(async () => {
      await startResync(internals(db), WORKSPACE);
    });
    await waitFor(() => expect(held.result.current).toBe(false));
    db.close();
  });
});
