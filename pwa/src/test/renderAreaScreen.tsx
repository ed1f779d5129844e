// Renders one of the area screens (tasks, flows) in a real router at a URL, with a real device
// database (fake-indexeddb), the app's i18n and a fake /api/v1 whose signed-in user has one workspace
// with the given role: what a screen test needs to click through it and read the URL it leaves.
//
//   const { router } = await renderAreaScreen({ db, url: "/flows?view=yearly", path: "/flows", component: FlowsScreen, validateSearch: (s) => flowsSearchSchema.parse(s) });
import { ClientDb, ClientDbProvider } from "@patrimonio/clientdb";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from "@tanstack/react-router";
import { act, render } from "@testing-library/react";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import type { FunctionComponent } from "react";
import { I18nextProvider } from "react-i18next";
import { ApiProvider } from "../api/ApiProvider";
import { createApiClient } from "../api/client";
import type { Workspace } from "../api/types";
import { createI18n, type Language } from "../i18n/i18n";
import { createFakeServer, fakeMe } from "./fakeServer";

export const AREA_WORKSPACE = "0a1b2c3d-0000-4000-8000-000000000001";

let opened = 0;

/** A fresh, empty device database. */
export function openTestDb(): Promise<ClientDb> {
  return ClientDb.open({ name: `area-screen-${++opened}`, indexedDB: new IDBFactory(), IDBKeyRange });
}

export async function renderAreaScreen(options: {
  db: ClientDb;
  url: string;
  path: string;
  component: FunctionComponent;
  validateSearch: (search: Record<string, unknown>) => Record<string, unknown>;
  role?: Workspace["role"];
  language?: Language;
}) {
  const language = options.language ?? "es";
  const workspace: Workspace = { id: AREA_WORKSPACE, name: "Ana", kind: "personal", role: options.role ?? "owner" };
  const i18n = createI18n({ lng: language });
  const server = createFakeServer({ me: fakeMe({ workspaces: [workspace] }) });
  const api = createApiClient({ fetch: server.fetch, language: () => language });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const Layout = () => (
    <I18nextProvider i18n={i18n}>
      <ApiProvider client={api}>
        <QueryClientProvider client={queryClient}>
          <ClientDbProvider db={options.db}>
            <Outlet />
          </ClientDbProvider>
        </QueryClientProvider>
      </ApiProvider>
    </I18nextProvider>
  );
  const root = createRootRoute({ component: Layout });
  const screen = createRoute({ getParentRoute: () => root, path: options.path, validateSearch: options.validateSearch, component: options.component });
  const others = ["/help", "/assets/$assetId"].map((path) => createRoute({ getParentRoute: () => root, path, component: () => <p>{path}</p> }));
  const router = createRouter({ routeTree: root.addChildren([screen, ...others]), history: createMemoryHistory({ initialEntries: [options.url] }) });
  let view!: ReturnType<typeof render>;
  await act(async () => {
    view = render(<RouterProvider router={router} />);
    await router.load();
  });
  return { ...view, router, i18n };
}
