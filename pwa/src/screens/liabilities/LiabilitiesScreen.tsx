// /liabilities?new=1&assetId=…|edit=<id>|show=<id>: the workspace's debts grouped by kind (the shared
// schema's LIABILITY_KINDS), with totals per currency and the monthly payments; add, edit and delete
// (the form and the payment plan deep-link); each debt's payment plan and its balance over time.
// Everything reads and writes the device database, so it works offline and syncs. Viewers see it
// all read-only with the reason (no add, edit or delete; the server refuses their writes too).
import { deleteLiability, useClientDb } from "@patrimonio/clientdb";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { Eye, Pencil, Plus, Receipt, Trash2 } from "lucide-react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAssets, useAssetWorkspace } from "../../assets/hooks";
import { INTL_LOCALES } from "../../i18n/format";
import { useFormatters } from "../../i18n/useFormatters";
import { useLanguage } from "../../i18n/useLanguage";
import { useEnumLabel, useLiabilities, type LiabilityRec } from "../../liabilities/hooks";
import { liabilitiesModel, type DebtRow } from "../../liabilities/listModel";
import { notify } from "../../toast/toast";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { DataTable, type DataTableColumn } from "../../ui/DataTable";
import { AlertDialog } from "../../ui/Dialog";
import { MenuItem } from "../../ui/DropdownMenu";
import { EmptyState } from "../../ui/EmptyState";
import { PageHeader } from "../../ui/PageHeader";
import { Skeleton } from "../../ui/Skeleton";
import { MoneyTotalsText, NO_VALUE } from "../assets/common/MoneyText";
import { ReadOnlyNotice } from "../assets/common/ReadOnlyNotice";
import page from "../page.module.css";
import { Figures } from "./Figures";
import styles from "./liabilities.module.css";
import { LiabilityFormDialog } from "./LiabilityFormDialog";
import { PlanCard } from "./PlanCard";
import { useToday } from "../../liabilities/useToday";

interface LiabilitiesSearch {
  new?: 1;
  edit?: string;
  show?: string;
  assetId?: string;
}

type Row = DebtRow<LiabilityRec>;

