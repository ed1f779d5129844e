// Registers the service worker (no inline script: see vite.config.ts, injectRegister: false) and,
// with registerType 'prompt', asks before a new version takes over: a toast with a Reload action.
// When the sync server refuses this version (updateRequired.ts), it looks for the new version at
// once and says a reload is needed meanwhile (a reload also makes the browser check the worker).
// While the sync server is older than this app (rolled back: sync/serverBehind.ts), a waiting
// worker is that older build, which could not open this device's newer database: it is not offered.
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRegisterSW } from "virtual:pwa-register/react";
import { useServerBehind } from "../sync/serverBehind";
import { dismissToast, notify } from "../toast/toast";
import { browserStorage, markOfflineReadyShown, offlineReadyShown } from "./offlineReady";
import { onAppUpdateRequired } from "./updateRequired";

/** How often an open app asks the server whether a new version exists. */
export const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

const UPDATE_TOAST_ID = "pwa-update";

export function UpdatePrompt() {
  const { t } = useTranslation();
  const registration = useRef<ServiceWorkerRegistration | undefined>(undefined);
  const [updateRequired, setUpdateRequired] = useState(false);
  const {
    needRefresh: [needRefresh],
    offlineReady: [offlineReady, setOfflineReady],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_swUrl, r) {
      if (!r) return;
      registration.current = r;
      setInterval(() => {
        if (navigator.onLine) r.update().catch(() => undefined);
      }, UPDATE_CHECK_INTERVAL_MS);
    },
  });

  useEffect(
    () =>
      onAppUpdateRequired(() => {
        setUpdateRequired(true);
        registration.current?.update().catch(() => undefined);
      }),
    [],
  );

  const serverBehind = useServerBehind();
  const offerWorker = needRefresh && !serverBehind;
  useEffect(() => {
    if (!offerWorker && !updateRequired) return;
    // A waiting worker is the new version: reload into it. Without one yet, a plain reload.
    notify("info", t(offerWorker ? "pwa.updateAvailable" : "pwa.updateRequired"), {
      id: UPDATE_TOAST_ID,
      // Stays until the user acts: a version change should not vanish after 4 s.
      duration: Infinity,
      action: {
        label: t("pwa.reload"),
        onClick: () => {
          if (offerWorker) void updateServiceWorker(true);
          else window.location.reload();
        },
      },
    });
    return () => dismissToast(UPDATE_TOAST_ID);
  }, [offerWorker, updateRequired, t, updateServiceWorker]);

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
