// The sidebar's "Your Wealth" entries, in the spec's order (§2: Dashboard, Asset List, Wealth Map,
// Tasks, Liabilities, Flows, Beneficiaries, Logins, Help). An entry is shown once its screen exists:
// a new screen gives its entry the route (`to`) instead of null, and nothing else changes.
import type { LinkProps } from "@tanstack/react-router";
import { lazy, type ComponentType, type LazyExoticComponent } from "react";
import {
  ArrowLeftRight,
  CircleHelp,
  KeyRound,
  LayoutDashboard,
  ListChecks,
  Map as MapIcon,
  Receipt,
  Users,
  WalletCards,
  type LucideIcon,
} from "lucide-react";

export type NavId = "dashboard" | "assets" | "wealthMap" | "tasks" | "liabilities" | "flows" | "beneficiaries" | "logins" | "help";

export interface NavEntry {
  id: NavId;
  labelKey: `nav.${NavId}`;
  icon: LucideIcon;
  /** The screen's route, or null while the screen does not exist (the entry is not shown). */
  to: LinkProps["to"] | null;
  /** Active only on an exact path match (the dashboard is "/", a prefix of everything). */
  exact?: boolean;
  /** A small count after the label (e.g. things to review), loaded lazily; renders nothing when 0. */
  badge?: LazyExoticComponent<ComponentType>;
}

export const NAV_ENTRIES: readonly NavEntry[] = [
  { id: "dashboard", labelKey: "nav.dashboard", icon: LayoutDashboard, to: "/", exact: true },
  { id: "assets", labelKey: "nav.assets", icon: WalletCards, to: "/assets" },
  { id: "wealthMap", labelKey: "nav.wealthMap", icon: MapIcon, to: "/map" },
  { id: "tasks", labelKey: "nav.tasks", icon: ListChecks, to: "/tasks" },
  { id: "liabilities", labelKey: "nav.liabilities", icon: Receipt, to: "/liabilities" },
  { id: "flows", labelKey: "nav.flows", icon: ArrowLeftRight, to: "/flows" },
  { id: "beneficiaries", labelKey: "nav.beneficiaries", icon: Users, to: "/beneficiaries", badge: lazy(() => import("../estate/ReadinessBadge")) },
  { id: "logins", labelKey: "nav.logins", icon: KeyRound, to: "/logins" },
  { id: "help", labelKey: "nav.help", icon: CircleHelp, to: "/help" },
];

export type NavItem = NavEntry & { to: NonNullable<NavEntry["to"]> };

/** The entries whose screens exist, in order: what the sidebar shows. */
export const NAV_ITEMS: readonly NavItem[] = NAV_ENTRIES.filter((entry): entry is NavItem => entry.to !== null);
