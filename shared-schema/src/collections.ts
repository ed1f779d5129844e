// The synced collections (per workspace, editable offline) and the entity each one holds.
import type * as z from "zod";
import { COLLECTION_NAMES, type CollectionName } from "./constants";
import { assetRules, assetSchema, assetShape } from "./asset";
import { beneficiaryRules, beneficiarySchema, beneficiaryShape } from "./beneficiary";
import { cashFlowRules, cashFlowSchema, cashFlowShape } from "./cashFlow";
import { recordSchemaOf } from "./envelope";
import { fxRateRules, fxRateSchema, fxRateShape } from "./fxRate";
import { legacyInstructionSchema, legacyInstructionShape } from "./legacyInstruction";
import { legalStructureSchema, legalStructureShape } from "./legalStructure";
import { liabilityRules, liabilitySchema, liabilityShape } from "./liability";
import { loginSchema, loginShape } from "./login";
import { taskSchema, taskShape } from "./task";
import { valuationSchema, valuationShape } from "./valuation";
import { vaultKeySchema, vaultKeyShape } from "./vaultKey";

export const assetRecordSchema = recordSchemaOf(assetShape, assetRules);
export const legalStructureRecordSchema = recordSchemaOf(legalStructureShape);
export const liabilityRecordSchema = recordSchemaOf(liabilityShape, liabilityRules);
export const beneficiaryRecordSchema = recordSchemaOf(beneficiaryShape, beneficiaryRules);
export const legacyInstructionRecordSchema = recordSchemaOf(legacyInstructionShape);
export const valuationRecordSchema = recordSchemaOf(valuationShape);
export const taskRecordSchema = recordSchemaOf(taskShape);
export const cashFlowRecordSchema = recordSchemaOf(cashFlowShape, cashFlowRules);
export const loginRecordSchema = recordSchemaOf(loginShape);
export const fxRateRecordSchema = recordSchemaOf(fxRateShape, fxRateRules);
export const vaultKeyRecordSchema = recordSchemaOf(vaultKeyShape);

export type AssetRecord = z.infer<typeof assetRecordSchema>;
export type LegalStructureRecord = z.infer<typeof legalStructureRecordSchema>;
export type LiabilityRecord = z.infer<typeof liabilityRecordSchema>;
export type BeneficiaryRecord = z.infer<typeof beneficiaryRecordSchema>;
export type LegacyInstructionRecord = z.infer<typeof legacyInstructionRecordSchema>;
export type ValuationRecord = z.infer<typeof valuationRecordSchema>;
export type TaskRecord = z.infer<typeof taskRecordSchema>;
export type CashFlowRecord = z.infer<typeof cashFlowRecordSchema>;
export type LoginRecord = z.infer<typeof loginRecordSchema>;
export type FxRateRecord = z.infer<typeof fxRateRecordSchema>;
export type VaultKeyRecord = z.infer<typeof vaultKeyRecordSchema>;

/** collection name -> entity name, fields schema, record schema (envelope inline), field names,
 * and the JSON Schema file (jsonschema/<entity>.json) of the fields. */
export const COLLECTIONS = {
  assets: { entity: "asset", schema: assetSchema, recordSchema: assetRecordSchema, fields: Object.keys(assetShape), jsonSchema: "asset.json" },
  legalStructures: {
    entity: "legalStructure",
    schema: legalStructureSchema,
    recordSchema: legalStructureRecordSchema,
    fields: Object.keys(legalStructureShape),
    jsonSchema: "legalStructure.json",
  },
  liabilities: {
    entity: "liability",
    schema: liabilitySchema,
    recordSchema: liabilityRecordSchema,
    fields: Object.keys(liabilityShape),
    jsonSchema: "liability.json",
  },
  beneficiaries: {
    entity: "beneficiary",
    schema: beneficiarySchema,
    recordSchema: beneficiaryRecordSchema,
    fields: Object.keys(beneficiaryShape),
    jsonSchema: "beneficiary.json",
  },
  legacyInstructions: {
    entity: "legacyInstruction",
    schema: legacyInstructionSchema,
    recordSchema: legacyInstructionRecordSchema,
    fields: Object.keys(legacyInstructionShape),
    jsonSchema: "legacyInstruction.json",
  },
  valuations: {
    entity: "valuation",
    schema: valuationSchema,
    recordSchema: valuationRecordSchema,
    fields: Object.keys(valuationShape),
    jsonSchema: "valuation.json",
  },
  tasks: { entity: "task", schema: taskSchema, recordSchema: taskRecordSchema, fields: Object.keys(taskShape), jsonSchema: "task.json" },
  cashFlows: {
    entity: "cashFlow",
    schema: cashFlowSchema,
    recordSchema: cashFlowRecordSchema,
    fields: Object.keys(cashFlowShape),
    jsonSchema: "cashFlow.json",
  },
  logins: { entity: "login", schema: loginSchema, recordSchema: loginRecordSchema, fields: Object.keys(loginShape), jsonSchema: "login.json" },
  fxRates: { entity: "fxRate", schema: fxRateSchema, recordSchema: fxRateRecordSchema, fields: Object.keys(fxRateShape), jsonSchema: "fxRate.json" },
  vaultKeys: {
    entity: "vaultKey",
    schema: vaultKeySchema,
    recordSchema: vaultKeyRecordSchema,
    fields: Object.keys(vaultKeyShape),
    jsonSchema: "vaultKey.json",
  },
} as const satisfies Record<CollectionName, unknown>;

export { COLLECTION_NAMES, type CollectionName };
