// Where the add-asset flow is, from its URL (/assets/new?categoryId=&mode=&kind=&structureId=):
// no category yet → the picker; a category → connect or add manually; mode=manual → the form of the
// category's kind. `kind` alone (a link "add a vehicle") picks the category when the kind fixes
// one, else opens the picker on the kind's class. Pure, so every path is unit-tested.
import type { AssetClass } from "@patrimonio/shared-schema";
import { isFormKind, kindForCategory, kindInfo, type FormKind } from "./catalogue";

export interface AddAssetSearch {
  categoryId?: number | undefined;
  mode?: "manual" | "connect" | undefined;
  kind?: string | undefined;
  structureId?: string | undefined;
}

export interface AssetTargetChoice {
  assetClass: AssetClass;
  /** The category code stored in the record ("residential", "custom", an admin's code). */
  category: string;
  categoryId: number;
  kind: FormKind;
}

export type FlowState =
  | { step: "category"; onlyClass?: AssetClass }
  | { step: "unknownCategory" }
  | { step: "method"; target: AssetTargetChoice }
  | { step: "connect"; target: AssetTargetChoice }
  | { step: "form"; target: AssetTargetChoice };

export interface CategoryLookup {
  categoryCodeOf(id: number): { code: string; classCode: AssetClass } | undefined;
  categoryIdOf(code: string, classCode: AssetClass): number | undefined;
}

export const STEP_INDEX: Record<FlowState["step"], number> = { category: 0, unknownCategory: 0, method: 1, connect: 1, form: 2 };

export function resolveFlow(search: AddAssetSearch, lookup: CategoryLookup): FlowState {
  const kind = isFormKind(search.kind) ? search.kind : undefined;
  let categoryId = search.categoryId;
  if (categoryId === undefined && kind) {
    const info = kindInfo(kind);
    if (info.category === null) return { step: "category", onlyClass: info.assetClass };
    categoryId = lookup.categoryIdOf(info.category, info.assetClass);
  }
  if (categoryId === undefined) return { step: "category" };
  const found = lookup.categoryCodeOf(categoryId);
  if (!found) return { step: "unknownCategory" };
  // An explicit kind of the same class chooses the form (e.g. institutional accounts for a
  // category of investments); otherwise the category's own.
  const explicit = kind && kindInfo(kind).assetClass === found.classCode && kindInfo(kind).category === null ? kind : undefined;
  const target: AssetTargetChoice = {
    assetClass: found.classCode,
    category: found.code,
    categoryId,
    kind: explicit ?? kindForCategory(found.classCode, found.code),
  };
  if (search.mode === "manual") return { step: "form", target };
  if (search.mode === "connect") return { step: "connect", target };
  return { step: "method", target };
}
