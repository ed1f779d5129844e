// The personal identity form's values and choices. Its validation is the shared schema's
// personalIdentitySchema (the same rules the server applies), through useSchemaForm.
import { COUNTRY_CODES, GENDERS, translate } from "@patrimonio/shared-schema";
import type { PersonalIdentityInput, User } from "../api/types";
import type { Language } from "../i18n/i18n";

export const PERSONAL_IDENTITY_FIELDS = ["first_name", "last_name", "birthday", "gender", "country", "state"] as const;
export type PersonalIdentityField = (typeof PERSONAL_IDENTITY_FIELDS)[number];

export const EMPTY_PERSONAL_IDENTITY: PersonalIdentityInput = {
  first_name: "",
  last_name: "",
  birthday: "",
  gender: "",
  country: "",
  state: "",
};

/** The form's starting values from what the server knows about the user. */
export function personalIdentityFromUser(user: User | undefined): PersonalIdentityInput {
  if (!user) return EMPTY_PERSONAL_IDENTITY;
  return {
    first_name: user.firstName ?? "",
    last_name: user.lastName ?? "",
    birthday: user.birthday ?? "",
    gender: user.gender ?? "",
    country: user.country ?? "",
    state: user.state ?? "",
  };
}

/** Leading and trailing blanks are never meant: "  " is an empty name. */
export function trimmed(values: PersonalIdentityInput): PersonalIdentityInput {
  const out = { ...values };
  for (const field of PERSONAL_IDENTITY_FIELDS) out[field] = String(values[field] ?? "").trim();
  return out;
}

/** Gender choices with their labels (the shared schema's label list). */
export function genderOptions(language: Language): { value: string; label: string }[] {
  return GENDERS.map((value) => ({ value, label: translate(language, `labels.gender.${value}`) }));
}

/** Every ISO 3166-1 country, named in `language`, in that language's alphabetical order. */
export function countryOptions(language: Language): { value: string; label: string }[] {
  const names = new Intl.DisplayNames([language], { type: "region", fallback: "code" });
  const collator = new Intl.Collator(language);
  return COUNTRY_CODES.map((value) => ({ value, label: names.of(value) ?? value })).sort((a, b) => collator.compare(a.label, b.label));
}
