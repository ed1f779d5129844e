// A list of records as a table: sortable columns (aria-sort on the column header, a button to
// sort), a row actions menu, and virtualised rows (@tanstack/react-virtual: only the rows in view
// plus a few are in the DOM, so 10,000 rows scroll smoothly). ARIA table semantics on a CSS grid:
// role=table with aria-rowcount (all rows, header included) and aria-rowindex on each rendered row,
// so screen readers know where they are. The viewport is focusable (arrow keys scroll it); the sort
// buttons, the row actions and links in cells are in the tab order.
//
//   <DataTable label={t("assets.title")} rows={assets} rowKey={(a) => a.id} rowLabel={(a) => a.name}
//     columns={[
//       { id: "name", header: t("assets.name"), cell: (a) => <Link …>{a.name}</Link>, sortValue: (a) => a.name, width: "2fr" },
//       { id: "value", header: t("assets.value"), cell: (a) => money(a.value, a.currency), sortValue: (a) => a.value, sortType: "decimal", align: "end" },
//     ]}
//     rowActions={(a) => <><MenuItem onSelect={() => edit(a)}>…</MenuItem></>} />
import { useVirtualizer } from "@tanstack/react-virtual";
import Decimal from "decimal.js";
import { ArrowDown, ArrowUp, ArrowUpDown, MoreHorizontal } from "lucide-react";
import { useMemo, useRef, useState, type CSSProperties, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatNumber, INTL_LOCALES } from "../i18n/format";
import { useLanguage } from "../i18n/useLanguage";
import { IconButton } from "./Button";
import { cx } from "./cx";
import styles from "./DataTable.module.css";
import { DropdownMenu } from "./DropdownMenu";
import { EmptyState } from "./EmptyState";
import { useFocusKeeper } from "./focusKeeper";
import { useKeepFocusedRow } from "./keepFocusedRow";

export type SortDirection = "ascending" | "descending";
export interface SortState {
  column: string;
  direction: SortDirection;
}

export interface DataTableColumn<Row> {
  id: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** Makes the column sortable: the value rows are ordered by (null/"" last). */
  sortValue?: (row: Row) => string | number | null | undefined;
  /** How string sort values compare: "text" (default: the reader's collation, numbers inside in
   *  numeric order) or "decimal" (exact decimal strings like "1234.56"). ISO dates sort as text. */
  sortType?: "text" | "decimal";
  /** Sorting by this column first groups the rows by this key (always A to Z, whatever the
   *  direction), then orders each group by sortValue: amounts in different currencies are never
   *  compared as if they were in one (100 USD is not "equal" to 100 EUR). */
  sortGroup?: (row: Row) => string;
  align?: "start" | "end";
  /** A CSS grid track: "2fr", "140px", "minmax(120px, 1fr)". Default "minmax(120px, 1fr)". */
  width?: string;
}

export interface DataTableProps<Row> {
  /** Names the table. */
  label: string;
  rows: readonly Row[];
  columns: readonly DataTableColumn<Row>[];
  rowKey: (row: Row) => string;
  /** Menu items (MenuItem…) for a row; adds an actions column. */
  rowActions?: (row: Row) => ReactNode;
  /** Names a row in its actions button ("Acciones de Piso en Madrid"). */
  rowLabel?: (row: Row) => string;
  /** Controlled sort; leave out to let the table keep it. */
  sort?: SortState | null;
  onSortChange?: (sort: SortState) => void;
  defaultSort?: SortState;
  /** Most the scrolling viewport may take, in px (default 480): it is as tall as its rows up to it. */
  height?: number;
  /** Shown instead of the rows when there are none. */
  empty?: ReactNode;
  className?: string;
  "data-testid"?: string;
}

const ROW_HEIGHT = 44;

function compareDecimal(a: string, b: string): number {
  try {
    return new Decimal(a).comparedTo(new Decimal(b));
  } catch {
    return a.localeCompare(b);
  }
}

/** Sorts a copy of the rows by a column (stable; empty values last in both directions). */
export function sortRows<Row>(rows: readonly Row[], column: DataTableColumn<Row>, direction: SortDirection, collator: Intl.Collator): Row[] {
  const get = column.sortValue;
  if (!get) return [...rows];
  const group = column.sortGroup;
  const keyed = rows.map((row, index) => ({ row, index, key: get(row), group: group ? group(row) : "" }));
  const sign = direction === "ascending" ? 1 : -1;
  keyed.sort((x, y) => {
    if (x.group !== y.group) return x.group < y.group ? -1 : 1;
    const a = x.key;
    const b = y.key;
    const aEmpty = a === null || a === undefined || a === "";
    const bEmpty = b === null || b === undefined || b === "";
    if (aEmpty || bEmpty) return aEmpty === bEmpty ? x.index - y.index : aEmpty ? 1 : -1;
    let order: number;
    if (typeof a === "number" && typeof b === "number") order = a - b;
    else if (column.sortType === "decimal") order = compareDecimal(String(a), String(b));
    else order = collator.compare(String(a), String(b));
    return order === 0 ? x.index - y.index : sign * order;
  });
  return keyed.map((k) => k.row);
}

