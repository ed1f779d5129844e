import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import type { i18n as I18n } from "i18next";
import type { ReactNode } from "react";
import { I18nextProvider } from "react-i18next";
import { ApiProvider } from "./api/ApiProvider";
import type { ApiClient } from "./api/client";
import { ReverifyProvider } from "./auth/reverify/ReverifyProvider";
import { SessionSync } from "./auth/SessionSync";
import type { AppRouter } from "./router/router";
import { ThemeProvider } from "./theme/ThemeProvider";
import { AppToaster } from "./toast/toast";

interface AppProps {
  i18n: I18n;
  queryClient: QueryClient;
  api: ApiClient;
  router: AppRouter;
  /** Extra app-wide children (main.tsx adds the service-worker update prompt). */
  children?: ReactNode;
}

/** The providers around the router: theme, translations, the API, data fetching, re-verification, toasts. */
export function App({ i18n, queryClient, api, router, children }: AppProps) {
  return (
    <ThemeProvider>
      <I18nextProvider i18n={i18n}>
        <ApiProvider client={api}>
          <QueryClientProvider client={queryClient}>
            <ReverifyProvider>
              <RouterProvider router={router} />
            </ReverifyProvider>
            <SessionSync />
            <AppToaster />
            {children}
          </QueryClientProvider>
        </ApiProvider>
      </I18nextProvider>
    </ThemeProvider>
  );
}
