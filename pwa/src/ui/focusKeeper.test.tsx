import { act, render, screen, waitFor } from "@testing-library/react";
import { useMemo, useRef, useState } from "react";
import { describe, expect, test } from "vitest";
import { useFocusKeeper } from "./focusKeeper";

interface Item {
  id: string;
  done: boolean;
}

/** Two lists in one container, as the tasks screen has them (open, then done); a row's key names
 * its list, so an item moved to the other list is a row gone from the first. */
function renderLists(initial: Item[]): (items: Item[]) => void {
  let setItems: (items: Item[]) => void = () => undefined;
  function Lists() {
    const [items, set] = useState(initial);
    setItems = set;
    const root = useRef<HTMLDivElement>(null);
    const open = useMemo(() => items.filter((i) => !i.done), [items]);
    const done = useMemo(() => items.filter((i) => i.done), [items]);
    const keys = useMemo(() => [...open.map((i) => `open:${i.id}`), ...done.map((i) => `done:${i.id}`)], [open, done]);
    useFocusKeeper(root, keys, (key) => key, ['[data-control="new"]']);
    const list = (group: string, rows: Item[]) => (
      <ul>
        {rows.map((i) => (
          <li key={i.id} data-row-key={`${group}:${i.id}`}>
            {i.id}
            <button type="button" data-control="status">{`Estado de ${i.id}`}</button>
            <button type="button">{`Borrar ${i.id}`}</button>
          </li>
        ))}
      </ul>
    );
    return (
      <div ref={root}>
        <button type="button" data-control="new">
          Nueva
        </button>
        {open.length > 0 && list("open", open)}
        {list("done", done)}
      </div>
    );
  }
  render(<Lists />);
  return (items) => act(() => setItems(items));
}

const button = (name: string) => screen.getByRole("button", { name });

describe("useFocusKeeper", () => {
  test("a row moved to another list hands focus to its place in the list it left: the row before it when it was last, then the fallback", async () => {
    const setItems = renderLists([
      { id: "a", done: false },
      { id: "b", done: false },
      { id: "c", done: true },
    ]);
    act(() => button("Estado de b").focus());
    setItems([
      { id: "a", done: false },
      { id: "b", done: true },
      { id: "c", done: true },
    ]);
    // Not c, the row after b's old key in the keys' order: c is in the other list.
    await waitFor(() => expect(document.activeElement).toBe(button("Estado de a")));
    setItems([
      { id: "a", done: true },
      { id: "b", done: true },
      { id: "c", done: true },
    ]);
    await waitFor(() => expect(document.activeElement).toBe(button("Nueva")));
  });

  test("a control without data-control is found again by its position in the row", async () => {
    const setItems = renderLists([
      { id: "a", done: false },
      { id: "b", done: false },
    ]);
    act(() => button("Borrar a").focus());
    setItems([{ id: "b", done: false }]);
    await waitFor(() => expect(document.activeElement).toBe(button("Borrar b")));
  });
});
