// Asset records as the device hands them to the list screens, for their unit tests.
import type { AssetRec } from "../../../assets/hooks";

/** A synced, confirmed asset: a residential property held whole in euros unless `fields` says otherwise. */
export function assetRec(id: string, fields: Partial<AssetRec["fields"]>): AssetRec {
  return {
    collection: "assets",
    id,
    workspaceId: "w",
    fields: { name: "Activo", assetClass: "real_estate", category: "residential", currency: "EUR", participation: "100", ...fields } as AssetRec["fields"],
    clocks: {},
    deleted: false,
    unseenByDelete: [],
    pending: 0,
    rejected: 0,
    conflicts: 0,
  };
}
