// Personal identity (online-only, onboarding form). Field names are the spec's snake_case; every
// field is required and its Spanish message is the spec's exact text.
import * as z from "zod";
import { GENDERS } from "./enums";
import { country, date, doc, REQUIRED_KEY, text } from "./primitives";
import { fail, whenValid } from "./rules";

export const personalIdentityShape = {
  // Names at most 256 characters (spec §5).
  first_name: doc(text({ min: 1, max: 256, requiredKey: "validation.personalIdentity.firstNameRequired" }), "First name."),
  last_name: doc(text({ min: 1, max: 256, requiredKey: "validation.personalIdentity.lastNameRequired" }), "Last name(s)."),
  birthday: doc(date().meta({ [REQUIRED_KEY]: "validation.personalIdentity.birthdayRequired" }), "Date of birth (YYYY-MM-DD)."),
  gender: doc(z.enum(GENDERS).meta({ [REQUIRED_KEY]: "validation.personalIdentity.genderRequired" }), "Gender."),
  country: doc(
    country().meta({ [REQUIRED_KEY]: "validation.personalIdentity.countryRequired" }),
    "Country of residence (ISO 3166-1 alpha-2).",
  ),
  state: doc(text({ min: 1, max: 100, requiredKey: "validation.personalIdentity.stateRequired" }), "State or province of residence."),
};

/**
 * The latest calendar date anywhere on Earth now (UTC+14): a birthday after it is in the future for
 * everybody. The Go side (rules.go birthdayNotInFuture) uses the same bound.
 */
export function latestToday(now: Date = new Date()): string {
  return new Date(now.getTime() + 14 * 3600_000).toISOString().slice(0, 10);
}

export const personalIdentitySchema = doc(
  z.strictObject(personalIdentityShape).superRefine((identity, ctx) => {
    if (identity.birthday > latestToday()) fail(ctx, ["birthday"], "validation.personalIdentity.birthdayFuture");
  }, whenValid),
  "Personal identity",
);
export type PersonalIdentity = z.infer<typeof personalIdentitySchema>;
