// Keeps keyboard focus in a list when the row that holds it goes away: deleted (often from a
// confirmation dialog the row opened), moved to another list, filtered out. Without it focus falls
// to the page's <body>, and a keyboard or screen reader user starts again from the top. With it
// focus goes to the same control of the row now in that place in the same list (the next row; the
// one before when the row was last); in a tree (rows inside rows), with no row left in that list, to
// the row it was in; else to `fallback`.
//
// Rows are the container's elements with data-row-key; a control is found again by its
// data-control, else by its position among the row's focusable elements; a row without that control
// (rows of one list need not offer the same ones) gets focus on its first control, and a row with
// none is passed over. Nothing happens when focus is somewhere else by then (the user moved on):
// only focus that went with the row is given back.
import { useEffect, useRef, type RefObject } from "react";

const FOCUSABLE = "a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]";
/** Where focus goes for a moment while a row's action runs (its menu, its confirmation dialog). */
export const TRANSIENT = '[role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"]';

interface Held {
  key: string;
  /** The control's data-control, else its position among the row's focusable elements. */
  control: string | number;
  /** The row's list (its parent element): its place is taken by a row of the same list. */
  list: Element | null;
  /** In a tree, the key of the row the list is in (null at the top). */
  parent: string | null;
}

/** Where focus goes once the held row is gone: the rows that were after it, then those before it
 * (nearest first), the first of them still in the same list; the same control. */
interface Pending {
  candidates: string[];
  control: string | number;
  list: Element | null;
  parent: string | null;
}

/** The element that controls `element` (aria-controls names its id): a menu's or a listbox's
 * button, which a menu opened by pointer never gave focus to. */
export function controllerOf(element: Element): HTMLElement | null {
  if (element.id === "") return null;
  return [...document.querySelectorAll<HTMLElement>("[aria-controls]")].find((c) => c.getAttribute("aria-controls") === element.id) ?? null;
}

function rowOf(container: HTMLElement, target: Element): HTMLElement | null {
  const row = target.closest<HTMLElement>("[data-row-key]");
  return row !== null && container.contains(row) ? row : null;
}

function heldAt(container: HTMLElement, row: HTMLElement, target: Element): Held {
  const list = row.parentElement;
  const up = list?.closest<HTMLElement>("[data-row-key]") ?? null;
  const parent = up !== null && container.contains(up) ? up.dataset.rowKey! : null;
  return { key: row.dataset.rowKey!, control: controlOf(row, target), list, parent };
}

function controlOf(row: HTMLElement, target: Element): string | number {
  const named = target.closest<HTMLElement>("[data-control]");
  if (named !== null && row.contains(named)) return named.dataset.control!;
  return controlsOf(row, FOCUSABLE).indexOf(target as HTMLElement);
}

/** The row's own focusable elements (not those of rows nested in it). */
function controlsOf(row: HTMLElement, selector: string): HTMLElement[] {
  return [...row.querySelectorAll<HTMLElement>(selector)].filter((c) => c.closest("[data-row-key]") === row);
}

function findControl(row: HTMLElement, control: string | number): HTMLElement | null {
  const all = controlsOf(row, FOCUSABLE);
  if (typeof control === "string") return controlsOf(row, "[data-control]").find((c) => c.dataset.control === control) ?? all[0] ?? null;
  return all[control] ?? all[0] ?? null;
}

/** Whether focus has fallen to the page: on <body>, or on an element no longer in it. */
export function focusLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || !active.isConnected;
}

/**
 * Watches `container` (rows with data-row-key: `keyOf` of each of `rows`, in the order shown; a
 * tree's rows depth first) and gives focus back as described above. `fallback`: selectors of what to
 * focus in the container when no row of the list (nor, in a tree, the row it was in) can take it,
 * the first that matches; the container itself when none does (a table's focusable viewport; other
 * containers need tabIndex -1). Nothing is derived from `rows` unless a row of them holds focus.
 */
