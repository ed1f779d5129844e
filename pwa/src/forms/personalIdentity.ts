// The personal identity form's validation: the shared schema (@patrimonio/shared-schema, the same
// rules the server applies), its issues turned into react-hook-form errors. An error keeps the
// message key, not the text, so it is shown in whatever language is active when it renders.
import {
  COUNTRY_CODES,
  GENDERS,
  personalIdentitySchema,
  translate,
  validateWith,
  type IssueParams,
} from "@patrimonio/shared-schema";
import type { FieldError, FieldErrors, Resolver } from "react-hook-form";
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

interface EncodedMessage {
  key: string;
  params: IssueParams;
}

/** react-hook-form resolver over the shared schema. */
export const personalIdentityResolver: Resolver<PersonalIdentityInput> = async (values) => {
  const input = trimmed(values);
  const result = validateWith(personalIdentitySchema, input);
  if (result.ok) return { values: input, errors: {} };
  const errors: FieldErrors<PersonalIdentityInput> = {};
  for (const issue of result.issues) {
    const field = issue.path.split(".")[0] as PersonalIdentityField;
    if (!PERSONAL_IDENTITY_FIELDS.includes(field) || errors[field]) continue;
    const encoded: EncodedMessage = { key: issue.key, params: issue.params };
    errors[field] = { type: "schema", message: JSON.stringify(encoded) };
  }
  return { values: {}, errors };
};

/** The text of a field error made by personalIdentityResolver, in `language`. */
export function fieldErrorText(error: FieldError | undefined, language: Language): string | undefined {
  if (!error?.message) return undefined;
  if (error.type !== "schema") return error.message;
  try {
    const { key, params } = JSON.parse(error.message) as EncodedMessage;
    return translate(language, key, params);
  } catch {
    return error.message;
  }
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
