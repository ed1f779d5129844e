// Tabs on Radix UI: arrow keys move between tabs, the panel follows. Controlled by `value` and
// `onChange`; `useSearchParamTab` keeps the selected tab in a search param of the URL (TanStack
// Router), so a tab deep-links and survives a reload:
//
//   const [tab, setTab] = useSearchParamTab("tab", ["summary", "valuations"] as const, "summary");
//   <Tabs value={tab} onChange={setTab} label={t("asset.tabs")}>
//     <TabList>
//       <Tab value="summary">{t("asset.summary")}</Tab>
//       <Tab value="valuations">{t("asset.valuations")}</Tab>
//     </TabList>
//     <TabPanel value="summary">…</TabPanel>
//     <TabPanel value="valuations">…</TabPanel>
//   </Tabs>
import { useNavigate, useSearch } from "@tanstack/react-router";
import { Tabs as RadixTabs } from "radix-ui";
import { useCallback, type ReactNode } from "react";
import { cx } from "./cx";
import styles from "./Tabs.module.css";

export interface TabsProps<T extends string> {
  value: T;
  onChange: (value: T) => void;
  children: ReactNode;
  className?: string;
}

export function Tabs<T extends string>({ value, onChange, children, className }: TabsProps<T>) {
  return (
    <RadixTabs.Root value={value} onValueChange={(next) => onChange(next as T)} className={className} activationMode="automatic">
      {children}
    </RadixTabs.Root>
  );
}

export function TabList({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <RadixTabs.List aria-label={label} className={cx(styles.list, className)}>
      {children}
    </RadixTabs.List>
  );
}

export function Tab({ value, children, disabled, className }: { value: string; children: ReactNode; disabled?: boolean; className?: string }) {
  return (
    <RadixTabs.Trigger value={value} disabled={disabled} className={cx(styles.tab, className)}>
      {children}
    </RadixTabs.Trigger>
  );
}

export function TabPanel({ value, children, className }: { value: string; children: ReactNode; className?: string }) {
  return (
    <RadixTabs.Content value={value} className={cx(styles.panel, className)}>
      {children}
    </RadixTabs.Content>
  );
}

/** The tab named by `raw` if it is one of `values`, else `fallback`. */
export function pickTab<T extends string>(raw: unknown, values: readonly T[], fallback: T): T {
  return typeof raw === "string" && (values as readonly string[]).includes(raw) ? (raw as T) : fallback;
}

/**
 * The selected tab kept in the search param `param` of the current route (TanStack Router): an
 * unknown or missing value reads as `fallback`; choosing the fallback removes the param; changing
 * tab replaces the history entry (Back leaves the screen, not the tab). Other params are kept.
 */
export function useSearchParamTab<T extends string>(param: string, values: readonly T[], fallback: T): [T, (next: T) => void] {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const navigate = useNavigate();
  const value = pickTab(search[param], values, fallback);
  const setValue = useCallback(
    (next: T) => {
      void navigate({
        to: ".",
        replace: true,
        search: ((prev: Record<string, unknown>) => {
          const rest = { ...prev };
          delete rest[param];
          return next === fallback ? rest : { ...rest, [param]: next };
        }) as never,
      });
    },
    [navigate, param, fallback],
  );
  return [value, setValue];
}
