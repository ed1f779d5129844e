// /admin/enums: the enumerations. Pick a type, browse its values, drill into children (country →
// subdivisions → …, and the cities of a country or subdivision, where cities are added) with a
// breadcrumb, filter by level, search, create and edit values with both labels, deactivate and
// activate them, and move them up or down (reorder). The URL's search params
// type, parentId and levels hold the view, so a link or a reload restores it. The server checks
// every change (admins only) and writes it to the audit log, whose latest entries are shown below.
import type { Enumeration } from "@patrimonio/shared-schema";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { ArrowDown, ArrowUp, ChevronRight, EyeOff, Eye, ListTree, Pencil, Plus } from "lucide-react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useEnums } from "@patrimonio/clientdb";
import { useEnumAudit, useEnumById, useEnumList, useEnumsRefresh, useEnumTypes, useReorderEnums, useSetEnumActive } from "../../../api/enums";
import { useErrorText } from "../../../api/useErrorText";
import { useFormatters } from "../../../i18n/useFormatters";
import { Alert } from "../../../ui/Alert";
import { Badge } from "../../../ui/Badge";
import { Button } from "../../../ui/Button";
import { Checkbox } from "../../../ui/Checkbox";
import { DataTable, type DataTableColumn } from "../../../ui/DataTable";
import { MenuItem } from "../../../ui/DropdownMenu";
import { EmptyState } from "../../../ui/EmptyState";
import { Field } from "../../../ui/Field";
import { PageHeader } from "../../../ui/PageHeader";
import { SearchInput } from "../../../ui/SearchInput";
import { filterByText } from "../../../ui/search";
import { Select } from "../../../ui/Select";
import { Skeleton } from "../../../ui/Skeleton";
import { EnumFormDialog } from "./EnumFormDialog";
import styles from "./AdminEnums.module.css";

/** What the screen shows: the URL's search params. */
export interface EnumsView {
  type?: string | undefined;
  parentId?: number | undefined;
  levels: string[];
}

/** The type of a value's children, when it can have some (server/enums.ParentTypes): the one the
 * label opens. Countries and subdivisions also hold cities (CITY_PARENTS), opened from the row's
 * menu or the switch above the table. */
export const CHILD_TYPE: Record<string, string> = { country: "state", state: "state", asset_class: "asset_category" };
/** The types a city may hang under (server/enums.ParentTypes[city]). */
const CITY_PARENTS = new Set(["country", "state"]);
/** Types whose values hang under a parent (a view of them without one lists them all). */
const HAS_PARENT = new Set(["state", "city", "asset_category"]);

export function AdminEnumsScreen() {
  const search = useSearch({ strict: false }) as { type?: string; parentId?: number; levels?: string[] };
  const navigate = useNavigate();
  const view: EnumsView = { type: search.type, parentId: search.parentId, levels: search.levels ?? [] };
  return (
    <EnumsBrowser
      view={view}
      onViewChange={(next) =>
        void navigate({
          to: "/admin/enums",
          search: {
            ...(next.type ? { type: next.type } : {}),
            ...(next.parentId ? { parentId: next.parentId } : {}),
            ...(next.levels.length ? { levels: next.levels } : {}),
          },
        })
      }
    />
  );
}

