// The details tab: the spec's sections of one asset, top to bottom.
import { AssetConnection } from "../../connect/AssetConnection";
import { AssetFlows } from "../../flows/AssetFlows";
import { DebtSection } from "./DebtSection";
import { DeleteAssetSection } from "./DeleteAssetSection";
import styles from "./detail.module.css";
import { FinancialSection } from "./FinancialSection";
import { InstructionsSection } from "./InstructionsSection";
import { KindFieldsSection } from "./KindFieldsSection";
import { OptionsSection } from "./OptionsSection";
import { OwnershipSection } from "./OwnershipSection";
import { SummarySection } from "./SummarySection";
import { useAssetDetail } from "./context";
import { useStructures } from "./data";

export function DetailsTab() {
  const { asset, canEdit } = useAssetDetail();
  const structures = useStructures(asset.workspaceId);
  return (
    <div className={styles.sections}>
      <SummarySection />
      <AssetConnection workspaceId={asset.workspaceId} assetId={asset.id} canEdit={canEdit} />
      <div className={styles.grid}>
        <OptionsSection />
        <OwnershipSection structures={structures} />
      </div>
      <FinancialSection />
      <DebtSection structures={structures} />
      <AssetFlows assetId={asset.id} />
      <InstructionsSection />
      <KindFieldsSection structures={structures} />
      {canEdit && <DeleteAssetSection />}
    </div>
  );
}
