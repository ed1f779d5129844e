// Renders the whole app (providers, router, shell) at a path, in memory, for component tests.
import { createMemoryHistory } from "@tanstack/react-router";
import { act, render } from "@testing-library/react";
import { App } from "../App";
import { createI18n, type Language } from "../i18n/i18n";
import { createQueryClient } from "../query/queryClient";
import { createAppRouter } from "../router/router";

export async function renderApp(path: string, language: Language) {
  const i18n = createI18n({ lng: language });
  const queryClient = createQueryClient();
  const router = createAppRouter({ queryClient, history: createMemoryHistory({ initialEntries: [path] }) });
  await act(() => router.load());
  const view = render(<App i18n={i18n} queryClient={queryClient} router={router} />);
  return { ...view, i18n, router, queryClient };
}