export function EnumsBrowser({ view, onViewChange }: { view: EnumsView; onViewChange: (view: EnumsView) => void }) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const english = i18n.language.startsWith("en");
  const types = useEnumTypes();
  const list = useEnumList(view);
  const setActive = useSetEnumActive();
  const reorder = useReorderEnums();
  const [query, setQuery] = useState("");
  const [editing, setEditing] = useState<Enumeration | "new" | null>(null);

  const typeName = (type: string) => t(`enums.types.${type}`, { defaultValue: type });
  const levelName = (level: string) => t(`enums.levels.${level}`, { defaultValue: level.replaceAll("_", " ") });
  const label = (v: Enumeration) => (english ? v.labels.en : v.labels.es);
  const typeInfo = types.data?.find((x) => x.type === view.type);
  // The levels on offer: those below the parent (from the device cache, which this screen keeps
  // fresh), else the type's own when they are few; the chosen ones always.
  useEnumsRefresh();
  const below = useEnums(view.parentId ? view.type : undefined, view.parentId, { descendants: true, includeInactive: true });
  const levelChoices = useMemo(() => {
    const found = below?.length ? [...new Set(below.map((v) => v.level))] : (typeInfo?.levels ?? []).length <= 12 ? (typeInfo?.levels ?? []) : [];
    return [...new Set([...found, ...view.levels])].sort();
  }, [below, typeInfo, view.levels]);

  const values = list.data;
  const rows = useMemo(
    () =>
      filterByText(
        (values ?? []).map((v) => ({ ...v, label: label(v), keywords: [v.code, english ? v.labels.es : v.labels.en] })),
        query,
      ),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [values, query, english],
  );
  // Moving needs the whole list of siblings: one type under one parent, unfiltered.
  const canMove = Boolean(view.type) && (view.parentId !== undefined || !HAS_PARENT.has(view.type ?? "")) && view.levels.length === 0 && query.trim() === "";

  function move(row: Enumeration, delta: number) {
    if (!values || !view.type) return;
    const ids = values.map((v) => v.id);
    const at = ids.indexOf(row.id);
    const to = at + delta;
    if (at < 0 || to < 0 || to >= ids.length) return;
    [ids[at], ids[to]] = [ids[to]!, ids[at]!];
    reorder.mutate({ type: view.type, ...(view.parentId ? { parentId: view.parentId } : {}), ids });
  }

  const columns: DataTableColumn<Enumeration & { label: string }>[] = [
    {
      id: "label",
      header: t("enums.fields.label"),
      cell: (v) =>
        CHILD_TYPE[v.type] ? (
          <a
            href={`?type=${CHILD_TYPE[v.type]}&parentId=${v.id}`}
            onClick={(e) => {
              e.preventDefault();
              onViewChange({ type: CHILD_TYPE[v.type], parentId: v.id, levels: [] });
              setQuery("");
            }}
          >
            {label(v)}
          </a>
        ) : (
          label(v)
        ),
      sortValue: (v) => label(v),
      width: "2fr",
    },
    { id: "other", header: english ? t("enums.fields.labelEs") : t("enums.fields.labelEn"), cell: (v) => (english ? v.labels.es : v.labels.en), sortValue: (v) => (english ? v.labels.es : v.labels.en), width: "2fr" },
    { id: "code", header: t("enums.fields.code"), cell: (v) => <code>{v.code}</code>, sortValue: (v) => v.code },
    { id: "level", header: t("enums.fields.level"), cell: (v) => levelName(v.level), sortValue: (v) => v.level },
    { id: "id", header: t("enums.fields.id"), cell: (v) => v.id, sortValue: (v) => v.id, align: "end" },
    { id: "order", header: t("enums.fields.order"), cell: (v) => v.order, sortValue: (v) => v.order, align: "end" },
    {
      id: "active",
      header: t("enums.fields.status"),
      cell: (v) => (v.active ? <Badge tone="success">{t("enums.active")}</Badge> : <Badge tone="outline">{t("enums.inactive")}</Badge>),
      sortValue: (v) => (v.active ? 1 : 0),
    },
  ];

  return (
    <section aria-labelledby="admin-enums-title">
      <PageHeader
        title={<span id="admin-enums-title">{t("enums.title")}</span>}
        subtitle={t("enums.subtitle")}
        actions={
          view.type ? (
            <Button variant="primary" icon={<Plus size={16} />} onClick={() => setEditing("new")} disabled={HAS_PARENT.has(view.type) && !view.parentId}>
              {t("enums.create")}
            </Button>
          ) : undefined
        }
      />
      <div className={styles.toolbar}>
        <Field label={t("enums.type")}>
          <Select
            value={view.type ?? ""}
            placeholder={t("enums.pickType")}
            onChange={(type) => {
              setQuery("");
              onViewChange({ type, levels: [] });
            }}
            options={(types.data ?? []).map((x) => ({ value: x.type, label: `${typeName(x.type)} (${x.count})` }))}
          />
        </Field>
        <Field label={t("enums.search")} labelHidden>
          <SearchInput value={query} onChange={setQuery} placeholder={t("enums.searchPlaceholder")} />
        </Field>
      </div>

      {view.type && (
        <nav aria-label={t("enums.breadcrumb")}>
          <ol className={styles.crumbs}>
            <li>
              <a
                href={`?type=${view.type}`}
                onClick={(e) => {
                  e.preventDefault();
                  onViewChange({ type: rootType(view.type!), levels: [] });
                }}
              >
                {typeName(rootType(view.type))}
              </a>
            </li>
            {view.parentId ? <Crumbs id={view.parentId} current onPick={(v) => onViewChange({ type: CHILD_TYPE[v.type] ?? view.type, parentId: v.id, levels: [] })} /> : null}
          </ol>
        </nav>
      )}

      {view.parentId && (view.type === "state" || view.type === "city") ? (
        // Under a country or a subdivision: its subdivisions or its cities (where cities are added).
        <div role="group" aria-label={t("enums.childKinds")} className={styles.kinds}>
          {(["state", "city"] as const).map((type) => (
            <Button
              key={type}
              size="sm"
              variant={view.type === type ? "secondary" : "ghost"}
              aria-pressed={view.type === type}
              onClick={() => {
                setQuery("");
                onViewChange({ type, parentId: view.parentId, levels: [] });
              }}
            >
              {typeName(type)}
            </Button>
          ))}
        </div>
      ) : null}

      {levelChoices.length > 1 && (
        <fieldset className={styles.levels}>
          <legend>{t("enums.levelsLegend")}</legend>
          {levelChoices.map((level) => (
            <Checkbox
              key={level}
              label={levelName(level)}
              checked={view.levels.includes(level)}
              onCheckedChange={(on) =>
                onViewChange({ ...view, levels: on ? [...view.levels, level] : view.levels.filter((l) => l !== level) })
              }
            />
          ))}
        </fieldset>
      )}

      {(setActive.error || reorder.error) && <Alert>{errorText(setActive.error ?? reorder.error)}</Alert>}
      {list.error && <Alert>{errorText(list.error)}</Alert>}

      {!view.type && !view.parentId ? (
        <EmptyState icon={<ListTree size={24} />} title={t("enums.emptyTitle")} text={t("enums.emptyText")} />
      ) : list.isPending ? (
        <div aria-busy="true">
          <Skeleton lines={6} />
        </div>
      ) : (
        <>
          <p className={styles.count} data-testid="enum-count">
            {t("enums.count", { count: rows.length })}
          </p>
          <DataTable
            label={t("enums.tableLabel", { type: typeName(view.type ?? "") })}
            data-testid="enum-table"
            rows={rows}
            rowKey={(v) => String(v.id)}
            rowLabel={(v) => label(v)}
            columns={columns}
            height={480}
            empty={<EmptyState plain title={query ? t("enums.noMatch", { query }) : t("enums.noValues")} />}
            rowActions={(v) => (
              <>
                <MenuItem icon={<Pencil size={16} />} onSelect={() => setEditing(v)}>
                  {t("enums.edit")}
                </MenuItem>
                {CHILD_TYPE[v.type] && (
                  <MenuItem icon={<ChevronRight size={16} />} onSelect={() => onViewChange({ type: CHILD_TYPE[v.type], parentId: v.id, levels: [] })}>
                    {t("enums.children")}
                  </MenuItem>
                )}
                {CITY_PARENTS.has(v.type) && (
                  <MenuItem icon={<ChevronRight size={16} />} onSelect={() => onViewChange({ type: "city", parentId: v.id, levels: [] })}>
                    {t("enums.cities")}
                  </MenuItem>
                )}
                {canMove && (
                  <>
                    <MenuItem icon={<ArrowUp size={16} />} disabled={rows[0]?.id === v.id} onSelect={() => move(v, -1)}>
                      {t("enums.moveUp")}
                    </MenuItem>
                    <MenuItem icon={<ArrowDown size={16} />} disabled={rows.at(-1)?.id === v.id} onSelect={() => move(v, 1)}>
                      {t("enums.moveDown")}
                    </MenuItem>
                  </>
                )}
                <MenuItem
                  danger={v.active}
                  icon={v.active ? <EyeOff size={16} /> : <Eye size={16} />}
                  onSelect={() => setActive.mutate({ id: v.id, active: !v.active })}
                >
                  {v.active ? t("enums.deactivate") : t("enums.activate")}
                </MenuItem>
              </>
            )}
          />
        </>
      )}

      <RecentChanges />

      {editing && view.type && (
        <EnumFormDialog value={editing === "new" ? null : editing} type={view.type} parentId={view.parentId} onClose={() => setEditing(null)} />
      )}
    </section>
  );
}

