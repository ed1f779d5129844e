// /tasks?status=&priority=&asset=&overdue=1 (issue 13): the workspace's tasks from the device
// database (works offline, syncs). Open tasks first (the soonest due first; overdue ones marked by the
// device's local date), done tasks kept but folded under "Done (n)". Filters live in the URL (a link,
// a reload and Back keep them). Add, edit, delete and a quick status change per task; viewers see
// everything read-only with the reason.
import { deleteTask, setTaskStatus, useClientDb, useWorkspaceRecords, type SyncedRecord } from "@patrimonio/clientdb";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { ChevronDown, ChevronRight, ListChecks, Pencil, Plus, Trash2 } from "lucide-react";
import { useCallback, useId, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { linkableAssets } from "../../assets/disposal";
import { useAssets, useAssetWorkspace, type AssetRec, type AssetWorkspace } from "../../assets/hooks";
import { translateKey } from "../../forms/schemaForm";
import { useFormatters } from "../../i18n/useFormatters";
import { useLanguage } from "../../i18n/useLanguage";
import type { TasksSearch } from "../../router/areaRoutes";
import { notify } from "../../toast/toast";
import { Alert } from "../../ui/Alert";
import { Badge } from "../../ui/Badge";
import { Button, IconButton } from "../../ui/Button";
import { Switch } from "../../ui/Checkbox";
import { Combobox, type ComboboxOption } from "../../ui/Combobox";
import { AlertDialog } from "../../ui/Dialog";
import { EmptyState } from "../../ui/EmptyState";
import { Field } from "../../ui/Field";
import { useFocusKeeper } from "../../ui/focusKeeper";
import { PageHeader } from "../../ui/PageHeader";
import { Select } from "../../ui/Select";
import { Skeleton } from "../../ui/Skeleton";
import page from "../page.module.css";
import { TaskFormDialog } from "./TaskFormDialog";
import { filterAssets, filterTasks, groupTasks, hasFilters, isOverdue, type TaskFilters } from "./taskModel";
import { usePriorityOptions, useStatusOptions } from "./taskOptions";
import styles from "./Tasks.module.css";
import { useToday } from "../../liabilities/useToday";

type TaskRec = SyncedRecord<"tasks">;
type Dialog = { kind: "new" } | { kind: "edit"; task: TaskRec } | { kind: "delete"; task: TaskRec } | null;

const ALL = "all";

/** Where focus goes when a list has no task left: the done group's toggle, else "New task". */
const TASK_FOCUS_FALLBACK = ['[data-control="done-toggle"]', '[data-control="new-task"]:not(:disabled)'];

/** Assets as a picker's options, by name in the reader's language. */
function options(assets: readonly AssetRec[], language: string): ComboboxOption[] {
  return assets.map((a) => ({ value: a.id, label: a.fields.name })).sort((a, b) => a.label.localeCompare(b.label, language));
}

export function TasksScreen() {
  const { t, i18n } = useTranslation();
  const { language } = useLanguage();
  const workspace = useAssetWorkspace();
  const db = useClientDb();
  const tasks = useWorkspaceRecords("tasks", workspace.workspaceId);
  const assets = useAssets();
  const search = useSearch({ strict: false }) as TasksSearch;
  const filters: TaskFilters = search;
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [doneOpen, setDoneOpen] = useState(false);
  const [announcement, setAnnouncement] = useState("");
  const root = useRef<HTMLDivElement>(null);
  const today = useToday();

  const setFilters = useCallback(
    (patch: Partial<TasksSearch>) =>
      void navigate({
        to: ".",
        replace: true,
        search: ((prev: TasksSearch) => {
          const next: Record<string, unknown> = { ...prev, ...patch };
          for (const key of Object.keys(patch)) if (next[key] === undefined) delete next[key];
          return next;
        }) as never,
      }),
    [navigate],
  );

  // Every asset names a task's (sold ones too); the filter offers the held ones and a sold one only
  // while a task is about it (filterAssets); the form, the held ones and the task's own.
  const assetOptions = useMemo<ComboboxOption[]>(() => options(assets ?? [], language), [assets, language]);
  const assetNames = useMemo(() => new Map(assetOptions.map((o) => [o.value, o.label])), [assetOptions]);
  const filterOptions = useMemo(() => options(filterAssets(assets ?? [], tasks ?? [], filters.asset), language), [assets, tasks, filters.asset, language]);
  const editedAssetId = dialog?.kind === "edit" ? dialog.task.fields.assetId : undefined;
  const formOptions = useMemo(() => options(linkableAssets(assets ?? [], editedAssetId), language), [assets, editedAssetId, language]);
  const collator = useMemo(() => new Intl.Collator(language, { numeric: true, sensitivity: "base" }), [language]);
  const groups = useMemo(
    () => (tasks ? groupTasks(filterTasks(tasks, filters, today), today, collator) : undefined),
    [tasks, filters, today, collator],
  );

  const loading = tasks === undefined || groups === undefined;
  const filtered = hasFilters(filters);
  const showDone = filters.status === "done" || doneOpen;
  // Filters that leave nothing: the empty state offers the way out (one "clear" button, not two).
  const noMatch = tasks !== undefined && tasks.length > 0 && groups !== undefined && groups.open.length === 0 && groups.done.length === 0;

  // A task that leaves the list it was shown in (marked done or open again, deleted, filtered out)
  // takes its controls with it: focus goes on to the same control of the task now in its place
  // (ui/focusKeeper.ts), so a keyboard user goes on down the list. A row's key names its group: a
  // task moved to the other group is a row gone from the first.
  const rowKeys = useMemo(
    () => (groups === undefined ? [] : [...groups.open.map((task) => `open:${task.id}`), ...(showDone ? groups.done.map((task) => `done:${task.id}`) : [])]),
    [groups, showDone],
  );
  useFocusKeeper(root, rowKeys, (key) => key, TASK_FOCUS_FALLBACK);

  const changeStatus = useCallback(
    async (task: TaskRec, status: string) => {
      if (!db || status === task.fields.status) return;
      const result = await setTaskStatus(db, task.id, status as TaskRec["fields"]["status"]);
      if (!result.ok) {
        notify("error", result.issues.map((issue) => translateKey(i18n, issue)).join(" "));
        return;
      }
      // Say where a task that changed groups went (its new place may be folded away).
      if ((status === "done") !== (task.fields.status === "done")) setAnnouncement(t(status === "done" ? "tasks.movedToDone" : "tasks.movedToOpen", { title: task.fields.title }));
    },
    [db, i18n, t],
  );

  return (
    <div className={page.page} ref={root}>
      <p className="visually-hidden" role="status" data-testid="tasks-announcement">
        {announcement}
      </p>
      <PageHeader
        title={t("tasks.title")}
        subtitle={t("tasks.subtitle")}
        actions={<NewTaskAction workspace={workspace} onNew={() => setDialog({ kind: "new" })} />}
      >
        {groups && groups.overdue > 0 && (
          <div className={styles.headerBadges}>
            <Badge tone="danger" data-testid="tasks-overdue-count">
              {t("tasks.overdueCount", { count: groups.overdue })}
            </Badge>
          </div>
        )}
      </PageHeader>
      {workspace.readOnlyReasonKey !== null && (
        <Alert tone="info" title={t("tasks.readOnlyTitle")} className={styles.notice}>
          <span data-testid="read-only-notice">{t("tasks.readOnly")}</span>
        </Alert>
      )}
      <Filters filters={filters} setFilters={setFilters} assetOptions={filterOptions} offerClear={filtered && !noMatch} />
      {loading ? (
        <Skeleton shape="block" />
      ) : tasks.length === 0 ? (
        <EmptyState
          data-testid="tasks-empty"
          icon={<ListChecks size={24} />}
          title={t("tasks.empty.title")}
          text={t("tasks.empty.text")}
          action={
            workspace.canEdit ? (
              <Button variant="primary" icon={<Plus size={16} />} onClick={() => setDialog({ kind: "new" })}>
                {t("tasks.new")}
              </Button>
            ) : undefined
          }
        />
      ) : noMatch ? (
        <EmptyState
          data-testid="tasks-no-match"
          icon={<ListChecks size={24} />}
          title={t("tasks.noMatch.title")}
          text={t("tasks.noMatch.text")}
          action={
            <Button variant="secondary" onClick={() => setFilters({ status: undefined, priority: undefined, asset: undefined, overdue: undefined })}>
              {t("tasks.filters.clear")}
            </Button>
          }
        />
      ) : (
        <>
          {filters.status !== "done" && (
            <section aria-labelledby="tasks-open-heading" className={styles.group}>
              <h2 id="tasks-open-heading" className={styles.groupTitle}>
                {t("tasks.openHeading", { count: groups.open.length })}
              </h2>
              {groups.open.length === 0 ? (
                <p className={styles.none} data-testid="tasks-none-open">
                  {filtered ? t("tasks.noneOpenFiltered") : t("tasks.noneOpen")}
                </p>
              ) : (
                <TaskList group="open" tasks={groups.open} today={today} workspace={workspace} assetNames={assetNames} onChangeStatus={changeStatus} setDialog={setDialog} testId="tasks-open" />
              )}
            </section>
          )}
          {groups.done.length > 0 && (
            <section aria-labelledby="tasks-done-heading" className={styles.group}>
              <DoneHeading count={groups.done.length} open={showDone} onToggle={filters.status === "done" ? undefined : () => setDoneOpen((o) => !o)} />
              {showDone && (
                <TaskList group="done" tasks={groups.done} today={today} workspace={workspace} assetNames={assetNames} onChangeStatus={changeStatus} setDialog={setDialog} testId="tasks-done" id="tasks-done-list" />
              )}
            </section>
          )}
        </>
      )}
      {(dialog?.kind === "new" || dialog?.kind === "edit") && (
        <TaskFormDialog
          db={db}
          workspaceId={workspace.workspaceId}
          task={dialog.kind === "edit" ? dialog.task : undefined}
          assets={formOptions}
          assetNames={assetNames}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === "delete" && <DeleteTaskDialog task={dialog.task} onClose={() => setDialog(null)} />}
    </div>
  );
}

function NewTaskAction({ workspace, onNew }: { workspace: AssetWorkspace; onNew: () => void }) {
  const { t } = useTranslation();
  const reasonId = useId();
  const canWrite = workspace.canEdit && workspace.dbReady;
  if (workspace.canEdit || workspace.role === undefined) {
    return (
      <Button variant="primary" icon={<Plus size={16} />} onClick={onNew} disabled={!canWrite} data-control="new-task" data-testid="task-new">
        {t("tasks.new")}
      </Button>
    );
  }
  return (
    <div>
      <Button variant="primary" icon={<Plus size={16} />} disabled aria-describedby={reasonId} data-testid="task-new">
        {t("tasks.new")}
      </Button>
      <p id={reasonId} className={styles.reason}>
        {t("tasks.readOnly")}
      </p>
    </div>
  );
}

function Filters({
  filters,
  setFilters,
  assetOptions,
  offerClear,
}: {
  filters: TaskFilters;
  setFilters: (patch: Partial<TasksSearch>) => void;
  assetOptions: ComboboxOption[];
  /** Show "clear filters" here (any filter on, and the list is not the empty state that offers it). */
  offerClear: boolean;
}) {
  const { t } = useTranslation();
  const statuses = useStatusOptions();
  const priorities = usePriorityOptions();
  const statusOptions = useMemo(() => [{ value: ALL, label: t("tasks.filters.allStatuses") }, ...statuses], [statuses, t]);
  const priorityOptions = useMemo(() => [{ value: ALL, label: t("tasks.filters.allPriorities") }, ...priorities], [priorities, t]);
  const assetChoices = useMemo(() => [{ value: "none", label: t("tasks.filters.noAsset") }, ...assetOptions], [assetOptions, t]);
  return (
    <div role="search" className={styles.filters} aria-label={t("tasks.filters.label")} data-testid="task-filters">
      <Field label={t("tasks.filters.status")}>
        <Select
          options={statusOptions}
          value={filters.status ?? ALL}
          onChange={(v) => setFilters({ status: v === ALL ? undefined : (v as TasksSearch["status"]) })}
          data-testid="filter-status"
        />
      </Field>
      <Field label={t("tasks.filters.priority")}>
        <Select
          options={priorityOptions}
          value={filters.priority ?? ALL}
          onChange={(v) => setFilters({ priority: v === ALL ? undefined : (v as TasksSearch["priority"]) })}
          data-testid="filter-priority"
        />
      </Field>
      <Field label={t("tasks.filters.asset")}>
        <Combobox
          options={assetChoices}
          value={filters.asset ?? ""}
          placeholder={t("tasks.filters.allAssets")}
          emptyText={t("tasks.form.noAssets")}
          onChange={(v) => setFilters({ asset: v === "" ? undefined : v })}
          data-testid="filter-asset"
        />
      </Field>
      <div className={styles.overdueFilter}>
        <Switch
          label={t("tasks.filters.overdue")}
          checked={filters.overdue === 1}
          onCheckedChange={(on) => setFilters({ overdue: on ? 1 : undefined })}
          data-testid="filter-overdue"
        />
      </div>
      {/* Any filter on: one click back to every task (not only when nothing matches). */}
      {offerClear && (
        <div className={styles.overdueFilter}>
          <Button variant="ghost" size="sm" onClick={() => setFilters({ status: undefined, priority: undefined, asset: undefined, overdue: undefined })} data-testid="filters-clear">
            {t("tasks.filters.clear")}
          </Button>
        </div>
      )}
    </div>
  );
}

function DoneHeading({ count, open, onToggle }: { count: number; open: boolean; onToggle: (() => void) | undefined }) {
  const { t } = useTranslation();
  const label = t("tasks.doneHeading", { count });
  if (!onToggle) {
    return (
      <h2 id="tasks-done-heading" className={styles.groupTitle}>
        {label}
      </h2>
    );
  }
  return (
    <h2 id="tasks-done-heading" className={styles.groupTitle}>
      <button type="button" className={styles.fold} aria-expanded={open} aria-controls="tasks-done-list" onClick={onToggle} data-control="done-toggle" data-testid="tasks-done-toggle">
        {open ? <ChevronDown size={18} aria-hidden="true" /> : <ChevronRight size={18} aria-hidden="true" />}
        {label}
      </button>
    </h2>
  );
}

interface TaskListProps {
  tasks: readonly TaskRec[];
  today: string;
  workspace: AssetWorkspace;
  assetNames: ReadonlyMap<string, string>;
  onChangeStatus: (task: TaskRec, status: string) => Promise<void>;
  setDialog: (dialog: Dialog) => void;
  testId: string;
  id?: string;
  /** The group the list shows (its rows' keys, for focus: see TasksScreen). */
  group: "open" | "done";
}

function TaskList({ tasks, today, workspace, assetNames, onChangeStatus, setDialog, testId, id, group }: TaskListProps) {
  const { t } = useTranslation();
  const f = useFormatters();
  const statuses = useStatusOptions();
  return (
    <ul className={styles.list} data-testid={testId} id={id}>
      {tasks.map((task) => {
        const { title, notes, status, priority, dueDate, assetId } = task.fields;
        const overdue = isOverdue(task, today);
        const assetName = assetId === undefined ? undefined : assetNames.get(assetId);
        return (
          <li key={task.id} className={styles.task} data-testid="task" data-row-key={`${group}:${task.id}`} data-task-id={task.id} data-status={status} data-overdue={overdue}>
            <div className={styles.body}>
              <p className={status === "done" ? `${styles.title} ${styles.doneTitle}` : styles.title} data-testid="task-title-text">
                {title}
              </p>
              {notes && <p className={styles.notes}>{notes}</p>}
              <div className={styles.meta}>
                {priority && (
                  <Badge tone={priority === "high" ? "warning" : "neutral"} data-testid="task-priority">
                    {t("tasks.priorityBadge", { priority: t(`tasks.priority.${priority}`) })}
                  </Badge>
                )}
                {dueDate && (
                  <span className={overdue ? styles.overdueDate : styles.date} data-testid="task-due-text">
                    {overdue ? t("tasks.dueWas", { date: f.date(dueDate) }) : dueDate === today && status !== "done" ? t("tasks.dueToday") : t("tasks.due", { date: f.date(dueDate) })}
                  </span>
                )}
                {overdue && (
                  <Badge tone="danger" data-testid="task-overdue">
                    {t("tasks.overdue")}
                  </Badge>
                )}
                {assetId !== undefined &&
                  (assetName !== undefined ? (
                    <Link to="/assets/$assetId" params={{ assetId }} className={styles.asset} data-testid="task-asset-link">
                      {assetName}
                    </Link>
                  ) : (
                    <span className={styles.date}>{t("tasks.assetGone")}</span>
                  ))}
                {task.pending > 0 && <Badge tone="outline">{t("tasks.pendingSync")}</Badge>}
                {task.rejected > 0 && (
                  <span className={styles.rejected}>
                    <Badge tone="warning">{t("tasks.rejected")}</Badge>{" "}
                    <Link to="/help" search={{ topic: "sync" }}>
                      {t("tasks.rejectedHelp")}
                    </Link>
                  </span>
                )}
              </div>
            </div>
            <div className={styles.controls}>
              {workspace.canEdit ? (
                <>
                  <Select
                    options={statuses}
                    value={status}
                    onChange={(v) => void onChangeStatus(task, v)}
                    aria-label={t("tasks.statusOf", { title })}
                    className={styles.status}
                    data-control="status"
                    data-testid="task-status"
                  />
                  <IconButton label={t("tasks.edit", { title })} icon={<Pencil size={16} />} onClick={() => setDialog({ kind: "edit", task })} data-testid="task-edit" />
                  <IconButton
                    label={t("tasks.delete", { title })}
                    icon={<Trash2 size={16} />}
                    onClick={() => setDialog({ kind: "delete", task })}
                    data-control="delete"
                    data-testid="task-delete"
                  />
                </>
              ) : (
                <Badge tone={status === "done" ? "success" : "neutral"} data-testid="task-status-text">
                  {t(`tasks.status.${status}`)}
                </Badge>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

function DeleteTaskDialog({ task, onClose }: { task: TaskRec; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const db = useClientDb();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function confirm() {
    if (!db) return;
    setBusy(true);
    setError(null);
    try {
      const result = await deleteTask(db, task.id);
      if (result.ok) {
        notify("success", t("tasks.deleted", { title: task.fields.title }));
        onClose();
      } else setError(result.issues.map((issue) => translateKey(i18n, issue)).join(" "));
    } finally {
      setBusy(false);
    }
  }
  return (
    <AlertDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t("tasks.deleteDialog.title", { title: task.fields.title })}
      description={t("tasks.deleteDialog.description")}
      confirmLabel={t("tasks.deleteDialog.confirm")}
      confirmLoadingLabel={t("tasks.deleteDialog.deleting")}
      onConfirm={() => void confirm()}
      loading={busy}
      error={error}
      data-testid="task-delete-dialog"
    />
  );
}
