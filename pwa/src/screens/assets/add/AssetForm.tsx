// Step 3 of adding an asset: the form of the chosen kind, drawn from its field catalogue
// (catalogue.ts) in sections: basics, the kind's characteristics, value, ownership (your share, the
// other owners, the legal structure that holds it, with the live "how much is left" line), tax
// location (country → its provinces from the cached enumerations), risk and liquidity, and an
// optional first associated debt. Validated as one types by the shared asset schema
// (assetForm.ts); saved with clientdb's createAsset: the asset, its first valuation and the debt in
// one transaction and one sync batch.
import { createAsset, useClientDb } from "@patrimonio/clientdb";
import { HOLDING_TYPES } from "@patrimonio/shared-schema";
import { Plus, Trash2 } from "lucide-react";
import { useMemo } from "react";
import { Controller, useFieldArray, useWatch, type Path } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useLegalStructures } from "../../../assets/hooks";
import { FormError } from "../../../forms/FormError";
import { encodeMessage, translateKey, useSchemaForm } from "../../../forms/schemaForm";
import { useLanguage } from "../../../i18n/useLanguage";
import { Button, IconButton } from "../../../ui/Button";
import { Card } from "../../../ui/Card";
import { Combobox } from "../../../ui/Combobox";
import { CURRENCY_CODES, currencyName } from "../../../ui/currency";
import { Field } from "../../../ui/Field";
import { MoneyInput } from "../../../ui/MoneyInput";
import { NativeSelect } from "../../../ui/NativeSelect";
import { PercentInput } from "../../../ui/DecimalInput";
import { LeaveGuard } from "../../../ui/LeaveGuard";
import { TextInput } from "../../../ui/TextInput";
import styles from "./AddAsset.module.css";
import { assetFormSchema, COMMON, emptyValues, ownershipMessage, toAssetInput, type AssetFormValues, type OwnerRow } from "./assetForm";
import { CATALOGUE, requiredFields, type FieldSpec } from "./catalogue";
import { asText, FieldControl, useListLabel } from "./FieldControl";
import { TaxLocationFields } from "./TaxLocationFields";
import type { AssetTargetChoice } from "./flow";

export interface AssetFormProps {
  target: AssetTargetChoice;
  workspaceId: string;
  /** Preselected legal structure (?structureId=, from a structure's "add asset"). */
  structureId?: string | undefined;
  onCreated: (id: string, name: string) => void;
  onCancel: () => void;
}

/** createAsset's issue paths → the form's fields. */
function formPath(path: string): string {
  if (path.startsWith("debts.0.")) {
    const rest = path.slice("debts.0.".length);
    return rest === "amountOutstanding" ? "debt.amount" : rest === "creditorName" ? "debt.creditorName" : "debt.amount";
  }
  if (path === "valuation.value") return "currentValue";
  if (path === "valuation.date") return "valuationDate";
  return path || "name";
}

