// The asset area (spec §2): the list with its two tabs, one class, one category, one asset, and the
// add-asset flow. Search parsing lives here (bad values fall back, never throw); each screen's code is
// loaded when the route is first visited or preloaded on intent. The screens read and write the
// device database only, so every one of them works offline.
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import * as z from "zod";
import { appLayoutRoute, guardApp } from "./root";

/** A list of numbers, from `?collIds=1,3` or `?collIds=[1,3]` (the router's JSON form): the numeric
 * ids of the collapsed groups. Anything that is not a positive whole number is dropped. */
export const collIdsSchema = z
  .preprocess((v) => {
    const list = typeof v === "string" ? v.split(",") : typeof v === "number" ? [v] : Array.isArray(v) ? v : [];
    const ids = list.map((x) => Number(x)).filter((n) => Number.isSafeInteger(n) && n > 0);
    return [...new Set(ids)].sort((a, b) => a - b);
  }, z.array(z.number().int().positive()).max(1000))
  .optional()
  .catch(undefined);

/** /assets/?tab=accounts|legal-structures&collIds=…&q=… (q: the search text, kept so back and a
 * shared link keep it; not in the spec's list, an addition). */
export const assetListSearchSchema = z.object({
  tab: z.enum(["accounts", "legal-structures"]).optional().catch(undefined),
  collIds: collIdsSchema,
  q: z.coerce.string().max(200).optional().catch(undefined),
});
export type AssetListSearch = z.infer<typeof assetListSearchSchema>;

export const assetListRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/assets/",
  validateSearch: (search) => assetListSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.assets" },
  component: lazyRouteComponent(() => import("../screens/assets/list/AssetListScreen"), "AssetListScreen"),
});

/** /assets/new?categoryId=…&mode=manual|connect&kind=…: the category picker, then connect or add
 * manually, then the form of the kind (an addition to the spec's routes, so the flow deep-links and
 * back works step by step). */
export const assetNewSearchSchema = z.object({
  categoryId: z.coerce.number().int().positive().optional().catch(undefined),
  mode: z.enum(["manual", "connect"]).optional().catch(undefined),
  kind: z.string().max(64).optional().catch(undefined),
  structureId: z.string().max(64).optional().catch(undefined),
});
export type AssetNewSearch = z.infer<typeof assetNewSearchSchema>;

export const assetNewRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/assets/new",
  validateSearch: (search) => assetNewSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.assetNew" },
  component: lazyRouteComponent(() => import("../screens/assets/add/AddAssetScreen"), "AddAssetScreen"),
});

/** /assets/{assetId}/?tab=details|settings */
export const assetDetailSearchSchema = z.object({
  tab: z.enum(["details", "settings"]).optional().catch(undefined),
});

export const assetDetailRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/assets/$assetId/",
  validateSearch: (search) => assetDetailSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.asset" },
  component: lazyRouteComponent(() => import("../screens/assets/detail/AssetDetailScreen"), "AssetDetailScreen"),
});

/** /assets/classes/{assetType}/?collIds=… (assetType: the class's numeric id, 1–8; collIds: the
 * collapsed categories). */
export const assetClassSearchSchema = z.object({ collIds: collIdsSchema, q: z.coerce.string().max(200).optional().catch(undefined) });

export const assetClassRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/assets/classes/$assetType/",
  validateSearch: (search) => assetClassSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.assetClass" },
  component: lazyRouteComponent(() => import("../screens/assets/list/AssetClassScreen"), "AssetClassScreen"),
});

export const assetCategoryRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/assets/classes/$assetType/category/$categoryId",
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.assetCategory" },
  component: lazyRouteComponent(() => import("../screens/assets/list/AssetCategoryScreen"), "AssetCategoryScreen"),
});

export const assetRoutes = [assetListRoute, assetNewRoute, assetDetailRoute, assetClassRoute, assetCategoryRoute];
