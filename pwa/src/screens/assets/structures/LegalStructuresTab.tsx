// The legal-structures tab of /assets/?tab=legal-structures: a tree of the workspace's legal
// structures, the structures each one owns and the assets it holds, with the person's look-through
// figures (effective share = the ownership percentages along the chain of owners × the asset's
// participation, and the value of that share in the asset's currency). New, edit and delete for
// owners and editors; viewers see it all read-only (no actions; the reason is the asset list's
// ReadOnlyNotice above the tabs).
//
// A structure can never own itself: the form does not offer such an owner and the save refuses it.
// Two devices may still each make a valid change offline whose merge is a cycle (X under Y on one,
// Y under X on the other): the cycle is shown as a problem to fix, naming its structures, with a
// button per structure to make it owned directly. Nothing here recurses along parent links without
// a bound (structureModel.ts), so the screen stays finite and responsive.
//
// Usage (H2's tab panel): <LegalStructuresTab /> — no props.
import { setStructureParent } from "@patrimonio/clientdb";
import { Link } from "@tanstack/react-router";
import { Building2, ChevronRight, FilePlus2, Pencil, Plus, Trash2 } from "lucide-react";
import { useId, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useEnumsRefresh } from "../../../api/enums";
import { subdivisionText, useSubdivisions } from "../../../forms/subdivisions";
import { formatMoney, formatPercent } from "../../../i18n/format";
import { useLanguage } from "../../../i18n/useLanguage";
import { Alert } from "../../../ui/Alert";
import { Badge } from "../../../ui/Badge";
import { Button, buttonClass, IconButton } from "../../../ui/Button";
import { EmptyState } from "../../../ui/EmptyState";
import { Skeleton } from "../../../ui/Skeleton";
import { cx } from "../../../ui/cx";
import { useFocusKeeper } from "../../../ui/focusKeeper";
import { DeleteStructureDialog } from "./DeleteStructureDialog";
import styles from "./LegalStructuresTab.module.css";
import { StructureFormDialog } from "./StructureFormDialog";
import { assetRowKey, lookThrough, shownRowKeys, structurePercent, type StructureForest } from "./structureModel";
import { useCountryOptions, useStructureTypeOptions, useStructuresData, type AssetRow, type StructureRow, type StructuresData } from "./useStructuresData";

type Dialog = { kind: "new"; parentId?: string } | { kind: "edit"; id: string } | { kind: "delete"; id: string } | null;

type Forest = StructureForest<StructureRow, AssetRow>;

interface TreeContext {
  forest: Forest;
  canEdit: boolean;
  collapsed: ReadonlySet<string>;
  toggle: (id: string) => void;
  open: (dialog: Dialog) => void;
  typeLabel: (code: string) => string;
  countryLabel: (code: string) => string;
  /** A stored province (a code, or a name written before codes) in the reader's language. */
  stateLabel: (country: string, state: string | undefined) => string;
}

const rowKey = (key: string) => key;
const NEW_FALLBACK = ['[data-control="new"]'];

