// Bank and broker connections (issue 15): /connect?kind=bank|brokerage&country=ES chooses the
// institution and sends the browser to its consent page; the institution sends it back to
// /connect/return?…, whose screen completes the link and lets the member choose which accounts
// become assets. Both need the network (the server talks to the provider); what they create reaches
// every device through sync.
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { oneOf, searchSchema, text, type Parsed } from "./search";
import { appLayoutRoute, guardApp } from "./root";

export const connectSearchSchema = searchSchema({
  kind: oneOf("bank", "brokerage"),
  country: text({ pattern: /^[A-Z]{2}$/ }),
});
export type ConnectSearch = Parsed<typeof connectSearchSchema>;

export const connectRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/connect",
  validateSearch: (search) => connectSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.connect", locales: ["connect"] },
  component: lazyRouteComponent(() => import("../screens/connect/ConnectScreen"), "ConnectScreen"),
});

/** The way back from the institution: every query parameter is the provider's (code, state, error,
 * provider…); the screen reads them as they are. */
export const connectReturnRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/connect/return",
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.connectReturn", locales: ["connect"] },
  component: lazyRouteComponent(() => import("../screens/connect/ConnectReturnScreen"), "ConnectReturnScreen"),
});

export const connectRoutes = [connectRoute, connectReturnRoute];
