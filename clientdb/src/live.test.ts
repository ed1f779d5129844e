// @vitest-environment jsdom
// useLive, the Dexie-free live query of the feature hooks: nothing without a database, the answer
// and its updates, the last answer kept while new deps load but never another database's, and a
// failed query thrown to the error boundary.
import "fake-indexeddb/auto";
import { act, cleanup, render, renderHook, waitFor } from "@testing-library/react";
import { Component, createElement, type ReactNode } from "react";
import { afterEach, describe, expect, test, vi } from "vitest";
import { ClientDb } from "./clientdb";
import { useLive } from "./live";
import { dbOf, listRows } from "./rows";
import { WORKSPACE, task } from "../test/support";

afterEach(cleanup);

let n = 0;
const open = () => ClientDb.open({ name: `live-${++n}` });
const countTasks = (handle: ClientDb) => async () => (await listRows(dbOf(handle), "tasks", WORKSPACE, false)).length;

describe("useLive", () => {
  test("no database: undefined, and the query never runs", async () => {
    const querier = vi.fn(async () => 1);
    const { result } = renderHook(() => useLive(null, querier, []));
    await act(async () => new Promise((r) => setTimeout(r, 20)));
    expect(result.current).toBeUndefined();
    expect(querier).not.toHaveBeenCalled();
  });

  test("answers, follows writes, keeps the last answer while new deps load, never across databases", async () => {
    const a = await open();
    const b = await open();
    const created = await a.create("tasks", WORKSPACE, task());
    if (!created.ok) throw new Error("refused");
    const hook = renderHook(({ handle, tag }: { handle: ClientDb; tag: string }) => useLive(handle, async () => `${tag}:${await countTasks(handle)()}`, [tag]), {
      initialProps: { handle: a, tag: "x" },
    });
    expect(hook.result.current).toBeUndefined();
    await waitFor(() => expect(hook.result.current).toBe("x:1"));

    // A write to what the query read makes it answer again.
    await act(async () => {
      await a.create("tasks", WORKSPACE, task());
    });
    await waitFor(() => expect(hook.result.current).toBe("x:2"));

    // New deps: the previous answer stays until the new query answers (as useLiveQuery does).
    hook.rerender({ handle: a, tag: "y" });
    expect(hook.result.current).toBe("x:2");
    await waitFor(() => expect(hook.result.current).toBe("y:2"));

    // Another database: nothing of the first one shows, then its own answer.
    hook.rerender({ handle: b, tag: "y" });
    expect(hook.result.current).toBeUndefined();
    await waitFor(() => expect(hook.result.current).toBe("y:0"));
    a.close();
    b.close();
  });

  test("a query that fails is thrown during render, for the error boundary", async () => {
    const db = await open();
    class Boundary extends Component<{ children?: ReactNode }, { error: string | null }> {
      override state = { error: null as string | null };
      static getDerivedStateFromError(error: unknown) {
        return { error: error instanceof Error ? error.message : String(error) };
      }
      override render() {
        return this.state.error !== null ? createElement("p", { "data-testid": "caught" }, this.state.error) : this.props.children;
      }
    }
    function Reader() {
      const value = useLive(
        db,
        async () => {
          throw new Error("the query failed");
        },
        [],
      );
      return createElement("p", null, String(value));
    }
    const quiet = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const view = render(createElement(Boundary, null, createElement(Reader)));
    await waitFor(() => expect(view.getByTestId("caught").textContent).toBe("the query failed"));
    quiet.mockRestore();
    db.close();
  });
});
