import "./zodConfig"; // before anything that may parse with zod
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { createApiClient } from "./api/client";
import { meQuery } from "./api/queries";
import { activeLanguage, bindDocumentLanguage } from "./i18n/i18n";
import { createLazyI18n } from "./i18n/loading";
import { loadRouteLocales } from "./i18n/routeLocales";
import { UpdatePrompt } from "./pwa/UpdatePrompt";
import { createQueryClient } from "./query/queryClient";
import { createAppRouter } from "./router/router";
import "./styles/app.css";

// Only the active language's core texts, fetched in parallel with the rest of the start; rendered once in.
const { i18n, ready: i18nReady } = createLazyI18n();
const api = createApiClient({ language: () => activeLanguage(i18n) });
const queryClient = createQueryClient();
const router = createAppRouter({ queryClient, api, i18n });
// What the first page's route guards and root route wait for, asked for now rather than after the
// first render: GET /me (every guard reads it, from the query cache) and the first page's lazy locale
// sections (i18n/routeLocales.ts; the root route awaits the same loads). Failures show where awaited.
void queryClient.prefetchQuery(meQuery(api));
loadRouteLocales(i18n, router.matchRoutes(router.latestLocation)).catch(() => undefined);

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

const root = createRoot(container);
function render() {
  bindDocumentLanguage(i18n, document.documentElement);
  root.render(
    <StrictMode>
      <App i18n={i18n} queryClient={queryClient} api={api} router={router}>
        <UpdatePrompt />
      </App>
    </StrictMode>,
  );
}
i18nReady.then(render, (err: unknown) => {
  // The texts could not load (offline before they were cached): show the app, untranslated keys and all.
  console.error("The texts could not be loaded.", err);
  render();
});
