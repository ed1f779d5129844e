// The tax location fields of an asset form (the add flow's and the asset detail's kind dialog):
// "no tax registration", or the country (a picker), the province (from the country's cached
// enumerations when it has them, offline after a first visit; else typed) and the city.
import { useMemo } from "react";
import { Controller, useWatch, type Control, type UseFormRegister } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useEnumOptions } from "../../../api/enums";
import { countryOptions } from "../../../forms/personalIdentity";
import { useLanguage } from "../../../i18n/useLanguage";
import { Checkbox } from "../../../ui/Checkbox";
import { Combobox } from "../../../ui/Combobox";
import { Field } from "../../../ui/Field";
import { TextInput } from "../../../ui/TextInput";
import styles from "./AddAsset.module.css";
import type { AssetFormValues } from "./assetForm";
import { asText } from "./FieldControl";

/** The provinces of a country from the device's enumeration cache (offline after a first visit);
 * undefined or empty: the field is typed. The stored value is the province's name. */
function useProvinces(country: string) {
  const countries = useEnumOptions(country ? "country" : undefined);
  const countryId = countries?.find((c) => c.value === country)?.id;
  const provinces = useEnumOptions(countryId ? "state" : undefined, countryId, { leavesOnly: true });
  return useMemo(() => provinces?.map((o) => ({ value: o.label, label: o.label, hint: o.code })), [provinces]);
}

export interface TaxLocationFieldsProps {
  control: Control<AssetFormValues>;
  register: UseFormRegister<AssetFormValues>;
  errorText: (name: string) => string | undefined;
  /** The kind requires a tax country (unless "no tax registration"). */
  countryRequired: boolean;
}

export function TaxLocationFields({ control, register, errorText, countryRequired }: TaxLocationFieldsProps) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const noTaxRegistration = useWatch({ control, name: "taxLocation.noTaxRegistration" }) === true;
  const country = asText(useWatch({ control, name: "taxLocation.country" }));
  const provinces = useProvinces(country);
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
            {provinces && provinces.length > 0 ? (
              <Controller
                name="taxLocation.state"
                control={control}
                render={({ field: f }) => <Combobox {...f} value={asText(f.value)} options={provinces} placeholder={t("assetAdd.choose")} data-testid="field-state" />}
              />
            ) : (
              <TextInput {...register("taxLocation.state")} autoComplete="address-level1" data-testid="field-state" />
            )}
          </Field>
          <Field label={t("assetAdd.fields.city")} error={errorText("taxLocation.city")}>
            <TextInput {...register("taxLocation.city")} autoComplete="address-level2" data-testid="field-city" />
          </Field>
        </>
      )}
    </>
  );
}
