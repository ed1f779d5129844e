// What the legal-structures tab reads: the active workspace and whether the user may edit it, the
// structures and assets of that workspace from the device database (live, offline too), and the
// forest built from them. The choices of the form (structure types, countries, provinces) come from
// shipped lists and the device's cache of enumerations, so they work offline.
import { COUNTRY_CODES, legalStructureShape, STRUCTURE_TYPES, translate } from "@patrimonio/shared-schema";
import { useClientDb, type ClientDb } from "@patrimonio/clientdb";
import { useMemo } from "react";
import { useEnumOptions } from "../../../api/enums";
import { heldAssets } from "../../../assets/disposal";
import { useAssets, useAssetWorkspace, useLegalStructures, type AssetWorkspace } from "../../../assets/hooks";
import { useLanguage } from "../../../i18n/useLanguage";
import { buildForest, type AssetInput, type StructureForest, type StructureInput } from "./structureModel";

export interface StructureRow extends StructureInput {
  conflicts: number;
  pending: number;
}

export interface AssetRow extends AssetInput {
  pending: number;
}

export interface StructuresData {
  db: ClientDb | null;
  workspace: AssetWorkspace;
  /** undefined while the device database is loading. */
  forest: StructureForest<StructureRow, AssetRow> | undefined;
}

export function useStructuresData(): StructuresData {
  const db = useClientDb();
  const workspace = useAssetWorkspace();
  const { language } = useLanguage();
  const structureRecords = useLegalStructures();
  const assetRecords = useAssets();
  const structures = useMemo(
    () =>
      structureRecords?.map(
        (r): StructureRow => ({
          id: r.id,
          name: r.fields.name,
          structureType: r.fields.structureType,
          country: r.fields.country,
          state: r.fields.state,
          ownershipPercentage: r.fields.ownershipPercentage,
          parentStructureId: r.fields.parentStructureId,
          conflicts: r.conflicts,
          pending: r.pending,
        }),
      ),
    [structureRecords],
  );
  const assets = useMemo(
    () =>
      // A sold or disposed asset is no longer held by its structure: not in the tree or its values.
      (assetRecords && heldAssets(assetRecords))?.map(
        (r): AssetRow => ({
          id: r.id,
          name: r.fields.name,
          currency: r.fields.currency,
          participation: r.fields.participation,
          currentValue: r.fields.currentValue,
          legalStructureId: r.fields.legalStructureId,
          pending: r.pending,
        }),
      ),
    [assetRecords],
  );
  const forest = useMemo(
    () => (structures && assets ? buildForest(structures, assets, language) : undefined),
    [structures, assets, language],
  );
  return { db, workspace, forest };
}

export interface Choice {
  value: string;
  label: string;
  hint?: string;
}

const structureTypeCheck = legalStructureShape.structureType;

/**
 * Structure types: the shipped ones and the values admins added (from the device's cache of the
 * `structure_type` enumeration), labelled in the active language. A cached code the record schema
 * does not accept is left out (it could not be saved).
 */
export function useStructureTypeOptions(): { options: Choice[]; labelOf: (code: string) => string } {
  const { language } = useLanguage();
  const cached = useEnumOptions("structure_type");
  return useMemo(() => {
    const labels = new Map<string, string>(STRUCTURE_TYPES.map((code) => [code, translate(language, `labels.structureType.${code}`)]));
    for (const option of cached ?? []) {
      if (structureTypeCheck.safeParse(option.code).success) labels.set(option.code, option.label);
    }
    const options = [...labels].map(([value, label]) => ({ value, label }));
    return { options, labelOf: (code: string) => labels.get(code) ?? code };
  }, [cached, language]);
}

/** Every ISO 3166-1 country named in the active language (shipped: works offline). */
export function useCountryOptions(): { options: Choice[]; labelOf: (code: string) => string } {
  const { language } = useLanguage();
  return useMemo(() => {
    const names = new Intl.DisplayNames([language], { type: "region", fallback: "code" });
    const collator = new Intl.Collator(language);
    const options = COUNTRY_CODES.map((value) => ({ value, label: names.of(value) ?? value, hint: value })).sort((a, b) =>
      collator.compare(a.label, b.label),
    );
    return { options, labelOf: (code: string) => names.of(code) ?? code };
  }, [language]);
}

