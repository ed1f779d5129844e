// Renders a component inside a real router (memory history) at "/", for components that use the
// router's hooks (a form's LeaveGuard): "/workspaces" is another page to navigate to.
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from "@tanstack/react-router";
import { act, render } from "@testing-library/react";
import type { ReactElement } from "react";

export async function renderInRouter(ui: ReactElement) {
  const root = createRootRoute({ component: () => <Outlet /> });
  const page = createRoute({ getParentRoute: () => root, path: "/", component: () => ui });
  const elsewhere = createRoute({ getParentRoute: () => root, path: "/workspaces", component: () => <p>Otra página</p> });
  const router = createRouter({ routeTree: root.addChildren([page, elsewhere]), history: createMemoryHistory({ initialEntries: ["/"] }) });
  let view!: ReturnType<typeof render>;
  await act(async () => {
    view = render(<RouterProvider router={router} />);
    await router.load();
  });
  return { ...view, router };
}
