// @patrimonio/clientdb: the device side of sync. Screens use the commands of a ClientDb and the
// live-query hooks; a SyncClient keeps the database in sync. The Dexie tables are not exported:
// nothing outside this package writes them.
export {
  ClientDb,
  ClientDbError,
  loadValidation,
  type CommandResult,
  type ConflictView,
  type EntityOf,
  type OpenOptions,
  type Patch,
  type RejectedView,
  type SyncedRecord,
} from "./clientdb";
export type { GoneReason as ClosedReason } from "./db";
export { validateRecord } from "./validation";
export {
  realTimers,
  SyncClient,
  type NetworkLike,
  type SocketFactory,
  type SocketLike,
  type SyncClientOptions,
  type SyncEvent,
  type TimersLike,
} from "./client";
export { computeStatus, type SyncState, type SyncStatus } from "./status";
export { backoffDelay, seededRandom, DEFAULT_BACKOFF, type BackoffOptions } from "./backoff";
export { LeaderElection, MemoryLockManager, lockName, type LockManagerLike } from "./leader";
export { ClientDbProvider, useClientDb, useConflicts, useRecord, useRecords, useRejected, useSyncStatus, useWorkspaceHeld } from "./hooks";
export type { Conflict, JsonValue } from "./merge";
export {
  enumLabel,
  refreshEnums,
  useEnum,
  useEnumByCode,
  useEnums,
  useEnumsStatus,
  type EnumQuery,
  type EnumValue,
  type RefreshEnumsOptions,
  type RefreshEnumsResult,
} from "./enums";
export { refreshRates, useRatesStatus, useServerRates, type RateRow, type RefreshRatesOptions, type RefreshRatesResult } from "./fx";
export * from "./features";
