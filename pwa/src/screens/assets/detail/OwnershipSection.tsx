// Ownership: the person's participation and the other owners, with the spec's sum rule (over 100:
// "the sum exceeds 100 %"; under 100: how many percent are left; the shared-schema messages), the
// legal structure holding the asset and the look-through: the person's effective share and value.
import type { SyncedRecord } from "@patrimonio/clientdb";
import { OTHER_OWNERS_MAX } from "@patrimonio/shared-schema";
import { Plus, Trash2, Users } from "lucide-react";
import { useCallback, useMemo, useState } from "react";
import { Controller, useFieldArray } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { lookThrough, structuresMap } from "../../../assets/lookThrough";
import formStyles from "../../../forms/form.module.css";
import { translateKey } from "../../../forms/schemaForm";
import { useFormatters } from "../../../i18n/useFormatters";
import { Button, IconButton } from "../../../ui/Button";
import { Card } from "../../../ui/Card";
import { PercentInput } from "../../../ui/DecimalInput";
import { Dialog, DialogClose } from "../../../ui/Dialog";
import { Field } from "../../../ui/Field";
import { TextInput } from "../../../ui/TextInput";
import { useAssetPatchForm } from "./assetForm";
import { useAssetDetail } from "./context";
import styles from "./detail.module.css";
import { ownershipMessage, ownershipSum } from "./detailModel";
import { Facts } from "./Facts";
import { FieldConflicts } from "./FieldConflicts";
import { IssueList } from "./IssueList";

interface OwnershipValues {
  participation: string;
  otherOwners: { name: string; percentage: string }[];
}

/** The live sum message under the owners (role=status: read out as it changes). */
export function SumMessage({ participation, owners }: { participation: string; owners: readonly { percentage: string }[] }) {
  const { i18n, t } = useTranslation();
  const sum = ownershipSum(participation, owners);
  const message = ownershipMessage(sum);
  return (
    <p
      className={message ? styles.sumWarning : styles.sumOk}
      role="status"
      data-testid="ownership-sum"
      data-state={sum.state}
    >
      {message ? translateKey(i18n, message) : sum.state === "complete" ? t("assetDetail.ownership.complete") : ""}
    </p>
  );
}

export function OwnershipSection({ structures }: { structures: SyncedRecord<"legalStructures">[] | undefined }) {
  const { t } = useTranslation();
  const { asset, canEdit } = useAssetDetail();
  const fmt = useFormatters();
  const [open, setOpen] = useState(false);
  const f = asset.fields;
  const byId = useMemo(() => structuresMap(structures ?? []), [structures]);
  const names = useMemo(() => Object.fromEntries((structures ?? []).map((s) => [s.id, s.fields.name])), [structures]);
  const look = lookThrough(f, byId);
  const holder = f.legalStructureId ? names[f.legalStructureId] : undefined;
  const owners = f.otherOwners ?? [];
  const none = t("assetDetail.value.empty");

  return (
    <Card
      title={t("assetDetail.ownership.title")}
      data-testid="section-ownership"
      actions={
        canEdit && (
          <Button size="sm" variant="ghost" icon={<Users size={16} />} onClick={() => setOpen(true)}>
            {t("assetDetail.ownership.edit")}
          </Button>
        )
      }
    >
      <Facts
        testId="ownership"
        facts={[
          { id: "participation", label: t("assetDetail.fields.participation"), value: fmt.percent(f.participation) },
          {
            id: "otherOwners",
            label: t("assetDetail.fields.otherOwners"),
            value:
              owners.length === 0 ? (
                t("assetDetail.ownership.noOtherOwners")
              ) : (
                <ul className={styles.plainList}>
                  {owners.map((o, i) => (
                    <li key={`${o.name}-${i}`}>
                      {o.name} · {fmt.percent(o.percentage)}
                    </li>
                  ))}
                </ul>
              ),
          },
          {
            id: "legalStructure",
            label: t("assetDetail.fields.legalStructureId"),
            value: f.legalStructureId ? (holder ?? t("assetDetail.value.unknownStructure")) : t("assetDetail.ownership.direct"),
          },
          ...(f.legalStructureId
            ? [
                {
                  id: "effectiveShare",
                  label: t("assetDetail.ownership.effectiveShare"),
                  value: fmt.percent(look.sharePercent, { maximumFractionDigits: 4 }),
                },
                {
                  id: "effectiveValue",
                  label: t("assetDetail.ownership.effectiveValue"),
                  value: look.value === undefined ? none : fmt.money(look.value, f.currency),
                },
              ]
            : []),
        ]}
      />
      {look.chain.length > 1 && (
        <p className={styles.muted} data-testid="structure-chain">
          {t("assetDetail.ownership.chain", { chain: look.chain.map((id) => names[id] ?? "?").join(" → ") })}
        </p>
      )}
      {look.cycle && <p className={styles.error}>{t("assetDetail.ownership.cycle")}</p>}
      {look.broken && <p className={styles.muted}>{t("assetDetail.ownership.broken")}</p>}
      <FieldConflicts fields={["participation", "otherOwners", "legalStructureId"]} names={names} />
      {open && <OwnershipDialog onClose={() => setOpen(false)} />}
    </Card>
  );
}

function OwnershipDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { db, asset } = useAssetDetail();
  const f = asset.fields;
  const toPatch = useCallback(
    (v: OwnershipValues) => ({
      participation: v.participation,
      otherOwners: v.otherOwners.length === 0 ? null : v.otherOwners.map((o) => ({ name: o.name.trim(), percentage: o.percentage })),
    }),
    [],
  );
  const form = useAssetPatchForm<OwnershipValues>({
    asset,
    defaultValues: { participation: f.participation, otherOwners: (f.otherOwners ?? []).map((o) => ({ ...o })) },
    toPatch,
  });
  const owners = useFieldArray({ control: form.control, name: "otherOwners" });
  const participation = form.watch("participation");
  const watched = form.watch("otherOwners");

  return (
    <Dialog
      dirty={form.formState.isDirty}
      open
      size="md"
      onOpenChange={(o) => !o && onClose()}
      title={t("assetDetail.ownership.dialogTitle")}
      description={t("assetDetail.ownership.dialogDescription")}
      data-testid="ownership-dialog"
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t("common.cancel")}</Button>
          </DialogClose>
          <Button variant="primary" type="submit" form="asset-ownership-form" loading={form.formState.isSubmitting}>
            {t("assetDetail.save")}
          </Button>
        </>
      }
    >
      <form id="asset-ownership-form" className={formStyles.form} noValidate onSubmit={form.save(db, onClose)}>
        <Field label={t("assetDetail.ownership.yourParticipation")} error={form.errorText("participation")} required>
          <Controller control={form.control} name="participation" render={({ field }) => <PercentInput {...field} />} />
        </Field>
        <fieldset className={styles.fieldset}>
          <legend>{t("assetDetail.fields.otherOwners")}</legend>
          {owners.fields.length === 0 && <p className={styles.muted}>{t("assetDetail.ownership.noOtherOwners")}</p>}
          {owners.fields.map((row, i) => (
            <div key={row.id} className={styles.ownerRow} data-testid="owner-row">
              <Field label={t("assetDetail.ownership.ownerName", { n: i + 1 })} error={form.errorText(`otherOwners.${i}.name`)} required>
                <TextInput {...form.register(`otherOwners.${i}.name`)} autoComplete="off" />
              </Field>
              <Field label={t("assetDetail.ownership.ownerPercentage", { n: i + 1 })} error={form.errorText(`otherOwners.${i}.percentage`)} required>
                <Controller control={form.control} name={`otherOwners.${i}.percentage`} render={({ field }) => <PercentInput {...field} />} />
              </Field>
              <IconButton
                label={t("assetDetail.ownership.removeOwner", { n: i + 1 })}
                icon={<Trash2 size={16} />}
                variant="ghost"
                onClick={() => {
                  owners.remove(i);
                  void form.trigger();
                }}
              />
            </div>
          ))}
          {owners.fields.length < OTHER_OWNERS_MAX && (
            <Button size="sm" variant="secondary" icon={<Plus size={16} />} onClick={() => owners.append({ name: "", percentage: "" })}>
              {t("assetDetail.ownership.addOwner")}
            </Button>
          )}
        </fieldset>
        <SumMessage participation={participation} owners={watched} />
        <IssueList issues={form.otherIssues} />
      </form>
    </Dialog>
  );
}
