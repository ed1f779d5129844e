// The spec's remaining sidebar areas (issue 13): liabilities, flows, beneficiaries and legacy, tasks,
// the logins vault and help. Short routes that match the sidebar. Search parsing lives here (bad values
// fall back, never throw); each screen's code is loaded when the route is first visited.
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { flag, one, oneOf, recordId, searchSchema, text, type Parsed } from "./search";
import { appLayoutRoute, guardApp } from "./root";

/** A record id in a search param (a UUID); anything else is dropped. */
const idParam = recordId;

/** /liabilities?new=1 (the new-debt form, assetId preselects the asset) | ?edit=<id> (its form) |
 * ?show=<id> (its payment plan and balance over time). */
export const liabilitiesSearchSchema = searchSchema({
  new: one,
  edit: idParam,
  show: idParam,
  assetId: idParam,
});

export const liabilitiesRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/liabilities",
  validateSearch: (search) => liabilitiesSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.liabilities", deviceData: true, locales: ["liabilities", "assets"] },
  component: lazyRouteComponent(() => import("../screens/liabilities/LiabilitiesScreen"), "LiabilitiesScreen"),
});

/** /flows?new=1 (the new-flow form, assetId preselects the asset) | ?edit=<id> (its form);
 * view=monthly|yearly: the projection shown. */
export const flowsSearchSchema = searchSchema({
  view: oneOf("monthly", "yearly"),
  new: one,
  edit: idParam,
  assetId: idParam,
});

export const flowsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/flows",
  validateSearch: (search) => flowsSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.flows", deviceData: true, locales: ["flows", "assets"] },
  component: lazyRouteComponent(() => import("../screens/flows/FlowsScreen"), "FlowsScreen"),
});

/** /beneficiaries?tab=beneficiaries|instructions|readiness */
export const beneficiariesSearchSchema = searchSchema({ tab: oneOf("beneficiaries", "instructions", "readiness") });

export const beneficiariesRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/beneficiaries",
  validateSearch: (search) => beneficiariesSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.beneficiaries", deviceData: true },
  component: lazyRouteComponent(() => import("../screens/beneficiaries/BeneficiariesScreen"), "BeneficiariesScreen"),
});

/** /beneficiaries/binder: the executor's binder, one printable document. */
export const binderRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/beneficiaries/binder",
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.beneficiaries", deviceData: true },
  component: lazyRouteComponent(() => import("../screens/beneficiaries/BinderScreen"), "BinderScreen"),
});

/** /tasks?status=todo|in_progress|done&priority=high|medium|low&asset=<asset id>|none&overdue=1: the
 * task list's filters (screens/tasks/taskModel.ts applies them). Bad values fall back to no filter. */
export const tasksSearchSchema = searchSchema({
  status: oneOf("todo", "in_progress", "done"),
  priority: oneOf("high", "medium", "low"),
  asset: (raw: unknown): "none" | string | undefined => (raw === "none" ? "none" : recordId(raw)),
  overdue: flag,
});
export type TasksSearch = Parsed<typeof tasksSearchSchema>;

export const tasksRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/tasks",
  validateSearch: (search) => tasksSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.tasks", deviceData: true, locales: ["tasks", "assets"] },
  component: lazyRouteComponent(() => import("../screens/tasks/TasksScreen"), "TasksScreen"),
});

export const loginsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/logins",
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.logins", deviceData: true, locales: ["logins", "vault", "assets"] },
  component: lazyRouteComponent(() => import("../screens/logins/LoginsScreen"), "LoginsScreen"),
});

/** The longest help search kept in q; the search box takes no more (a longer q was dropped here, and
 * the screen took the empty q for a back/forward and emptied the box). */
export const HELP_QUERY_MAX = 200;

/** /help?topic=<section id>&q=<search text>: the help section to open and the search (a deep link to
 * a topic, e.g. /help?topic=sync; unknown topics fall back to the top). */
export const helpSearchSchema = searchSchema({
  topic: text({ pattern: /^[a-z][a-z0-9-]{0,39}$/ }),
  q: text({ max: HELP_QUERY_MAX, coerce: true }),
});
export type HelpSearch = Parsed<typeof helpSearchSchema>;

export const helpRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/help",
  validateSearch: (search) => helpSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.help", locales: ["help"] },
  component: lazyRouteComponent(() => import("../screens/help/HelpScreen"), "HelpScreen"),
});

/** /import?assetId=<id>: import a bank statement file (Norma 43, CAMT.053, OFX, CSV) on the device,
 * offline; assetId preselects the asset to value (issue 15). */
export const importSearchSchema = searchSchema({ assetId: idParam });

export const importRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/import",
  validateSearch: (search) => importSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.import", deviceData: true, locales: ["statementImport", "assets", "assetDetail"] },
  component: lazyRouteComponent(() => import("../screens/import/ImportScreen"), "ImportScreen"),
});

export const areaRoutes = [liabilitiesRoute, flowsRoute, beneficiariesRoute, binderRoute, tasksRoute, loginsRoute, helpRoute, importRoute];
