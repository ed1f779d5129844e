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

  test("in a tree, a removed last child hands focus to the same control of the row it was in", async () => {
    const setTree = renderTree([
      { id: "root", children: [{ id: "hija", children: [] }] },
      { id: "otra", children: [] },
    ]);
    act(() => button("Borrar hija").focus());
    setTree([
      { id: "root", children: [] },
      { id: "otra", children: [] },
    ]);
    // Not "otra", the next key depth first: it is in another list.
    await waitFor(() => expect(document.activeElement).toBe(button("Borrar root")));
  });

  test("a row without the control gets focus on its first control; a row with none is passed over", async () => {
    const setTree = renderTree([
      { id: "a", children: [], only: "edit" },
      { id: "b", children: [] },
      { id: "c", children: [], only: "none" },
      { id: "d", children: [] },
    ]);
    act(() => button("Borrar b").focus());
    setTree([
      { id: "a", children: [], only: "edit" },
      { id: "c", children: [], only: "none" },
      { id: "d", children: [] },
    ]);
    // c offers nothing to focus: d, the next row that does.
    await waitFor(() => expect(document.activeElement).toBe(button("Borrar d")));
    setTree([
      { id: "a", children: [], only: "edit" },
      { id: "c", children: [], only: "none" },
    ]);
    // d was last; c has nothing; a has no "delete": its first control.
    await waitFor(() => expect(document.activeElement).toBe(button("Editar a")));
  });

  test("a container drawn only once the data is there (after a loading state) is watched too", async () => {
    let setItems: (items: string[] | undefined) => void = () => undefined;
    function Late() {
      const [items, set] = useState<string[] | undefined>(undefined);
      setItems = set;
      const root = useRef<HTMLUListElement>(null);
      useFocusKeeper(root, items ?? [], (id) => id);
      if (items === undefined) return <p>Cargando</p>;
      return (
        <ul ref={root}>
          {items.map((id) => (
            <li key={id} data-row-key={id}>
              <button type="button">{`Borrar ${id}`}</button>
            </li>
          ))}
        </ul>
      );
    }
    render(<Late />);
    act(() => setItems(["a", "b"]));
    act(() => button("Borrar a").focus());
    act(() => setItems(["b"]));
    await waitFor(() => expect(document.activeElement).toBe(button("Borrar b")));
  });
});

interface Node {
  id: string;
  children: Node[];
  /** Which controls the row offers (default both). */
  only?: "edit" | "none";
}

/** A tree of nested lists, as the legal structures tab draws it. */
function renderTree(initial: Node[]): (nodes: Node[]) => void {
  let setNodes: (nodes: Node[]) => void = () => undefined;
  const depthFirst = (nodes: Node[]): string[] => nodes.flatMap((n) => [n.id, ...depthFirst(n.children)]);
  function Item({ node }: { node: Node }) {
    return (
      <li data-row-key={node.id}>
        {node.id}
        {node.only !== "none" && (
          <button type="button" data-control="edit">{`Editar ${node.id}`}</button>
        )}
        {node.only === undefined && (
          <button type="button" data-control="delete">{`Borrar ${node.id}`}</button>
        )}
        {node.children.length > 0 && (
          <ul>
            {node.children.map((c) => (
              <Item key={c.id} node={c} />
            ))}
          </ul>
        )}
      </li>
    );
  }
  function Tree() {
    const [nodes, set] = useState(initial);
    setNodes = set;
    const root = useRef<HTMLDivElement>(null);
    const keys = useMemo(() => depthFirst(nodes), [nodes]);
    useFocusKeeper(root, keys, (key) => key);
    return (
      <div ref={root} tabIndex={-1}>
        <ul>
          {nodes.map((n) => (
            <Item key={n.id} node={n} />
          ))}
        </ul>
      </div>
    );
  }
  render(<Tree />);
  return (nodes) => act(() => setNodes(nodes));
}
