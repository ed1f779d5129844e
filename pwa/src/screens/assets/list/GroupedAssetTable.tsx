// The asset lists' table: groups (a class or a category) with a header row each (toggle with
// aria-expanded, name, count, total of the participation values per currency), and the assets as
// rows (name, category, participation value, edit, settings). Virtualised against the app shell's
// scrolling main area (@tanstack/react-virtual): only the rows in view, plus a few, are in the DOM,
// so 10,000 assets scroll and filter without delay. ARIA table semantics on a CSS grid, like the
// kit's DataTable: role=table with aria-rowcount, aria-rowindex on each rendered row.
import { Link } from "@tanstack/react-router";
import { useVirtualizer } from "@tanstack/react-virtual";
import { ChevronDown, ChevronRight, Eye, Pencil, Settings } from "lucide-react";
import { memo, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { disposalStatusKey } from "../../../assets/disposal";
import type { AssetRec } from "../../../assets/hooks";
import { participationValueOf } from "../../../assets/participation";
import type { MoneyTotals } from "../../../assets/money";
import { useFormatters } from "../../../i18n/useFormatters";
import { MAIN_SCROLL_ID } from "../../../router/config";
import { PHONE_QUERY, useMediaQuery } from "../../../shell/useMediaQuery";
import { buttonClass } from "../../../ui/Button";
import { cx } from "../../../ui/cx";
import { useKeepFocusedRow } from "../../../ui/keepFocusedRow";
import { MoneyText, MoneyTotalsText } from "../common/MoneyText";
import { flattenGroups, type ListGroup } from "./listModel";
import styles from "./AssetList.module.css";

/** A group as a screen makes it (the browser adds the totals). */
export type GroupSpec = Omit<TableGroup, "totals">;

/** A group as the table shows it. */
export interface TableGroup extends ListGroup<AssetRec> {
  /** Its name ("Inmuebles", "Residencial"). */
  label: string;
  /** The screen of the group: its class's, or its category's when categoryId is given. */
  link?: { assetType: string; categoryId?: string };
  /** Sum of the participation values, per currency. */
  totals: MoneyTotals;
}

export interface GroupedAssetTableProps {
  /** Names the table ("Activos por clase"). */
  label: string;
  groups: readonly TableGroup[];
  /** Ids of the collapsed groups. */
  collapsed: ReadonlySet<number>;
  onToggle: (groupId: number) => void;
  /** false: one group, no header rows (the category screen). */
  headers?: boolean;
  /** The category's name of an asset. */
  categoryLabel: (asset: AssetRec) => string;
  /** What the table shows now (the search text), as data-query: tests and the benchmark wait on it. */
  query: string;
  /** false (viewers): a row offers "view" instead of edit, and no settings. */
  canEdit: boolean;
}

const ROW_HEIGHT = 52;
const PHONE_ROW_HEIGHT = 60;

/** The offset of `element` from the top of the content of `scroller`. */
function offsetWithin(element: HTMLElement, scroller: HTMLElement): number {
  return element.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
}

const flatRowKey = (row: { key: string }) => row.key;

export function GroupedAssetTable({ label, groups, collapsed, onToggle, headers = true, categoryLabel, query, canEdit }: GroupedAssetTableProps) {
  const { t } = useTranslation();
  const phone = useMediaQuery(PHONE_QUERY);
  const rowHeight = phone ? PHONE_ROW_HEIGHT : ROW_HEIGHT;
  const body = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);

  const rows = useMemo(() => flattenGroups(groups, collapsed, (a: AssetRec) => a.id, { headers }), [groups, collapsed, headers]);
  const assetCount = useMemo(() => groups.reduce((n, g) => n + g.items.length, 0), [groups]);

  // Where the rows start inside the scrolling main area: whatever is above them (header, toolbar,
  // notices) may change height, so it is measured after each render and on resize.
  useLayoutEffect(() => {
    const scroller = document.getElementById(MAIN_SCROLL_ID);
    const element = body.current;
    if (!scroller || !element) return;
    const measure = () => {
      const next = Math.round(offsetWithin(element, scroller));
      setScrollMargin((prev) => (prev === next ? prev : next));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(scroller);
    if (scroller.firstElementChild) observer.observe(scroller.firstElementChild);
    return () => observer.disconnect();
  }, []);

  // The row that holds focus stays rendered while scrolled out of view (ui/keepFocusedRow.ts).
  const keep = useKeepFocusedRow(rows, flatRowKey);

  // The virtualizer is mutable by design; this component is not memoized by the compiler.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => document.getElementById(MAIN_SCROLL_ID),
    estimateSize: () => rowHeight,
    // A row is as tall as its content (a long name wraps onto more lines instead of being cut with an
    // ellipsis that hides which asset it is), never below the row height.
    measureElement: (element) => Math.max(rowHeight, Math.round(element.getBoundingClientRect().height)),
    getItemKey: (index) => rows[index]!.key,
    overscan: 10,
    scrollMargin,
    initialRect: { width: 0, height: typeof window === "undefined" ? 800 : window.innerHeight },
    rangeExtractor: keep.rangeExtractor,
  });

  return (
    <div className={styles.tableFrame} data-testid="asset-table" data-query={query} data-rows={assetCount}>
      <div role="table" aria-label={label} aria-rowcount={rows.length + 1} aria-colcount={4} className={styles.table} onFocus={keep.onFocus} onBlur={keep.onBlur}>
        <div role="rowgroup" className={styles.headRow}>
          <div role="row" aria-rowindex={1} className={cx(styles.grid, styles.head)}>
            <div role="columnheader" aria-colindex={1} className={styles.headCell}>
              {t("assetList.table.name")}
            </div>
            <div role="columnheader" aria-colindex={2} className={cx(styles.headCell, styles.categoryCol)}>
              {t("assetList.table.category")}
            </div>
            <div role="columnheader" aria-colindex={3} className={cx(styles.headCell, styles.end)}>
              {t("assetList.table.value")}
            </div>
            <div role="columnheader" aria-colindex={4} className={cx(styles.headCell, styles.end)}>
              <span className="visually-hidden">{t("assetList.table.actions")}</span>
            </div>
          </div>
        </div>
        <div role="rowgroup" ref={body} className={styles.body} style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!;
            const top = item.start - scrollMargin;
            if (row.kind === "group") {
              return (
                <GroupRow
                  key={row.key}
                  rowKey={row.key}
                  index={item.index}
                  group={row.group}
                  collapsed={row.collapsed}
                  onToggle={onToggle}
                  top={top}
                  height={rowHeight}
                  measure={virtualizer.measureElement}
                />
              );
            }
            return (
              <AssetRow
                key={row.key}
                rowKey={row.key}
                index={item.index}
                asset={row.item}
                category={categoryLabel(row.item)}
                canEdit={canEdit}
                top={top}
                height={rowHeight}
                measure={virtualizer.measureElement}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}

interface RowProps {
  index: number;
  /** The row's key (data-row-key: the row holding focus stays rendered, keepFocusedRow.ts). */
  rowKey: string;
  /** Offset and minimum height (runtime layout values of the virtualised rows). */
  top: number;
  height: number;
  /** The virtualizer's measuring ref: the row's real height (a wrapped name makes it taller). */
  measure: (element: HTMLElement | null) => void;
}

// Rows are memoised: while typing, the rows still shown keep their props and are not rendered again.
const GroupRow = memo(function GroupRow({
  index,
  rowKey,
  group,
  collapsed,
  onToggle,
  top,
  height,
  measure,
}: RowProps & { group: TableGroup; collapsed: boolean; onToggle: (id: number) => void }) {
  const { t } = useTranslation();
  const count = group.items.length;
  const link = group.link;
  const name: ReactNode = !link ? (
    group.label
  ) : link.categoryId === undefined ? (
    <Link to="/assets/classes/$assetType" params={{ assetType: link.assetType }} className={styles.groupLink}>
      {group.label}
    </Link>
  ) : (
    <Link
      to="/assets/classes/$assetType/category/$categoryId"
      params={{ assetType: link.assetType, categoryId: link.categoryId }}
      className={styles.groupLink}
    >
      {group.label}
    </Link>
  );
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className={cx(styles.row, styles.groupRow)}
      ref={measure}
      style={{ transform: `translateY(${top}px)`, minHeight: height }}
      data-testid="asset-group"
      data-row-key={rowKey}
      data-index={index}
      data-group-id={group.id}
      data-collapsed={collapsed}
    >
      <div role="cell" aria-colindex={1} aria-colspan={4} className={styles.groupCell}>
        {count > 0 ? (
          <button
            type="button"
            className={cx(buttonClass({ variant: "ghost", size: "sm" }), styles.toggle)}
            aria-expanded={!collapsed}
            aria-label={t(collapsed ? "assetList.group.expand" : "assetList.group.collapse", { group: group.label })}
            title={t(collapsed ? "assetList.group.expand" : "assetList.group.collapse", { group: group.label })}
            onClick={() => onToggle(group.id)}
            data-testid="group-toggle"
          >
            {collapsed ? <ChevronRight size={16} aria-hidden="true" /> : <ChevronDown size={16} aria-hidden="true" />}
          </button>
        ) : (
          <span className={styles.toggleSpacer} aria-hidden="true" />
        )}
        <h2 className={styles.groupName}>{name}</h2>
        <span className={styles.groupCount} data-testid="group-count">
          {t("assetList.group.count", { count })}
        </span>
        <span className={styles.groupTotal} data-testid="group-total">
          <span className="visually-hidden">{t("assetList.group.total")}: </span>
          <MoneyTotalsText totals={group.totals} />
        </span>
      </div>
    </div>
  );
});

