// The personal identity form (spec): first name, last name, date of birth, gender, country of
// residence and state/province, all required. Used by onboarding and by the profile. Validated by
// the shared schema's personalIdentitySchema (the server validates PATCH /users/ with the same).
import { personalIdentitySchema } from "@patrimonio/shared-schema";
import { useEffect, useMemo } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useEnumOptions } from "../api/enums";
import type { PersonalIdentityInput } from "../api/types";
import { useLanguage } from "../i18n/useLanguage";
import { Button } from "../ui/Button";
import { Combobox } from "../ui/Combobox";
import { DateInput } from "../ui/DateInput";
import { Field } from "../ui/Field";
import { RadioGroup } from "../ui/RadioGroup";
import { foldText } from "../ui/search";
import { TextInput } from "../ui/TextInput";
import styles from "./form.module.css";
import { FormError } from "./FormError";
import { countryOptions, genderOptions, trimmed } from "./personalIdentity";
import { useSchemaForm } from "./schemaForm";

interface PersonalInfoFormProps {
  defaultValues: PersonalIdentityInput;
  submitLabel: string;
  /** Saves the (validated, trimmed) values; a rejection is shown on its fields or above the button. */
  onSubmit: (values: PersonalIdentityInput) => Promise<unknown>;
}

/**
 * The provinces (ISO 3166-2 subdivisions a person picks) of a country, from the device's cache of
 * enumerations (works offline after a first online visit); the value stored is the province's name
 * (personalIdentity.state is free text). Empty, or outside a signed-in screen, when none are known:
 * the field is then typed.
 */
function useProvinces(country: string): { value: string; label: string; hint?: string }[] | undefined {
  const countries = useEnumOptions(country ? "country" : undefined);
  const countryId = countries?.find((c) => c.value === country)?.id;
  const provinces = useEnumOptions(countryId ? "state" : undefined, countryId, { leavesOnly: true });
  return useMemo(() => provinces?.map((o) => ({ value: o.label, label: o.label, hint: o.code })), [provinces]);
}

export function PersonalInfoForm({ defaultValues, submitLabel, onSubmit }: PersonalInfoFormProps) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const form = useSchemaForm<typeof personalIdentitySchema, PersonalIdentityInput>(personalIdentitySchema, { defaultValues, prepare: trimmed });
  const countries = useMemo(() => countryOptions(language), [language]);
  const genders = useMemo(() => genderOptions(language), [language]);
  const { control, register, errorText } = form;
  const provinces = useProvinces(form.watch("country"));
  // The province is typed until the device has the country's list, then picked. Text typed before
  // the list arrived is kept: written the list's way when it names one of its provinces ("madrid"
  // becomes "Madrid"), else left as typed for the picker to show and the person to correct.
  useEffect(() => {
    if (!provinces || provinces.length === 0) return;
    const typed = form.getValues("state");
    if (!typed || provinces.some((o) => o.value === typed)) return;
    const match = provinces.find((o) => foldText(o.label) === foldText(typed.trim()));
    if (match) form.setValue("state", match.value, { shouldDirty: true });
  }, [provinces, form]);

  return (
    <form className={styles.form} noValidate data-testid="personal-info-form" onSubmit={form.submit(onSubmit)}>
      <div className={styles.grid}>
        <Field label={t("personalInfo.firstName")} error={errorText("first_name")} required>
          <TextInput autoComplete="given-name" {...register("first_name")} />
        </Field>
        <Field label={t("personalInfo.lastName")} error={errorText("last_name")} required>
          <TextInput autoComplete="family-name" {...register("last_name")} />
        </Field>
        <Field label={t("personalInfo.birthday")} error={errorText("birthday")} required>
          <Controller name="birthday" control={control} render={({ field }) => <DateInput autoComplete="bday" {...field} />} />
        </Field>
        <Field label={t("personalInfo.gender")} error={errorText("gender")} required group>
          <Controller name="gender" control={control} render={({ field }) => <RadioGroup orientation="horizontal" options={genders} {...field} />} />
        </Field>
        <Field label={t("personalInfo.country")} error={errorText("country")} required>
          <Controller
            name="country"
            control={control}
            render={({ field }) => <Combobox options={countries} placeholder={t("personalInfo.choose")} {...field} />}
          />
        </Field>
        <Field label={t("personalInfo.state")} error={errorText("state")} required>
          {provinces && provinces.length > 0 ? (
            <Controller
              name="state"
              control={control}
              render={({ field }) => <Combobox options={provinces} placeholder={t("personalInfo.choose")} {...field} />}
            />
          ) : (
            <TextInput autoComplete="address-level1" {...register("state")} />
          )}
        </Field>
      </div>
      <FormError form={form} />
      <div className={styles.actions}>
        <Button type="submit" variant="primary" loading={form.formState.isSubmitting} loadingText={t("common.saving")}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
