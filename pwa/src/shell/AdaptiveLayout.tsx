// For pages open to everyone (the legal pages, Not Found at an unknown path): inside the app shell
// for a signed-in user who finished onboarding, else in the plain layout. The shell (and the device
// database it opens) is loaded only then.
import { lazy, Suspense, type ReactNode } from "react";
import { useMe } from "../api/queries";
import { RoutePending } from "../router/fallbacks";
import { PublicLayout } from "./PublicLayout";
import { loadSyncModules } from "./syncModules";

const AppShell = lazy(() =>
  Promise.all([import("./AppShell"), loadSyncModules()]).then(([module]) => ({ default: module.AppShell })),
);

export function AdaptiveLayout({ children }: { children: ReactNode }) {
  const { data: me, isPending } = useMe();
  if (isPending) return <RoutePending />;
  if (me?.onboarding.completed) {
    return (
      <Suspense fallback={<RoutePending />}>
        <AppShell>{children}</AppShell>
      </Suspense>
    );
  }
  return <PublicLayout>{children}</PublicLayout>;
}
