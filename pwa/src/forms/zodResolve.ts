// The zod side of useSchemaForm's resolver (schemaForm.ts), in a file of its own: the shared schema's
// error map needs zod, and a page whose form loads its schema lazily (sign-in) paints without it.
import { zodResolver } from "@hookform/resolvers/zod";
import { keyErrorMap } from "@patrimonio/shared-schema";
import type { FieldValues, Resolver } from "react-hook-form";

/** zodResolver over a shared-schema schema; every issue's message is its key and params (JSON),
 * never a text (keyErrorMap). */
export function schemaResolver<TIn extends FieldValues, TOut>(schema: unknown): Resolver<TIn, unknown, TOut> {
  return zodResolver(schema as never, { error: keyErrorMap }) as unknown as Resolver<TIn, unknown, TOut>;
}
