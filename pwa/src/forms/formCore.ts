// The zod-free part of the form pattern (schemaForm.ts): messages as keys, the server's refusals on
// fields, and the hook around react-hook-form given a resolver. schemaForm.ts builds the resolver
// over a schema; lazySchemaForm.ts over a schema loaded after the first paint. Screens import
// schemaForm.ts (which re-exports this file), or, to paint without zod, this file and
// lazySchemaForm.ts.
import type { Issue, IssueParams } from "@patrimonio/shared-schema";
import type { i18n as I18n } from "i18next";
import { useState } from "react";
import {
  get,
  useForm,
  type FieldError,
  type FieldErrors,
  type FieldValues,
  type Path,
  type Resolver,
  type UseFormProps,
  type UseFormReturn,
} from "react-hook-form";
import { useTranslation } from "react-i18next";
import { ApiError, ERROR_CODES } from "../api/client";
import { formatNumber } from "../i18n/format";
import { activeLanguage, SCHEMA_NAMESPACE } from "../i18n/i18n";

/** A translatable message: a key of the shared schema's messages (validation.*, labels.*) or of
 * the app's texts, with its interpolation params. */
export interface MessageRef {
  key: string;
  params: IssueParams;
}

/** react-hook-form errors carry a string: the message key travels JSON-encoded (as zod's keyErrorMap
 * writes it) and is decoded where it is shown. */
export function encodeMessage(key: string, params: IssueParams = {}): string {
  return JSON.stringify({ key, params } satisfies MessageRef);
}

export function decodeMessage(message: string | undefined): MessageRef | null {
  if (!message || !message.startsWith("{")) return null;
  try {
    const parsed = JSON.parse(message) as Partial<MessageRef>;
    return typeof parsed.key === "string" ? { key: parsed.key, params: parsed.params ?? {} } : null;
  } catch {
    return null;
  }
}

/** Translates a message key: the shared schema's keys (validation.*, labels.*) from its namespace,
 * any other from the app's texts. */
export function translateKey(i18n: I18n, ref: MessageRef): string {
  const ns = ref.key.startsWith("validation.") || ref.key.startsWith("labels.") ? SCHEMA_NAMESPACE : undefined;
  const t = i18n.t.bind(i18n) as unknown as (key: string, options: Record<string, unknown>) => string;
  // Numbers in a message are written the reader's way ("Faltan 12,5%" in Spanish); `count` stays a
  // number, as i18next's plural rules need it (its formatter writes it). A number field's bound of
  // four digits is a year ("menor o igual que 2100" for a year of construction): not grouped.
  const language = activeLanguage(i18n);
  const grouping = ref.key.startsWith("validation.number.") ? { useGrouping: "min2" as const } : {};
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(ref.params ?? {})) {
    params[name] = typeof value === "number" && name !== "count" ? formatNumber(value, language, { maximumFractionDigits: 20, ...grouping }) : value;
  }
  return t(ref.key, { ...params, ...(ns ? { ns } : {}) });
}

/** The text of a field error in the active language: a key (from the schema or from the server's
 * field list) translated, or a server's text as it came. */
export function fieldErrorText(i18n: I18n, error: FieldError | undefined): string | undefined {
  if (!error) return undefined;
  const ref = decodeMessage(error.message);
  if (ref) return translateKey(i18n, ref);
  return error.message || undefined;
}

/** A `prepare` that trims the named text fields (an address or a name typed with a space around). */
export function trimFields<T extends FieldValues>(...names: (keyof T & string)[]): (values: T) => T {
  return (values) => {
    const out: Record<string, unknown> = { ...values };
    for (const name of names) if (typeof out[name] === "string") out[name] = (out[name] as string).trim();
    return out as T;
  };
}

/**
 * Puts a device command's refusal on the form: each issue on the field its path starts with, when the
 * form has that field (`fieldNames`), the focus on the first; the others come back translated, for an
 * alert next to the form (a rule about other records, a missing asset, the locked vault).
 */