export function LegalStructuresTab() {
  const { t } = useTranslation();
  const data = useStructuresData();
  const types = useStructureTypeOptions();
  const countries = useCountryOptions();
  const subdivisions = useSubdivisions();
  const { language } = useLanguage();
  // Keep the device's enumerations (structure types, provinces) fresh while the tab is open, so
  // the form has them offline later.
  useEnumsRefresh();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const { forest, workspace } = data;
  const canEdit = workspace.canEdit;
  // A structure deleted with focus in its row (its confirmation) hands focus to the same button of
  // the row now in its place in the same list, else of the structure that owned it, else to "new"
  // (ui/focusKeeper.ts).
  const root = useRef<HTMLDivElement>(null);
  const rowKeys = useMemo(() => (forest === undefined ? [] : shownRowKeys(forest)), [forest]);
  useFocusKeeper(root, rowKeys, rowKey, NEW_FALLBACK);

  const toggle = (id: string) =>
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  if (forest === undefined) {
    return (
      <div className={styles.tab} data-testid="structures-loading" aria-busy="true">
        <Skeleton lines={4} />
      </div>
    );
  }

  const ctx: TreeContext = {
    forest,
    canEdit,
    collapsed,
    toggle,
    open: setDialog,
    typeLabel: types.labelOf,
    countryLabel: countries.labelOf,
    stateLabel: (country, state) => subdivisionText(subdivisions, country, state, language),
  };
  const editing = dialog?.kind === "edit" ? forest.byId.get(dialog.id) : undefined;
  const deleting = dialog?.kind === "delete" ? forest.byId.get(dialog.id) : undefined;
  const total = forest.byId.size;

  return (
    <div className={styles.tab} data-testid="structures-tab" ref={root}>

      {forest.cycles.map((cycle) => (
        <CycleProblem key={cycle.map((s) => s.id).join(",")} cycle={cycle} data={data} />
      ))}

      <div className={styles.toolbar}>
        <p className={styles.intro}>{t("structures.intro")}</p>
        <div className={styles.toolbarActions}>
          {total > 0 && (
            <>
              <Button size="sm" variant="ghost" onClick={() => setCollapsed(new Set())} data-testid="structures-expand-all">
                {t("structures.expandAll")}
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setCollapsed(new Set(forest.byId.keys()))} data-testid="structures-collapse-all">
                {t("structures.collapseAll")}
              </Button>
            </>
          )}
          {canEdit && (
            <Button variant="primary" size="sm" icon={<Plus size={16} />} onClick={() => setDialog({ kind: "new" })} data-control="new" data-testid="structure-new">
              {t("structures.new")}
            </Button>
          )}
        </div>
      </div>

      {total === 0 ? (
        <EmptyState
          icon={<Building2 size={24} />}
          headingLevel={2}
          title={t("structures.empty.title")}
          text={canEdit ? t("structures.empty.text") : t("structures.empty.viewerText")}
          data-testid="structures-empty"
        />
      ) : (
        <>
          {forest.roots.length > 0 && (
            <ul className={styles.tree} aria-label={t("structures.treeLabel")} data-testid="structures-tree">
              {forest.roots.map((s) => (
                <StructureItem key={s.id} structure={s} ctx={ctx} ancestors={[]} />
              ))}
            </ul>
          )}
          {forest.cycles.length > 0 && (
            <section className={styles.cycleSection} aria-labelledby="structures-in-cycle">
              <h2 id="structures-in-cycle" className={styles.sectionTitle}>
                {t("structures.cycle.sectionTitle")}
              </h2>
              <ul className={styles.tree} data-testid="structures-cycle-tree">
                {forest.cycles.map((cycle) => (
                  <StructureItem key={cycle[0]!.id} structure={cycle[0]!} ctx={ctx} ancestors={[]} />
                ))}
              </ul>
            </section>
          )}
        </>
      )}

      {(dialog?.kind === "new" || editing) && (
        <StructureFormDialog
          data={{ ...data, forest }}
          structure={editing}
          parentId={dialog?.kind === "new" ? dialog.parentId : undefined}
          onClose={() => setDialog(null)}
        />
      )}
      {deleting && <DeleteStructureDialog data={data} forest={forest} structure={deleting} onClose={() => setDialog(null)} />}
    </div>
  );
}

function StructureItem({ structure, ctx, ancestors }: { structure: StructureRow; ctx: TreeContext; ancestors: readonly string[] }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const groupId = useId();
  const { forest } = ctx;
  const path = [...ancestors, structure.id];
  // Inside a cycle the walk down comes back to where it started: stop there.
  const children = (forest.children.get(structure.id) ?? []).filter((c) => !path.includes(c.id));
  const assets = forest.assets.get(structure.id) ?? [];
  const hasContent = children.length + assets.length > 0;
  const expanded = !ctx.collapsed.has(structure.id);
  const effective = structurePercent(forest, structure.id);
  const inCycle = forest.inCycle.has(structure.id);
  const where = [ctx.countryLabel(structure.country), ctx.stateLabel(structure.country, structure.state)].filter(Boolean).join(" · ");
  const owner = structure.parentStructureId ? forest.byId.get(structure.parentStructureId) : undefined;

  return (
    <li className={styles.item} data-testid="structure-item" data-structure-id={structure.id} data-name={structure.name} data-row-key={structure.id}>
      <div className={cx(styles.row, inCycle && styles.rowProblem)}>
        {hasContent ? (
          <button
            type="button"
            className={styles.disclosure}
            aria-expanded={expanded}
            aria-controls={groupId}
            aria-label={t(expanded ? "structures.collapse" : "structures.expand", { name: structure.name })}
            onClick={() => ctx.toggle(structure.id)}
            data-control="toggle"
            data-testid="structure-toggle"
          >
            <ChevronRight size={16} aria-hidden="true" className={styles.chevron} />
          </button>
        ) : (
          <span className={styles.disclosureSpacer} aria-hidden="true" />
        )}
        <div className={styles.main}>
          <div className={styles.titleLine}>
            <span className={styles.name} data-testid="structure-name">
              {structure.name}
            </span>
            <Badge tone="outline">{ctx.typeLabel(structure.structureType)}</Badge>
            {inCycle && <Badge tone="warning">{t("structures.cycle.badge")}</Badge>}
            {structure.pending > 0 && <Badge tone="neutral">{t("structures.pending")}</Badge>}
          </div>
          <dl className={styles.meta}>
            <div>
              <dt>{t("structures.fields.country")}</dt>
              <dd>{where}</dd>
            </div>
            <div>
              <dt>{owner ? t("structures.ownedBy", { name: owner.name }) : t("structures.ownedDirectly")}</dt>
              <dd data-testid="structure-ownership">
                {structure.ownershipPercentage ? formatPercent(structure.ownershipPercentage, language) : t("structures.whole")}
              </dd>
            </div>
            <div>
              <dt>{t("structures.yourShare")}</dt>
              <dd data-testid="structure-effective">{effective === null ? t("structures.unknownShare") : formatPercent(effective, language, { maximumFractionDigits: 4 })}</dd>
            </div>
          </dl>
        </div>
        {ctx.canEdit && (
          <div className={styles.actions}>
            <IconButton
              size="sm"
              label={t("structures.addChild", { name: structure.name })}
              icon={<Plus size={16} />}
              onClick={() => ctx.open({ kind: "new", parentId: structure.id })}
              data-control="add-child"
              data-testid="structure-add-child"
            />
            <Link
              to="/assets/new"
              search={{ structureId: structure.id }}
              className={buttonClass({ variant: "ghost", size: "sm" }, styles.iconLink)}
              aria-label={t("structures.addAsset", { name: structure.name })}
              title={t("structures.addAsset", { name: structure.name })}
              data-control="add-asset"
              data-testid="structure-add-asset"
            >
              <FilePlus2 size={16} aria-hidden="true" />
            </Link>
            <IconButton
              size="sm"
              label={t("structures.edit", { name: structure.name })}
              icon={<Pencil size={16} />}
              onClick={() => ctx.open({ kind: "edit", id: structure.id })}
              data-control="edit"
              data-testid="structure-edit"
            />
            <IconButton
              size="sm"
              label={t("structures.delete", { name: structure.name })}
              icon={<Trash2 size={16} />}
              onClick={() => ctx.open({ kind: "delete", id: structure.id })}
              data-control="delete"
              data-testid="structure-delete"
            />
          </div>
        )}
      </div>
      {hasContent && (
        <ul id={groupId} className={styles.group} hidden={!expanded}>
          {children.map((c) => (
            <StructureItem key={c.id} structure={c} ctx={ctx} ancestors={path} />
          ))}
          {assets.map((a) => (
            <AssetItem key={a.id} asset={a} forest={forest} />
          ))}
        </ul>
      )}
    </li>
  );
}

