// /flows?view=monthly|yearly&new=1&assetId=…|edit=<id>: money in and out, once or periodic; the next
// twelve months' totals, the monthly (12 months) and yearly (5 years) projection per currency
// (pwa/src/flows/projection.ts), the list with add, edit and delete (the form deep-links). Everything
// reads and writes the device database, so it works offline and syncs. Viewers see it read-only with
// the reason (no add, edit or delete; the server refuses their writes too).
import { deleteCashFlow, useClientDb } from "@patrimonio/clientdb";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { ArrowLeftRight, Pencil, Plus, Trash2 } from "lucide-react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAssets, useAssetWorkspace } from "../../assets/hooks";
import { monthlyProjection, nextTwelveMonths, yearlyProjection } from "../../flows/projection";
import { useFormatters } from "../../i18n/useFormatters";
import { useCashFlows, useEnumLabel, type CashFlowRec } from "../../liabilities/hooks";
import { notify } from "../../toast/toast";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { DataTable, type DataTableColumn } from "../../ui/DataTable";
import { AlertDialog } from "../../ui/Dialog";
import { MenuItem } from "../../ui/DropdownMenu";
import { EmptyState } from "../../ui/EmptyState";
import { PageHeader } from "../../ui/PageHeader";
import { Skeleton } from "../../ui/Skeleton";
import { Tab, TabList, TabPanel, Tabs, useSearchParamTab } from "../../ui/Tabs";
import { NO_VALUE } from "../assets/common/MoneyText";
import { ReadOnlyNotice } from "../assets/common/ReadOnlyNotice";
import { Figures } from "../liabilities/Figures";
import styles from "../liabilities/liabilities.module.css";
import page from "../page.module.css";
import { CashFlowFormDialog } from "./CashFlowFormDialog";
import { ProjectionTable } from "./ProjectionTable";
import { useToday } from "../../liabilities/useToday";

interface FlowsSearch {
  new?: 1;
  edit?: string;
  assetId?: string;
}

const VIEWS = ["monthly", "yearly"] as const;

