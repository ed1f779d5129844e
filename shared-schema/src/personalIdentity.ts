// Personal identity (online-only, onboarding form). Field names are the spec's snake_case; every
// field is required and its Spanish message is the spec's exact text.
import * as z from "zod";
import { GENDERS } from "./enums";
import { country, date, doc, REQUIRED_KEY, text } from "./primitives";

export const personalIdentityShape = {
  first_name: doc(text({ min: 1, max: 100, requiredKey: "validation.personalIdentity.firstNameRequired" }), "First name."),
  last_name: doc(text({ min: 1, max: 100, requiredKey: "validation.personalIdentity.lastNameRequired" }), "Last name(s)."),
  birthday: doc(date().meta({ [REQUIRED_KEY]: "validation.personalIdentity.birthdayRequired" }), "Date of birth (YYYY-MM-DD)."),
  gender: doc(z.enum(GENDERS).meta({ [REQUIRED_KEY]: "validation.personalIdentity.genderRequired" }), "Gender."),
  country: doc(
    country().meta({ [REQUIRED_KEY]: "validation.personalIdentity.countryRequired" }),
    "Country of residence (ISO 3166-1 alpha-2).",
  ),
  state: doc(text({ min: 1, max: 100, requiredKey: "validation.personalIdentity.stateRequired" }), "State or province of residence."),
};

export const personalIdentitySchema = doc(z.strictObject(personalIdentityShape), "Personal identity");
export type PersonalIdentity = z.infer<typeof personalIdentitySchema>;
