// Toast notifications (sonner) with the spec's settings: bottom-right, 4 s, 3 visible, 356 px wide,
// 14 px apart, dismissed by swipe (45 px) or the close button, themed like the app.
//
// sonner is not part of the first page: it loads (sonnerToaster.tsx) with the page's first toast.
// notify() still answers at once with the toast's id (made here and given to sonner), and calls made
// while sonner loads are played in order once it is in; the toaster then mounts and sonner shows it
// the toasts made before it subscribed.
import { lazy, Suspense, useSyncExternalStore, type CSSProperties, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { ExternalToast } from "sonner";
import { useTheme } from "../theme/ThemeProvider";
import type * as SonnerToaster from "./sonnerToaster";

export const TOASTER_SETTINGS = {
  position: "bottom-right",
  durationMs: 4000,
  visibleToasts: 3,
  widthPx: 356,
  gapPx: 14,
  /**
   * Sonner 2 dismisses a toast swiped this far (or flicked fast). It is a constant inside sonner
   * (SWIPE_THRESHOLD = 45), not an option: this value documents it and is not passed anywhere.
   */
  swipeThresholdPx: 45,
  closeButton: true,
} as const;

export const TOAST_KINDS = ["default", "success", "info", "warning", "error", "loading"] as const;
export type ToastKind = (typeof TOAST_KINDS)[number];
export type ToastId = string | number;
export type ToastOptions = ExternalToast;

type SonnerModule = typeof SonnerToaster;

let sonner: Promise<SonnerModule> | null = null;
let sonnerLoaded = false;
const toasterListeners = new Set<() => void>();
let lastId = 0;

/** Loads sonner once; a failed load (offline before its chunk was cached) is tried again by the next toast. */
function loadSonner(): Promise<SonnerModule> {
  sonner ??= import("./sonnerToaster").then(
    (module) => {
      sonnerLoaded = true;
      for (const listener of toasterListeners) listener();
      return module;
    },
    (error: unknown) => {
      sonner = null;
      throw error;
    },
  );
  return sonner;
}

function withSonner(action: (module: SonnerModule) => void): void {
  loadSonner().then(action, (error: unknown) => console.error("The notifications could not be loaded.", error));
}

/** Shows a toast of the given kind; returns its id (to update or dismiss it later). */
export function notify(kind: ToastKind, message: ReactNode, options?: ToastOptions): ToastId {
  const id = options?.id ?? `toast-${++lastId}`;
  withSonner((module) => module.show(kind, message, { ...options, id }));
  return id;
}

export function dismissToast(id?: ToastId): void {
  // Nothing was shown before sonner was asked for: nothing to dismiss.
  if (sonner) withSonner((module) => module.dismiss(id));
}

// Rendered only once sonner has loaded, so this never waits nor fails.
const LazyToaster = lazy(() => loadSonner().then((module) => ({ default: module.Toaster })));

function subscribeToaster(listener: () => void): () => void {
  toasterListeners.add(listener);
  return () => toasterListeners.delete(listener);
}

/** The single toaster of the app; mount once, inside ThemeProvider and the i18n provider. */
export function AppToaster() {
  const { resolved } = useTheme();
  const { t } = useTranslation();
  // Mounted once sonner has loaded (with the first toast); nothing before.
  const loaded = useSyncExternalStore(subscribeToaster, () => sonnerLoaded);
  if (!loaded) return null;
  return (
    <Suspense fallback={null}>
      <LazyToaster
        position={TOASTER_SETTINGS.position}
        duration={TOASTER_SETTINGS.durationMs}
        visibleToasts={TOASTER_SETTINGS.visibleToasts}
        gap={TOASTER_SETTINGS.gapPx}
        closeButton={TOASTER_SETTINGS.closeButton}
        theme={resolved}
        containerAriaLabel={t("toast.region")}
        toastOptions={{ closeButtonAriaLabel: t("toast.close") }}
        // 356 px is sonner's default width too; set here so the spec's value does not hang on a default.
        style={{ "--width": `${TOASTER_SETTINGS.widthPx}px` } as CSSProperties}
      />
    </Suspense>
  );
}