export function AssetForm({ target, workspaceId, structureId, onCreated, onCancel }: AssetFormProps) {
  const { t, i18n } = useTranslation();
  const { language } = useLanguage();
  const db = useClientDb();
  const listLabel = useListLabel();
  const { kind, category } = target;
  const schema = useMemo(() => assetFormSchema(kind, category), [kind, category]);
  const form = useSchemaForm<typeof schema, AssetFormValues>(schema, {
    defaultValues: emptyValues(kind, structureId ? { legalStructureId: structureId } : {}),
    prepare: (values) => toAssetInput(values, target),
    mode: "onTouched",
  });
  const { control, register } = form;
  const errorText = (name: string) => form.errorText(name as Path<AssetFormValues>);
  const required = useMemo(() => new Set(requiredFields(kind, category)), [kind, category]);
  const currency = asText(useWatch({ control, name: "currency" })) || "EUR";
  const participation = useWatch({ control, name: "participation" });
  const owners = (useWatch({ control, name: "otherOwners" }) as OwnerRow[] | undefined) ?? [];
  const ownerRows = useFieldArray({ control, name: "otherOwners" as never });
  const structures = useLegalStructures();
  const currencies = useMemo(() => CURRENCY_CODES.map((code) => ({ value: code, label: currencyName(code, language), hint: code })), [language]);
  const catalogue = CATALOGUE[kind];

  const sum = ownershipMessage(participation, owners);
  const participationError = errorText("participation");
  const sumText = sum ? translateKey(i18n, { key: sum.key, params: sum.params }) : t("assetAdd.ownership.complete");

  const field = (spec: FieldSpec) => (
    <FieldControl
      key={spec.name}
      spec={spec}
      control={control}
      register={register}
      errorText={errorText}
      required={required.has(spec.name)}
      currency={currency}
    />
  );

  async function save(values: Record<string, unknown>) {
    if (!db) throw new Error(t("assetAdd.loading"));
    const { debt, ...asset } = values as { debt?: { amount: string; creditorName?: string }; name: string } & Record<string, unknown>;
    const debts = debt
      ? [
          {
            name: t("assetAdd.debt.name", { asset: asset.name }).slice(0, 140),
            kind: target.assetClass === "real_estate" ? ("mortgage" as const) : ("loan" as const),
            amountOutstanding: debt.amount,
            ...(debt.creditorName ? { creditorName: debt.creditorName } : {}),
          },
        ]
      : [];
    const result = await createAsset(db, workspaceId, asset as never, { debts });
    if (!result.ok) {
      let first = true;
      for (const issue of result.issues) {
        form.setError(formPath(issue.path) as Path<AssetFormValues>, { type: "server", message: encodeMessage(issue.key, issue.params) }, { shouldFocus: first });
        first = false;
      }
      return;
    }
    onCreated(result.id, asset.name);
  }

  return (
    <form className={styles.form} noValidate onSubmit={form.submit(save)} data-testid="asset-form" data-kind={kind} data-category={category}>
      <Card title={t("assetAdd.sections.identity")}>
        <div className={styles.grid}>
          {field(COMMON.identity[0])}
          {category === "custom" && field(COMMON.identity[1])}
          <Field label={t("assetAdd.fields.currency")} error={errorText("currency")} required>
            <Controller
              name="currency"
              control={control}
              render={({ field: f }) => <Combobox {...f} value={asText(f.value)} options={currencies} data-testid="field-currency" />}
            />
          </Field>
          {field(COMMON.identity[2])}
        </div>
      </Card>

      {catalogue.details.length > 0 && (
        <Card title={t("assetAdd.sections.details")}>
          <div className={styles.grid}>{catalogue.details.map(field)}</div>
        </Card>
      )}

      <Card title={t("assetAdd.sections.value")} description={t("assetAdd.sectionHints.value")}>
        <div className={styles.grid}>{COMMON.value.filter((s) => s.name !== "taxValue" || catalogue.taxValue).map(field)}</div>
      </Card>

      <Card title={t("assetAdd.sections.ownership")} description={t("assetAdd.sectionHints.ownership")}>
        <div className={styles.form}>
          <div className={styles.grid}>
            <Field label={t("assetAdd.fields.participation")} required error={participationError} {...(participationError ? {} : { hint: sumText })}>
              <Controller
                name="participation"
                control={control}
                render={({ field: f }) => <PercentInput {...f} value={asText(f.value)} data-testid="field-participation" />}
              />
            </Field>
            <Field label={t("assetAdd.fields.holdingType")} error={errorText("holdingType")}>
              <NativeSelect {...register("holdingType")} data-testid="field-holdingType">
                <option value="">{t("assetAdd.choose")}</option>
                {HOLDING_TYPES.map((code) => (
                  <option key={code} value={code}>
                    {listLabel("holdingType", code)}
                  </option>
                ))}
              </NativeSelect>
            </Field>
          </div>
          {ownerRows.fields.length > 0 && (
            <ul className={styles.owners} aria-label={t("assetAdd.fields.otherOwners")}>
              {ownerRows.fields.map((row, index) => (
                <li key={row.id} className={styles.owner} data-testid="owner-row">
                  <Field label={t("assetAdd.fields.ownerName", { n: index + 1 })} required error={errorText(`otherOwners.${index}.name`)}>
                    <TextInput {...register(`otherOwners.${index}.name`)} data-testid={`owner-name-${index}`} />
                  </Field>
                  <Field label={t("assetAdd.fields.ownerPercentage", { n: index + 1 })} required error={errorText(`otherOwners.${index}.percentage`)}>
                    <Controller
                      name={`otherOwners.${index}.percentage`}
                      control={control}
                      rules={{ deps: ["participation"] }}
                      render={({ field: f }) => <PercentInput {...f} value={asText(f.value)} data-testid={`owner-percentage-${index}`} />}
                    />
                  </Field>
                  <IconButton label={t("assetAdd.ownership.remove", { n: index + 1 })} icon={<Trash2 size={16} />} onClick={() => ownerRows.remove(index)} />
                </li>
              ))}
            </ul>
          )}
          <div>
            <Button
              type="button"
              variant="secondary"
              icon={<Plus size={16} />}
              onClick={() => ownerRows.append({ name: "", percentage: "" } as never)}
              disabled={ownerRows.fields.length >= 20}
              data-testid="add-owner"
            >
              {t("assetAdd.ownership.add")}
            </Button>
          </div>
          <Field label={t("assetAdd.fields.legalStructure")} error={errorText("legalStructureId")}>
            {/* Controlled: the structures arrive after the first render, and the preselected one
                (?structureId=) must show once its option exists. */}
            <Controller
              name="legalStructureId"
              control={control}
              render={({ field: f }) => (
                <NativeSelect
                  ref={f.ref}
                  name={f.name}
                  value={asText(f.value)}
                  onChange={(event) => f.onChange(event.target.value)}
                  onBlur={f.onBlur}
                  data-testid="field-legalStructureId"
                >
                  <option value="">{t("assetAdd.noStructure")}</option>
                  {(structures ?? []).map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.fields.name}
                    </option>
                  ))}
                </NativeSelect>
              )}
            />
          </Field>
        </div>
      </Card>

      <Card title={t("assetAdd.sections.tax")}>
        <div className={styles.grid}>
          <TaxLocationFields control={control} register={register} errorText={errorText} countryRequired={required.has("taxLocation.country")} />
        </div>
      </Card>

      <Card title={t("assetAdd.sections.options")}>
        <div className={styles.grid}>{COMMON.options.map(field)}</div>
      </Card>

      <Card title={t("assetAdd.sections.debt")} description={t("assetAdd.sectionHints.debt")}>
        <div className={styles.grid}>
          <Field label={t("assetAdd.fields.debtAmount")} error={errorText("debt.amount")}>
            <Controller
              name="debt.amount"
              control={control}
              render={({ field: f }) => <MoneyInput {...f} value={asText(f.value)} currency={currency} data-testid="field-debt-amount" />}
            />
          </Field>
          <Field label={t("assetAdd.fields.creditorName")} error={errorText("debt.creditorName")}>
            <TextInput {...register("debt.creditorName")} data-testid="field-debt-creditor" />
          </Field>
        </div>
      </Card>

      <FormError form={form} />
      <div className={styles.actions}>
        <Button type="button" variant="secondary" onClick={onCancel}>
          {t("assetAdd.cancel")}
        </Button>
        <Button type="submit" variant="primary" loading={form.formState.isSubmitting} loadingText={t("assetAdd.saving")} data-testid="asset-submit" disabled={!db}>
          {t("assetAdd.submit")}
        </Button>
      </div>
      {/* Leaving with changes (a link, Back, closing the tab) asks first; saving and Cancel do not. */}
      <LeaveGuard when={form.formState.isDirty} />
    </form>
  );
}
