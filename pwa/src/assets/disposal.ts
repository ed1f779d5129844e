// An asset sold, given away or otherwise gone (asset.disposal, shared schema): it stays a record
// (the past net worth and its returns need it) but leaves everything that shows what the person
// holds now: the lists' default view and their totals, the wealth map, the dashboard's figures of
// today (figures/holdings.ts). No zod here: the lists read it on their first paint.
import type { DisposalKind } from "@patrimonio/shared-schema";

export interface DisposalLike {
  kind: DisposalKind;
  date: string;
  amount?: string | undefined;
  note?: string | undefined;
}

/** Whether the asset is no longer held (any disposal, whatever its date: the form refuses a future one). */
export function isDisposed(fields: { disposal?: DisposalLike | undefined }): boolean {
  return fields.disposal !== undefined;
}

/** The assets still held, in the given order. */
export function heldAssets<T extends { fields: { disposal?: DisposalLike | undefined } }>(assets: readonly T[]): T[] {
  return assets.filter((a) => !isDisposed(a.fields));
}

/** The held assets and the disposed ones, each in the given order. */
export function splitDisposed<T extends { fields: { disposal?: DisposalLike | undefined } }>(assets: readonly T[]): { held: T[]; disposed: T[] } {
  const held: T[] = [];
  const disposed: T[] = [];
  for (const a of assets) (isDisposed(a.fields) ? disposed : held).push(a);
  return { held, disposed };
}

/** The app's text key of an asset's state ("Vendido", "En cartera"…): lists, CSV, the asset page. */
export function disposalStatusKey(fields: { disposal?: DisposalLike | undefined }): string {
  switch (fields.disposal?.kind) {
    case undefined:
      return "assets.disposal.status.held";
    case "sold":
      return "assets.disposal.status.sold";
    case "gifted":
      return "assets.disposal.status.gifted";
    default:
      return "assets.disposal.status.other";
  }
}

/** The assets a form offers to link a record to (a debt, a cash flow, a login): the held ones, and
 * those `keep` names even if disposed of since (the one the record already links to, or the asset
 * whose page opened the form), so that an existing link still shows and can be changed. */
export function linkableAssets<T extends { id: string; fields: { disposal?: DisposalLike | undefined } }>(
  assets: readonly T[],
  ...keep: (string | undefined)[]
): T[] {
  return assets.filter((a) => !isDisposed(a.fields) || keep.includes(a.id));
}

/** An asset's name where another record names it (the executor's binder): once disposed of, with
 * how and when ("Piso en Vigo (Vendido el 28 nov 2026)"), so nobody takes it for something held. */
export function namedAsset(
  fields: { name: string; disposal?: DisposalLike | undefined },
  t: (key: string, options?: Record<string, unknown>) => string,
  date: (iso: string) => string,
): string {
  if (fields.disposal === undefined) return fields.name;
  return t("assets.disposal.named", { name: fields.name, status: t(disposalStatusKey(fields)), date: date(fields.disposal.date) });
}
