// The owner's part of an asset's current value (shared-schema's exact rule: currentValue ×
// participation / 100, half up to 4 decimals; undefined without a current value).
import { participationValue } from "@patrimonio/shared-schema";

export { participationValue };

/** participationValue on loose fields (a record merged from two devices may miss participation). */
export function participationValueOf(fields: { currentValue?: string | undefined; participation?: string | undefined }): string | undefined {
  if (fields.currentValue === undefined || fields.participation === undefined) return undefined;
  return participationValue({ currentValue: fields.currentValue, participation: fields.participation });
}
