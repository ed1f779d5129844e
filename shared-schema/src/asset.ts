// Asset: anything of value a person owns, of one of the eight classes.
import * as z from "zod";
import {
  ACQUISITION_FORMS,
  AREA_UNITS,
  ASSET_CATEGORIES_BY_CLASS,
  ASSET_GROUPS,
  BOND_TYPES,
  DERIVATIVE_DIRECTIONS,
  DISPOSAL_KINDS,
  HOLDING_TYPES,
  INVESTMENT_HORIZONS,
  LEGAL_TYPES,
  MILEAGE_UNITS,
  PAYMENT_FREQUENCIES,
  PROPERTY_STATUSES,
  PROPERTY_USES,
  VEHICLE_CONDITIONS,
  ASSET_CLASSES,
  isBuiltinAssetCategory,
  type AssetCategory,
  type AssetGroup,
} from "./enums";
import {
  code,
  country,
  currency,
  date,
  doc,
  int,
  isin,
  money,
  multiple,
  price,
  quantity,
  rate,
  share,
  text,
  toHundredths,
  uuidv7,
} from "./primitives";
import { latestToday } from "./personalIdentity";
import { fail, isAfter, whenValid } from "./rules";

export const assetClassSchema = z.enum(ASSET_CLASSES);
/** A category is a code: a built-in one (ASSET_CATEGORIES) or an admin-added enumeration's code,
 * with the enumeration code pattern (so every code an admin can create fits). */
export const assetCategorySchema = code();

export const ASSET_NAME_MAX = 140;
export const ASSET_DESCRIPTION_MAX = 256;
export const OTHER_OWNERS_MAX = 20;

export const otherOwnerSchema = z.strictObject({
  name: doc(text({ min: 1, max: 140 }), "Name of the co-owner."),
  percentage: doc(share(), "The co-owner's share in percent (0 < x <= 100, two decimals), as a decimal string."),
});
export type OtherOwner = z.infer<typeof otherOwnerSchema>;

export const taxLocationSchema = z.strictObject({
  noTaxRegistration: doc(z.boolean(), "True when the asset needs no tax registration; then country, state and city must be absent.").optional(),
  country: doc(country(), "Country where the asset is registered for tax (ISO 3166-1 alpha-2). Required unless noTaxRegistration.").optional(),
  state: doc(text({ min: 1, max: 100 }), "State or province.").optional(),
  city: doc(text({ min: 1, max: 100 }), "City.").optional(),
});
export type TaxLocation = z.infer<typeof taxLocationSchema>;

export const areaSchema = z.strictObject({
  value: doc(quantity(), "Surface, as a decimal string."),
  unit: doc(z.enum(AREA_UNITS), "Unit of the surface."),
});

export const vehicleSchema = z.strictObject({
  brand: doc(text({ min: 1, max: 60 }), "Make.").optional(),
  model: doc(text({ min: 1, max: 60 }), "Model.").optional(),
  yearOfManufacture: doc(int(1800, 2100), "Year of manufacture.").optional(),
  condition: doc(z.enum(VEHICLE_CONDITIONS), "Condition.").optional(),
  mileage: doc(
    z.strictObject({
      value: doc(int(0, 1_000_000_000), "Usage counter (whole number)."),
      unit: doc(z.enum(MILEAGE_UNITS), "Unit of the usage counter."),
    }),
    "Usage: distance, hours, days or trips.",
  ).optional(),
  plate: doc(text({ min: 1, max: 20 }), "Registration plate.").optional(),
  insured: doc(z.boolean(), "Whether the vehicle is insured.").optional(),
});

export const animalSchema = z.strictObject({
  species: doc(text({ min: 1, max: 60 }), "Species.").optional(),
  subtype: doc(text({ min: 1, max: 60 }), "Breed or subtype.").optional(),
});

export const collectibleSchema = z.strictObject({
  author: doc(text({ min: 1, max: 140 }), "Author or maker.").optional(),
  yearOfCreation: doc(int(-5000, 2100), "Year of creation (negative = BCE).").optional(),
  certificateOfAuthenticity: doc(z.boolean(), "Whether a certificate of authenticity exists.").optional(),
  physicalLocation: doc(text({ min: 1, max: 200 }), "Where the piece is kept.").optional(),
});

export const investmentSchema = z.strictObject({
  manager: doc(text({ min: 1, max: 140 }), "Fund or portfolio manager.").optional(),
  horizon: doc(z.enum(INVESTMENT_HORIZONS), "Investment horizon.").optional(),
  expectedReturn: doc(rate(), "Expected annual return in percent (decimal string, two decimals).").optional(),
  expectedMultiple: doc(multiple(), "Expected multiple on invested capital, e.g. \"2.5\".").optional(),
  legalVehicle: doc(text({ min: 1, max: 140 }), "Legal vehicle of the investment.").optional(),
  committedAmount: doc(money(), "Committed amount, in the asset's currency.").optional(),
});

