// /onboarding and its steps: the onboarding frame inside the user's device database. The forms of the
// steps read enumerations (countries, provinces) from it, also offline, so the database and its sync
// load with the onboarding's code (see onboardingRoutes.tsx), as they do for the app shell.
import { use } from "react";
import { useMe } from "../../api/queries";
import { OnboardingLayout } from "../../screens/onboarding/OnboardingLayout";
import { loadedSyncModules, loadSyncModules } from "../../shell/syncModules";

export function OnboardingRoute() {
  const { data: me } = useMe();
  const { DeviceSync } = loadedSyncModules() ?? use(loadSyncModules());
  return (
    <DeviceSync user={me?.user} workspaceIds={me?.workspaces.map((w) => w.id) ?? []}>
      <OnboardingLayout />
    </DeviceSync>
  );
}
