// The exchange-rate cache against the REAL server (built from source, SQLite in a temp dir), whose
// "ECB" is a local HTTP server serving files in the ECB's real XML format (server/fx/testdata): the
// server loads the history at start, the first refresh fills the device, the next one asks from the
// newest date held, an unreachable server leaves the cache as it was (conversions keep working
// offline).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { dbOf } from "../src/clientdb";
import { readRates, refreshRates } from "../src/fx";
import { openNodeDevice, signUp, type Session } from "../src/node";
import { REPO_ROOT, buildServer, startServer, type RealServer } from "./realServer";

let dir: string;
let server: RealServer;
let ecb: Server;
let session: Session;
const asked: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "patrimonio-bin-"));
  ecb = createServer((req, res) => {
    asked.push(req.url ?? "");
    const name = (req.url ?? "").slice(1);
    try {
      const body = readFileSync(path.join(REPO_ROOT, "server/fx/testdata", path.basename(name)));
      res.writeHead(200, { "Content-Type": "text/xml" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => ecb.listen(0, "127.0.0.1", resolve));
  const at = `http://127.0.0.1:${(ecb.address() as AddressInfo).port}`;
  server = await startServer(buildServer(dir), {
    PATRIMONIO_FX_ECB_DAILY_URL: `${at}/eurofxref-daily.xml`,
    PATRIMONIO_FX_ECB_90D_URL: `${at}/eurofxref-hist-90d.xml`,
    PATRIMONIO_FX_ECB_HISTORY_URL: `${at}/eurofxref-hist.xml`,
  });
  session = await signUp(server.url, "rates@example.com", "lentejas con chorizo 42");
  // The server loads in the background at start: wait for it.
  for (let i = 0; i < 200; i++) {
    const res = await fetch(`${server.url}/api/v1/fx-rates`, { headers: { Cookie: session.cookie } });
    const body = (await res.json()) as { days: unknown[] };
    if (body.days.length > 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
}, 300_000);

afterAll(async () => {
  await server?.stop();
  ecb?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("exchange-rate cache", () => {
  test("fills from the server, then asks from the newest date held, and keeps the cache offline", async () => {
    // Nothing held on the server's side: it loaded the full history.
    expect(asked).toContain("/eurofxref-hist.xml");
    const { db } = await openNodeDevice({ name: "rates-device" });
    const options = { fetch, url: `${server.url}/api/v1/fx-rates`, headers: { Cookie: session.cookie } };

    const first = await refreshRates(db, options);
    expect(first).toEqual({ received: 33, latest: "2023-01-03", asked: [""] });
    const local = dbOf(db);
    const usd = await readRates(local, ["USD"]);
    expect(usd.map((r) => r.date)).toEqual(["2022-12-23", "2022-12-27", "2022-12-28", "2022-12-29", "2022-12-30", "2023-01-02", "2023-01-03"]);
    expect(usd[6]).toEqual({ currency: "USD", date: "2023-01-03", source: "ecb", perEur: "1.0545" });
    // The currency that disappeared stops on its last day; the holiday is a gap.
    expect((await readRates(local, ["HRK"])).map((r) => r.date).at(-1)).toBe("2022-12-30");

    // The second refresh asks from the newest date held: that day's rates come again, nothing more.
    const second = await refreshRates(db, options);
    expect(second).toEqual({ received: 4, latest: "2023-01-03", asked: ["since=2023-01-03"] });
    expect(await local.rates.count()).toBe(33);

    // Unreachable server: the refresh fails, the cache stays.
    await expect(refreshRates(db, { ...options, url: "http://127.0.0.1:9/api/v1/fx-rates" })).rejects.toThrow();
    // Signed out: refused, the cache stays.
    await expect(refreshRates(db, { fetch, url: options.url })).rejects.toThrow(/401/);
    expect(await local.rates.count()).toBe(33);
    db.close();
  });

  test("with a list of currencies and a first date, takes only those, from the last rate on or before that date", async () => {
    const { db } = await openNodeDevice({ name: "rates-device-narrow" });
    const options = { fetch, url: `${server.url}/api/v1/fx-rates`, headers: { Cookie: session.cookie } };
    const local = dbOf(db);

    // Values from 2022-12-31 (a holiday) on, in USD (and EUR, which needs no rate): USD only, from
    // its last rate before that day.
    const first = await refreshRates(db, { ...options, currencies: ["USD", "EUR"], from: "2022-12-31" });
    expect(first.asked).toEqual(["currencies=USD&since=2022-12-31"]);
    expect((await local.rates.toArray()).map((r) => `${r.currency} ${r.date}`)).toEqual(["USD 2022-12-30", "USD 2023-01-02", "USD 2023-01-03"]);

    // Again with GBP added: USD from the newest date held, GBP (new) from the first date.
    const second = await refreshRates(db, { ...options, currencies: ["GBP", "USD"], from: "2022-12-31" });
    expect(second.asked.sort()).toEqual(["currencies=GBP&since=2022-12-31", "currencies=USD&since=2023-01-03"]);
    expect((await readRates(local, ["GBP"])).map((r) => r.date)).toEqual(["2022-12-30", "2023-01-02", "2023-01-03"]);

    // A value further back (2022-12-28): both again from there, in one request; then a later first
    // date is already served: both from the newest date held.
    const third = await refreshRates(db, { ...options, currencies: ["GBP", "USD"], from: "2022-12-28" });
    expect(third.asked).toEqual(["currencies=GBP,USD&since=2022-12-28"]);
    const fourth = await refreshRates(db, { ...options, currencies: ["GBP", "USD"], from: "2022-12-29" });
    expect(fourth.asked).toEqual(["currencies=GBP,USD&since=2023-01-03"]);
    expect((await readRates(local, ["USD"])).map((r) => r.date)).toEqual(["2022-12-27", "2022-12-28", "2022-12-29", "2022-12-30", "2023-01-02", "2023-01-03"]);
    // Never a currency nobody asked for.
    expect(await readRates(local, ["JPY", "CHF", "HRK"])).toEqual([]);
    db.close();
  });
});
