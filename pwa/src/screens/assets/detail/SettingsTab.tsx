// The settings tab (editors and owners only): rename, change the category within the class
// (admin-added categories included), move into or out of a legal structure, and the currency. Each
// form validates the asset as it would be saved with the shared schema as the user types.
import { CURRENCY_CODES, type AssetCategory } from "@patrimonio/shared-schema";
import { useCallback } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useAssetLabels } from "../../../assets/useAssetLabels";
import formStyles from "../../../forms/form.module.css";
import { useLanguage } from "../../../i18n/useLanguage";
import { notify } from "../../../toast/toast";
import { Button } from "../../../ui/Button";
import { Card } from "../../../ui/Card";
import { currencyName } from "../../../ui/currency";
import { Field } from "../../../ui/Field";
import { NativeSelect } from "../../../ui/NativeSelect";
import { TextInput } from "../../../ui/TextInput";
import { useAssetPatchForm } from "./assetForm";
import { useAssetDetail } from "./context";
import { useStructures } from "./data";
import styles from "./detail.module.css";
import { FieldConflicts } from "./FieldConflicts";
import { IssueList } from "./IssueList";

export function SettingsTab() {
  return (
    <div className={styles.sections} data-testid="asset-settings">
      <RenameCard />
      <CategoryCard />
      <StructureCard />
      <CurrencyCard />
    </div>
  );
}

function useSaved() {
  const { t } = useTranslation();
  return useCallback(() => notify("success", t("assetDetail.settings.saved")), [t]);
}

function RenameCard() {
  const { t } = useTranslation();
  const { db, asset } = useAssetDetail();
  const saved = useSaved();
  const toPatch = useCallback((v: { name: string }) => ({ name: v.name.trim() }), []);
  const form = useAssetPatchForm({ asset, defaultValues: { name: asset.fields.name }, toPatch });
  return (
    <Card title={t("assetDetail.settings.rename.title")} data-testid="settings-rename">
      <form
        className={formStyles.inline}
        noValidate
        onSubmit={form.save(db, (written) => {
          if (written) saved();
        })}
      >
        <Field label={t("assetDetail.fields.name")} error={form.errorText("name")} required>
          <TextInput {...form.register("name")} autoComplete="off" />
        </Field>
        <Button type="submit" variant="primary" loading={form.formState.isSubmitting}>
          {t("assetDetail.settings.rename.submit")}
        </Button>
      </form>
      <IssueList issues={form.otherIssues} />
      <FieldConflicts fields={["name"]} />
    </Card>
  );
}

function CategoryCard() {
  const { t } = useTranslation();
  const { db, asset } = useAssetDetail();
  const labels = useAssetLabels();
  const saved = useSaved();
  const f = asset.fields;
  const toPatch = useCallback(
    (v: { category: string; customCategory: string }) => ({
      category: v.category as AssetCategory,
      customCategory: v.category === "custom" && v.customCategory.trim() !== "" ? v.customCategory.trim() : null,
    }),
    [],
  );
  const form = useAssetPatchForm({ asset, defaultValues: { category: f.category, customCategory: f.customCategory ?? "" }, toPatch });
  const options = labels.categoriesOf(f.assetClass, { includeCustom: true });
  // The current category stays offered even when an admin has deactivated it since.
  const all = options.some((o) => o.code === f.category)
    ? options
    : [{ code: f.category, label: labels.categoryLabel(f.category, undefined, f.assetClass) }, ...options];
  const category = form.watch("category");
  return (
    <Card
      title={t("assetDetail.settings.category.title")}
      description={t("assetDetail.settings.category.description", { class: labels.classLabel(f.assetClass) })}
      data-testid="settings-category"
    >
      <form
        className={formStyles.form}
        noValidate
        onSubmit={form.save(db, (written) => {
          if (written) saved();
        })}
      >
        <div className={formStyles.grid}>
          <Field label={t("assetDetail.fields.category")} error={form.errorText("category")} required>
            <NativeSelect {...form.register("category", { onChange: () => void form.trigger("customCategory") })}>
              {all.map((o) => (
                <option key={o.code} value={o.code}>
                  {o.label}
                </option>
              ))}
            </NativeSelect>
          </Field>
          {category === "custom" && (
            <Field label={t("assetDetail.fields.customCategory")} error={form.errorText("customCategory")} required>
              <TextInput {...form.register("customCategory")} autoComplete="off" />
            </Field>
          )}
        </div>
        <div className={formStyles.actions}>
          <Button type="submit" variant="primary" loading={form.formState.isSubmitting}>
            {t("assetDetail.settings.category.submit")}
          </Button>
        </div>
      </form>
      <IssueList issues={form.otherIssues} />
      <FieldConflicts fields={["category", "customCategory"]} />
    </Card>
  );
}

