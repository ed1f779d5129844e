// Registers the service worker (no inline script: see vite.config.ts, injectRegister: false) and,
// with registerType 'prompt', asks before a new version takes over: a toast with a Reload action.
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useRegisterSW } from "virtual:pwa-register/react";
import { dismissToast, notify } from "../toast/toast";
import { browserStorage, markOfflineReadyShown, offlineReadyShown } from "./offlineReady";

/** How often an open app asks the server whether a new version exists. */
export const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

const UPDATE_TOAST_ID = "pwa-update";

export function UpdatePrompt() {
  const { t } = useTranslation();
  const {
    needRefresh: [needRefresh],
    offlineReady: [offlineReady, setOfflineReady],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_swUrl, registration) {
      if (!registration) return;
      setInterval(() => {
        if (navigator.onLine) registration.update().catch(() => undefined);
      }, UPDATE_CHECK_INTERVAL_MS);
    },
  });

  useEffect(() => {
    if (!needRefresh) return;
    notify("info", t("pwa.updateAvailable"), {
      id: UPDATE_TOAST_ID,
      // Stays until the user acts: a version change should not vanish after 4 s.
      duration: Infinity,
      action: {
        label: t("pwa.reload"),
        onClick: () => {
          void updateServiceWorker(true);
        },
      },
    });
    return () => dismissToast(UPDATE_TOAST_ID);
  }, [needRefresh, t, updateServiceWorker]);

  useEffect(() => {
    if (!offlineReady) return;
    // Once per install: not again after a sign-out (whose Clear-Site-Data re-installs the worker).
    const storage = browserStorage();
    if (!offlineReadyShown(storage)) {
      notify("success", t("pwa.offlineReady"));
      markOfflineReadyShown(storage);
    }
    setOfflineReady(false);
  }, [offlineReady, setOfflineReady, t]);

  return null;
}
