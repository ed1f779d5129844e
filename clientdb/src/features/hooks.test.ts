// @vitest-environment jsdom
// The feature hooks tell loading (undefined) from none ([] / null), also when the database arrives
// after the first render and when the workspace changes.
import "fake-indexeddb/auto";
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { createElement, type ReactNode } from "react";
import { afterEach, describe, expect, test } from "vitest";
import { ClientDb } from "../clientdb";
import { ClientDbProvider } from "../context";
import { OTHER_WORKSPACE, WORKSPACE, asset, task } from "../../test/support";
import { useDanglingRefs } from "./dangling";
import { applyRejects } from "../apply";
import { internals } from "../internal";
import { useRecordById, useRecordsWhere, useWorkspaceRecords, useWorkspaceRejected } from "./hooks";
import { liveRecordList } from "./liveList";

afterEach(cleanup);

let n = 0;

describe("feature hooks", () => {
  test("undefined until the current database and workspace answered; never a stale []", async () => {
    const db = await ClientDb.open({ name: `feature-hooks-${++n}` });
    const created = await db.create("tasks", WORKSPACE, task());
    if (!created.ok) throw new Error("refused");
    let handle: ClientDb | null = null;
    const wrapper = ({ children }: { children?: ReactNode }) => createElement(ClientDbProvider, { db: handle }, children);
    const seen: (number | undefined)[] = [];
    const list = renderHook(
      ({ ws }: { ws: string }) => {
        const rows = useWorkspaceRecords("tasks", ws);
        seen.push(rows?.length);
        return rows;
      },
      { wrapper, initialProps: { ws: WORKSPACE } },
    );
    // No database yet: loading, not "no tasks".
    expect(list.result.current).toBeUndefined();
    handle = db;
    list.rerender({ ws: WORKSPACE });
    await waitFor(() => expect(list.result.current?.map((t) => t.id)).toEqual([created.id]));
    // Between "no database" and the rows, the hook never said "none".
    expect(seen.filter((x) => x !== undefined)).not.toContain(0);

    // Another workspace: loading again, then its (empty) list; never the previous workspace's rows.
    seen.length = 0;
    list.rerender({ ws: OTHER_WORKSPACE });
    expect(list.result.current).toBeUndefined();
    await waitFor(() => expect(list.result.current).toEqual([]));
    expect(seen.filter((x) => x !== undefined)).not.toContain(1);

    const one = renderHook(({ id }: { id: string }) => useRecordById("tasks", id), { wrapper, initialProps: { id: created.id } });
    await waitFor(() => expect(one.result.current?.id).toBe(created.id));
    one.rerender({ id: "01890a5d-ac96-774b-bcce-b302099a8057" });
    expect(one.result.current).toBeUndefined();
    await waitFor(() => expect(one.result.current).toBeNull());
    await act(async () => {
      await db.delete("tasks", created.id);
    });
    db.close();
  });

  test("useWorkspaceRejected lists the workspace's refused changes live, and drops a discarded one", async () => {
    const db = await ClientDb.open({ name: `feature-hooks-${++n}` });
    const wrapper = ({ children }: { children?: ReactNode }) => createElement(ClientDbProvider, { db }, children);
    const hook = renderHook(() => useWorkspaceRejected(WORKSPACE), { wrapper });
    expect(hook.result.current).toBeUndefined();
    await waitFor(() => expect(hook.result.current).toEqual([]));
    let id = "";
    await act(async () => {
      const r = await db.create("tasks", WORKSPACE, task());
      if (r.ok) id = r.id;
      await db.create("tasks", OTHER_WORKSPACE, task());
      await applyRejects(internals(db), [1, 2].map((mutationId) => ({ mutationId, code: "forbidden", issues: [] })));
    });
    await waitFor(() => expect(hook.result.current).toMatchObject([{ mutationId: 1, recordId: id, op: "put", created: true, code: "forbidden" }]));
    await act(async () => {
      await db.discardRejected(1);
    });
    await waitFor(() => expect(hook.result.current).toEqual([]));
    db.close();
  });

  test("useRecordsWhere follows the records whose field has the value", async () => {
    const db = await ClientDb.open({ name: `feature-hooks-${++n}` });
    const wrapper = ({ children }: { children?: ReactNode }) => createElement(ClientDbProvider, { db }, children);
    const hook = renderHook(({ status }: { status: string | undefined }) => useRecordsWhere("tasks", WORKSPACE, "status", status), {
      wrapper,
      initialProps: { status: "done" as string | undefined },
    });
    expect(hook.result.current).toBeUndefined();
    await waitFor(() => expect(hook.result.current).toEqual([]));
    let id = "";
    await act(async () => {
      await db.create("tasks", WORKSPACE, task());
      const r = await db.create("tasks", WORKSPACE, task({ title: "Hecha", status: "done" }));
      if (r.ok) id = r.id;
      await db.create("tasks", OTHER_WORKSPACE, task({ status: "done" }));
    });
    await waitFor(() => expect(hook.result.current?.map((t) => t.id)).toEqual([id]));
    await act(async () => {
      await db.update("tasks", id, { status: "todo" });
    });
    await waitFor(() => expect(hook.result.current).toEqual([]));
    hook.rerender({ status: undefined });
    await waitFor(() => expect(hook.result.current).toEqual([]));
    db.close();
  });

  test("useDanglingRefs shows a reference left by a merge, and follows its repair", async () => {
    const db = await ClientDb.open({ name: `feature-hooks-${++n}` });
    const wrapper = ({ children }: { children?: ReactNode }) => createElement(ClientDbProvider, { db }, children);
    const hook = renderHook(() => useDanglingRefs(WORKSPACE), { wrapper });
    await waitFor(() => expect(hook.result.current).toEqual([]));
    let debt = "";
    await act(async () => {
      const a = await db.create("assets", WORKSPACE, asset());
      if (!a.ok) throw new Error("refused");
      const d = await db.create("liabilities", WORKSPACE, { name: "Deuda", kind: "loan", amountOutstanding: "5", currency: "EUR", assetId: a.id });
      if (d.ok) debt = d.id;
      await db.delete("assets", a.id);
    });
    await waitFor(() => expect(hook.result.current?.map((r) => r.recordId)).toEqual([debt]));
    await act(async () => {
      await db.update("liabilities", debt, { assetId: null });
    });
    await waitFor(() => expect(hook.result.current).toEqual([]));
    db.close();
  });

  test("useWorkspaceRecords is incremental: unchanged records keep their objects, one reader per list", async () => {
    const db = await ClientDb.open({ name: `feature-hooks-${++n}` });
    const first = await db.create("tasks", WORKSPACE, task({ title: "Uno" }));
    const second = await db.create("tasks", WORKSPACE, task({ title: "Dos" }));
    if (!first.ok || !second.ok) throw new Error("refused");
    const wrapper = ({ children }: { children?: ReactNode }) => createElement(ClientDbProvider, { db }, children);
    const hook = renderHook(() => ({ a: useWorkspaceRecords("tasks", WORKSPACE), b: useWorkspaceRecords("tasks", WORKSPACE) }), { wrapper });
    await waitFor(() => expect(hook.result.current.a?.map((t) => t.fields.title)).toEqual(["Uno", "Dos"]));
    // Two subscribers of the same list see the same array.
    expect(hook.result.current.b).toBe(hook.result.current.a);
    const [uno, dos] = hook.result.current.a!;

    let third = "";
    await act(async () => {
      const r = await db.create("tasks", WORKSPACE, task({ title: "Tres" }));
      if (r.ok) third = r.id;
      await db.create("tasks", OTHER_WORKSPACE, task({ title: "Fuera" }));
    });
    await waitFor(() => expect(hook.result.current.a?.map((t) => t.fields.title)).toEqual(["Uno", "Dos", "Tres"]));
    expect(hook.result.current.a![0]).toBe(uno);
    expect(hook.result.current.a![1]).toBe(dos);

    await act(async () => {
      await db.update("tasks", second.id, { title: "Dos bis" });
    });
    await waitFor(() => expect(hook.result.current.a?.map((t) => t.fields.title)).toEqual(["Uno", "Dos bis", "Tres"]));
    expect(hook.result.current.a![0]).toBe(uno);
    expect(hook.result.current.a![1]).not.toBe(dos);

    // Several writes in one transaction, including a delete.
    await act(async () => {
      await db.batch(async () => {
        await db.delete("tasks", first.id);
        await db.update("tasks", third, { status: "done" });
      });
    });
    await waitFor(() => expect(hook.result.current.a?.map((t) => [t.fields.title, t.fields.status])).toEqual([
      ["Dos bis", "todo"],
      ["Tres", "done"],
    ]));
    // And it agrees with a full read.
    expect(hook.result.current.a?.map((t) => t.id)).toEqual((await db.list("tasks", WORKSPACE)).map((t) => t.id));
    hook.unmount();

    // Left and back (a navigation): the list stayed live meanwhile, so the first render has it, new rows included.
    await db.create("tasks", WORKSPACE, task({ title: "Cuatro" }));
    await waitFor(() => expect(liveRecordList(db, "tasks", WORKSPACE).snapshot()?.length).toBe(3));
    const again = renderHook(() => useWorkspaceRecords("tasks", WORKSPACE), { wrapper });
    expect(again.result.current?.map((t) => t.fields.title)).toEqual(["Dos bis", "Tres", "Cuatro"]);
    again.unmount();
    db.close();
  });
});