function StructureCard() {
  const { t } = useTranslation();
  const { db, asset } = useAssetDetail();
  const structures = useStructures(asset.workspaceId);
  const saved = useSaved();
  const toPatch = useCallback((v: { legalStructureId: string }) => ({ legalStructureId: v.legalStructureId === "" ? null : v.legalStructureId }), []);
  const form = useAssetPatchForm({ asset, defaultValues: { legalStructureId: asset.fields.legalStructureId ?? "" }, toPatch });
  const names = Object.fromEntries((structures ?? []).map((s) => [s.id, s.fields.name]));
  const sorted = [...(structures ?? [])].sort((a, b) => a.fields.name.localeCompare(b.fields.name));
  return (
    <Card title={t("assetDetail.settings.structure.title")} description={t("assetDetail.settings.structure.description")} data-testid="settings-structure">
      <form
        className={formStyles.inline}
        noValidate
        onSubmit={form.save(db, (written) => {
          if (written) saved();
        })}
      >
        <Field label={t("assetDetail.fields.legalStructureId")} error={form.errorText("legalStructureId")}>
          {/* Controlled: the structures arrive after the first render, and the stored one must show
              once its option exists (an uncontrolled select would fall back to "direct"). */}
          <Controller
            name="legalStructureId"
            control={form.control}
            render={({ field: f }) => (
              <NativeSelect
                ref={f.ref}
                name={f.name}
                value={f.value}
                onChange={(event) => f.onChange(event.target.value)}
                onBlur={f.onBlur}
                // The chosen structure's whole name, wrapping (a phone cut the select's one line).
                shown={f.value === "" ? t("assetDetail.ownership.direct") : names[f.value]}
                data-testid="settings-legalStructureId"
              >
                <option value="">{t("assetDetail.ownership.direct")}</option>
                {sorted.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.fields.name}
                  </option>
                ))}
              </NativeSelect>
            )}
          />
        </Field>
        <Button type="submit" variant="primary" loading={form.formState.isSubmitting}>
          {t("assetDetail.settings.structure.submit")}
        </Button>
      </form>
      {structures !== undefined && structures.length === 0 && <p className={styles.muted}>{t("assetDetail.settings.structure.none")}</p>}
      <IssueList issues={form.otherIssues} />
      <FieldConflicts fields={["legalStructureId"]} names={names} />
    </Card>
  );
}

function CurrencyCard() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { db, asset } = useAssetDetail();
  const saved = useSaved();
  const toPatch = useCallback((v: { currency: string }) => ({ currency: v.currency }), []);
  const form = useAssetPatchForm({ asset, defaultValues: { currency: asset.fields.currency }, toPatch });
  const codes = [...CURRENCY_CODES].sort((a, b) => currencyName(a, language).localeCompare(currencyName(b, language), language));
  return (
    <Card title={t("assetDetail.settings.currency.title")} description={t("assetDetail.settings.currency.description")} data-testid="settings-currency">
      <form
        className={formStyles.inline}
        noValidate
        onSubmit={form.save(db, (written) => {
          if (written) saved();
        })}
      >
        <Field label={t("assetDetail.fields.currency")} error={form.errorText("currency")} required>
          <NativeSelect {...form.register("currency")}>
            {codes.map((c) => (
              <option key={c} value={c}>
                {`${currencyName(c, language)} (${c})`}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Button type="submit" variant="primary" loading={form.formState.isSubmitting}>
          {t("assetDetail.settings.currency.submit")}
        </Button>
      </form>
      <IssueList issues={form.otherIssues} />
      <FieldConflicts fields={["currency"]} />
    </Card>
  );
}
