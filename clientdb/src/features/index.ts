// Per-feature commands: one user action that writes several records, in one transaction and one
// sync batch, with the rules that span records (a structure never owns itself; nothing is left
// pointing at a deleted asset or structure).
export { atomically, prefixed } from "./batch";
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
export { useDanglingRefs, useRecordById, useRecordsWhere, useWorkspaceConflicts, useWorkspaceRecords } from "./hooks";
export { findDanglingRefs, repairDanglingRefs, type DanglingRef } from "./dangling";
