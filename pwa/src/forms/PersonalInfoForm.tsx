// The personal identity form (spec): first name, last name, date of birth, gender, country of
// residence and state/province, all required. Used by onboarding and by the profile.
import { useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { ApiError } from "../api/client";
import type { PersonalIdentityInput } from "../api/types";
import { useErrorText } from "../api/useErrorText";
import { useLanguage } from "../i18n/useLanguage";
import { FormAlert, SelectInput, TextField } from "./fields";
import {
  countryOptions,
  fieldErrorText,
  genderOptions,
  PERSONAL_IDENTITY_FIELDS,
  personalIdentityResolver,
  type PersonalIdentityField,
} from "./personalIdentity";

interface PersonalInfoFormProps {
  defaultValues: PersonalIdentityInput;
  submitLabel: string;
  /** Saves the (validated, trimmed) values; a rejection is shown above the buttons. */
  onSubmit: (values: PersonalIdentityInput) => Promise<unknown>;
}

function isField(path: string): path is PersonalIdentityField {
  return (PERSONAL_IDENTITY_FIELDS as readonly string[]).includes(path);
}

function today(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export function PersonalInfoForm({ defaultValues, submitLabel, onSubmit }: PersonalInfoFormProps) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const errorText = useErrorText();
  const [serverError, setServerError] = useState<unknown>(null);
  const [maxDate] = useState(today);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PersonalIdentityInput>({ defaultValues, resolver: personalIdentityResolver });
  const countries = useMemo(() => countryOptions(language), [language]);
  const genders = useMemo(() => genderOptions(language), [language]);
  const err = (field: keyof PersonalIdentityInput) => fieldErrorText(errors[field], language);

  return (
    <form
      className="form"
      noValidate
      data-testid="personal-info-form"
      onSubmit={handleSubmit(async (values) => {
        setServerError(null);
        try {
          await onSubmit(values);
        } catch (error) {
          // Fields the server refused are shown on the fields (its messages are already translated).
          const onFields = error instanceof ApiError ? error.fields.filter((f) => isField(f.path)) : [];
          for (const field of onFields) setError(field.path as PersonalIdentityField, { type: "server", message: field.message });
          setServerError(error);
        }
      })}
    >
      <div className="form-grid">
        <TextField label={t("personalInfo.firstName")} autoComplete="given-name" error={err("first_name")} {...register("first_name")} />
        <TextField label={t("personalInfo.lastName")} autoComplete="family-name" error={err("last_name")} {...register("last_name")} />
        <TextField
          label={t("personalInfo.birthday")}
          type="date"
          autoComplete="bday"
          min="1900-01-01"
          max={maxDate}
          error={err("birthday")}
          {...register("birthday")}
        />
        <SelectInput label={t("personalInfo.gender")} autoComplete="sex" error={err("gender")} {...register("gender")}>
          <option value="">{t("personalInfo.choose")}</option>
          {genders.map((g) => (
            <option key={g.value} value={g.value}>
              {g.label}
            </option>
          ))}
        </SelectInput>
        <SelectInput label={t("personalInfo.country")} autoComplete="country" error={err("country")} {...register("country")}>
          <option value="">{t("personalInfo.choose")}</option>
          {countries.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </SelectInput>
        <TextField label={t("personalInfo.state")} autoComplete="address-level1" error={err("state")} {...register("state")} />
      </div>
      {serverError != null && <FormAlert>{errorText(serverError)}</FormAlert>}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={isSubmitting}>
          {isSubmitting ? t("common.saving") : submitLabel}
        </button>
      </div>
    </form>
  );
}
