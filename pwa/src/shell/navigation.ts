// The sidebar's entries, in order. Only screens that exist are listed; later screens (Asset List,
// Wealth Map, Tasks, Liabilities, Flows, Beneficiaries, Logins, Help) add themselves here.
import { LayoutDashboard, type LucideIcon } from "lucide-react";

export interface NavItem {
  to: "/";
  labelKey: "nav.dashboard";
  icon: LucideIcon;
  /** Active only on an exact path match (the dashboard is "/", a prefix of everything). */
  exact: boolean;
}

export const NAV_ITEMS: readonly NavItem[] = [{ to: "/", labelKey: "nav.dashboard", icon: LayoutDashboard, exact: true }];
