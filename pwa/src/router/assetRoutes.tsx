// The asset area (spec §2): the list with its two tabs, one class, one category, one asset, and the
// add-asset flow. Search parsing lives here (bad values fall back, never throw); each screen's code is
// loaded when the route is first visited or preloaded on intent. The screens read and write the
// device database only, so every one of them works offline.
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { flag, idList, oneOf, positiveInt, searchSchema, text, type Parsed } from "./search";
import { appLayoutRoute, guardApp } from "./root";

/** A list of numbers, from `?collIds=1,3` or `?collIds=[1,3]` (the router's JSON form): the numeric
 * ids of the collapsed groups. Anything that is not a positive whole number is dropped. */
export const collIdsSchema = idList;
const searchText = text({ max: 200, coerce: true });

/** /assets/?tab=accounts|legal-structures&collIds=…&q=…&disposed=1 (q: the search text, kept so back
 * and a shared link keep it; disposed: the sold or disposed assets' section is open; additions to the
 * spec's list). */
export const assetListSearchSchema = searchSchema({
  tab: oneOf("accounts", "legal-structures"),
  collIds: collIdsSchema,
  q: searchText,
  disposed: flag,
});
export type AssetListSearch = Parsed<typeof assetListSearchSchema>;

export const assetListRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/assets/",
  validateSearch: (search) => assetListSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.assets", deviceData: true },
  component: lazyRouteComponent(() => import("../screens/assets/list/AssetListScreen"), "AssetListScreen"),
});

/** /assets/new?categoryId=…&mode=manual|connect&kind=…: the category picker, then connect or add
 * manually, then the form of the kind (an addition to the spec's routes, so the flow deep-links and
 * back works step by step). */
export const assetNewSearchSchema = searchSchema({
  categoryId: positiveInt,
  mode: oneOf("manual", "connect"),
  kind: text({ max: 64 }),
  structureId: text({ max: 64 }),
});
export type AssetNewSearch = Parsed<typeof assetNewSearchSchema>;

export const assetNewRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/assets/new",
  validateSearch: (search) => assetNewSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.assetNew", deviceData: true },
  component: lazyRouteComponent(() => import("../screens/assets/add/AddAssetScreen"), "AddAssetScreen"),
});

/** /assets/{assetId}/?tab=details|settings */
export const assetDetailSearchSchema = searchSchema({ tab: oneOf("details", "settings") });

export const assetDetailRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/assets/$assetId/",
  validateSearch: (search) => assetDetailSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.asset", deviceData: true },
  component: lazyRouteComponent(() => import("../screens/assets/detail/AssetDetailScreen"), "AssetDetailScreen"),
});

/** /assets/classes/{assetType}/?collIds=… (assetType: the class's numeric id, 1–8; collIds: the
 * collapsed categories). */
export const assetClassSearchSchema = searchSchema({ collIds: collIdsSchema, q: searchText, disposed: flag });

export const assetClassRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/assets/classes/$assetType/",
  validateSearch: (search) => assetClassSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.assetClass", deviceData: true },
  component: lazyRouteComponent(() => import("../screens/assets/list/AssetClassScreen"), "AssetClassScreen"),
});

export const assetCategoryRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/assets/classes/$assetType/category/$categoryId",
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.assetCategory", deviceData: true },
  component: lazyRouteComponent(() => import("../screens/assets/list/AssetCategoryScreen"), "AssetCategoryScreen"),
});

export const assetRoutes = [assetListRoute, assetNewRoute, assetDetailRoute, assetClassRoute, assetCategoryRoute];
