// The one way to write a form (issue 8): react-hook-form validated by @hookform/resolvers' zodResolver
// over a zod schema of @patrimonio/shared-schema, the same schema the server validates the request
// body with. Errors are message keys, not texts: they are translated by i18next when they render, so
// switching the language re-translates them, and a screen writes no validation code at all.
//
//   const form = useSchemaForm(workspaceNameRequestSchema, { defaultValues: { name: "" }, prepare: trimFields("name") });
//   <form noValidate onSubmit={form.submit((values) => create.mutateAsync(values))}>
//     <Field label={t("…")} error={form.errorText("name")} required><TextInput {...form.register("name")} /></Field>
//     <FormError form={form} />
//
// The server's refusals are mapped in one place (applyServerError): a 400 naming fields puts each
// message on its field; a 409 goes on `conflictField` when the form names one; everything else
// (429 with its wait, 403, network) is the form's alert (<FormError>).
//
// A page that must paint before zod and the schemas load (sign-in, the first page most people see)
// uses useLazySchemaForm (lazySchemaForm.ts) with the helpers of formCore.ts instead: the same form,
// its schema loaded right after the first paint.
import { useMemo } from "react";
import type { FieldValues } from "react-hook-form";
import type * as z from "zod";
import { useResolvedForm, type SchemaForm, type SchemaFormOptions } from "./formCore";
import { schemaResolver } from "./zodResolve";

export * from "./formCore";

/** react-hook-form over a shared-schema zod schema; see the top of this file. */
/** TIn is what the fields hold; by default the schema's input. A form whose fields start empty where
 * the schema wants a choice (a gender, a country) names its own: useSchemaForm<typeof s, Values>(…). */
export function useSchemaForm<S extends z.ZodType<FieldValues, FieldValues>, TIn extends FieldValues = z.input<S>>(
  schema: S,
  options: SchemaFormOptions<TIn>,
): SchemaForm<TIn, z.output<S>> {
  type TOut = z.output<S>;
  const { prepare } = options;
  const resolver = useMemo(() => {
    const inner = schemaResolver<TIn, TOut>(schema);
    return prepare ? (((values, context, opts) => inner(prepare(values), context, opts)) as typeof inner) : inner;
    // The schema and prepare are module constants in practice; the first ones are kept.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return useResolvedForm<TIn, TOut>(resolver, options);
}
