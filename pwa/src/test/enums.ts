// Test helper: a device database's enumeration cache filled with given values (the real refresh,
// with a fetch that answers them), and Spain with a few provinces.
import { refreshEnums, type ClientDb } from "@patrimonio/clientdb";

let etag = 0;

export const SPAIN_ENUMS = [
  { id: 1, type: "country", code: "ES", parentId: null, level: "country", labels: { es: "España", en: "Spain" }, order: 1, active: true },
  { id: 2, type: "state", code: "ES-AN", parentId: 1, level: "autonomous_community", labels: { es: "Andalucía", en: "Andalusia" }, order: 1, active: true },
  { id: 3, type: "state", code: "ES-CO", parentId: 2, level: "province", labels: { es: "Córdoba", en: "Cordoba" }, order: 2, active: true },
  { id: 4, type: "state", code: "ES-IB", parentId: 1, level: "autonomous_community", labels: { es: "Illes Balears", en: "Balearic Islands" }, order: 3, active: true },
  { id: 5, type: "state", code: "ES-PM", parentId: 4, level: "province", labels: { es: "Illes Balears", en: "Balearic Islands" }, order: 4, active: true },
];

export async function loadEnums(db: ClientDb, values: readonly object[]): Promise<void> {
  await refreshEnums(db, { fetch: async () => new Response(JSON.stringify(values), { status: 200, headers: { ETag: `"${++etag}"` } }) });
}
