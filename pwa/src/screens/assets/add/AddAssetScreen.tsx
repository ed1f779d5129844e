// /assets/new: adding an asset in three steps that live in the URL (flow.ts), so Back walks them and
// a link can open any of them: the category picker, connect-or-manual, and the form of the kind.
// Everything is read from and written to the device database, so it works offline. Viewers get the
// reason they cannot add instead of the flow (the server refuses their writes too).
import { useNavigate, useSearch, Link } from "@tanstack/react-router";
import { ShieldX } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useEnumsRefresh } from "../../../api/enums";
import { useAssetWorkspace } from "../../../assets/hooks";
import { useAssetLabels } from "../../../assets/useAssetLabels";
import { notify } from "../../../toast/toast";
import { Alert } from "../../../ui/Alert";
import { buttonClass } from "../../../ui/Button";
import { cx } from "../../../ui/cx";
import { EmptyState } from "../../../ui/EmptyState";
import { PageHeader } from "../../../ui/PageHeader";
import { Skeleton } from "../../../ui/Skeleton";
import { Stepper } from "../../../ui/Stepper";
import page from "../../page.module.css";
import styles from "./AddAsset.module.css";
import { AssetForm } from "./AssetForm";
import { CategoryPicker } from "./CategoryPicker";
import { resolveFlow, STEP_INDEX, type AddAssetSearch } from "./flow";
import { MethodChoice } from "./MethodChoice";

export function AddAssetScreen() {
  const { t } = useTranslation();
  const search = useSearch({ strict: false }) as AddAssetSearch;
  const navigate = useNavigate();
  const workspace = useAssetWorkspace();
  // The categories an admin added reach the picker through the device's enumeration cache: refresh
  // it now (when online; offline the cached list is used).
  useEnumsRefresh();
  const labels = useAssetLabels();
  const state = resolveFlow(search, labels);
  const target = "target" in state ? state.target : undefined;
  const categoryLabel = target ? labels.categoryLabel(target.category, undefined, target.assetClass) : undefined;
  const back = (
    <Link to="/assets" data-testid="back-to-assets">
      ← {t("assetAdd.back")}
    </Link>
  );

  if (workspace.role === "viewer") {
    return (
      <div className={cx(page.page, page.narrow)}>
        <EmptyState
          icon={<ShieldX size={24} />}
          headingLevel={1}
          title={t("assetAdd.readOnly.title")}
          text={t((workspace.readOnlyReasonKey ?? "accessDenied.description") as never)}
          action={
            <Link to="/assets" className={buttonClass({ variant: "primary" })}>
              {t("assetAdd.readOnly.back")}
            </Link>
          }
          data-testid="add-asset-read-only"
        />
      </div>
    );
  }

  const steps = [t("assetAdd.steps.category"), t("assetAdd.steps.method"), t("assetAdd.steps.details")];
  let body;
  switch (state.step) {
    case "category":
      body = <CategoryPicker labels={labels} search={search} {...(state.onlyClass ? { onlyClass: state.onlyClass } : {})} />;
      break;
    case "unknownCategory":
      body = labels.ready ? (
        <>
          <Alert tone="warning" className={styles.chosen}>
            {t("assetAdd.unknownCategory")}
          </Alert>
          <CategoryPicker labels={labels} search={{ ...(search.structureId ? { structureId: search.structureId } : {}) }} />
        </>
      ) : (
        <Skeleton lines={6} />
      );
      break;
    case "method":
    case "connect":
      body = <MethodChoice target={state.target} categoryLabel={categoryLabel ?? ""} search={search} />;
      break;
    case "form":
      body =
        workspace.workspaceId === undefined ? (
          <Skeleton lines={8} />
        ) : (
          <AssetForm
            key={`${state.target.kind}-${state.target.categoryId}`}
            target={state.target}
            workspaceId={workspace.workspaceId}
            structureId={search.structureId}
            onCreated={(id, name) => {
              notify("success", t("assetAdd.created", { name }));
              // The form's own ways out do not ask (its LeaveGuard), as the user chose them.
              void navigate({ to: "/assets/$assetId", params: { assetId: id }, ignoreBlocker: true });
            }}
            onCancel={() => void navigate({ to: "/assets", ignoreBlocker: true })}
          />
        );
      break;
  }

  return (
    <div className={cx(page.page, page.medium)} data-testid="add-asset" data-step={state.step}>
      <PageHeader title={categoryLabel ? t("assetAdd.titleOf", { category: categoryLabel }) : t("assetAdd.title")} back={back} />
      <Stepper steps={steps} current={STEP_INDEX[state.step]} label={t("assetAdd.steps.label")} className={styles.stepper} />
      {body}
    </div>
  );
}
