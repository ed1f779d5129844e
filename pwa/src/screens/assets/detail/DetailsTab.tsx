// The details tab: the spec's sections of one asset, top to bottom. A sold or disposed asset shows
// them read-only (canEdit false), with its sale (undo) and "delete asset" still there.
import { AssetConnection } from "../../connect/AssetConnection";
import { AssetFlows } from "../../flows/AssetFlows";
import { DebtSection } from "./DebtSection";
import { DeleteAssetSection } from "./DeleteAssetSection";
import { DisposalSection } from "./DisposalSection";
import styles from "./detail.module.css";
import { FinancialSection } from "./FinancialSection";
import { InstructionsSection } from "./InstructionsSection";
import { KindFieldsSection } from "./KindFieldsSection";
import { OptionsSection } from "./OptionsSection";
import { OwnershipSection } from "./OwnershipSection";
import { SummarySection } from "./SummarySection";
import { useAssetDetail } from "./context";
import { useStructures } from "./data";
import { isDisposed } from "../../../assets/disposal";

export function DetailsTab() {
  const { asset, canEdit, canManage } = useAssetDetail();
  const structures = useStructures(asset.workspaceId);
  return (
    <div className={styles.sections}>
      <SummarySection />
      <AssetConnection workspaceId={asset.workspaceId} assetId={asset.id} canEdit={canEdit} disposed={isDisposed(asset.fields)} />
      <div className={styles.grid}>
        <OptionsSection />
        <OwnershipSection structures={structures} />
      </div>
      <FinancialSection />
      <DebtSection structures={structures} />
      <AssetFlows assetId={asset.id} />
      <InstructionsSection />
      <KindFieldsSection structures={structures} />
      <DisposalSection />
      {canManage && <DeleteAssetSection />}
    </div>
  );
}
