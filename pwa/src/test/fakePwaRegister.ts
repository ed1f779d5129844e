// Stands in for vite-plugin-pwa's virtual:pwa-register/react in unit tests (vitest.config.ts aliases
// it): the real module exists only inside a Vite build with the plugin. Tests set what the "service
// worker" reports before rendering and read which updates were requested.
import { useState } from "react";
import type { RegisterSWOptions } from "vite-plugin-pwa/types";

export const fakeServiceWorker = {
  needRefresh: false,
  offlineReady: false,
  updateRequests: [] as (boolean | undefined)[],
  reset() {
    this.needRefresh = false;
    this.offlineReady = false;
    this.updateRequests = [];
  },
};

export function useRegisterSW(_options?: RegisterSWOptions) {
  const needRefresh = useState(fakeServiceWorker.needRefresh);
  const offlineReady = useState(fakeServiceWorker.offlineReady);
  return {
    needRefresh,
    offlineReady,
    updateServiceWorker: async (reloadPage?: boolean) => {
      fakeServiceWorker.updateRequests.push(reloadPage);
    },
  };
}