export const derivativeSchema = z.strictObject({
  underlyingAsset: doc(text({ min: 1, max: 140 }), "Underlying asset.").optional(),
  totalContractAmount: doc(money(), "Total contract amount, in the asset's currency.").optional(),
  strike: doc(price(), "Strike price, in the asset's currency.").optional(),
  startDate: doc(date(), "Start date; not after expiryDate.").optional(),
  expiryDate: doc(date(), "Expiry date.").optional(),
  direction: doc(z.enum(DERIVATIVE_DIRECTIONS), "Long or short.").optional(),
});

export const cryptoSchema = z.strictObject({
  symbol: doc(text({ min: 1, max: 20 }), "Ticker symbol, e.g. BTC.").optional(),
  tokenPrice: doc(price(), "Price of one token, in the asset's currency.").optional(),
  accountName: doc(text({ min: 1, max: 140 }), "Wallet or account name.").optional(),
  exchangeName: doc(text({ min: 1, max: 140 }), "Exchange.").optional(),
});

export const DISPOSAL_NOTE_MAX = 500;

/** The asset left the person's hands on `date` (sold, given away, lost…). Absent: still held. One
 * field, so a sale syncs as one register (sync/MERGE.md) and undoing it clears it. */
export const disposalSchema = z.strictObject({
  kind: doc(z.enum(DISPOSAL_KINDS), "Sold, gifted, or other (lost, stolen, written off)."),
  date: doc(date(), "Day the asset left: from it on the asset is not part of net worth. Not before purchaseDate, not in the future (after today in UTC+14)."),
  amount: doc(money(), "What the whole asset was sold for (or, for a gift or other disposal, its value then), in the asset's currency. Required when kind is sold.").optional(),
  note: doc(text({ max: DISPOSAL_NOTE_MAX }), "Free note (buyer, reason…).").optional(),
});
export type Disposal = z.infer<typeof disposalSchema>;

export const assetShape = {
  name: doc(text({ min: 1, max: ASSET_NAME_MAX }), "Name of the asset."),
  assetClass: doc(assetClassSchema, "Asset class (the spec's assetType; the /assets/classes/{assetType} route carries it)."),
  category: doc(assetCategorySchema, "Category code within the class: a built-in one of assetClass (ASSET_CATEGORIES_BY_CLASS) or the code of an active asset_category enumeration under the class (admin-added; the server checks it when the record takes it)."),
  customCategory: doc(text({ min: 1, max: 60 }), "Name of the custom category; required when category is custom, absent otherwise.").optional(),
  description: doc(text({ max: ASSET_DESCRIPTION_MAX }), "Free description.").optional(),
  currency: doc(currency(), "Currency of every amount of this asset (ISO 4217)."),
  participation: doc(share(), "The owner's share in percent (0 < x <= 100, two decimals). Together with otherOwners it must sum to 100."),
  otherOwners: doc(z.array(otherOwnerSchema).max(OTHER_OWNERS_MAX), "Other owners and their shares.").optional(),
  legalStructureId: doc(uuidv7(), "Legal structure that holds the asset (id of a legalStructures record).").optional(),
  taxLocation: doc(taxLocationSchema, "Where the asset is taxed, or that it needs no tax registration.").optional(),
  purchaseValue: doc(money(), "Purchase price, in currency.").optional(),
  purchaseDate: doc(date(), "Purchase date; not after valuationDate.").optional(),
  currentValue: doc(money(), "Current market value, in currency (the whole asset, not only the owner's share).").optional(),
  valuationDate: doc(date(), "Date of currentValue.").optional(),
  taxValue: doc(money(), "Value for tax purposes (e.g. cadastral value), in currency.").optional(),
  risk: doc(int(1, 5), "Risk, 1 (lowest) to 5 (highest).").optional(),
  liquidity: doc(int(1, 5), "Liquidity, 1 (least liquid) to 5 (most liquid).").optional(),
  propertyUse: doc(z.enum(PROPERTY_USES), "Personal use or income.").optional(),
  status: doc(z.enum(PROPERTY_STATUSES), "Status of the property.").optional(),
  area: doc(areaSchema, "Surface with its unit.").optional(),
  yearOfConstruction: doc(int(1000, 2100), "Year of construction.").optional(),
  institution: doc(text({ min: 1, max: 140 }), "Bank, broker or custodian.").optional(),
  market: doc(text({ min: 1, max: 100 }), "Market or exchange where it trades.").optional(),
  issuingCompany: doc(text({ min: 1, max: 140 }), "Issuer.").optional(),
  quantity: doc(quantity(), "Number of units held (decimal string, up to 18 decimals).").optional(),
  isin: doc(isin(), "ISIN code (12 characters, check digit verified).").optional(),
  bondType: doc(z.enum(BOND_TYPES), "Type of bond.").optional(),
  rate: doc(rate(), "Interest or coupon rate in percent (decimal string, two decimals).").optional(),
  paymentFrequency: doc(z.enum(PAYMENT_FREQUENCIES), "Frequency of payments.").optional(),
  amortizationDate: doc(date(), "Amortization (maturity) date.").optional(),
  holdingType: doc(z.enum(HOLDING_TYPES), "How the asset is held.").optional(),
  acquisitionForm: doc(z.enum(ACQUISITION_FORMS), "How the asset was acquired.").optional(),
  legalType: doc(z.enum(LEGAL_TYPES), "Legal form of the ownership right.").optional(),
  taxIdentifier: doc(text({ min: 1, max: 50 }), "Tax identifier (e.g. cadastral reference).").optional(),
  vehicle: doc(vehicleSchema, "Vehicle fields (class vehicles only).").optional(),
  animal: doc(animalSchema, "Animal fields (class others only).").optional(),
  collectible: doc(collectibleSchema, "Collectible fields (class collectibles only).").optional(),
  investment: doc(investmentSchema, "Investment fields (class investments only).").optional(),
  derivative: doc(derivativeSchema, "Derivative fields (class investments only).").optional(),
  crypto: doc(cryptoSchema, "Crypto fields (class cryptocurrencies only).").optional(),
  disposal: doc(disposalSchema, "Set when the asset was sold or otherwise disposed of; absent while it is held.").optional(),
};

