// Options: risk and liquidity (1 to 5), property use, status; edited in a small dialog.
import { PROPERTY_STATUSES, PROPERTY_USES } from "@patrimonio/shared-schema";
import { Pencil } from "lucide-react";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import formStyles from "../../../forms/form.module.css";
import { Button } from "../../../ui/Button";
import { Card } from "../../../ui/Card";
import { Dialog, DialogClose } from "../../../ui/Dialog";
import { Field } from "../../../ui/Field";
import { NativeSelect } from "../../../ui/NativeSelect";
import { intOrNull, orNull, useAssetPatchForm } from "./assetForm";
import { useAssetDetail } from "./context";
import { Facts } from "./Facts";
import { FieldConflicts } from "./FieldConflicts";
import { useEnumLabel } from "./fieldText";
import { IssueList } from "./IssueList";

const SCALE = ["1", "2", "3", "4", "5"] as const;

interface OptionValues {
  risk: string;
  liquidity: string;
  propertyUse: string;
  status: string;
}

export function OptionsSection() {
  const { t } = useTranslation();
  const { asset, canEdit } = useAssetDetail();
  const enumLabel = useEnumLabel();
  const [open, setOpen] = useState(false);
  const f = asset.fields;
  const none = t("assetDetail.value.empty");
  const scale = (v: number | undefined) => (v === undefined ? none : t("assetDetail.options.scaleValue", { value: v }));
  return (
    <Card
      title={t("assetDetail.options.title")}
      data-testid="section-options"
      actions={
        canEdit && (
          <Button size="sm" variant="ghost" icon={<Pencil size={16} />} onClick={() => setOpen(true)}>
            {t("assetDetail.options.edit")}
          </Button>
        )
      }
    >
      <Facts
        testId="options"
        facts={[
          { id: "risk", label: t("assetDetail.fields.risk"), value: scale(f.risk) },
          { id: "liquidity", label: t("assetDetail.fields.liquidity"), value: scale(f.liquidity) },
          { id: "propertyUse", label: t("assetDetail.fields.propertyUse"), value: f.propertyUse ? enumLabel("propertyUse", f.propertyUse) : none },
          { id: "status", label: t("assetDetail.fields.status"), value: f.status ? enumLabel("propertyStatus", f.status) : none },
        ]}
      />
      <FieldConflicts fields={["risk", "liquidity", "propertyUse", "status"]} />
      {open && <OptionsDialog onClose={() => setOpen(false)} />}
    </Card>
  );
}

function OptionsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { db, asset } = useAssetDetail();
  const enumLabel = useEnumLabel();
  const f = asset.fields;
  const toPatch = useCallback(
    (v: OptionValues) => ({
      risk: intOrNull(v.risk) as number | null,
      liquidity: intOrNull(v.liquidity) as number | null,
      propertyUse: orNull(v.propertyUse) as (typeof PROPERTY_USES)[number] | null,
      status: orNull(v.status) as (typeof PROPERTY_STATUSES)[number] | null,
    }),
    [],
  );
  const form = useAssetPatchForm<OptionValues>({
    asset,
    defaultValues: {
      risk: f.risk === undefined ? "" : String(f.risk),
      liquidity: f.liquidity === undefined ? "" : String(f.liquidity),
      propertyUse: f.propertyUse ?? "",
      status: f.status ?? "",
    },
    toPatch,
  });
  const none = <option value="">{t("assetDetail.value.notSet")}</option>;
  return (
    <Dialog
      dirty={form.formState.isDirty}
      open
      onOpenChange={(o) => !o && onClose()}
      title={t("assetDetail.options.dialogTitle")}
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t("common.cancel")}</Button>
          </DialogClose>
          <Button variant="primary" type="submit" form="asset-options-form" loading={form.formState.isSubmitting}>
            {t("assetDetail.save")}
          </Button>
        </>
      }
    >
      <form id="asset-options-form" className={formStyles.form} noValidate onSubmit={form.save(db, onClose)}>
        <div className={formStyles.grid}>
          <Field label={t("assetDetail.fields.risk")} hint={t("assetDetail.options.riskHint")} error={form.errorText("risk")}>
            <NativeSelect {...form.register("risk")}>
              {none}
              {SCALE.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field label={t("assetDetail.fields.liquidity")} hint={t("assetDetail.options.liquidityHint")} error={form.errorText("liquidity")}>
            <NativeSelect {...form.register("liquidity")}>
              {none}
              {SCALE.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field label={t("assetDetail.fields.propertyUse")} error={form.errorText("propertyUse")}>
            <NativeSelect {...form.register("propertyUse")}>
              {none}
              {PROPERTY_USES.map((code) => (
                <option key={code} value={code}>
                  {enumLabel("propertyUse", code)}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field label={t("assetDetail.fields.status")} error={form.errorText("status")}>
            <NativeSelect {...form.register("status")}>
              {none}
              {PROPERTY_STATUSES.map((code) => (
                <option key={code} value={code}>
                  {enumLabel("propertyStatus", code)}
                </option>
              ))}
            </NativeSelect>
          </Field>
        </div>
        <IssueList issues={form.otherIssues} />
      </form>
    </Dialog>
  );
}
