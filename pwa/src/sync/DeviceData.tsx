// Whether the screens can read the device database, in one place: useDeviceData says it (ready,
// starting, failed with why and a retry, unsupported), and DeviceDataGate, around the shell's
// routes, shows every screen that reads device data (routes with `staticData.deviceData`) a
// translated error state instead of its own when the database cannot be read: "could not be opened"
// (why, when the browser said, and "Try again") or "this browser cannot keep your data". Without it a
// failed open left the screens on their skeletons for good, and a browser without IndexedDB saw
// "no assets yet", an empty state where the truth is "nothing could be read". This module does not
// load Dexie (see engineContext.ts).
import { useClientDb } from "@patrimonio/clientdb/context";
import { useMatches } from "@tanstack/react-router";
import { DatabaseZap, RotateCw, ServerOff } from "lucide-react";
import { useContext, useId, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { TitleKey } from "../router/title";
import page from "../screens/page.module.css";
import { Button } from "../ui/Button";
import { EmptyState } from "../ui/EmptyState";
import { PageHeader } from "../ui/PageHeader";
import { DeviceSyncActive, DeviceSyncOpenFailed, DeviceSyncUnsupported, type OpenFailureReason } from "./engineContext";

declare module "@tanstack/react-router" {
  interface StaticDataRouteOption {
    /** The screen reads the device database: while it cannot be read, DeviceDataGate shows why
     * instead of the screen. */
    deviceData?: boolean;
  }
}

/** What the screens can expect of the device database. */
export type DeviceData =
  | { state: "ready" }
  /** Loading or opening: screens show their skeletons. */
  | { state: "starting" }
  /** It could not be opened (or waits for another tab: reason "blocked"); reason null: unknown. */
  | { state: "failed"; reason: OpenFailureReason | null; retry: () => void }
  /** Signed in on a browser without IndexedDB or Web Locks: no database will ever come. */
  | { state: "unsupported" }
  /** Signed out, or outside DeviceSync. */
  | { state: "none" };

/** The state of the device database for the screens (see DeviceData). */
export function useDeviceData(): DeviceData {
  const db = useClientDb();
  const active = useContext(DeviceSyncActive);
  const failure = useContext(DeviceSyncOpenFailed);
  const unsupported = useContext(DeviceSyncUnsupported);
  if (db !== null) return { state: "ready" };
  if (unsupported) return { state: "unsupported" };
  if (!active) return { state: "none" };
  if (failure !== null) return { state: "failed", reason: failure.reason, retry: failure.retry };
  return { state: "starting" };
}

/** The error state for a device database that cannot be read (failed or unsupported), announced
 * at once (role=alert). */
export function DeviceDataProblem({ data }: { data: Extract<DeviceData, { state: "failed" | "unsupported" }> }) {
  const { t } = useTranslation();
  const titleId = useId();
  if (data.state === "unsupported") {
    return (
      <EmptyState
        role="alert"
        aria-labelledby={titleId}
        data-testid="device-data-unsupported"
        tone="danger"
        icon={<ServerOff size={22} />}
        headingId={titleId}
        title={t("sync.deviceData.unsupported.title")}
        text={t("sync.deviceData.unsupported.text")}
      />
    );
  }
  // A database upgraded by a newer version of the app opens only in that version: reloading gets it.
  const reload = data.reason === "version";
  return (
    <EmptyState
      role="alert"
      aria-labelledby={titleId}
      data-testid="device-data-failed"
      data-reason={data.reason ?? "unknown"}
      tone="danger"
      icon={<DatabaseZap size={22} />}
      headingId={titleId}
      title={t("sync.deviceData.failed.title")}
      text={t(`sync.deviceData.failed.reason.${data.reason ?? "unknown"}`)}
      action={
        <Button variant="primary" icon={<RotateCw size={16} />} onClick={reload ? () => window.location.reload() : data.retry}>
          {reload ? t("sync.deviceData.failed.reload") : t("sync.deviceData.failed.retry")}
        </Button>
      }
    />
  );
}

/**
 * Around the shell's routes: a screen that reads device data (its route has `staticData.deviceData`)
 * gives way, under its title, to DeviceDataProblem while the device database cannot be read; it
 * comes back by itself once the database opens (after "Try again", or once the other tab closes).
 */
export function DeviceDataGate({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const data = useDeviceData();
  // The deepest route that reads device data: its screen's title ("" without one), or null.
  const screen = useMatches({
    select: (matches) => {
      for (let i = matches.length - 1; i >= 0; i--) {
        const staticData = matches[i]?.staticData;
        if (staticData?.deviceData) return staticData.titleKey ?? "";
      }
      return null;
    },
  });
  if (screen === null || (data.state !== "failed" && data.state !== "unsupported")) return children;
  return (
    <div className={page.page} data-testid="device-data-gate">
      {screen !== "" && <PageHeader title={t(screen as TitleKey)} />}
      <DeviceDataProblem data={data} />
    </div>
  );
}