type AssetFields = z.infer<z.ZodObject<typeof assetShape>>;

/** Cross-field rules of an asset, in the order the Go side (rules.go) checks them. */
export function assetRules(asset: AssetFields, ctx: z.core.$RefinementCtx): void {
  // A built-in category must be one of its class. Another code is an admin-added category: the
  // device cannot know the server's list, so only its form is checked here; the server checks it
  // exists, is active and hangs under the class when a record takes it (sync, enums).
  const allowed: readonly AssetCategory[] = ASSET_CATEGORIES_BY_CLASS[asset.assetClass];
  if (isBuiltinAssetCategory(asset.category) && !allowed.includes(asset.category)) {
    fail(ctx, ["category"], "validation.asset.categoryNotInClass");
  }
  if (asset.category === "custom" && asset.customCategory === undefined) {
    fail(ctx, ["customCategory"], "validation.required");
  }
  if (asset.category !== "custom" && asset.customCategory !== undefined) {
    fail(ctx, ["customCategory"], "validation.notApplicable");
  }
  for (const group of Object.keys(ASSET_GROUPS) as AssetGroup[]) {
    const classes: readonly string[] = ASSET_GROUPS[group];
    if (asset[group] !== undefined && !classes.includes(asset.assetClass)) {
      fail(ctx, [group], "validation.asset.groupNotForClass");
    }
  }
  const tax = asset.taxLocation;
  if (tax !== undefined) {
    if (tax.noTaxRegistration === true) {
      for (const field of ["country", "state", "city"] as const) {
        if (tax[field] !== undefined) fail(ctx, ["taxLocation", field], "validation.asset.noTaxRegistration");
      }
    } else if (tax.country === undefined) {
      fail(ctx, ["taxLocation", "country"], "validation.required");
    }
  }
  if (isAfter(asset.purchaseDate, asset.valuationDate)) {
    fail(ctx, ["valuationDate"], "validation.date.valuationBeforePurchase");
  }
  if (isAfter(asset.derivative?.startDate, asset.derivative?.expiryDate)) {
    fail(ctx, ["derivative", "expiryDate"], "validation.date.endBeforeStart");
  }
  const disposal = asset.disposal;
  if (disposal !== undefined) {
    if (disposal.kind === "sold" && disposal.amount === undefined) fail(ctx, ["disposal", "amount"], "validation.required");
    // Not after the latest calendar date anywhere on Earth (UTC+14), as a birthday: the device's form
    // holds it to the reader's own today.
    if (disposal.date > latestToday()) fail(ctx, ["disposal", "date"], "validation.date.disposalInFuture");
    else if (isAfter(asset.purchaseDate, disposal.date)) fail(ctx, ["disposal", "date"], "validation.date.disposalBeforePurchase");
  }
  const total = (asset.otherOwners ?? []).reduce((sum, o) => sum + toHundredths(o.percentage), toHundredths(asset.participation));
  if (total > 10000) {
    fail(ctx, ["participation"], "validation.percent.sumExceeds");
  } else if (total < 10000) {
    fail(ctx, ["participation"], "validation.percent.remaining", { remaining: (10000 - total) / 100 });
  }
}

export const assetSchema = doc(z.strictObject(assetShape).superRefine(assetRules, whenValid), "Asset");
export type Asset = z.infer<typeof assetSchema>;

/** The owner's part of the current value: currentValue × participation / 100, exact, rounded half
 * up to 4 decimals (the money format). Derived, never stored. Undefined without a current value. */
export function participationValue(asset: Pick<Asset, "currentValue" | "participation">): string | undefined {
  if (asset.currentValue === undefined) return undefined;
  const [whole = "0", fraction = ""] = asset.currentValue.split(".");
  const value = BigInt(whole + fraction.padEnd(4, "0")); // 1e-4 units
  const product = value * BigInt(toHundredths(asset.participation)); // 1e-8 units
  const rounded = (product + 5000n) / 10000n; // back to 1e-4 units, half up
  const digits = rounded.toString().padStart(5, "0");
  const intPart = digits.slice(0, -4);
  const frac = digits.slice(-4).replace(/0+$/, "");
  return frac ? `${intPart}.${frac}` : intPart;
}
