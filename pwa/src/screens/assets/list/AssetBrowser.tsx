// What the list, class and category screens share: the search box (name, category, institution,
// ISIN, tax location; accents and case do not matter), collapse all / expand all, the CSV download
// of what is shown, the summary (how many, total per currency) and the grouped, virtualised table.
// The search text and the collapsed groups live in the URL (`q`, `collIds`), so a reload, Back and
// a shared link keep the view. Typing stays fast on 10,000 assets: the box updates at once, the
// filtering renders from a deferred value (React drops the stale renders), and the URL is written
// a moment after the typing stops.
//
// Sold or otherwise disposed assets (asset.disposal) are not in the groups, the counts or the totals
// (they are not held): they wait in a collapsed section under the table, "Show 2 sold or disposed
// assets" (open in the URL as `disposed=1`), searched like the others. The CSV holds both, with
// each asset's state and disposal date.
import { useSyncStatus } from "@patrimonio/clientdb";
import { ASSET_CLASSES } from "@patrimonio/shared-schema";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { ChevronDown, ChevronRight, ChevronsDownUp, ChevronsUpDown, Download, SearchX } from "lucide-react";
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { assetsCsv, downloadCsv } from "../../../assets/csv";
import { isDisposed, splitDisposed } from "../../../assets/disposal";
import { useAssetWorkspace, useLegalStructures, type AssetRec } from "../../../assets/hooks";
import { addTotals, type MoneyTotals } from "../../../assets/money";
import { intlCountryName, searchAssets } from "../../../assets/search";
import { useAssetLabels } from "../../../assets/useAssetLabels";
import { subdivisionText, useSubdivisions } from "../../../forms/subdivisions";
import { useLanguage } from "../../../i18n/useLanguage";
import { Button } from "../../../ui/Button";
import { EmptyState } from "../../../ui/EmptyState";
import { SearchInput } from "../../../ui/SearchInput";
import { Skeleton } from "../../../ui/Skeleton";
import { MoneyTotalsText } from "../common/MoneyText";
import styles from "./AssetList.module.css";
import { GroupedAssetTable, type GroupSpec, type TableGroup } from "./GroupedAssetTable";
import { buildListIndex, listIndexCache, sumUnits } from "./listIndex";
import { collapseAll, collapsedState, expandAll, toggleCollapsed } from "./listModel";
import { localToday } from "../../../time/localToday";

/** How long after the last keystroke the search text is written into the URL. */
const URL_DELAY_MS = 400;

export interface AssetBrowserProps {
  /** The assets in scope (all, a class's, a category's); undefined while loading. */
  assets: AssetRec[] | undefined;
  /** Groups the found assets (in scope order); `searching`: a search text is applied. The totals
   * are added here. */
  group: (found: AssetRec[], searching: boolean) => GroupSpec[];
  /** false: one group without header rows (the category screen): no collapse buttons. */
  headers?: boolean;
  /** Names the table. */
  tableLabel: string;
  /** Shown instead of everything when the scope has no assets at all. */
  empty: ReactNode;
  /** The CSV file's name, without extension. */
  csvName: string;
}

type ListSearch = { q?: string | number | null; collIds?: number[]; disposed?: 1 | "1" | true };

/** The disposed section's own group id in its table (no class or category has it). */
const DISPOSED_GROUP_ID = 0;

/** Every found asset, in the order the groups show them. */
function shownAssets(groups: readonly TableGroup[]): AssetRec[] {
  return groups.flatMap((g) => g.items);
}

