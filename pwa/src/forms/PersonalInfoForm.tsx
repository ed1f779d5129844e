// The personal identity form (spec): first name, last name, date of birth, gender, country of
// residence and state/province, all required. Used by onboarding and by the profile. Validated by
// the shared schema's personalIdentitySchema (the server validates PATCH /users/ with the same).
// Leaving it with changes asks first (LeaveGuard); once saved it holds no changes, so the screen may
// move on (onboarding's next step navigates with ignoreBlocker, before the form knows it was saved).
import { personalIdentitySchema } from "@patrimonio/shared-schema";
import { useMemo } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { PersonalIdentityInput } from "../api/types";
import { useLanguage } from "../i18n/useLanguage";
import { Button } from "../ui/Button";
import { Combobox } from "../ui/Combobox";
import { DateInput } from "../ui/DateInput";
import { Field } from "../ui/Field";
import { RadioGroup } from "../ui/RadioGroup";
import { TextInput } from "../ui/TextInput";
import styles from "./form.module.css";
import { LeaveGuard } from "../ui/LeaveGuard";
import { FormError } from "./FormError";
import { countryOptions, genderOptions, trimmed } from "./personalIdentity";
import { useSchemaForm } from "./schemaForm";
import { SubdivisionInput } from "./SubdivisionInput";

interface PersonalInfoFormProps {
  defaultValues: PersonalIdentityInput;
  submitLabel: string;
  /** Saves the (validated, trimmed) values; a rejection is shown on its fields or above the button. */
  onSubmit: (values: PersonalIdentityInput) => Promise<unknown>;
}

export function PersonalInfoForm({ defaultValues, submitLabel, onSubmit }: PersonalInfoFormProps) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const form = useSchemaForm<typeof personalIdentitySchema, PersonalIdentityInput>(personalIdentitySchema, { defaultValues, prepare: trimmed });
  const countries = useMemo(() => countryOptions(language), [language]);
  const genders = useMemo(() => genderOptions(language), [language]);
  const { control, register, errorText } = form;
  const country = form.watch("country");
  // What was saved is the form's new starting point: no changes left to ask about.
  const save = form.submit(async (values: PersonalIdentityInput) => {
    await onSubmit(values);
    form.reset(values);
  });

  return (
    <form className={styles.form} noValidate data-testid="personal-info-form" onSubmit={save}>
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
          {/* Picked from the country's list when the device has it (stored as the code, "ES-PM"),
              else typed; a name typed before the list arrived (or stored before codes) becomes the
              code of the province it names, in either language ("cordoba" → ES-CO). */}
          <Controller
            name="state"
            control={control}
            render={({ field }) => (
              <SubdivisionInput
                {...field}
                country={country}
                placeholder={t("personalInfo.choose")}
                // A stored name matched to its code is not a change of the user's (nothing to ask on leaving).
                onNormalize={(code) => form.resetField("state", { defaultValue: code })}
              />
            )}
          />
        </Field>
      </div>
      <FormError form={form} />
      <div className={styles.actions}>
        <Button type="submit" variant="primary" loading={form.formState.isSubmitting} loadingText={t("common.saving")}>
          {submitLabel}
        </Button>
      </div>
      <LeaveGuard when={form.formState.isDirty} />
    </form>
  );
}
