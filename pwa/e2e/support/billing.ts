// Billing on, end to end: a stripe-mock (Stripe's official API mock, installed by .ci/run) on free
// loopback ports, the real server binary pointed at it through its environment, and Stripe's
// webhooks signed like Stripe signs them (HMAC-SHA256 of "t.payload" with the endpoint's secret).
// stripe-mock answers fixtures and keeps no state: what the screens show after a webhook comes from
// the server's database, which the signed webhook wrote.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHmac } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { startServer, type RunningServer } from "./server";

/** The test keys the billing server runs with (well-formed, known only to the tests). */
export const STRIPE_TEST_KEY = "sk_test_PatrimonioE2e";
export const WEBHOOK_SECRET = "whsec_patrimonio_e2e";
/** stripe-mock's fixture product (with a monthly price of 20.00 USD) and a plan without a price. */
export const MOCK_PRODUCT = "prod_QXg1hqf4jFNsqG";
export const MOCK_PRICE = "price_1PgafmB7WZ01zgkW6dKueIc5";
export const PLAN_WITHOUT_PRICE = "prod_PatrimonioSinPrecio";

function stripeMockBinary(): string {
  const onPath = (process.env.PATH ?? "").split(path.delimiter).map((dir) => path.join(dir, "stripe-mock"));
  let gopath = process.env.GOPATH ?? "";
  if (!gopath) {
    try {
      gopath = execFileSync("go", ["env", "GOPATH"], { encoding: "utf8" }).trim();
    } catch {
      gopath = "";
    }
  }
  const candidates = [...onPath, ...gopath.split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, "bin", "stripe-mock"))];
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error("stripe-mock is not installed: run .ci/run (it installs it), or `go install github.com/stripe/stripe-mock@v0.203.0`");
  return found;
}

export interface StripeMock {
  url: string;
  stop(): Promise<void>;
}

/** Starts stripe-mock on free loopback ports and waits until it listens. */
export async function startStripeMock(): Promise<StripeMock> {
  const child: ChildProcess = spawn(stripeMockBinary(), ["-http-addr", "127.0.0.1:0", "-https-addr", "127.0.0.1:0"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening for HTTP at address: (\S+)/.exec(output);
      if (match) resolve(`http://${match[1]}`);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", (code) => reject(new Error(`stripe-mock exited with ${String(code)}:\n${output}`)));
  });
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
    },
  };
}

/** The real server with billing on against stripe-mock (SQLite, its own data directory). */
export function startBillingServer(stripe: StripeMock): Promise<RunningServer> {
  return startServer({
    PATRIMONIO_STRIPE_SECRET_KEY: STRIPE_TEST_KEY,
    PATRIMONIO_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    PATRIMONIO_STRIPE_API_URL: stripe.url,
    PATRIMONIO_STRIPE_PLANS: `${MOCK_PRODUCT},${PLAN_WITHOUT_PRICE}`,
  });
}

/** The Stripe customer the server made for a user (stripe-mock makes up its id). */
export function customerOf(server: RunningServer, email: string): string {
  const db = path.join(server.dataDir, "data", "patrimonio.db");
  const sql = `SELECT c.customer_id FROM billing_customers c JOIN users u ON u.id = c.user_id WHERE u.email = '${email.replace(/'/g, "''")}'`;
  const out = execFileSync("sqlite3", ["-cmd", ".timeout 5000", db, sql], { encoding: "utf8" }).trim();
  if (!out.startsWith("cus_")) throw new Error(`no Stripe customer for ${email} (sqlite3 said ${JSON.stringify(out)})`);
  return out;
}

/** Sends a Stripe event to the server's webhook, signed now with the test secret; returns the answer. */
export async function sendWebhook(baseURL: string, event: { id: string; type: string; object: Record<string, unknown> }): Promise<{ status: number; body: unknown }> {
  const created = Math.floor(Date.now() / 1000);
  const payload = JSON.stringify({
    id: event.id,
    object: "event",
    api_version: "2026-03-25.dahlia",
    created,
    type: event.type,
    livemode: false,
    pending_webhooks: 1,
    data: { object: event.object },
  });
  const signature = createHmac("sha256", WEBHOOK_SECRET).update(`${created}.${payload}`).digest("hex");
  const res = await fetch(`${baseURL}/api/v1/stripe/webhook`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Stripe-Signature": `t=${created},v1=${signature}` },
    body: payload,
  });
  return { status: res.status, body: await res.json() };
}

/** An active monthly subscription of the fixture plan, as Stripe describes it in its events. */
export function activeSubscription(id: string, customer: string): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    id,
    object: "subscription",
    customer,
    status: "active",
    currency: "usd",
    created: now,
    cancel_at_period_end: false,
    items: {
      object: "list",
      data: [
        {
          id: "si_e2e",
          object: "subscription_item",
          current_period_start: now,
          current_period_end: now + 30 * 86400,
          price: { id: MOCK_PRICE, object: "price", product: MOCK_PRODUCT, currency: "usd", unit_amount: 2000, recurring: { interval: "month", interval_count: 1 } },
        },
      ],
    },
  };
}