export function useFocusKeeper<Row>(container: RefObject<HTMLElement | null>, rows: readonly Row[], keyOf: (row: Row) => string, fallback: readonly string[] = []): void {
  const held = useRef<Held | null>(null);
  const before = useRef(rows);
  // The latest keyOf and fallback, for the effects (callers pass them inline).
  const latest = useRef({ keyOf, fallback });
  useEffect(() => {
    latest.current = { keyOf, fallback };
  });
  /** A row gone with focus: given back now, or once the row's dialog or menu has closed. */
  const pending = useRef<Pending | null>(null);

  useEffect(() => {
    const onFocusIn = (event: FocusEvent) => {
      // Read at each event: a screen may draw its container only once its data is there.
      const root = container.current;
      const target = event.target;
      // Focus falling back to the page (the row removed) is not the user going elsewhere.
      if (root === null || !(target instanceof Element) || target === document.body) return;
      const row = rowOf(root, target);
      if (row !== null) {
        held.current = heldAt(root, row, target);
        pending.current = null;
        return;
      }
      const transient = target.closest(TRANSIENT);
      if (transient === null) {
        // Elsewhere for good: nothing to give back.
        held.current = null;
        pending.current = null;
        return;
      }
      // A row's menu opened by pointer: its button never had focus, but it controls the menu.
      const opener = controllerOf(transient);
      const openerRow = opener === null ? null : rowOf(root, opener);
      if (opener !== null && openerRow !== null) held.current = heldAt(root, openerRow, opener);
    };
    // "focus" in the capture phase: every element's, like focusin (which not every DOM dispatches).
    document.addEventListener("focus", onFocusIn, true);
    return () => document.removeEventListener("focus", onFocusIn, true);
  }, [container]);

  useEffect(() => {
    const old = before.current;
    before.current = rows;
    const h = held.current;
    const { keyOf } = latest.current;
    if (h !== null && !rows.some((r) => keyOf(r) === h.key)) {
      held.current = null;
      // Its place: the first row after it that is still there, else the nearest before it.
      const keys = old.map(keyOf);
      const at = keys.indexOf(h.key);
      pending.current = { candidates: [...keys.slice(at + 1), ...keys.slice(0, Math.max(at, 0)).reverse()], control: h.control, list: h.list, parent: h.parent };
    }
    if (pending.current === null) return;
    const restore = (): boolean => {
      const want = pending.current;
      const root = container.current;
      if (want === null || root === null) return true;
      if (!focusLost()) {
        // Still in the row's dialog or menu: wait for it to close; anywhere else: the user moved on.
        if (document.activeElement?.closest(TRANSIENT)) return false;
        pending.current = null;
        return true;
      }
      pending.current = null;
      const inList = new Map<string, HTMLElement>();
      const anywhere = new Map<string, HTMLElement>();
      for (const r of root.querySelectorAll<HTMLElement>("[data-row-key]")) {
        anywhere.set(r.dataset.rowKey!, r);
        if (r.parentElement === want.list) inList.set(r.dataset.rowKey!, r);
      }
      const rows = want.candidates.map((k) => inList.get(k));
      if (want.parent !== null) rows.push(anywhere.get(want.parent));
      for (const row of rows) {
        const control = row === undefined ? null : findControl(row, want.control);
        if (control !== null) {
          control.focus();
          return true;
        }
      }
      const fallbackTarget = latest.current.fallback.map((selector) => root.querySelector<HTMLElement>(selector)).find((el) => el !== null);
      (fallbackTarget ?? root).focus();
      return true;
    };
    // After this render and after a closing dialog's own return of focus (a timeout of its own,
    // queued first); while a dialog or menu still holds focus, again whenever the page changes.
    let observer: MutationObserver | undefined;
    const timer = setTimeout(() => {
      if (restore()) return;
      observer = new MutationObserver(() => {
        if (restore()) observer?.disconnect();
      });
      observer.observe(document.body, { childList: true, subtree: true });
    }, 0);
    return () => {
      clearTimeout(timer);
      observer?.disconnect();
    };
  }, [rows, container]);
}
