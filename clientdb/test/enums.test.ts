// The enumeration cache against the REAL server (built from source, SQLite in a temp dir, seeded
// at start): the first refresh fills the cache, the next one is a 304 (the ETag), an unreachable
// server leaves the cache as it was (offline pickers keep working), and the pickers' reads give
// Spain's provinces.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { dbOf } from "../src/clientdb";
import { readEnums, refreshEnums } from "../src/enums";
import { openNodeDevice, signUp, type Session } from "../src/node";
import { buildServer, startServer, type RealServer } from "./realServer";

let dir: string;
let server: RealServer;
let session: Session;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "patrimonio-bin-"));
  server = await startServer(buildServer(dir));
  session = await signUp(server.url, "enums@example.com", "lentejas con chorizo 42");
}, 300_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("enumeration cache", () => {
  test("refreshes from the server, revalidates with the ETag and keeps the cache offline", async () => {
    const { db } = await openNodeDevice({ name: "enums-device" });
    const options = { fetch, url: `${server.url}/api/v1/enums/`, headers: { Cookie: session.cookie } };

    const first = await refreshEnums(db, options);
    expect(first.changed).toBe(true);
    expect(first.count).toBeGreaterThan(5500);

    const local = dbOf(db);
    const spain = await local.enums.where("[type+code]").equals(["country", "ES"]).first();
    expect(spain?.labels).toEqual({ es: "España", en: "Spain" });
    const provinces = await readEnums(local, "state", spain!.id, { levels: ["province"] });
    expect(provinces).toHaveLength(50);
    expect(provinces.find((p) => p.code === "ES-A")?.labels.es).toBe("Alicante/Alacant");
    // What a personal-info form offers: the subdivisions without children (provinces + Ceuta, Melilla).
    const leaves = await readEnums(local, "state", spain!.id, { leavesOnly: true });
    expect(leaves).toHaveLength(52);
    const realEstate = await readEnums(local, "asset_category", 1);
    expect(realEstate.map((c) => c.code)).toEqual(["residential", "commercial", "industrial"]);

    const second = await refreshEnums(db, options);
    expect(second).toEqual({ changed: false, count: first.count });

    // Unreachable server: the refresh fails, the cache stays.
    await expect(refreshEnums(db, { ...options, url: "http://127.0.0.1:9/api/v1/enums/" })).rejects.toThrow();
    expect(await readEnums(local, "state", spain!.id, { levels: ["province"] })).toHaveLength(50);

    // Signed out: refused, the cache stays.
    await expect(refreshEnums(db, { fetch, url: options.url })).rejects.toThrow(/401/);
    expect(await local.enums.count()).toBe(first.count);
    db.close();
  });
});
