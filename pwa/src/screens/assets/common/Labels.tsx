// Class and category names in the reader's language (cached enumerations, bundled fallback).
import type { AssetClass } from "@patrimonio/shared-schema";
import { useAssetLabels } from "../../../assets/useAssetLabels";

export function ClassLabel({ code }: { code: AssetClass }) {
  return <>{useAssetLabels().classLabel(code)}</>;
}

/** A category's name; a custom category shows its custom name. */
export function CategoryLabel({ code, custom, classCode }: { code: string; custom?: string | undefined; classCode?: AssetClass }) {
  return <>{useAssetLabels().categoryLabel(code, custom, classCode)}</>;
}
