// The form pattern (schemaForm.ts) for a page that must paint before zod and the schemas load:
// sign-in, the first page most people see. Its schema is a dynamic import,
//   const signInSchema = lazySchema(() => import("@patrimonio/shared-schema").then((m) => m.signInRequestSchema));
//   const form = useLazySchemaForm(signInSchema, { defaultValues: … });
// and it loads, with the resolver's zod side (zodResolve.ts), right after the form's first paint; a
// submit before they are in waits for them. Everything else is formCore.ts, as for every form.
import { useEffect, useMemo } from "react";
import type { FieldValues, Resolver } from "react-hook-form";
import type * as z from "zod";
import { useResolvedForm, type SchemaForm, type SchemaFormOptions } from "./formCore";

const LAZY: unique symbol = Symbol("lazySchema");

/** A schema loaded when the form first needs it. */
export interface LazySchema<S> {
  readonly [LAZY]: () => Promise<S>;
}

/** Retries an import that failed the next time it is asked for; imports it once otherwise. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}

/** Wraps a schema's dynamic import for useLazySchemaForm. */
export function lazySchema<S>(load: () => Promise<S>): LazySchema<S> {
  return { [LAZY]: once(load) };
}

const loadZodSide = once(() => import("./zodResolve"));

/** Runs f after the next paint (a task queued from the frame's callback); returns its cancel. */
function afterPaint(f: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (typeof requestAnimationFrame !== "function") {
    timer = setTimeout(f, 0);
    return () => clearTimeout(timer);
  }
  const frame = requestAnimationFrame(() => (timer = setTimeout(f, 0)));
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

/** zodResolver over the schema once both are loaded, after prepare. */
function lazyResolver<S, TIn extends FieldValues, TOut>(schema: LazySchema<S>, prepare: ((values: TIn) => TIn) | undefined): Resolver<TIn, unknown, TOut> {
  let inner: Resolver<TIn, unknown, TOut> | undefined;
  return async (values, context, options) => {
    if (!inner) {
      const [side, loaded] = await Promise.all([loadZodSide(), schema[LAZY]()]);
      inner = side.schemaResolver<TIn, TOut>(loaded);
    }
    return inner(prepare ? prepare(values) : values, context, options);
  };
}

/** useSchemaForm with a lazy schema; see the top of this file. */
export function useLazySchemaForm<S extends z.ZodType<FieldValues, FieldValues>, TIn extends FieldValues = z.input<S>>(
  schema: LazySchema<S>,
  options: SchemaFormOptions<TIn>,
): SchemaForm<TIn, z.output<S>> {
  type TOut = z.output<S>;
  // The schema and prepare are module constants in practice; the first ones are kept.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const resolver = useMemo(() => lazyResolver<S, TIn, TOut>(schema, options.prepare), []);
  useEffect(
    // The first validation should not wait for the network: load what it needs once the form has
    // painted (a failure here is met again, and shown, by the submit that needs it).
    () =>
      afterPaint(() => {
        loadZodSide().catch(() => undefined);
        schema[LAZY]().catch(() => undefined);
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  return useResolvedForm<TIn, TOut>(resolver, options);
}
