// Test helper: renders a part of the asset detail for one asset of a real device database, inside
// the app's providers (i18n, API against the fake server, queries, toasts).
import { ClientDbProvider, useRecord, type ClientDb } from "@patrimonio/clientdb";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactNode } from "react";
import { I18nextProvider } from "react-i18next";
import { ApiProvider } from "../../../api/ApiProvider";
import { createApiClient } from "../../../api/client";
import { createI18n, type Language } from "../../../i18n/i18n";
import { createFakeServer, fakeMe } from "../../../test/fakeServer";
import { ThemeProvider } from "../../../theme/ThemeProvider";
import { AppToaster } from "../../../toast/toast";
import { AssetDetailContext, assetDetailFor } from "./context";

function Detail({ db, id, children }: { db: ClientDb; id: string; children: ReactNode }) {
  const asset = useRecord("assets", id);
  if (!asset) return null;
  return <AssetDetailContext.Provider value={assetDetailFor(db, asset, "owner", [])}>{children}</AssetDetailContext.Provider>;
}

export function renderDetail(db: ClientDb, id: string, ui: ReactNode, language: Language = "es") {
  const i18n = createI18n({ lng: language });
  const server = createFakeServer({ me: fakeMe() });
  const api = createApiClient({ fetch: server.fetch, language: () => language });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <ThemeProvider matchMedia={() => undefined}>
      <I18nextProvider i18n={i18n}>
        <ApiProvider client={api}>
          <QueryClientProvider client={queryClient}>
            <ClientDbProvider db={db}>
              <Detail db={db} id={id}>
                {ui}
              </Detail>
              <AppToaster />
            </ClientDbProvider>
          </QueryClientProvider>
        </ApiProvider>
      </I18nextProvider>
    </ThemeProvider>,
  );
}