const AssetRow = memo(function AssetRow({ index, rowKey, asset, category, canEdit, top, height, measure }: RowProps & { asset: AssetRec; category: string; canEdit: boolean }) {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const name = asset.fields.name;
  const value = participationValueOf(asset.fields);
  const params = { assetId: asset.id };
  // A sold or disposed asset is worth nothing to the person now: its state and date instead of a value,
  // and no settings (it is not edited as if held).
  const disposal = asset.fields.disposal;
  const editable = canEdit && !disposal;
  return (
    <div role="row" aria-rowindex={index + 2} className={cx(styles.row, styles.grid, styles.assetRow)}
      ref={measure}
      style={{ transform: `translateY(${top}px)`, minHeight: height }}
      data-testid="asset-row" data-asset-id={asset.id} data-row-key={rowKey} data-index={index}>
      <div role="cell" aria-colindex={1} className={styles.nameCell}>
        <Link to="/assets/$assetId" params={params} search={{ tab: "details" }} className={styles.nameLink} data-testid="asset-name">
          {name}
        </Link>
        <span className={styles.phoneCategory}>{category}</span>
      </div>
      <div role="cell" aria-colindex={2} className={cx(styles.cell, styles.categoryCol)} data-testid="asset-category">
        {category}
      </div>
      <div role="cell" aria-colindex={3} className={cx(styles.cell, styles.end, styles.value)} data-testid="asset-value">
        {disposal ? (
          <span className={styles.disposedNote} data-testid="asset-disposed">
            {t("assetList.disposed.row", { status: t(disposalStatusKey(asset.fields) as never), date: fmt.date(disposal.date) })}
          </span>
        ) : (
          <MoneyText amount={value} currency={asset.fields.currency} />
        )}
      </div>
      <div role="cell" aria-colindex={4} className={styles.actionsCell}>
        <Link
          to="/assets/$assetId"
          params={params}
          search={{ tab: "details" }}
          className={cx(buttonClass({ variant: "ghost", size: "sm" }), styles.iconLink)}
          aria-label={t(editable ? "assetList.row.edit" : "assetList.row.view", { name })}
          title={t(editable ? "assetList.row.edit" : "assetList.row.view", { name })}
          data-testid="asset-edit"
        >
          {editable ? <Pencil size={16} aria-hidden="true" /> : <Eye size={16} aria-hidden="true" />}
        </Link>
        {editable && (
          <Link
            to="/assets/$assetId"
            params={params}
            search={{ tab: "settings" }}
            className={cx(buttonClass({ variant: "ghost", size: "sm" }), styles.iconLink)}
            aria-label={t("assetList.row.settings", { name })}
            title={t("assetList.row.settings", { name })}
            data-testid="asset-settings"
          >
            <Settings size={16} aria-hidden="true" />
          </Link>
        )}
      </div>
    </div>
  );
});
