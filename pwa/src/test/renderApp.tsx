// Renders the whole app (providers, router, shell) at a path, in memory, for component tests, against
// a fake /api/v1 (./fakeServer.ts). By default a signed-in user who finished onboarding.
import { createMemoryHistory } from "@tanstack/react-router";
import { act, render } from "@testing-library/react";
import { App } from "../App";
import { createApiClient } from "../api/client";
import { createI18n, type Language } from "../i18n/i18n";
import { createQueryClient } from "../query/queryClient";
import { createAppRouter } from "../router/router";
import { createFakeServer, type FakeServer } from "./fakeServer";

export async function renderApp(path: string, language: Language, server: FakeServer = createFakeServer()) {
  const i18n = createI18n({ lng: language });
  const queryClient = createQueryClient();
  const api = createApiClient({ language: () => language, fetch: server.fetch });
  const router = createAppRouter({ queryClient, api, history: createMemoryHistory({ initialEntries: [path] }) });
  await act(() => router.load());
  const view = render(<App i18n={i18n} queryClient={queryClient} api={api} router={router} />);
  return { ...view, i18n, router, queryClient, api, server };
}
