// The add-asset forms as data: one field catalogue per kind (the spec's "add manually" kinds plus
// vehicles and commodities, so every class can be added), which fields each one asks for and which of
// them are required. AssetForm renders any kind from this table; formSchema.ts turns "required" into
// the shared schema's own `validation.required`. Field names are the asset record's paths
// ("vehicle.mileage.value"), so the schema's errors land on their fields unchanged.
import {
  ADD_MANUALLY_KINDS,
  ASSET_CATEGORIES_BY_CLASS,
  type AddManuallyKind,
  type AssetClass,
  type EnumListName,
} from "@patrimonio/shared-schema";

/** A form of the flow: the spec's add-manually kinds, plus vehicles and commodities. */
export type FormKind = AddManuallyKind | "vehicles" | "commodities";

export const FORM_KINDS: readonly { kind: FormKind; assetClass: AssetClass; category: string | null }[] = [
  ...ADD_MANUALLY_KINDS,
  { kind: "vehicles", assetClass: "vehicles", category: null },
  { kind: "commodities", assetClass: "commodities", category: null },
];

export function isFormKind(value: string | undefined): value is FormKind {
  return FORM_KINDS.some((k) => k.kind === value);
}

export function kindInfo(kind: FormKind) {
  return FORM_KINDS.find((k) => k.kind === kind)!;
}

/** How a value is typed. Money and prices are in the asset's currency. */
export type FieldType =
  | "text"
  | "textarea"
  | "isin"
  | "money"
  | "price"
  | "quantity"
  | "rate"
  | "multiple"
  | "integer"
  | "year"
  | "date"
  | "choice"
  | "boolean"
  /** A value with its unit (area, mileage): `name` is the value, `unitName` the unit. */
  | "measure";

export interface FieldSpec {
  /** Path of the field in the asset record ("vehicle.brand"). */
  name: string;
  type: FieldType;
  /** Label key under assetAdd.fields (default: the last part of the name). */
  label?: string;
  /** A hint under assetAdd.hints.<label>. */
  hint?: boolean;
  /** choice: the shared schema's labelled list; measure: the unit's list. */
  list?: EnumListName;
  /** measure: path of the unit and its default. */
  unitName?: string;
  defaultUnit?: string;
  /** text: most characters (the schema's limit, also the input's maxLength). */
  max?: number;
  /** integer: bounds shown as a hint only (the schema checks them). */
  allowNegative?: boolean;
}

export function labelOf(field: FieldSpec): string {
  if (field.label) return field.label;
  const parts = field.name.split(".");
  return field.type === "measure" ? parts[0]! : parts[parts.length - 1]!;
}

export interface KindCatalogue {
  /** The kind's own section (empty: the common sections are enough, e.g. cash). */
  details: readonly FieldSpec[];
  /** Paths that must be filled, besides the schema's own (name, currency, participation) and the
   * common ones every kind requires (current value and its date). */
  required: readonly string[];
  /** Ask for a tax value (cadastral value and the like). */
  taxValue?: boolean;
}

const f = {
  text: (name: string, max: number, extra: Partial<FieldSpec> = {}): FieldSpec => ({ name, type: "text", max, ...extra }),
  choice: (name: string, list: EnumListName, extra: Partial<FieldSpec> = {}): FieldSpec => ({ name, type: "choice", list, ...extra }),
  of: (name: string, type: FieldType, extra: Partial<FieldSpec> = {}): FieldSpec => ({ name, type, ...extra }),
};

const institution = f.text("institution", 140);
const market = f.text("market", 100);
const issuer = f.text("issuingCompany", 140);
const quantity = f.of("quantity", "quantity");
const acquisition = f.choice("acquisitionForm", "acquisitionForm");

