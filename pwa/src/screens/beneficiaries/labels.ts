// Labels of the shared schema's enumerations (relationship, priority) in the reader's language, and
// the translated text of a message key (validation.* from the shared schema, or the app's own).
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { translateKey } from "../../forms/schemaForm";

export function useSchemaLabel() {
  const { i18n } = useTranslation();
  return useCallback((list: "relationship" | "priority" | "liabilityKind", code: string) => translateKey(i18n, { key: `labels.${list}.${code}`, params: {} }), [i18n]);
}

export function useMessage() {
  const { i18n } = useTranslation();
  return useCallback((ref: { key: string; params: Record<string, string | number> }) => translateKey(i18n, ref), [i18n]);
}
