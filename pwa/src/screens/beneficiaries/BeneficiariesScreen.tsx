// /beneficiaries?tab=beneficiaries|instructions|readiness (issue 13): who receives what, the person's
// legacy instructions and how ready the estate is, with a link to the executor's binder. Everything
// reads and writes the device database (works offline, syncs); viewers see it read-only with the
// reason. Allocations of one asset that two devices' merged edits push over 100 % are named at the
// top with the ownership rule's message.
import { useClientDb } from "@patrimonio/clientdb";
import { Link } from "@tanstack/react-router";
import { BookOpenText } from "lucide-react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useAssetWorkspace } from "../../assets/hooks";
import { useEstateRecords } from "../../estate/hooks";
import { allocationMessage, reviewAllocations } from "../../estate/readiness";
import { Dec } from "../../money";
import { Alert } from "../../ui/Alert";
import { buttonClass } from "../../ui/Button";
import { PageHeader } from "../../ui/PageHeader";
import { Skeleton } from "../../ui/Skeleton";
import { Tab, TabList, TabPanel, Tabs, useSearchParamTab } from "../../ui/Tabs";
import page from "../page.module.css";
import styles from "./beneficiaries.module.css";
import { BeneficiariesTab } from "./BeneficiariesTab";
import { EstateContextValue, useEstate, type EstateContext } from "./context";
import { InstructionsTab } from "./InstructionsTab";
import { useMessage } from "./labels";
import { ReadinessTab } from "./ReadinessTab";
import { heldAssets } from "../../assets/disposal";

export const BENEFICIARY_TABS = ["beneficiaries", "instructions", "readiness"] as const;
type BeneficiaryTab = (typeof BENEFICIARY_TABS)[number];

/** The shared loading state of the area's screens. */
export function useEstateContext(): EstateContext | undefined {
  const db = useClientDb();
  const workspace = useAssetWorkspace();
  const records = useEstateRecords();
  return useMemo(() => {
    const { assets, structures, beneficiaries, instructions, liabilities } = records;
    if (!db || workspace.workspaceId === undefined || !assets || !structures || !beneficiaries || !instructions || !liabilities) return undefined;
    return { db, workspaceId: workspace.workspaceId, canEdit: workspace.canEdit, assets, structures, beneficiaries, instructions, liabilities };
  }, [db, workspace.workspaceId, workspace.canEdit, records]);
}

export function BeneficiariesScreen() {
  const { t } = useTranslation();
  const estate = useEstateContext();
  const [tab, setTab] = useSearchParamTab<BeneficiaryTab>("tab", BENEFICIARY_TABS, "beneficiaries");
  return (
    <div className={page.page} data-testid="beneficiaries-screen">
      <PageHeader
        title={t("beneficiaries.title")}
        subtitle={t("beneficiaries.subtitle")}
        actions={
          <Link to="/beneficiaries/binder" className={buttonClass({ variant: "secondary" })} data-testid="open-binder">
            <BookOpenText size={16} aria-hidden="true" /> {t("binder.open")}
          </Link>
        }
      />
      {!estate ? (
        <div aria-busy="true" className={page.stack}>
          <p className="visually-hidden" role="status">
            {t("beneficiaries.loading")}
          </p>
          <Skeleton shape="block" />
          <Skeleton shape="block" />
        </div>
      ) : (
        <EstateContextValue.Provider value={estate}>
          {!estate.canEdit && (
            <Alert tone="info" title={t("beneficiaries.readOnly.title")} className={styles.notice}>
              <span data-testid="read-only-notice">{t("beneficiaries.readOnly.viewer")}</span>
            </Alert>
          )}
          <OverAllocated />
          <Tabs value={tab} onChange={setTab}>
            <TabList label={t("beneficiaries.tabs.label")}>
              <Tab value="beneficiaries">{t("beneficiaries.tabs.beneficiaries")}</Tab>
              <Tab value="instructions">{t("beneficiaries.tabs.instructions")}</Tab>
              <Tab value="readiness">{t("beneficiaries.tabs.readiness")}</Tab>
            </TabList>
            <TabPanel value="beneficiaries">
              <BeneficiariesTab />
            </TabPanel>
            <TabPanel value="instructions">
              <InstructionsTab />
            </TabPanel>
            <TabPanel value="readiness">
              <ReadinessTab />
            </TabPanel>
          </Tabs>
        </EstateContextValue.Provider>
      )}
    </div>
  );
}

/** Assets (or the whole estate) whose allocations add up to more than 100 % (merged from devices). */
function OverAllocated() {
  const { t } = useTranslation();
  const message = useMessage();
  const { assets, beneficiaries } = useEstate();
  const review = useMemo(() => reviewAllocations(heldAssets(assets), beneficiaries.map((b) => ({ ...b.fields, id: b.id }))), [assets, beneficiaries]);
  if (review.over.length === 0 && review.estate.state !== "over") return null;
  const exceeds = message(allocationMessage(new Dec(101))!);
  return (
    <Alert tone="warning" title={t("beneficiaries.over.title")} className={styles.notice}>
      <ul className={styles.plainList} data-testid="allocations-over">
        {review.over.map((r) => (
          <li key={r.asset.id} data-asset-id={r.asset.id}>
            {t("beneficiaries.over.asset", { asset: r.asset.fields.name, message: exceeds })}
          </li>
        ))}
        {review.estate.state === "over" && <li data-asset-id="estate">{t("beneficiaries.over.estate", { message: exceeds })}</li>}
      </ul>
      <p>{t("beneficiaries.over.fix")}</p>
    </Alert>
  );
}
