// A virtualised list renders only the rows in view. Scrolled out of view, the row that holds focus
// would be unmounted and focus would fall to the page (the next Tab starting again at its top). This
// keeps that row rendered, in its place in the order, for as long as focus stays in the list (or in
// the row's menu or dialog): the virtualizer's rangeExtractor adds its index to the window.
//
//   const keep = useKeepFocusedRow(rows, keyOf);
//   useVirtualizer({ ..., rangeExtractor: keep.rangeExtractor });
//   <div onFocus={keep.onFocus} onBlur={keep.onBlur}> … rows with data-row-key and data-index … </div>
import { defaultRangeExtractor, type Range } from "@tanstack/react-virtual";
import { useCallback, useEffect, useRef, type FocusEvent } from "react";
import { TRANSIENT } from "./focusKeeper";

export interface KeepFocusedRow {
  rangeExtractor: (range: Range) => number[];
  onFocus: (event: FocusEvent<HTMLElement>) => void;
  onBlur: (event: FocusEvent<HTMLElement>) => void;
}

export function useKeepFocusedRow<Row>(rows: readonly Row[], keyOf: (row: Row) => string): KeepFocusedRow {
  const focused = useRef<{ key: string; index: number } | null>(null);
  const latestKeyOf = useRef(keyOf);
  useEffect(() => {
    latestKeyOf.current = keyOf;
  });
  // A new function when the rows change, so that the virtualizer works out its window again.
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      const hold = focused.current;
      if (hold === null) return indexes;
      const at = rows[hold.index];
      // Looked up again only when the rows moved under it.
      if (at === undefined || latestKeyOf.current(at) !== hold.key) hold.index = rows.findIndex((r) => latestKeyOf.current(r) === hold.key);
      if (hold.index < 0 || hold.index >= range.count || indexes.includes(hold.index)) return indexes;
      return [...indexes, hold.index].sort((a, b) => a - b);
    },
    [rows],
  );
  const onFocus = useCallback((event: FocusEvent<HTMLElement>) => {
    const row = event.target instanceof Element ? event.target.closest<HTMLElement>("[data-row-key]") : null;
    focused.current = row === null || !event.currentTarget.contains(row) ? null : { key: row.dataset.rowKey!, index: Number(row.dataset.index) };
  }, []);
  const onBlur = useCallback((event: FocusEvent<HTMLElement>) => {
    const next = event.relatedTarget;
    // Focus gone nowhere (a window switch), still in the list, or in the row's menu or dialog: keep.
    if (!(next instanceof Element) || event.currentTarget.contains(next) || next.closest(TRANSIENT)) return;
    focused.current = null;
  }, []);
  return { rangeExtractor, onFocus, onBlur };
}
