// What every part of the beneficiaries screen shares: the device database, the active workspace and
// whether the reader may edit, and the live records.
import type { ClientDb } from "@patrimonio/clientdb";
import { createContext, useContext } from "react";
import type { AssetRec, StructureRec } from "../../assets/hooks";
import type { BeneficiaryRec, InstructionRec, LiabilityRec } from "../../estate/hooks";

export interface EstateContext {
  db: ClientDb;
  workspaceId: string;
  canEdit: boolean;
  assets: AssetRec[];
  structures: StructureRec[];
  beneficiaries: BeneficiaryRec[];
  instructions: InstructionRec[];
  liabilities: LiabilityRec[];
}

export const EstateContextValue = createContext<EstateContext | null>(null);

export function useEstate(): EstateContext {
  const value = useContext(EstateContextValue);
  if (!value) throw new Error("useEstate outside the beneficiaries screen");
  return value;
}
