// The tax location fields of an asset form (the add flow's and the asset detail's kind dialog):
// "no tax registration", or the country (a picker), the province (from the country's cached
// enumerations when it has them, offline after a first visit, stored as its code; else typed: see
// forms/subdivisions.ts) and the city.
import { useMemo } from "react";
import { Controller, useWatch, type Control, type UseFormRegister, type UseFormResetField } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { countryOptions } from "../../../forms/personalIdentity";
import { SubdivisionInput } from "../../../forms/SubdivisionInput";
import { useLanguage } from "../../../i18n/useLanguage";
import { Checkbox } from "../../../ui/Checkbox";
import { Combobox } from "../../../ui/Combobox";
import { Field } from "../../../ui/Field";
import { TextInput } from "../../../ui/TextInput";
import styles from "./AddAsset.module.css";
import type { AssetFormValues } from "./assetForm";
import { asText } from "./FieldControl";

export interface TaxLocationFieldsProps {
  control: Control<AssetFormValues>;
  register: UseFormRegister<AssetFormValues>;
  errorText: (name: string) => string | undefined;
  /** The kind requires a tax country (unless "no tax registration"). */
  countryRequired: boolean;
  /** An edit form's resetField: a stored province name matched to its code is then not a change. */
  resetField?: UseFormResetField<AssetFormValues>;
}

export function TaxLocationFields({ control, register, errorText, countryRequired, resetField }: TaxLocationFieldsProps) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const noTaxRegistration = useWatch({ control, name: "taxLocation.noTaxRegistration" }) === true;
  const country = asText(useWatch({ control, name: "taxLocation.country" }));
  const countries = useMemo(() => countryOptions(language), [language]);
  return (
    <>
      <Controller
        name="taxLocation.noTaxRegistration"
        control={control}
        render={({ field: f }) => (
          <Checkbox
            label={t("assetAdd.fields.noTaxRegistration")}
            checked={f.value === true}
            onCheckedChange={f.onChange}
            onBlur={f.onBlur}
            className={styles.wide}
            data-testid="field-noTaxRegistration"
          />
        )}
      />
      {!noTaxRegistration && (
        <>
          <Field label={t("assetAdd.fields.country")} error={errorText("taxLocation.country")} required={countryRequired}>
            <Controller
              name="taxLocation.country"
              control={control}
              render={({ field: f }) => (
                <Combobox {...f} value={asText(f.value)} options={countries} placeholder={t("assetAdd.choose")} data-testid="field-country" />
              )}
            />
          </Field>
          <Field label={t("assetAdd.fields.state")} error={errorText("taxLocation.state")}>
            <Controller
              name="taxLocation.state"
              control={control}
              render={({ field: f }) => (
                <SubdivisionInput
                  ref={f.ref}
                  name={f.name}
                  country={country}
                  value={asText(f.value)}
                  onChange={f.onChange}
                  onBlur={f.onBlur}
                  {...(resetField ? { onNormalize: (code: string) => resetField("taxLocation.state", { defaultValue: code as never /* the values are untyped (Record<string, unknown>) */ }) } : {})}
                  placeholder={t("assetAdd.choose")}
                  data-testid="field-state"
                />
              )}
            />
          </Field>
          <Field label={t("assetAdd.fields.city")} error={errorText("taxLocation.city")}>
            <TextInput {...register("taxLocation.city")} autoComplete="address-level2" data-testid="field-city" />
          </Field>
        </>
      )}
    </>
  );
}