export function FlowsScreen() {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const label = useEnumLabel();
  const search = useSearch({ strict: false }) as FlowsSearch;
  const navigate = useNavigate();
  const db = useClientDb();
  const workspace = useAssetWorkspace();
  const flows = useCashFlows();
  const assets = useAssets();
  const [view, setView] = useSearchParamTab("view", VIEWS, "monthly");
  const [deleting, setDeleting] = useState<CashFlowRec | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const today = useToday();
  const terms = useMemo(() => (flows ?? []).map((f) => f.fields), [flows]);
  const next12 = useMemo(() => nextTwelveMonths(terms, today), [terms, today]);
  const months = useMemo(() => monthlyProjection(terms, today), [terms, today]);
  const years = useMemo(() => yearlyProjection(terms, today), [terms, today]);
  const assetNames = useMemo(() => new Map((assets ?? []).map((a) => [a.id, a.fields.name])), [assets]);
  const sorted = useMemo(() => [...(flows ?? [])].sort((a, b) => (a.fields.startDate < b.fields.startDate ? -1 : a.fields.startDate > b.fields.startDate ? 1 : 0)), [flows]);

  const canEdit = workspace.canEdit;
  // The projection shown (?view=) stays through opening and closing a form.
  const withView = (next: FlowsSearch) => ((prev: Record<string, unknown>) => ({ view: prev.view, ...next })) as never;
  const go = (next: FlowsSearch) => void navigate({ to: "/flows", search: withView(next) });
  // Closing a form replaces its address (?new=1, ?edit=) instead of adding one after it: Back then
  // leaves the screen rather than opening the closed form again.
  const closeForm = () => void navigate({ to: "/flows", search: withView({}), replace: true });
  const editing = search.edit ? flows?.find((f) => f.id === search.edit) : undefined;
  const formOpen = canEdit && db !== null && workspace.workspaceId !== undefined && assets !== undefined && (search.new === 1 || editing !== undefined);

  const confirmDelete = async () => {
    if (!db || !deleting) return;
    setDeleteBusy(true);
    try {
      const result = await deleteCashFlow(db, deleting.id);
      if (!result.ok) {
        notify("error", t("flows.delete.failed"));
        return;
      }
      notify("success", t("flows.delete.done", { name: deleting.fields.name }));
      if (search.edit === deleting.id) closeForm();
      setDeleting(null);
    } finally {
      setDeleteBusy(false);
    }
  };

  const columns: DataTableColumn<CashFlowRec>[] = [
    {
      id: "name",
      header: t("flows.columns.name"),
      width: "minmax(160px, 2fr)",
      sortValue: (f) => f.fields.name,
      cell: (f) =>
        canEdit ? (
          <Link to="/flows" search={withView({ edit: f.id })} className={styles.nameLink} data-testid="flow-name">
            {f.fields.name}
          </Link>
        ) : (
          <span className={styles.cellText} data-testid="flow-name">
            {f.fields.name}
          </span>
        ),
    },
    {
      id: "direction",
      header: t("flows.columns.direction"),
      width: "minmax(90px, 0.8fr)",
      sortValue: (f) => f.fields.direction,
      cell: (f) => <span className={f.fields.direction === "inflow" ? styles.inflow : styles.outflow}>{label("cashFlowDirection", f.fields.direction)}</span>,
    },
    {
      id: "amount",
      header: t("flows.columns.amount"),
      align: "end",
      // By currency, then amount: amounts in different currencies are not comparable without a
      // rate, and a converted order would reshuffle as rates arrive (see README, flows).
      sortValue: (f) => f.fields.amount,
      sortType: "decimal",
      sortGroup: (f) => f.fields.currency,
      cell: (f) => <span data-testid="flow-amount">{fmt.money(f.fields.amount, f.fields.currency)}</span>,
    },
    {
      id: "frequency",
      header: t("flows.columns.frequency"),
      sortValue: (f) => f.fields.frequency,
      cell: (f) => label("cashFlowFrequency", f.fields.frequency),
    },
    {
      id: "startDate",
      header: t("flows.columns.startDate"),
      sortValue: (f) => f.fields.startDate,
      cell: (f) => fmt.date(f.fields.startDate),
    },
    {
      id: "endDate",
      header: t("flows.columns.endDate"),
      sortValue: (f) => f.fields.endDate,
      cell: (f) => (f.fields.endDate ? fmt.date(f.fields.endDate) : f.fields.frequency === "once" ? NO_VALUE : t("flows.open")),
    },
    {
      id: "asset",
      header: t("flows.columns.asset"),
      sortValue: (f) => (f.fields.assetId ? assetNames.get(f.fields.assetId) : undefined),
      cell: (f) => {
        const id = f.fields.assetId;
        const name = id ? assetNames.get(id) : undefined;
        return id && name ? (
          <Link to="/assets/$assetId" params={{ assetId: id }} className={styles.nameLink}>
            {name}
          </Link>
        ) : (
          NO_VALUE
        );
      },
    },
  ];

  return (
    <div className={page.page} data-testid="flows-screen">
      <PageHeader
        title={t("flows.title")}
        subtitle={t("flows.subtitle")}
        actions={
          canEdit ? (
            <Button variant="primary" icon={<Plus size={16} />} onClick={() => go({ new: 1 })} data-testid="flow-new">
              {t("flows.add")}
            </Button>
          ) : undefined
        }
      />
      <ReadOnlyNotice />
      {/* ?edit= names a flow this device does not have (deleted here or on another device, also
          while its form was open; a stale link): say so rather than show nothing. */}
      {canEdit && search.edit !== undefined && flows !== undefined && editing === undefined && (
        <p className={styles.muted} role="status" data-testid="flow-gone">
          {t("flows.gone")}
        </p>
      )}
      {flows === undefined ? (
        <div aria-busy="true" data-testid="flows-loading" className={styles.sections}>
          <p className="visually-hidden" role="status">
            {t("flows.loading")}
          </p>
          <Skeleton shape="block" />
          <Skeleton lines={4} />
        </div>
      ) : flows.length === 0 ? (
        <div className={styles.sections}>
          <EmptyState
            data-testid="flows-empty"
            icon={<ArrowLeftRight size={24} />}
            title={t("flows.empty.title")}
            text={canEdit ? t("flows.empty.text") : t("flows.empty.textViewer")}
            action={
              canEdit ? (
                <Button variant="primary" icon={<Plus size={16} />} onClick={() => go({ new: 1 })}>
                  {t("flows.add")}
                </Button>
              ) : undefined
            }
          />
        </div>
      ) : (
        <div className={styles.sections}>
          <Card title={t("flows.summary.title")} data-testid="flows-summary">
            {next12.length === 0 ? (
              <p className={styles.muted}>{t("flows.projection.none")}</p>
            ) : (
              next12.map((line) => (
                <Figures
                  key={line.currency}
                  testId={`flows-next12-${line.currency}`}
                  figures={[
                    { id: "inflow", label: t("flows.summary.inflow"), value: fmt.money(line.inflow, line.currency) },
                    { id: "outflow", label: t("flows.summary.outflow"), value: fmt.money(line.outflow, line.currency) },
                    { id: "net", label: t("flows.summary.net"), value: fmt.money(line.net, line.currency) },
                  ]}
                />
              ))
            )}
          </Card>
          <Card title={t("flows.projection.title")} data-testid="flows-projection">
            <Tabs value={view} onChange={setView} className={styles.tabs}>
              <TabList label={t("flows.projection.tabs")}>
                <Tab value="monthly">{t("flows.projection.monthly")}</Tab>
                <Tab value="yearly">{t("flows.projection.yearly")}</Tab>
              </TabList>
              <TabPanel value="monthly">
                <ProjectionTable periods={months} kind="month" caption={t("flows.projection.monthlyCaption")} testId="projection-monthly" />
              </TabPanel>
              <TabPanel value="yearly">
                <ProjectionTable periods={years} kind="year" caption={t("flows.projection.yearlyCaption")} testId="projection-yearly" />
              </TabPanel>
            </Tabs>
          </Card>
          <Card title={t("flows.list.title")}>
            <DataTable
              label={t("flows.list.table")}
              rows={sorted}
              columns={columns}
              rowKey={(f) => f.id}
              rowLabel={(f) => f.fields.name}
              height={480}
              data-testid="flows-table"
              {...(canEdit
                ? {
                    rowActions: (f: CashFlowRec) => (
                      <>
                        <MenuItem icon={<Pencil size={16} />} onSelect={() => go({ edit: f.id })}>
                          {t("flows.actions.edit")}
                        </MenuItem>
                        <MenuItem icon={<Trash2 size={16} />} danger onSelect={() => setDeleting(f)}>
                          {t("flows.actions.delete")}
                        </MenuItem>
                      </>
                    ),
                  }
                : {})}
            />
          </Card>
        </div>
      )}
      {formOpen && (
        <CashFlowFormDialog
          key={editing?.id ?? "new"}
          db={db}
          workspaceId={workspace.workspaceId!}
          assets={assets}
          flow={editing}
          assetId={search.assetId}
          onClose={closeForm}
          onSaved={() => {
            notify("success", t("flows.form.saved"));
            closeForm();
          }}
        />
      )}
      <AlertDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && !deleteBusy && setDeleting(null)}
        title={t("flows.delete.title", { name: deleting?.fields.name ?? "" })}
        description={t("flows.delete.text")}
        confirmLabel={t("flows.delete.confirm")}
        confirmLoadingLabel={t("flows.delete.deleting")}
        loading={deleteBusy}
        onConfirm={() => void confirmDelete()}
        data-testid="flow-delete"
      />
    </div>
  );
}
