// The cash-flow enumerations as types (the shared schema exports the lists).
import type { CASH_FLOW_DIRECTIONS, CASH_FLOW_FREQUENCIES } from "@patrimonio/shared-schema";

export type CashFlowDirection = (typeof CASH_FLOW_DIRECTIONS)[number];
export type CashFlowFrequency = (typeof CASH_FLOW_FREQUENCIES)[number];
