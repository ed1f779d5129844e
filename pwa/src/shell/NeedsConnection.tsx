// Online-only parts of the app (the account, billing, workspaces and their members, admin, bank
// connections) live on the server, not on the device. While the device is offline they say so at
// once, instead of a spinner that waits for a network (TanStack pauses queries offline) or an error
// after the click.
import { onlineManager } from "@tanstack/react-query";
import { useSyncExternalStore, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../ui/Alert";

/** Whether the browser is online, as TanStack Query sees it (it pauses queries while it is not). */
export function useOnline(): boolean {
  return useSyncExternalStore(
    (onChange) => onlineManager.subscribe(onChange),
    () => onlineManager.isOnline(),
    () => true,
  );
}

/** A notice shown only while the device is offline: what on this screen needs a connection. */
export function NeedsConnection({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const online = useOnline();
  if (online) return null;
  return (
    <div data-testid="needs-connection">
      <Alert tone="warning" title={t("common.offlineTitle")}>
        {children}
      </Alert>
    </div>
  );
}
