// The help's search box against the route's q (audit finding 7): the box takes no more than the URL
// keeps, so a long search is never dropped from the URL and then wiped from the box.
import { act, screen } from "@testing-library/react";
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { describe, expect, test } from "vitest";
import { HELP_QUERY_MAX, helpSearchSchema } from "../../router/areaRoutes";
import { renderWithI18n } from "../../ui/testing";
import { HelpScreen } from "./HelpScreen";

describe("help search box", () => {
  test("takes at most the q the route keeps", async () => {
    const root = createRootRoute();
    const help = createRoute({ getParentRoute: () => root, path: "/help", validateSearch: (s: Record<string, unknown>) => helpSearchSchema.parse(s), component: HelpScreen });
    const router = createRouter({ routeTree: root.addChildren([help]), history: createMemoryHistory({ initialEntries: ["/help"] }) });
    await act(async () => {
      renderWithI18n(<RouterProvider router={router} />);
      await router.load();
    });
    const box = (await screen.findByTestId("help-search")) as HTMLInputElement;
    expect(box.maxLength).toBe(HELP_QUERY_MAX);
    expect(helpSearchSchema.parse({ q: "a".repeat(HELP_QUERY_MAX) })).toEqual({ q: "a".repeat(HELP_QUERY_MAX) });
    expect(helpSearchSchema.parse({ q: "a".repeat(HELP_QUERY_MAX + 1) })).toEqual({});
  });
});