function AssetItem({ asset, forest }: { asset: AssetRow; forest: Forest }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const figure = lookThrough(forest, asset);
  return (
    <li className={styles.item} data-testid="structure-asset" data-asset-id={asset.id} data-name={asset.name} data-row-key={assetRowKey(asset.id)}>
      <div className={cx(styles.row, styles.assetRow)}>
        <span className={styles.disclosureSpacer} aria-hidden="true" />
        <div className={styles.main}>
          <div className={styles.titleLine}>
            <Link to="/assets/$assetId" params={{ assetId: asset.id }} className={styles.assetLink}>
              {asset.name}
            </Link>
          </div>
          <dl className={styles.meta}>
            <div>
              <dt>{t("structures.asset.participation")}</dt>
              <dd>{formatPercent(asset.participation, language)}</dd>
            </div>
            <div>
              <dt>{t("structures.asset.value")}</dt>
              <dd>{asset.currentValue ? formatMoney(asset.currentValue, asset.currency, language) : "—"}</dd>
            </div>
            <div>
              <dt>{t("structures.yourShare")}</dt>
              <dd data-testid="asset-effective-share">
                {figure.percent === null ? t("structures.unknownShare") : formatPercent(figure.percent, language, { maximumFractionDigits: 4 })}
              </dd>
            </div>
            <div>
              <dt>{t("structures.asset.yourValue")}</dt>
              <dd data-testid="asset-effective-value">
                {figure.value === null ? "—" : formatMoney(figure.value, asset.currency, language)}
              </dd>
            </div>
          </dl>
        </div>
      </div>
    </li>
  );
}

/** A cycle a merge made: which structures own each other, and a way out for editors. */
function CycleProblem({ cycle, data }: { cycle: readonly StructureRow[]; data: StructuresData }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const links = cycle.map((s, i) => t("structures.cycle.link", { name: s.name, owner: cycle[(i + 1) % cycle.length]!.name }));
  async function makeTopLevel(id: string) {
    if (!data.db) return;
    setBusy(id);
    setError(null);
    try {
      const result = await setStructureParent(data.db, id, null);
      if (!result.ok) setError(t("structures.cycle.fixFailed"));
    } finally {
      setBusy(null);
    }
  }
  return (
    <div data-testid="structure-cycle" data-structures={cycle.map((s) => s.name).join("|")}>
      <Alert tone="warning" title={t("structures.cycle.title")}>
        <p>{links.join("; ")}.</p>
        <p>{t("structures.cycle.explain")}</p>
        {data.workspace.canEdit ? (
          <>
            <p>{t("structures.cycle.fixHint")}</p>
            <div className={styles.cycleActions}>
              {cycle.map((s) => (
                <Button key={s.id} size="sm" variant="secondary" loading={busy === s.id} onClick={() => void makeTopLevel(s.id)} data-testid="structure-cycle-fix">
                  {t("structures.cycle.fix", { name: s.name })}
                </Button>
              ))}
            </div>
            {error && <p role="alert">{error}</p>}
          </>
        ) : (
          <p>{t("structures.cycle.viewerHint")}</p>
        )}
      </Alert>
    </div>
  );
}
