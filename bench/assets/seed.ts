// A workspace full of assets, written the way a device writes them: a @patrimonio/clientdb device in
// Node (fake-indexeddb) creates the records through its commands (db.batch, 1,000 per transaction)
// and its SyncClient pushes them over the real socket; the server stores them and every other device
// of the user (the browser under test) receives them by sync. Deterministic: the same counts give the
// same names and values.
import { ClientDb, MemoryLockManager, SyncClient, type EntityOf } from "@patrimonio/clientdb";
import { nodeSocket, openNodeDevice, signIn, syncUrlOf } from "@patrimonio/clientdb/node";
import { ASSET_CATEGORIES_BY_CLASS, ASSET_CLASSES, type AssetClass } from "@patrimonio/shared-schema";

type AssetFields = EntityOf<"assets">;
type StructureFields = EntityOf<"legalStructures">;

/** A small deterministic random generator (mulberry32). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES: Record<AssetClass, string[]> = {
  real_estate: ["Piso en Madrid", "Local en Valencia", "Nave en Zaragoza", "Casa en Málaga", "Ático en Bilbao"],
  vehicles: ["Coche familiar", "Moto de ciudad", "Velero", "Furgoneta"],
  investments: ["Fondo de inversión global", "Cartera de acciones", "Bono del Tesoro", "Participación en sociedad"],
  bank_accounts: ["Cuenta corriente", "Cuenta de ahorro", "Depósito a plazo", "Efectivo en caja"],
  cryptocurrencies: ["Bitcoin en monedero frío", "Ethereum en exchange", "Cuenta de criptomonedas"],
  collectibles: ["Cuadro al óleo", "Reloj de colección", "Bodega de vinos", "Colección de sellos"],
  commodities: ["Lingote de oro", "Monedas de plata", "Participación agrícola"],
  others: ["Maquinaria del taller", "Derechos de autor", "Préstamo a un familiar"],
};
const INSTITUTIONS = ["Banco Santander", "BBVA", "CaixaBank", "Bankinter", "ING", "Openbank", "Renta 4"];
const CITIES = [
  { state: "Madrid", city: "Madrid" },
  { state: "Valencia/València", city: "Valencia" },
  { state: "Málaga", city: "Marbella" },
  { state: "Bizkaia", city: "Bilbao" },
];

/** `count` assets spread over the classes, `inStructures` of them held by the given structures. */
export function generateAssets(count: number, structureIds: readonly string[], seed = 42): AssetFields[] {
  const random = seeded(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const out: AssetFields[] = [];
  for (let i = 0; i < count; i++) {
    const assetClass = ASSET_CLASSES[i % ASSET_CLASSES.length]!;
    const category = pick(ASSET_CATEGORIES_BY_CLASS[assetClass].filter((c) => c !== "custom"));
    const cents = Math.floor(random() * 100_000_000);
    const shared = random() < 0.2;
    const place = pick(CITIES);
    const asset: AssetFields = {
      name: `${pick(NAMES[assetClass])} ${String(i + 1).padStart(5, "0")}`,
      assetClass,
      category,
      currency: random() < 0.85 ? "EUR" : "USD",
      participation: shared ? "50" : "100",
      ...(shared ? { otherOwners: [{ name: "Marta Ruiz", percentage: "50" }] } : {}),
      currentValue: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`,
      valuationDate: "2026-06-30",
      institution: pick(INSTITUTIONS),
      taxLocation: { country: "ES", state: place.state, city: place.city },
    };
    if (structureIds.length > 0 && random() < 0.6) asset.legalStructureId = structureIds[i % structureIds.length]!;
    out.push(asset);
  }
  return out;
}

export function generateStructures(count: number): StructureFields[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `Sociedad patrimonial ${String(i + 1).padStart(2, "0")}, S.L.`,
    structureType: i % 5 === 0 ? "holding_company" : "company",
    country: "ES",
    ownershipPercentage: i % 4 === 0 ? "50" : "100",
  }));
}

export interface SeedResult {
  workspaceId: string;
  structureIds: string[];
  assetIds: string[];
  /** Creating the records on the device and pushing them until the server acknowledged all. */
  ms: number;
}

/** Writes records through one Node device of the user and waits until the server has them all. */
export async function seedWorkspace(
  baseUrl: string,
  email: string,
  password: string,
  build: (structureIds: string[]) => { assets: AssetFields[] },
  structures: StructureFields[] = [],
  workspaceId?: string,
): Promise<SeedResult> {
  const started = performance.now();
  const session = await signIn(baseUrl, email, password);
  const workspace = workspaceId ? session.workspaces.find((w) => w.id === workspaceId) : (session.workspaces.find((w) => w.kind === "personal") ?? session.workspaces[0]);
  if (!workspace) throw new Error(`${email} has no workspace ${workspaceId ?? ""}`);
  const { db } = await openNodeDevice({ name: `seed-${email}` });
  const client = new SyncClient(db, {
    url: syncUrlOf(baseUrl),
    workspaces: () => [workspace.id],
    socket: nodeSocket({ origin: baseUrl, cookie: session.cookie }),
    locks: new MemoryLockManager(),
  });
  try {
    const structureIds = await createAll(db, "legalStructures", workspace.id, structures);
    const { assets } = build(structureIds);
    const assetIds = await createAll(db, "assets", workspace.id, assets);
    client.start();
    await client.idle();
    return { workspaceId: workspace.id, structureIds, assetIds, ms: performance.now() - started };
  } finally {
    await client.stop();
    db.close();
  }
}

async function createAll<C extends "assets" | "legalStructures">(db: ClientDb, collection: C, workspaceId: string, records: EntityOf<C>[]): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < records.length; start += 1000) {
    await db.batch(async () => {
      for (const fields of records.slice(start, start + 1000)) {
        const result = await db.create(collection, workspaceId, fields);
        if (!result.ok) throw new Error(`${collection}: ${JSON.stringify(result.issues)} for ${JSON.stringify(fields)}`);
        ids.push(result.id);
      }
    });
  }
  return ids;
}
