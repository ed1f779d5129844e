import "./zodConfig"; // before anything that may parse with zod
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { createApiClient } from "./api/client";
import { activeLanguage, bindDocumentLanguage, createI18n } from "./i18n/i18n";
import { UpdatePrompt } from "./pwa/UpdatePrompt";
import { createQueryClient } from "./query/queryClient";
import { createAppRouter } from "./router/router";
import "./styles/app.css";

const i18n = createI18n();
bindDocumentLanguage(i18n, document.documentElement);
const api = createApiClient({ language: () => activeLanguage(i18n) });
const queryClient = createQueryClient();
const router = createAppRouter({ queryClient, api });

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

createRoot(container).render(
  <StrictMode>
    <App i18n={i18n} queryClient={queryClient} api={api} router={router}>
      <UpdatePrompt />
    </App>
  </StrictMode>,
);
