// The legal pages (spec: /tos/ and /privacy/), open to everyone: inside the app shell for a signed-in
// user, in the plain layout for a visitor. The session is looked up first so the right layout shows
// at once; when /me cannot be asked, the page shows all the same.
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { loadMeForGuard, rootRoute, type RouterContext } from "./root";

async function knowSession({ context }: { context: RouterContext }) {
  try {
    await loadMeForGuard(context);
  } catch {
    // The page is public: an unanswered /me only means the plain layout.
  }
}

export const termsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/tos",
  beforeLoad: knowSession,
  staticData: { titleKey: "shell.titles.terms" },
  component: lazyRouteComponent(() => import("../screens/legal/LegalPages"), "TermsPage"),
});

export const privacyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/privacy",
  beforeLoad: knowSession,
  staticData: { titleKey: "shell.titles.privacy" },
  component: lazyRouteComponent(() => import("../screens/legal/LegalPages"), "PrivacyPage"),
});
