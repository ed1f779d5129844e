// The flows of one asset, for the asset's detail page (mounted by the asset area): its flows (the
// rent of a flat, its costs), the annual net flow of the periodic ones over the next twelve months in
// the asset's currency, and the yield = annual net flow / the asset's current value
// (pwa/src/flows/projection.ts assetYield). Flows in other currencies are listed apart, not converted.
// Editors get links to add a flow for this asset and to edit each one on /flows.
//
//   <AssetFlows assetId={asset.id} />
import { useRecordById } from "@patrimonio/clientdb";
import { Link } from "@tanstack/react-router";
import { Plus } from "lucide-react";
import { useId, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useAssetWorkspace } from "../../assets/hooks";
import { assetYield } from "../../flows/projection";
import { useFormatters } from "../../i18n/useFormatters";
import { useAssetCashFlows, useEnumLabel } from "../../liabilities/hooks";
import { buttonClass } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { Skeleton } from "../../ui/Skeleton";
import { Figures } from "../liabilities/Figures";
import styles from "../liabilities/liabilities.module.css";
import { isDisposed } from "../../assets/disposal";
import { useToday } from "../../liabilities/useToday";
import { ScrollRegion } from "../../ui/ScrollRegion";

export function AssetFlows({ assetId }: { assetId: string }) {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const label = useEnumLabel();
  const captionId = useId();
  const { canEdit } = useAssetWorkspace();
  const asset = useRecordById("assets", assetId);
  const flows = useAssetCashFlows(asset?.workspaceId, asset ? assetId : undefined);
  const today = useToday();
  const result = useMemo(
    () => (asset && flows ? assetYield(flows.map((f) => f.fields), asset.fields, today) : undefined),
    [asset, flows, today],
  );

  if (!asset || asset.deleted) return null;
  const currency = asset.fields.currency;
  // Sold or given away: its flows stay listed (its returns count them up to the disposal date), but
  // no new one is offered and no yield is shown for an asset no longer held.
  const disposed = isDisposed(asset.fields);

  return (
    <Card
      title={t("flows.asset.title")}
      data-testid="asset-flows"
      actions={
        canEdit && !disposed ? (
          <Link to="/flows" search={{ new: 1, assetId }} className={buttonClass({ variant: "secondary", size: "sm" })} data-testid="asset-flow-add">
            <Plus size={16} aria-hidden="true" /> {t("flows.asset.add")}
          </Link>
        ) : undefined
      }
    >
      {flows === undefined || result === undefined ? (
        <Skeleton lines={3} />
      ) : (
        <>
          {!disposed && (
            <Figures
              testId="asset-flow-figures"
              figures={[
                {
                  id: "annualNet",
                  label: t("flows.asset.annualNet"),
                  value: result.ok ? fmt.money(result.annualNet, currency) : t("flows.asset.noFlows", { currency }),
                  hint: t("flows.asset.annualNetHint", { currency }),
                },
                {
                  id: "yield",
                  label: t("flows.asset.yield"),
                  value: result.ok ? fmt.percent(result.yieldPercent) : result.reason === "noValue" ? t("flows.asset.noValue") : "—",
                  hint: t("flows.asset.yieldHint"),
                },
              ]}
            />
          )}
          {!disposed && result.otherCurrencies.length > 0 && (
            <p className={styles.muted}>
              {t("flows.asset.otherCurrencies", { list: result.otherCurrencies.map((l) => fmt.money(l.net, l.currency)).join(" · ") })}
            </p>
          )}
          {flows.length === 0 ? (
            <p className={styles.muted}>{t("flows.asset.empty")}</p>
          ) : (
            <ScrollRegion className={styles.tableWrap}>
              <table className={styles.table} data-testid="asset-flow-table">
                <caption id={captionId}>{t("flows.asset.tableCaption", { count: flows.length })}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("flows.columns.name")}</th>
                    <th scope="col">{t("flows.columns.direction")}</th>
                    <th scope="col" className={styles.num}>
                      {t("flows.columns.amount")}
                    </th>
                    <th scope="col">{t("flows.columns.frequency")}</th>
                  </tr>
                </thead>
                <tbody>
                  {flows.map((f) => (
                    <tr key={f.id} data-testid="asset-flow-row">
                      <td>
                        {canEdit ? (
                          <Link to="/flows" search={{ edit: f.id }} className={styles.nameLink}>
                            {f.fields.name}
                          </Link>
                        ) : (
                          f.fields.name
                        )}
                      </td>
                      <td>{label("cashFlowDirection", f.fields.direction)}</td>
                      <td className={styles.num}>{fmt.money(f.fields.amount, f.fields.currency)}</td>
                      <td>{label("cashFlowFrequency", f.fields.frequency)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          )}
        </>
      )}
    </Card>
  );
}
