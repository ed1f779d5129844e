// Per-feature commands: one user action that writes several records, in one transaction and one
// sync batch, with the rules that span records (a structure never owns itself; nothing is left
// pointing at a deleted asset or structure).
export { ASSET_MISSING_KEY, assetMissing, atomically, isLiveAsset, prefixed } from "./batch";
export {
  addValuation,
  createAsset,
  deleteAsset,
  updateAsset,
  type CreateAssetOptions,
  type DeleteAssetResult,
  type NewDebt,
  type NewValuation,
} from "./assets";
export { CYCLE_KEY, PARENT_MISSING_KEY, deleteLegalStructure, saveLegalStructure, setStructureParent } from "./legalStructures";
export { ancestorChain, findCycles, idsInCycles, structureTree, wouldCreateCycle, type StructureLink } from "./structureGraph";
export { useDanglingRefs } from "./dangling";
export { useDeletedRecords, useRecordById, useRecordsWhere, useWorkspaceConflicts, useWorkspaceRecords, useWorkspaceRejected } from "./hooks";
export { findDanglingRefs, repairDanglingRefs, type DanglingRef } from "./dangling";
export { changedSince, formPatch, sameFieldValue, wholePatch } from "./formPatch";
export { deleteLiability, saveLiability } from "./liabilities";
export { deleteCashFlow, saveCashFlow } from "./flows";
export { readWorkspaceDevices, refreshWorkspaceDevices, useWorkspaceDevices, type DevicesMeta, type WorkspaceDevice } from "./devices";
export { createTask, deleteTask, setTaskStatus, updateTask, type TaskFields } from "./tasks";
export { ESTATE, REMAINING_KEY, SUM_EXCEEDS_KEY, allocatedHundredths } from "./allocations";
export { deleteBeneficiary, saveBeneficiary } from "./beneficiaries";
export { deleteLegacyInstruction, saveLegacyInstruction } from "./legacy";
export { VAULT_LOCKED_KEY, deleteLogin, rotateVaultKey, saveLogin, saveVaultKey, type LoginSealer, type VaultKeyRotation, type SaveLoginOptions, type SealPlace, type SealedField } from "./logins";
export {
  IMPORT_ASSET_CLASSES,
  flowExists,
  importStatement,
  importedMovementIds,
  planBalances,
  readImportMappings,
  saveImportMapping,
  useImportMappings,
  type BalancePlan,
  type ImportMappingRow,
  type ImportStatementInput,
  type ImportStatementResult,
  type StatementBalance,
  type StatementFlow,
} from "./statements";
