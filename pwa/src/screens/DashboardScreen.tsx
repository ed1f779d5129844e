// "/" lives in ./dashboard (the route imports this path).
export { DashboardScreen } from "./dashboard/DashboardScreen";