export function LiabilitiesScreen() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const fmt = useFormatters();
  const label = useEnumLabel();
  const search = useSearch({ strict: false }) as LiabilitiesSearch;
  const navigate = useNavigate();
  const db = useClientDb();
  const workspace = useAssetWorkspace();
  const liabilities = useLiabilities();
  const assets = useAssets();
  const [deleting, setDeleting] = useState<LiabilityRec | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const today = useToday();
  const collator = useMemo(() => new Intl.Collator(INTL_LOCALES[language], { numeric: true, sensitivity: "base" }), [language]);
  const model = useMemo(() => (liabilities ? liabilitiesModel(liabilities, today, collator) : undefined), [liabilities, today, collator]);
  const assetNames = useMemo(() => new Map((assets ?? []).map((a) => [a.id, a.fields.name])), [assets]);

  const go = (next: LiabilitiesSearch) => void navigate({ to: "/liabilities", search: next as never });
  const canEdit = workspace.canEdit;
  const editing = search.edit ? model?.byId.get(search.edit)?.record : undefined;
  // A viewer's edit link shows the debt's plan instead.
  const shownId = search.show ?? (!canEdit ? search.edit : undefined);
  const shown = shownId ? model?.byId.get(shownId) : undefined;
  const formOpen = canEdit && db !== null && workspace.workspaceId !== undefined && assets !== undefined && (search.new === 1 || editing !== undefined);

  const confirmDelete = async () => {
    if (!db || !deleting) return;
    setDeleteBusy(true);
    try {
      const result = await deleteLiability(db, deleting.id);
      if (!result.ok) {
        notify("error", t("liabilities.delete.failed"));
        return;
      }
      notify("success", t("liabilities.delete.done", { name: deleting.fields.name }));
      if (search.show === deleting.id || search.edit === deleting.id) go({});
      setDeleting(null);
    } finally {
      setDeleteBusy(false);
    }
  };

  const columns: DataTableColumn<Row>[] = [
    {
      id: "name",
      header: t("liabilities.columns.name"),
      width: "minmax(160px, 2fr)",
      sortValue: (r) => r.record.fields.name,
      cell: (r) => (
        <Link to="/liabilities" search={{ show: r.record.id }} className={styles.nameLink} data-testid="liability-name">
          {r.record.fields.name}
        </Link>
      ),
    },
    {
      id: "creditor",
      header: t("liabilities.columns.creditor"),
      sortValue: (r) => r.record.fields.creditorName,
      cell: (r) => <span className={styles.cellText}>{r.record.fields.creditorName ?? NO_VALUE}</span>,
    },
    {
      id: "asset",
      header: t("liabilities.columns.asset"),
      sortValue: (r) => (r.record.fields.assetId ? assetNames.get(r.record.fields.assetId) : undefined),
      cell: (r) => {
        const id = r.record.fields.assetId;
        const name = id ? assetNames.get(id) : undefined;
        return id && name ? (
          <Link to="/assets/$assetId" params={{ assetId: id }} className={styles.nameLink} data-testid="liability-asset">
            {name}
          </Link>
        ) : (
          <span>{NO_VALUE}</span>
        );
      },
    },
    {
      id: "outstanding",
      header: t("liabilities.columns.outstanding"),
      align: "end",
      sortValue: (r) => r.outstanding,
      sortType: "decimal",
      // By currency, then amount, as the flows list (README, flows): 100 USD is not 100 EUR.
      sortGroup: (r) => r.record.fields.currency,
      cell: (r) => (
        <span className={styles.cellText}>
          <span data-testid="liability-outstanding">{fmt.money(r.outstanding, r.record.fields.currency)}</span>
          {r.notStarted && r.record.fields.startDate && (
            <span className={styles.muted} data-testid="liability-not-started">
              {" "}
              {t("liabilities.notStarted", { date: fmt.date(r.record.fields.startDate) })}
            </span>
          )}
        </span>
      ),
    },
    {
      id: "rate",
      header: t("liabilities.columns.rate"),
      align: "end",
      width: "minmax(90px, 0.7fr)",
      sortValue: (r) => r.record.fields.rate,
      sortType: "decimal",
      cell: (r) => (r.record.fields.rate === undefined ? NO_VALUE : fmt.percent(r.record.fields.rate)),
    },
    {
      id: "endDate",
      header: t("liabilities.columns.endDate"),
      sortValue: (r) => r.record.fields.endDate,
      cell: (r) => (r.record.fields.endDate ? fmt.date(r.record.fields.endDate) : NO_VALUE),
    },
    {
      id: "monthly",
      header: t("liabilities.columns.monthly"),
      align: "end",
      sortValue: (r) => (r.plan.ok ? r.plan.payment : undefined),
      sortType: "decimal",
      sortGroup: (r) => r.record.fields.currency,
      cell: (r) => (
        <span data-testid="liability-monthly" title={r.plan.ok ? undefined : t(`liabilities.plan.reason.${r.plan.reason}`)}>
          {r.plan.ok ? fmt.money(r.plan.payment, r.record.fields.currency) : NO_VALUE}
        </span>
      ),
    },
  ];

  const rowActions = (r: Row) => (
    <>
      <MenuItem icon={<Eye size={16} />} onSelect={() => go({ show: r.record.id })}>
        {t("liabilities.actions.show")}
      </MenuItem>
      {canEdit && (
        <>
          <MenuItem icon={<Pencil size={16} />} onSelect={() => go({ edit: r.record.id })}>
            {t("liabilities.actions.edit")}
          </MenuItem>
          <MenuItem icon={<Trash2 size={16} />} danger onSelect={() => setDeleting(r.record)}>
            {t("liabilities.actions.delete")}
          </MenuItem>
        </>
      )}
    </>
  );

  return (
    <div className={page.page} data-testid="liabilities-screen">
      <PageHeader
        title={t("liabilities.title")}
        subtitle={t("liabilities.subtitle")}
        actions={
          canEdit ? (
            <Button variant="primary" icon={<Plus size={16} />} onClick={() => go({ new: 1 })} data-testid="liability-new">
              {t("liabilities.add")}
            </Button>
          ) : undefined
        }
      />
      <ReadOnlyNotice />
      {model === undefined ? (
        <div aria-busy="true" data-testid="liabilities-loading" className={styles.sections}>
          <p className="visually-hidden" role="status">
            {t("liabilities.loading")}
          </p>
          <Skeleton shape="block" />
          <Skeleton lines={4} />
        </div>
      ) : model.groups.length === 0 ? (
        <div className={styles.sections}>
          <EmptyState
            data-testid="liabilities-empty"
            icon={<Receipt size={24} />}
            title={t("liabilities.empty.title")}
            text={canEdit ? t("liabilities.empty.text") : t("liabilities.empty.textViewer")}
            action={
              canEdit ? (
                <Button variant="primary" icon={<Plus size={16} />} onClick={() => go({ new: 1 })}>
                  {t("liabilities.add")}
                </Button>
              ) : undefined
            }
          />
        </div>
      ) : (
        <div className={styles.sections}>
          <Card title={t("liabilities.summary.title")} data-testid="liabilities-summary">
            <Figures
              figures={[
                { id: "outstanding", label: t("liabilities.summary.outstanding"), value: <MoneyTotalsText totals={model.totals} /> },
                {
                  id: "monthly",
                  label: t("liabilities.summary.monthly"),
                  value: <MoneyTotalsText totals={model.monthly} />,
                  hint: t("liabilities.summary.monthlyHint"),
                },
                { id: "count", label: t("liabilities.summary.count"), value: fmt.number(model.byId.size) },
                ...(model.notStarted.count > 0
                  ? [
                      {
                        id: "notStarted",
                        label: t("liabilities.summary.notStarted"),
                        value: <MoneyTotalsText totals={model.notStarted.totals} />,
                        hint: t("liabilities.summary.notStartedHint"),
                      },
                    ]
                  : []),
              ]}
            />
          </Card>
          {shown && <PlanCard liability={shown.record} plan={shown.plan} outstanding={shown.outstanding} canEdit={canEdit} onDelete={() => setDeleting(shown.record)} />}
          {search.show && !shown && (
            <p className={styles.muted} role="status" data-testid="liability-gone">
              {t("liabilities.gone")}
            </p>
          )}
          {model.groups.map((g) => (
            <Card
              key={g.kind}
              title={label("liabilityKind", g.kind)}
              description={t("liabilities.group.count", { count: g.rows.length })}
              data-testid="liability-group"
              data-kind={g.kind}
              actions={
                <div className={styles.groupTotals} data-testid="liability-group-total">
                  <span>{t("liabilities.group.total")}</span>
                  <MoneyTotalsText totals={g.totals} />
                </div>
              }
            >
              <DataTable
                label={t("liabilities.group.table", { kind: label("liabilityKind", g.kind) })}
                rows={g.rows}
                columns={columns}
                rowKey={(r) => r.record.id}
                rowLabel={(r) => r.record.fields.name}
                rowActions={rowActions}
                height={480}
              />
            </Card>
          ))}
        </div>
      )}
      {formOpen && (
        <LiabilityFormDialog
          key={editing?.id ?? "new"}
          db={db}
          workspaceId={workspace.workspaceId!}
          assets={assets}
          liability={editing}
          assetId={search.assetId}
          onClose={() => go(editing ? { show: editing.id } : {})}
          onSaved={(id) => {
            notify("success", t("liabilities.form.saved"));
            go({ show: id });
          }}
        />
      )}
      <AlertDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && !deleteBusy && setDeleting(null)}
        title={t("liabilities.delete.title", { name: deleting?.fields.name ?? "" })}
        description={t("liabilities.delete.text")}
        confirmLabel={t("liabilities.delete.confirm")}
        confirmLoadingLabel={t("liabilities.delete.deleting")}
        loading={deleteBusy}
        onConfirm={() => void confirmDelete()}
        data-testid="liability-delete"
      />
    </div>
  );
}