/** The top type of a chain: subdivisions start at their country, categories at their class. */
function rootType(type: string): string {
  if (type === "state" || type === "city") return "country";
  if (type === "asset_category") return "asset_class";
  return type;
}

/** The ancestors of a value then the value itself, each a link but the current one. */
function Crumbs({ id, current = false, onPick }: { id: number; current?: boolean; onPick: (v: Enumeration) => void }) {
  const { i18n } = useTranslation();
  const value = useEnumById(id).data;
  if (!value) return <li className={styles.muted}>…</li>;
  const text = i18n.language.startsWith("en") ? value.labels.en : value.labels.es;
  return (
    <>
      {value.parentId ? <Crumbs id={value.parentId} onPick={onPick} /> : null}
      <li>
        {current ? (
          <span aria-current="page">{text}</span>
        ) : (
          <a
            href={`?parentId=${value.id}`}
            onClick={(e) => {
              e.preventDefault();
              onPick(value);
            }}
          >
            {text}
          </a>
        )}
      </li>
    </>
  );
}

/** The latest changes of the audit log (who, when, what, before → after). */
function RecentChanges() {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const audit = useEnumAudit(0);
  const english = i18n.language.startsWith("en");
  const entries = audit.data?.slice(0, 10) ?? [];
  if (entries.length === 0) return null;
  const text = (v: Enumeration) => (english ? v.labels.en : v.labels.es);
  return (
    <section aria-labelledby="enum-audit-title">
      <h2 id="enum-audit-title">{t("enums.audit.title")}</h2>
      <ul className={styles.audit} data-testid="enum-audit">
        {entries.map((e) => (
          <li key={e.id}>
            {t(`enums.audit.${e.action}`, {
              who: e.actorEmail,
              when: format.date(e.at, { dateStyle: "short", timeStyle: "short" }),
              value: text(e.after),
              before: e.before ? text(e.before) : "",
              from: e.before?.order ?? 0,
              to: e.after.order,
            })}
          </li>
        ))}
      </ul>
    </section>
  );
}
