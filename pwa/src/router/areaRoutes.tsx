// The spec's remaining sidebar areas (issue 13): liabilities, flows, beneficiaries and legacy, tasks,
// the logins vault and help. Short routes that match the sidebar. Search parsing lives here (bad values
// fall back, never throw); each screen's code is loaded when the route is first visited.
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import * as z from "zod";
import { appLayoutRoute, guardApp } from "./root";

/** A record id in a search param (a UUID); anything else is dropped. */
const idParam = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  .optional()
  .catch(undefined);

/** /liabilities?new=1 (the new-debt form, assetId preselects the asset) | ?edit=<id> (its form) |
 * ?show=<id> (its payment plan and balance over time). */
export const liabilitiesSearchSchema = z.object({
  new: z.coerce.number().pipe(z.literal(1)).optional().catch(undefined),
  edit: idParam,
  show: idParam,
  assetId: idParam,
});

export const liabilitiesRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/liabilities",
  validateSearch: (search) => liabilitiesSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.liabilities", locales: ["liabilities", "assets"] },
  component: lazyRouteComponent(() => import("../screens/liabilities/LiabilitiesScreen"), "LiabilitiesScreen"),
});

/** /flows?new=1 (the new-flow form, assetId preselects the asset) | ?edit=<id> (its form);
 * view=monthly|yearly: the projection shown. */
export const flowsSearchSchema = z.object({
  view: z.enum(["monthly", "yearly"]).optional().catch(undefined),
  new: z.coerce.number().pipe(z.literal(1)).optional().catch(undefined),
  edit: idParam,
  assetId: idParam,
});

export const flowsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/flows",
  validateSearch: (search) => flowsSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.flows", locales: ["flows", "assets"] },
  component: lazyRouteComponent(() => import("../screens/flows/FlowsScreen"), "FlowsScreen"),
});

/** /beneficiaries?tab=beneficiaries|instructions|readiness */
export const beneficiariesSearchSchema = z.object({
  tab: z.enum(["beneficiaries", "instructions", "readiness"]).optional().catch(undefined),
});

export const beneficiariesRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/beneficiaries",
  validateSearch: (search) => beneficiariesSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.beneficiaries" },
  component: lazyRouteComponent(() => import("../screens/beneficiaries/BeneficiariesScreen"), "BeneficiariesScreen"),
});

/** /beneficiaries/binder: the executor's binder, one printable document. */
export const binderRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/beneficiaries/binder",
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.beneficiaries" },
  component: lazyRouteComponent(() => import("../screens/beneficiaries/BinderScreen"), "BinderScreen"),
});

/** /tasks?status=todo|in_progress|done&priority=high|medium|low&asset=<asset id>|none&overdue=1: the
 * task list's filters (screens/tasks/taskModel.ts applies them). Bad values fall back to no filter. */
export const tasksSearchSchema = z.object({
  status: z.enum(["todo", "in_progress", "done"]).optional().catch(undefined),
  priority: z.enum(["high", "medium", "low"]).optional().catch(undefined),
  asset: z.union([z.literal("none"), z.uuid()]).optional().catch(undefined),
  overdue: z
    .preprocess((v) => (v === true || v === 1 || v === "1" || v === "true" ? true : undefined), z.literal(true).optional())
    .catch(undefined),
});
export type TasksSearch = z.infer<typeof tasksSearchSchema>;

export const tasksRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/tasks",
  validateSearch: (search) => tasksSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.tasks", locales: ["tasks", "assets"] },
  component: lazyRouteComponent(() => import("../screens/tasks/TasksScreen"), "TasksScreen"),
});

export const loginsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/logins",
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.logins", locales: ["logins", "vault", "assets"] },
  component: lazyRouteComponent(() => import("../screens/logins/LoginsScreen"), "LoginsScreen"),
});

/** /help?topic=<section id>&q=<search text>: the help section to open and the search (a deep link to
 * a topic, e.g. /help?topic=sync; unknown topics fall back to the top). */
export const helpSearchSchema = z.object({
  topic: z.string().regex(/^[a-z][a-z0-9-]{0,39}$/).optional().catch(undefined),
  q: z.coerce.string().max(200).optional().catch(undefined),
});
export type HelpSearch = z.infer<typeof helpSearchSchema>;

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
export const importSearchSchema = z.object({ assetId: idParam });

export const importRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/import",
  validateSearch: (search) => importSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.import", locales: ["statementImport", "assets", "assetDetail"] },
  component: lazyRouteComponent(() => import("../screens/import/ImportScreen"), "ImportScreen"),
});

export const areaRoutes = [liabilitiesRoute, flowsRoute, beneficiariesRoute, binderRoute, tasksRoute, loginsRoute, helpRoute, importRoute];
