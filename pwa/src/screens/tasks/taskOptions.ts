// The translated choices of a task's status and priority (in the shared schema's order).
import { PRIORITIES, TASK_STATUSES } from "@patrimonio/shared-schema";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import type { SelectOption } from "../../ui/Select";

export function useStatusOptions(): SelectOption[] {
  const { t } = useTranslation();
  return useMemo(() => TASK_STATUSES.map((s) => ({ value: s, label: t(`tasks.status.${s}`) })), [t]);
}

export function usePriorityOptions(): SelectOption[] {
  const { t } = useTranslation();
  return useMemo(() => PRIORITIES.map((p) => ({ value: p, label: t(`tasks.priority.${p}`) })), [t]);
}
