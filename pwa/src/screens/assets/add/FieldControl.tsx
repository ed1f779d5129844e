// One field of the add-asset form, drawn from its catalogue entry (catalogue.ts): the kit's input
// for its type inside a Field with its label, hint, required mark and the schema's error.
import { ENUM_LISTS, PRICE_INTEGER_DIGITS, QUANTITY_INTEGER_DIGITS, type EnumListName } from "@patrimonio/shared-schema";
import { Controller, type Control, type UseFormRegister } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { SCHEMA_NAMESPACE } from "../../../i18n/i18n";
import { Checkbox } from "../../../ui/Checkbox";
import { DateInput } from "../../../ui/DateInput";
import { DecimalInput, PercentInput } from "../../../ui/DecimalInput";
import { Field } from "../../../ui/Field";
import { MoneyInput } from "../../../ui/MoneyInput";
import { NativeSelect } from "../../../ui/NativeSelect";
import { TextArea } from "../../../ui/TextArea";
import { TextInput } from "../../../ui/TextInput";
import styles from "./AddAsset.module.css";
import type { AssetFormValues } from "./assetForm";
import { labelOf, type FieldSpec } from "./catalogue";

/** A form value as the text an input shows. */
export function asText(value: unknown): string {
  return typeof value === "string" ? value : "";
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The label of a code of a shared-schema list ("labels.propertyUse.income"). */
export function useListLabel(): (list: EnumListName, code: string) => string {
  const { t } = useTranslation();
  const tr = t as unknown as Translate;
  return (list, code) => tr(`labels.${list}.${code}`, { ns: SCHEMA_NAMESPACE });
}

export interface FieldControlProps {
  spec: FieldSpec;
  control: Control<AssetFormValues>;
  register: UseFormRegister<AssetFormValues>;
  errorText: (name: string) => string | undefined;
  required: boolean;
  currency: string;
  disabled?: boolean;
}

export function FieldControl({ spec, control, register, errorText, required, currency, disabled }: FieldControlProps) {
  const { t } = useTranslation();
  const tr = t as unknown as Translate;
  const listLabel = useListLabel();
  const label = labelOf(spec);
  const text = tr(`assetAdd.fields.${label}`);
  const hint = spec.hint ? tr(`assetAdd.hints.${label}`) : undefined;
  const name = spec.name;
  const testId = `field-${name}`;
  const common = { label: text, required, error: errorText(name), ...(hint ? { hint } : {}) };

  switch (spec.type) {
    case "text":
      return (
        <Field {...common}>
          <TextInput {...register(name)} disabled={disabled} data-testid={testId} />
        </Field>
      );
    case "isin":
      return (
        <Field {...common} hint={tr("assetAdd.hints.isin")}>
          <TextInput {...register(name)} disabled={disabled} autoCapitalize="characters" spellCheck={false} autoComplete="off" data-testid={testId} />
        </Field>
      );
    case "textarea":
      return (
        <Field {...common} className={styles.wide}>
          {/* Controlled: the counter counts a stored text the form starts with (an edit). */}
          <Controller
            name={name}
            control={control}
            render={({ field }) => <TextArea {...field} value={asText(field.value)} disabled={disabled} maxChars={spec.max} rows={3} data-testid={testId} />}
          />
        </Field>
      );
    case "year":
    case "integer":
      return (
        <Field {...common}>
          <TextInput {...register(name)} disabled={disabled} inputMode="numeric" autoComplete="off" data-testid={testId} />
        </Field>
      );
    case "money":
      return (
        <Field {...common}>
          <Controller
            name={name}
            control={control}
            render={({ field }) => <MoneyInput {...field} value={asText(field.value)} currency={currency} disabled={disabled} data-testid={testId} />}
          />
        </Field>
      );
    case "price":
    case "quantity":
    case "multiple":
      return (
        <Field {...common}>
          <Controller
            name={name}
            control={control}
            render={({ field }) => (
              <DecimalInput
                {...field}
                value={asText(field.value)}
                maxDecimals={spec.type === "price" ? 10 : spec.type === "quantity" ? 18 : 2}
                // Too many whole digits is said as such (not the schema's format message).
                {...(spec.type === "price" ? { maxIntegerDigits: PRICE_INTEGER_DIGITS } : spec.type === "quantity" ? { maxIntegerDigits: QUANTITY_INTEGER_DIGITS } : {})}
                disabled={disabled}
                data-testid={testId}
                {...(spec.type === "price" ? { end: <span>{currency}</span>, currency } : spec.type === "multiple" ? { end: <span>×</span> } : {})}
              />
            )}
          />
        </Field>
      );
    case "rate":
      return (
        <Field {...common}>
          <Controller
            name={name}
            control={control}
            render={({ field }) => <PercentInput {...field} value={asText(field.value)} allowNegative disabled={disabled} data-testid={testId} />}
          />
        </Field>
      );
    case "date":
      return (
        <Field {...common}>
          <Controller name={name} control={control} render={({ field }) => <DateInput {...field} value={asText(field.value)} disabled={disabled} data-testid={testId} />} />
        </Field>
      );
    case "choice":
      return (
        <Field {...common}>
          <NativeSelect {...register(name)} disabled={disabled} data-testid={testId}>
            <option value="">{t("assetAdd.choose")}</option>
            {ENUM_LISTS[spec.list!].map((code) => (
              <option key={code} value={code}>
                {listLabel(spec.list!, code)}
              </option>
            ))}
          </NativeSelect>
        </Field>
      );
    case "boolean":
      return (
        <Controller
          name={name}
          control={control}
          render={({ field }) => (
            <Checkbox
              label={text}
              checked={field.value === true}
              onCheckedChange={field.onChange}
              onBlur={field.onBlur}
              disabled={disabled}
              data-testid={testId}
              className={styles.wide}
            />
          )}
        />
      );
    case "measure": {
      const unitLabel = tr(`assetAdd.fields.${label}Unit`);
      return (
        <Field {...common}>
          <div className={styles.measure}>
              <Controller
                name={name}
                control={control}
                render={({ field }) => (
                  <DecimalInput {...field} value={asText(field.value)} maxDecimals={spec.unitName?.startsWith("vehicle.") ? 0 : 18} disabled={disabled} data-testid={testId} />
                )}
              />
              <select {...register(spec.unitName!)} className={styles.unit} aria-label={unitLabel} title={unitLabel} disabled={disabled} data-testid={`field-${spec.unitName}`}>
                {ENUM_LISTS[spec.list!].map((code) => (
                  <option key={code} value={code}>
                    {listLabel(spec.list!, code)}
                  </option>
                ))}
              </select>
          </div>
        </Field>
      );
    }
  }
}
