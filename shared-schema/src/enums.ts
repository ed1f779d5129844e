// Every fixed list of values, as English snake_case codes. Labels (es/en) live in
// messages/<lang>.json under `labels.<list>.<code>`; a test checks every code has both.

export const ASSET_CLASSES = [
  "real_estate",
  "vehicles",
  "investments",
  "bank_accounts",
  "cryptocurrencies",
  "collectibles",
  "commodities",
  "others",
] as const;
export type AssetClass = (typeof ASSET_CLASSES)[number];

/** Categories (subtypes) per asset class. Real estate's list is the spec's; the others are ours.
 * Every class has `custom`, which requires a custom category name. */
export const ASSET_CATEGORIES_BY_CLASS = {
  real_estate: ["residential", "commercial", "industrial", "custom"],
  vehicles: ["car", "motorcycle", "boat", "aircraft", "custom"],
  investments: [
    "fixed_income",
    "equity",
    "derivatives",
    "company_participation",
    "fund",
    "alternative_investment",
    "institutional_account",
    "custom",
  ],
  bank_accounts: ["cash", "current_account", "savings_account", "term_deposit", "custom"],
  cryptocurrencies: ["crypto_asset", "crypto_account", "custom"],
  collectibles: ["art", "jewelry", "watches", "wine", "antiques", "coins_and_stamps", "custom"],
  commodities: ["precious_metals", "energy", "agricultural", "custom"],
  others: ["productive_asset", "livestock", "intellectual_property", "receivable", "other", "custom"],
} as const satisfies Record<AssetClass, readonly string[]>;

export const ASSET_CATEGORIES = [...new Set(Object.values(ASSET_CATEGORIES_BY_CLASS).flat())] as [
  AssetCategory,
  ...AssetCategory[],
];
export type AssetCategory = (typeof ASSET_CATEGORIES_BY_CLASS)[AssetClass][number];

export function categoriesOf(assetClass: AssetClass): readonly AssetCategory[] {
  return ASSET_CATEGORIES_BY_CLASS[assetClass];
}

/** Whether code is one of the built-in categories (of any class, `custom` included). Any other
 * category code is one an admin added: an `asset_category` enumeration under the class, which the
 * server checks exists and is active when a record takes it (server/enums.AssetCategoryCheck). */
export function isBuiltinAssetCategory(code: string): code is AssetCategory {
  return (ASSET_CATEGORIES as readonly string[]).includes(code);
}

/** The spec's "add manually" kinds, mapped onto class + category. `category: null` means the form
 * lets the person pick one of the class's categories. The spec's "institutional and crypto
 * accounts" is split in two kinds because they land in different classes. */
export const ADD_MANUALLY_KINDS = [
  { kind: "real_estate", assetClass: "real_estate", category: null },
  { kind: "fixed_income", assetClass: "investments", category: "fixed_income" },
  { kind: "equity", assetClass: "investments", category: "equity" },
  { kind: "derivatives", assetClass: "investments", category: "derivatives" },
  { kind: "company_participations", assetClass: "investments", category: "company_participation" },
  { kind: "crypto", assetClass: "cryptocurrencies", category: "crypto_asset" },
  { kind: "cash", assetClass: "bank_accounts", category: "cash" },
  { kind: "institutional_accounts", assetClass: "bank_accounts", category: null },
  { kind: "crypto_accounts", assetClass: "cryptocurrencies", category: "crypto_account" },
  { kind: "alternative_investments", assetClass: "investments", category: "alternative_investment" },
  { kind: "collectibles", assetClass: "collectibles", category: null },
  { kind: "productive_assets", assetClass: "others", category: "productive_asset" },
  { kind: "other", assetClass: "others", category: "other" },
] as const satisfies readonly { kind: string; assetClass: AssetClass; category: AssetCategory | null }[];
export type AddManuallyKind = (typeof ADD_MANUALLY_KINDS)[number]["kind"];

/** Class-specific field groups of an asset and the classes each one belongs to. */
export const ASSET_GROUPS = {
  vehicle: ["vehicles"],
  animal: ["others"],
  collectible: ["collectibles"],
  investment: ["investments"],
  derivative: ["investments"],
  crypto: ["cryptocurrencies"],
} as const satisfies Record<string, readonly AssetClass[]>;
export type AssetGroup = keyof typeof ASSET_GROUPS;

