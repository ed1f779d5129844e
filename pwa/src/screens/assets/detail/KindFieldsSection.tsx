// The fields of the asset's kind that are set (real estate: area, year of construction, tax
// location…; vehicles: brand, model, mileage…; fixed income: ISIN, issuer, rate…), read-only.
import type { SyncedRecord } from "@patrimonio/clientdb";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Card } from "../../../ui/Card";
import { useAssetDetail } from "./context";
import styles from "./detail.module.css";
import { KIND_FIELDS, KIND_GROUPS, setEntries } from "./detailModel";
import { Facts, type Fact } from "./Facts";
import { FieldConflicts } from "./FieldConflicts";
import { useEnumLabel, useFieldLabel, useValueText } from "./fieldText";

export function KindFieldsSection({ structures }: { structures: SyncedRecord<"legalStructures">[] | undefined }) {
  const { t } = useTranslation();
  const { asset } = useAssetDetail();
  const label = useFieldLabel();
  const enumLabel = useEnumLabel();
  const names = useMemo(() => Object.fromEntries((structures ?? []).map((s) => [s.id, s.fields.name])), [structures]);
  const valueText = useValueText(asset.fields.currency, names);
  const fields = asset.fields as Record<string, unknown>;

  const top: Fact[] = KIND_FIELDS.filter((k) => fields[k] !== undefined).map((k) => ({ id: k, label: label(k), value: valueText(k, fields[k]) }));
  const groups = KIND_GROUPS.map((g) => ({ group: g, entries: setEntries(fields[g] as Record<string, unknown> | undefined) })).filter((g) => g.entries.length > 0);
  if (top.length === 0 && groups.length === 0) return null;

  return (
    <Card title={t("assetDetail.kind.title")} description={t("assetDetail.kind.description")} data-testid="section-kind">
      {top.length > 0 && <Facts testId="kind-fields" facts={top} />}
      {groups.map(({ group, entries }) => (
        <section key={group} className={styles.subsection} aria-label={enumLabel("assetGroup", group)}>
          <h3 className={styles.subheading}>{enumLabel("assetGroup", group)}</h3>
          <Facts testId={`kind-${group}`} facts={entries.map(([k, v]) => ({ id: `${group}-${k}`, label: label(k), value: valueText(k, v, group) }))} />
        </section>
      ))}
      <FieldConflicts fields={[...KIND_FIELDS, ...KIND_GROUPS]} names={names} />
    </Card>
  );
}
