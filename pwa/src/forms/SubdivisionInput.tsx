// The province (state) field of a form: picked from the country's subdivisions when the device's
// enumeration cache knows them (the value is the code, "ES-PM"; see subdivisions.ts), else typed.
// A name already in the field (a record written before codes, or text typed before the list
// arrived) becomes the code of the subdivision it names, in either language.
import { useEffect, useMemo, type Ref } from "react";
import { useEnumsRefresh } from "../api/enums";
import { useLanguage } from "../i18n/useLanguage";
import { Combobox } from "../ui/Combobox";
import { TextInput } from "../ui/TextInput";
import { subdivisionCode, subdivisionOptions, useSubdivisions } from "./subdivisions";

export interface SubdivisionInputProps {
  /** The country's ISO code ("" when none is chosen: typed). */
  country: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  name?: string;
  ref?: Ref<HTMLInputElement>;
  placeholder?: string;
  "data-testid"?: string;
  /** Takes the code a stored name was matched to (a record written before codes). Without it the
   * code goes to onChange, which makes the form dirty; an edit form passes its resetField here, so
   * that opening it and leaving is not a change (the code is saved with the next real save). */
  onNormalize?: (code: string) => void;
}

export function SubdivisionInput({ country, value, onChange, onBlur, name, ref, placeholder, onNormalize, ...rest }: SubdivisionInputProps) {
  useEnumsRefresh();
  const { language } = useLanguage();
  const index = useSubdivisions();
  const options = useMemo(() => subdivisionOptions(index, country, language), [index, country, language]);
  useEffect(() => {
    if (!options || !value || options.some((o) => o.value === value)) return;
    const code = subdivisionCode(index, country, value);
    if (code && code !== value) (onNormalize ?? onChange)(code);
  }, [options, index, country, value, onChange, onNormalize]);

  if (options) {
    return (
      <Combobox
        ref={ref}
        {...(name === undefined ? {} : { name })}
        value={value}
        onChange={onChange}
        {...(onBlur ? { onBlur } : {})}
        options={options}
        {...(placeholder === undefined ? {} : { placeholder })}
        data-testid={rest["data-testid"]}
      />
    );
  }
  return (
    <TextInput
      ref={ref}
      name={name}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onBlur={onBlur}
      autoComplete="address-level1"
      data-testid={rest["data-testid"]}
    />
  );
}