export function applyIssues<T extends FieldValues>(
  i18n: I18n,
  setError: UseFormReturn<T>["setError"],
  issues: readonly Issue[],
  fieldNames: readonly string[],
): string[] {
  const elsewhere: string[] = [];
  let placed = 0;
  for (const issue of issues) {
    const name = issue.path.split(".")[0] ?? "";
    if (fieldNames.includes(name)) {
      setError(name as Path<T>, { type: "device", message: encodeMessage(issue.key, issue.params) }, { shouldFocus: placed === 0 });
      placed++;
    } else elsewhere.push(translateKey(i18n, { key: issue.key, params: issue.params }));
  }
  return elsewhere;
}

/** Puts a server refusal on the form's fields where it names them. Returns true when every part of
 * it was placed on a field (no form-level alert is needed). */
export function applyServerError<T extends FieldValues>(
  error: unknown,
  setError: UseFormReturn<T>["setError"],
  fieldNames: readonly string[],
  conflictField?: Path<T>,
): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.code === ERROR_CODES.invalid && error.fields.length > 0) {
    let placed = 0;
    for (const field of error.fields) {
      const name = field.path.split(".")[0] ?? "";
      if (!fieldNames.includes(name)) continue;
      // With its key, the message follows the language; without one, the server's text as it came.
      const message = field.key ? encodeMessage(field.key, field.params) : field.message;
      setError(field.path as Path<T>, { type: "server", message }, { shouldFocus: placed === 0 });
      placed++;
    }
    return placed === error.fields.length;
  }
  if (error.code === ERROR_CODES.conflict && conflictField) {
    setError(conflictField, { type: "server", message: error.message }, { shouldFocus: true });
    return true;
  }
  return false;
}

export interface SchemaFormOptions<TIn extends FieldValues> extends Omit<UseFormProps<TIn>, "resolver" | "defaultValues"> {
  /** Every field of the form with its starting value (also the list of fields server errors may name). */
  defaultValues: TIn;
  /** Cleans what was typed before validation (trimFields("email")); the submit handler gets the
   * cleaned, validated values. */
  prepare?: (values: TIn) => TIn;
  /** A 409 (e.g. "already a member") is shown on this field instead of the form's alert. */
  conflictField?: Path<TIn>;
}

export type SchemaForm<TIn extends FieldValues, TOut> = UseFormReturn<TIn, unknown, TOut> & {
  /** handleSubmit that validates, runs onValid, and maps a rejection onto fields or the form alert. */
  submit: (onValid: (values: TOut) => unknown) => (event?: React.BaseSyntheticEvent) => Promise<void>;
  /** The translated error of a field, for <Field error={…}>. */
  errorText: (name: Path<TIn>) => string | undefined;
  /** The last submission's failure that is not on a field (shown by <FormError form={form} />). */
  formError: unknown;
  setFormError: (error: unknown) => void;
};

/** The form around a resolver (useSchemaForm and useLazySchemaForm give it theirs). */
export function useResolvedForm<TIn extends FieldValues, TOut>(resolver: Resolver<TIn, unknown, TOut>, options: SchemaFormOptions<TIn>): SchemaForm<TIn, TOut> {
  const { prepare: _prepare, conflictField, ...formOptions } = options;
  const { i18n } = useTranslation();
  const form = useForm<TIn, unknown, TOut>({ ...formOptions, resolver } as UseFormProps<TIn, unknown, TOut>);
  const [formError, setFormError] = useState<unknown>(null);
  const fieldNames = Object.keys(options.defaultValues);

  return {
    ...form,
    formError,
    setFormError,
    errorText: (name) => fieldErrorText(i18n, get(form.formState.errors as FieldErrors, name) as FieldError | undefined),
    submit: (onValid) => async (event) => {
      const handle = form.handleSubmit(async (values) => {
        setFormError(null);
        try {
          await onValid(values);
        } catch (error) {
          if (!applyServerError(error, form.setError, fieldNames, conflictField)) setFormError(error);
        }
      });
      try {
        await handle(event);
      } catch (error) {
        // A lazy schema that could not load (offline before this page's files were kept): the
        // form's alert says so, and the next submit tries again.
        setFormError(error);
      }
    },
  };
}
