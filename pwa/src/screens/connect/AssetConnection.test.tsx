// The asset's linked-account card: a held asset offers "update balance"; one marked sold says the
// connection leaves it alone (the server neither reads nor writes it) and offers no update.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { screen } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { describe, expect, test } from "vitest";
import { ApiProvider } from "../../api/ApiProvider";
import { createApiClient } from "../../api/client";
import type { Connection } from "../../api/connections";
import { createI18n } from "../../i18n/i18n";
import { createFakeServer, json } from "../../test/fakeServer";
import { renderInRouter } from "../../test/renderInRouter";
import { AssetConnection } from "./AssetConnection";

const WS = "w-personal";
const ASSET = "0190a000-0000-7000-8000-000000000001";

const connection: Connection = {
  id: "c1",
  workspaceId: WS,
  provider: "enablebanking",
  kind: "bank",
  institution: { id: "santander", name: "Banco Santander" },
  status: "active",
  consentExpiresAt: "2027-05-29T00:00:00Z",
  renewSoon: false,
  linkedByMe: true,
  lastRefreshAt: "2026-11-28T10:00:00Z",
  readsPerDay: 4,
  createdAt: "2026-11-01T10:00:00Z",
  accounts: [
    {
      id: "a1",
      name: "Cuenta Nómina",
      kind: "bank",
      institution: "Banco Santander",
      currency: "EUR",
      masked: "ES91 •••• 1332",
      assetId: ASSET,
      lastBalance: "12530.55",
      lastBalanceDate: "2026-11-27",
      lastRefreshAt: "2026-11-28T10:00:00Z",
      readsLeftToday: 3,
      detached: false,
      positions: [],
    },
  ],
};

async function renderCard(disposed: boolean) {
  const server = createFakeServer({ handlers: { [`GET /workspaces/${WS}/connections`]: () => json(200, { connections: [connection] }) } });
  const api = createApiClient({ fetch: server.fetch, language: () => "es" });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await renderInRouter(
    <I18nextProvider i18n={createI18n({ lng: "es" })}>
      <ApiProvider client={api}>
        <QueryClientProvider client={queryClient}>
          <AssetConnection workspaceId={WS} assetId={ASSET} canEdit disposed={disposed} />
        </QueryClientProvider>
      </ApiProvider>
    </I18nextProvider>,
  );
  return screen.findByTestId("asset-connection");
}

describe("the linked-account card", () => {
  test("a held asset offers to update its balance", async () => {
    const card = await renderCard(false);
    expect(card.textContent).toMatch(/Último saldo 12\.530,55\s€ el 27 nov 2026/);
    expect(screen.getByRole("button", { name: "Actualizar saldo" })).toBeTruthy();
    expect(screen.queryByTestId("asset-connection-disposed")).toBeNull();
  });

  test("a sold asset says the connection leaves it alone, and offers no update", async () => {
    await renderCard(true);
    expect(screen.getByTestId("asset-connection-disposed").textContent).toBe(
      "Este activo está marcado como vendido: la conexión no lo actualiza mientras lo esté. Si deshaces la venta, vuelve a actualizarse.",
    );
    expect(screen.queryByRole("button", { name: "Actualizar saldo" })).toBeNull();
  });
});
