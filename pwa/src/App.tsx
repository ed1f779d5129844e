import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import type { i18n as I18n } from "i18next";
import type { ReactNode } from "react";
import { I18nextProvider } from "react-i18next";
import type { AppRouter } from "./router/router";
import { ThemeProvider } from "./theme/ThemeProvider";
import { AppToaster } from "./toast/toast";

interface AppProps {
  i18n: I18n;
  queryClient: QueryClient;
  router: AppRouter;
  /** Extra app-wide children (main.tsx adds the service-worker update prompt). */
  children?: ReactNode;
}

/** The providers around the router: theme, translations, data fetching, toasts. */
export function App({ i18n, queryClient, router, children }: AppProps) {
  return (
    <ThemeProvider>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
          <AppToaster />
          {children}
        </QueryClientProvider>
      </I18nextProvider>
    </ThemeProvider>
  );
}