export function DataTable<Row>({
  label,
  rows,
  columns,
  rowKey,
  rowActions,
  rowLabel,
  sort: controlledSort,
  onSortChange,
  defaultSort,
  height = 480,
  empty,
  className,
  ...rest
}: DataTableProps<Row>) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const [ownSort, setOwnSort] = useState<SortState | null>(defaultSort ?? null);
  const sort = controlledSort !== undefined ? controlledSort : ownSort;
  const viewport = useRef<HTMLDivElement>(null);

  const collator = useMemo(() => new Intl.Collator(INTL_LOCALES[language], { numeric: true, sensitivity: "base" }), [language]);
  const sorted = useMemo(() => {
    const column = sort ? columns.find((c) => c.id === sort.column) : undefined;
    return column && sort ? sortRows(rows, column, sort.direction, collator) : rows;
  }, [rows, columns, sort, collator]);
  // A row deleted (or filtered out) with focus in it hands focus to the row now in its place, or,
  // with none left, to the table's viewport (focusKeeper.ts).
  useFocusKeeper(viewport, sorted, rowKey);

  // The row that holds focus stays rendered while it is scrolled out of view (keepFocusedRow.ts).
  const keep = useKeepFocusedRow(sorted, rowKey);

  // The virtualizer is mutable by design; this component is not memoized by the compiler.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: sorted.length,
    getScrollElement: () => viewport.current,
    estimateSize: () => ROW_HEIGHT,
    // Rows are as tall as their longest cell (a name wraps instead of being cut), never below ROW_HEIGHT.
    measureElement: (element) => Math.max(ROW_HEIGHT, Math.round(element.getBoundingClientRect().height)),
    overscan: 8,
    initialRect: { width: 0, height },
    rangeExtractor: keep.rangeExtractor,
  });

  function toggleSort(column: DataTableColumn<Row>) {
    const next: SortState = {
      column: column.id,
      direction: sort?.column === column.id && sort.direction === "ascending" ? "descending" : "ascending",
    };
    if (controlledSort === undefined) setOwnSort(next);
    onSortChange?.(next);
  }

  const trackList = [...columns.map((c) => c.width ?? "minmax(120px, 1fr)"), ...(rowActions ? ["56px"] : [])];
  const colCount = columns.length + (rowActions ? 1 : 0);
  // Layout values only a runtime knows: the grid tracks (and those after the first, which a phone
  // lays out beside a narrower first column: DataTable.module.css) and the viewport height.
  const frameStyle = {
    "--table-columns": trackList.join(" "),
    "--table-columns-rest": trackList.slice(1).join(" "),
    "--table-height": `${height}px`,
  } as CSSProperties;

  return (
    <div className={cx(styles.frame, className)} style={frameStyle} data-testid={rest["data-testid"]}>
      <div ref={viewport} className={styles.viewport} tabIndex={0} role="region" aria-label={label} onFocus={keep.onFocus} onBlur={keep.onBlur}>
        <div role="table" aria-label={label} aria-rowcount={sorted.length + 1} aria-colcount={colCount} className={styles.table}>
          <div role="rowgroup">
            <div role="row" aria-rowindex={1} className={cx(styles.row, styles.head)}>
              {columns.map((column, index) => {
                const direction = sort?.column === column.id ? sort.direction : undefined;
                const Icon = direction === "ascending" ? ArrowUp : direction === "descending" ? ArrowDown : ArrowUpDown;
                return (
                  <div
                    key={column.id}
                    role="columnheader"
                    aria-colindex={index + 1}
                    aria-sort={column.sortValue ? (direction ?? "none") : undefined}
                    className={cx(styles.header, column.align === "end" && styles.end, direction && styles.sorted)}
                  >
                    {column.sortValue ? (
                      <button type="button" className={styles.sortButton} onClick={() => toggleSort(column)} title={t("ui.table.sortBy", { column: column.header })}>
                        {column.header}
                        <span className={styles.sortIcon} aria-hidden="true">
                          <Icon size={13} />
                        </span>
                      </button>
                    ) : (
                      column.header
                    )}
                  </div>
                );
              })}
              {rowActions && (
                <div role="columnheader" aria-colindex={colCount} className={styles.header}>
                  <span className="visually-hidden">{t("ui.table.rowActions")}</span>
                </div>
              )}
            </div>
          </div>
          <div role="rowgroup" className={styles.body} style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = sorted[item.index]!;
              return (
                <div
                  key={rowKey(row)}
                  data-row-key={rowKey(row)}
                  role="row"
                  aria-rowindex={item.index + 2}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  className={cx(styles.row, styles.bodyRow)}
                  style={{ transform: `translateY(${item.start}px)` }}
                >
                  {columns.map((column, index) => (
                    <div key={column.id} role="cell" aria-colindex={index + 1} className={cx(styles.cell, column.align === "end" && styles.end)}>
                      {column.cell(row)}
                    </div>
                  ))}
                  {rowActions && (
                    <div role="cell" aria-colindex={colCount} className={styles.actionsCell}>
                      <DropdownMenu
                        trigger={
                          <IconButton
                            size="sm"
                            data-control="actions"
                            label={rowLabel ? t("ui.table.rowActionsFor", { row: rowLabel(row) }) : t("ui.table.rowActions")}
                            icon={<MoreHorizontal size={16} />}
                          />
                        }
                      >
                        {rowActions(row)}
                      </DropdownMenu>
                    </div>
                  )}
                </div>
              );
            })}
          </div>
        </div>
        {sorted.length === 0 && <div className={styles.empty}>{empty ?? <EmptyState plain title={t("ui.table.empty")} headingLevel={3} />}</div>}
      </div>
      <div className={styles.caption} aria-hidden="true">
        {t("ui.table.rows", { count: sorted.length, n: formatNumber(sorted.length, language) })}
      </div>
    </div>
  );
}