export const CATALOGUE: Record<FormKind, KindCatalogue> = {
  real_estate: {
    details: [
      f.of("area.value", "measure", { unitName: "area.unit", list: "areaUnit", defaultUnit: "m2" }),
      f.of("yearOfConstruction", "year"),
      f.choice("propertyUse", "propertyUse"),
      f.choice("status", "propertyStatus"),
      f.text("taxIdentifier", 50, { hint: true }),
      f.choice("legalType", "legalType"),
      acquisition,
    ],
    required: ["taxLocation.country"],
    taxValue: true,
  },
  vehicles: {
    details: [
      f.text("vehicle.brand", 60),
      f.text("vehicle.model", 60),
      f.of("vehicle.yearOfManufacture", "year"),
      f.choice("vehicle.condition", "vehicleCondition"),
      f.of("vehicle.mileage.value", "measure", { unitName: "vehicle.mileage.unit", list: "mileageUnit", defaultUnit: "km" }),
      f.text("vehicle.plate", 20),
      f.of("vehicle.insured", "boolean"),
      acquisition,
    ],
    required: ["vehicle.brand", "vehicle.model"],
    taxValue: true,
  },
  fixed_income: {
    details: [
      f.of("isin", "isin"),
      issuer,
      f.choice("bondType", "bondType"),
      f.of("rate", "rate"),
      f.choice("paymentFrequency", "paymentFrequency"),
      f.of("amortizationDate", "date"),
      quantity,
      market,
      institution,
    ],
    required: ["issuingCompany"],
  },
  equity: {
    details: [f.of("isin", "isin"), issuer, quantity, market, institution],
    required: ["issuingCompany", "quantity"],
  },
  derivatives: {
    details: [
      f.text("derivative.underlyingAsset", 140),
      f.of("derivative.totalContractAmount", "money"),
      f.of("derivative.strike", "price"),
      f.of("derivative.startDate", "date"),
      f.of("derivative.expiryDate", "date"),
      f.choice("derivative.direction", "derivativeDirection"),
      market,
      institution,
    ],
    required: ["derivative.underlyingAsset", "derivative.expiryDate", "derivative.direction"],
  },
  company_participations: {
    details: [f.text("issuingCompany", 140, { label: "company" }), f.of("quantity", "quantity", { label: "shares" }), f.text("taxIdentifier", 50, { label: "companyTaxId" }), acquisition],
    required: ["issuingCompany"],
    taxValue: true,
  },
  crypto: {
    details: [
      f.text("crypto.symbol", 20),
      quantity,
      f.of("crypto.tokenPrice", "price"),
      f.text("crypto.accountName", 140),
      f.text("crypto.exchangeName", 140),
    ],
    required: ["crypto.symbol", "quantity"],
  },
  cash: { details: [], required: [] },
  institutional_accounts: {
    details: [institution, f.of("rate", "rate", { label: "interestRate" }), f.choice("paymentFrequency", "paymentFrequency"), f.of("amortizationDate", "date", { label: "maturityDate" })],
    required: ["institution"],
  },
  crypto_accounts: {
    details: [f.text("crypto.exchangeName", 140), f.text("crypto.accountName", 140)],
    required: ["crypto.exchangeName"],
  },
  alternative_investments: {
    details: [
      f.text("investment.manager", 140),
      f.choice("investment.horizon", "investmentHorizon"),
      f.of("investment.expectedReturn", "rate"),
      f.of("investment.expectedMultiple", "multiple"),
      f.text("investment.legalVehicle", 140),
      f.of("investment.committedAmount", "money"),
      institution,
    ],
    required: ["investment.manager"],
  },
  collectibles: {
    details: [
      f.text("collectible.author", 140),
      f.of("collectible.yearOfCreation", "year", { allowNegative: true }),
      f.of("collectible.certificateOfAuthenticity", "boolean"),
      f.text("collectible.physicalLocation", 200),
      acquisition,
    ],
    required: ["collectible.physicalLocation"],
    taxValue: true,
  },
  productive_assets: {
    details: [f.text("animal.species", 60, { hint: true }), f.text("animal.subtype", 60), f.text("taxIdentifier", 50), acquisition],
    required: [],
    taxValue: true,
  },
  other: { details: [acquisition], required: ["description"], taxValue: true },
  commodities: {
    details: [quantity, market, institution],
    required: ["quantity"],
  },
};

/** Required in every kind: what gives the asset a value (and its first valuation). */
export const ALWAYS_REQUIRED = ["name", "currency", "participation", "currentValue", "valuationDate"] as const;

export function requiredFields(kind: FormKind, category: string): string[] {
  return [...ALWAYS_REQUIRED, ...(category === "custom" ? ["customCategory"] : []), ...CATALOGUE[kind].required];
}

/**
 * The form for a category of a class: the category's own kind where there is one, else the class's
 * broadest form (also for the categories admins add).
 */
export function kindForCategory(assetClass: AssetClass, category: string): FormKind {
  const exact = FORM_KINDS.find((k) => k.assetClass === assetClass && k.category === category);
  if (exact) return exact.kind;
  switch (assetClass) {
    case "real_estate":
      return "real_estate";
    case "vehicles":
      return "vehicles";
    case "investments":
      if (category === "fund") return "equity";
      if (category === "institutional_account") return "institutional_accounts";
      return "alternative_investments";
    case "bank_accounts":
      return "institutional_accounts";
    case "cryptocurrencies":
      return "crypto";
    case "collectibles":
      return "collectibles";
    case "commodities":
      return "commodities";
    case "others":
      return category === "livestock" ? "productive_assets" : "other";
  }
}

/** The class of a kind's form and, when the kind fixes it, its category. */
export function classOfKind(kind: FormKind): AssetClass {
  return kindInfo(kind).assetClass;
}

/** Whether the shared lists know the category in the class (admins' additions are not in them). */
export function isSchemaCategory(assetClass: AssetClass, category: string): boolean {
  return (ASSET_CATEGORIES_BY_CLASS[assetClass] as readonly string[]).includes(category);
}