export function AssetBrowser({ assets, group, headers = true, tableLabel, empty, csvName }: AssetBrowserProps) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const labels = useAssetLabels();
  const workspace = useAssetWorkspace();
  const syncStatus = useSyncStatus();
  const search = useSearch({ strict: false }) as ListSearch;
  const navigate = useNavigate();
  // A hand-typed ?q=2024 arrives as a number (the router parses JSON values).
  const urlQuery = search.q === undefined || search.q === null ? "" : String(search.q);
  const collIds = search.collIds;
  const showDisposed = search.disposed === 1 || search.disposed === "1" || search.disposed === true;

  const setSearch = useCallback(
    (patch: Partial<ListSearch>) =>
      void navigate({
        to: ".",
        replace: true,
        search: ((prev: ListSearch) => {
          const next: Record<string, unknown> = { ...prev, ...patch };
          for (const key of Object.keys(patch)) if (next[key] === undefined) delete next[key];
          return next;
        }) as never,
      }),
    [navigate],
  );

  // The box shows what is typed at once; the list follows the deferred text.
  const [text, setText] = useState(urlQuery);
  const written = useRef(urlQuery);
  useEffect(() => {
    // Back/forward or a link changed q: show it.
    if (urlQuery !== written.current) {
      written.current = urlQuery;
      setText(urlQuery);
    }
  }, [urlQuery]);
  useEffect(() => {
    if (text === written.current) return;
    const timer = window.setTimeout(() => {
      written.current = text;
      setSearch({ q: text === "" ? undefined : text });
    }, URL_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [text, setSearch]);
  const query = useDeferredValue(text);

  const { categoryLabel, classLabel } = labels;
  const structures = useLegalStructures();
  const structureName = useCallback((id: string) => structures?.find((st) => st.id === id)?.fields.name, [structures]);
  const countryName = useMemo(() => intlCountryName(language), [language]);
  const subdivisions = useSubdivisions();
  const stateName = useCallback((country: string | undefined, state: string) => subdivisionText(subdivisions, country, state, language), [subdivisions, language]);
  const ctx = useMemo(() => ({ categoryLabel, countryName, stateName }), [categoryLabel, countryName, stateName]);
  // The labels the search texts hold: every class's categories (admins' too) in the reader's language.
  const signature = useMemo(
    () => `${language}\n${subdivisions?.byCode.size ?? 0}\n${ASSET_CLASSES.map((c) => labels.categoriesOf(c, { includeInactive: true }).map((o) => `${o.code}=${o.label}`).join(",")).join("\n")}`,
    [language, labels, subdivisions],
  );
  const cache = useMemo(() => listIndexCache(signature), [signature]);
  const index = useMemo(() => (assets ? buildListIndex(assets, ctx, cache) : undefined), [assets, ctx, cache]);
  const found = useMemo(() => (index ? searchAssets(index, query) : undefined), [index, query]);
  const split = useMemo(() => (found ? splitDisposed(found) : undefined), [found]);
  const searching = query.trim() !== "";
  const groups = useMemo(
    () =>
      split && index
        ? group(split.held, searching).map((g) => ({ ...g, totals: sumUnits(g.items.map((a) => ({ units: index.unitsOf(a), currency: a.fields.currency }))) }))
        : undefined,
    [split, index, group, searching],
  );
  const disposedGroups = useMemo<TableGroup[]>(
    () => (split && split.disposed.length > 0 ? [{ id: DISPOSED_GROUP_ID, label: t("assetList.disposed.title"), items: split.disposed, totals: [] }] : []),
    [split, t],
  );
  const collapsed = useMemo(() => new Set(collIds ?? []), [collIds]);
  const groupIds = useMemo(() => (groups ?? []).filter((g) => g.items.length > 0).map((g) => g.id), [groups]);
  const state = collapsedState(collIds, groupIds);
  const assetCategoryLabel = useCallback(
    (a: AssetRec) => categoryLabel(a.fields.category, a.fields.customCategory, a.fields.assetClass),
    [categoryLabel],
  );

  const totals: MoneyTotals = useMemo(() => addTotals(...(groups ?? []).map((g) => g.totals)), [groups]);

  if (assets === undefined || groups === undefined || found === undefined || split === undefined) return <BrowserSkeleton />;
  // A device that has never finished a sync (a new phone) may have the records on the way: not empty yet.
  if (assets.length === 0 && (syncStatus === undefined || (syncStatus.lastSyncedAt === null && syncStatus.state !== "offline"))) {
    return <BrowserSkeleton />;
  }
  if (assets.length === 0) return <>{empty}</>;

  function download() {
    const tr = (key: string) => t(key as never);
    const csv = assetsCsv([...shownAssets(groups ?? []), ...shownAssets(disposedGroups)], { language, t: tr, categoryLabel, classLabel, structureName, countryName, stateName });
    downloadCsv(`${csvName}-${localToday()}.csv`, csv);
  }

  const trimmed = query.trim();
  const canEdit = workspace.canEdit || workspace.role === undefined;
  const held = split.held.length;
  const disposedCount = split.disposed.length;
  return (
    <div data-testid="asset-browser">
      <div className={styles.toolbar} role="search">
        <div className={styles.search}>
          <SearchInput
            value={text}
            onChange={setText}
            aria-label={t("assetList.search.label")}
            placeholder={t("assetList.search.placeholder")}
            data-testid="asset-search"
          />
        </div>
        <div className={styles.toolbarActions}>
          {headers && (
            <>
              <Button
                size="sm"
                variant="ghost"
                icon={<ChevronsDownUp size={16} />}
                onClick={() => setSearch({ collIds: collapseAll(collIds, groupIds) })}
                disabled={state.all || groupIds.length === 0}
                data-testid="collapse-all"
              >
                {t("assetList.collapseAll")}
              </Button>
              <Button
                size="sm"
                variant="ghost"
                icon={<ChevronsUpDown size={16} />}
                onClick={() => setSearch({ collIds: expandAll(collIds, groupIds) })}
                disabled={state.none}
                data-testid="expand-all"
              >
                {t("assetList.expandAll")}
              </Button>
            </>
          )}
          <Button size="sm" icon={<Download size={16} />} onClick={download} disabled={found.length === 0} data-testid="download-csv">
            {t("assetList.downloadCsv")}
          </Button>
        </div>
      </div>
      <p className={styles.summary} aria-live="polite" data-testid="asset-summary">
        <span>
          {trimmed === ""
            ? t("assetList.summary.count", { count: held })
            : t("assetList.summary.found", { count: held, total: assets.length - disposedInScope(assets) })}
        </span>
        {held > 0 && (
          <span className={styles.summaryTotal}>
            {t("assetList.summary.total")}: <MoneyTotalsText totals={totals} />
          </span>
        )}
      </p>
      {found.length === 0 ? (
        <EmptyState
          data-testid="asset-no-results"
          icon={<SearchX size={24} />}
          title={t("assetList.noResults", { query: trimmed })}
          text={t("assetList.noResultsHint")}
          action={
            <Button size="sm" onClick={() => setText("")}>
              {t("assetList.clearSearch")}
            </Button>
          }
        />
      ) : (
        <>
          {held > 0 ? (
            <GroupedAssetTable
              label={tableLabel}
              groups={groups}
              collapsed={collapsed}
              onToggle={(id) => setSearch({ collIds: toggleCollapsed(collIds, id) })}
              headers={headers}
              categoryLabel={assetCategoryLabel}
              query={query}
              canEdit={canEdit}
            />
          ) : (
            // Only disposed assets in scope (a search that finds only those says "0 of n" above).
            !searching && (
              <p className={styles.disposedHint} data-testid="asset-none-held">
                {t("assetList.disposed.noneHeld")}
              </p>
            )
          )}
          {disposedCount > 0 && (
            <section className={styles.disposedSection} aria-label={t("assetList.disposed.title")} data-testid="disposed-section">
              <Button
                size="sm"
                variant="ghost"
                icon={showDisposed ? <ChevronDown size={16} /> : <ChevronRight size={16} />}
                aria-expanded={showDisposed}
                aria-controls={showDisposed ? "disposed-assets" : undefined}
                onClick={() => setSearch({ disposed: showDisposed ? undefined : 1 })}
                data-testid="disposed-toggle"
              >
                {t(showDisposed ? "assetList.disposed.hide" : "assetList.disposed.show", { count: disposedCount })}
              </Button>
              {showDisposed && (
                <div id="disposed-assets">
                  <p className={styles.disposedHint}>{t("assetList.disposed.hint")}</p>
                  <GroupedAssetTable
                    label={t("assetList.disposed.tableLabel")}
                    groups={disposedGroups}
                    collapsed={NONE_COLLAPSED}
                    onToggle={() => undefined}
                    headers={false}
                    categoryLabel={assetCategoryLabel}
                    query={query}
                    canEdit={canEdit}
                  />
                </div>
              )}
            </section>
          )}
        </>
      )}
    </div>
  );
}

const NONE_COLLAPSED: ReadonlySet<number> = new Set();

/** How many of the assets in scope are disposed of (the "n of total" of a search counts held ones). */
function disposedInScope(assets: readonly AssetRec[]): number {
  let n = 0;
  for (const a of assets) if (isDisposed(a.fields)) n++;
  return n;
}

/** While the device database opens (after the first paint) and the first query answers. */
export function BrowserSkeleton() {
  const { t } = useTranslation();
  return (
    <div aria-busy="true" data-testid="asset-loading" className={styles.tableFrame}>
      <span className="visually-hidden">{t("assetList.loading")}</span>
      <div className={styles.skeletonRows}>
        <Skeleton shape="title" />
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} />
        ))}
      </div>
    </div>
  );
}