export const PROPERTY_USES = ["personal_use", "income"] as const;
export const PROPERTY_STATUSES = ["in_use", "rented", "vacant", "under_development", "under_renovation"] as const;
export const AREA_UNITS = ["m2", "km2", "ha", "ft2", "mi2", "yd2", "acres"] as const;
export const PAYMENT_FREQUENCIES = ["daily", "weekly", "monthly", "annual"] as const;
export const BOND_TYPES = ["government", "corporate", "municipal", "supranational", "covered", "convertible", "other"] as const;
export const HOLDING_TYPES = ["direct", "joint", "through_legal_structure", "fiduciary"] as const;
export const ACQUISITION_FORMS = ["purchase", "inheritance", "gift", "construction", "exchange", "other"] as const;
/** How an asset left the person's hands (asset.disposal.kind): sold, given away, or otherwise (lost,
 * stolen, written off, expired). */
export const DISPOSAL_KINDS = ["sold", "gifted", "other"] as const;
export type DisposalKind = (typeof DISPOSAL_KINDS)[number];
export const LEGAL_TYPES = ["full_ownership", "bare_ownership", "usufruct", "leasehold", "other"] as const;
export const VEHICLE_CONDITIONS = ["new", "used", "repaired", "unused"] as const;
export const MILEAGE_UNITS = ["km", "miles", "hours", "days", "trips"] as const;
export const INVESTMENT_HORIZONS = ["short_term", "medium_term", "long_term"] as const;
export const DERIVATIVE_DIRECTIONS = ["long", "short"] as const;
export const STRUCTURE_TYPES = [
  "company",
  "holding_company",
  "partnership",
  "trust",
  "foundation",
  "investment_fund",
  "family_office",
  "other",
] as const;
export const LIABILITY_KINDS = ["mortgage", "loan", "credit_card", "other"] as const;
export const RELATIONSHIPS = [
  "spouse",
  "partner",
  "child",
  "grandchild",
  "parent",
  "sibling",
  "other_relative",
  "friend",
  "charity",
  "other",
] as const;
export const PRIORITIES = ["high", "medium", "low"] as const;
export const VALUATION_SOURCES = ["manual", "appraisal", "market", "connection", "statement"] as const;
export const TASK_STATUSES = ["todo", "in_progress", "done"] as const;
export const CASH_FLOW_DIRECTIONS = ["inflow", "outflow"] as const;
export const CASH_FLOW_FREQUENCIES = ["once", "daily", "weekly", "monthly", "quarterly", "annual"] as const;
export const GENDERS = ["female", "male", "other"] as const;

/** Every labelled list: `labels.<name>.<code>` exists in both message files for each code. */
export const ENUM_LISTS = {
  assetClass: ASSET_CLASSES,
  assetCategory: ASSET_CATEGORIES,
  addManuallyKind: ADD_MANUALLY_KINDS.map((k) => k.kind),
  assetGroup: Object.keys(ASSET_GROUPS),
  propertyUse: PROPERTY_USES,
  propertyStatus: PROPERTY_STATUSES,
  areaUnit: AREA_UNITS,
  paymentFrequency: PAYMENT_FREQUENCIES,
  bondType: BOND_TYPES,
  holdingType: HOLDING_TYPES,
  acquisitionForm: ACQUISITION_FORMS,
  disposalKind: DISPOSAL_KINDS,
  legalType: LEGAL_TYPES,
  vehicleCondition: VEHICLE_CONDITIONS,
  mileageUnit: MILEAGE_UNITS,
  investmentHorizon: INVESTMENT_HORIZONS,
  derivativeDirection: DERIVATIVE_DIRECTIONS,
  structureType: STRUCTURE_TYPES,
  liabilityKind: LIABILITY_KINDS,
  relationship: RELATIONSHIPS,
  priority: PRIORITIES,
  valuationSource: VALUATION_SOURCES,
  taskStatus: TASK_STATUSES,
  cashFlowDirection: CASH_FLOW_DIRECTIONS,
  cashFlowFrequency: CASH_FLOW_FREQUENCIES,
  gender: GENDERS,
} as const satisfies Record<string, readonly string[]>;
export type EnumListName = keyof typeof ENUM_LISTS;

/** Message key of the label of one enum value, e.g. labelKey("assetClass", "real_estate"). */
export function labelKey(list: EnumListName, code: string): string {
  return `labels.${list}.${code}`;
}
