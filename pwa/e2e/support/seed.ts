import { spawn } from "node:child_process";
import path from "node:path";
import type { ApiAccount } from "./accounts";
import { REPO_ROOT } from "./server";

/** A record for bench/dashboard/seed.ts: later records refer to earlier ones' keys as "$ref:<key>". */
export interface PlannedRecord {
  collection: string;
  key?: string;
  fields: Record<string, unknown>;
}

/**
 * Writes the records from another device of the user (bench/dashboard/seed-cli.ts: a
 * @patrimonio/clientdb device in Node, in its own process since Playwright's loader cannot load
 * shared-schema's JSON imports, pushing over the real sync socket); the browser receives them by sync.
 */
export async function seedRecords(baseURL: string, account: ApiAccount, plan: readonly PlannedRecord[]): Promise<void> {
  const input = JSON.stringify({ baseUrl: baseURL, email: account.email, password: account.password, plan });
  await new Promise<void>((resolve, reject) => {
    const child = spawn(path.join(REPO_ROOT, "node_modules", ".bin", "tsx"), [path.join(REPO_ROOT, "bench", "dashboard", "seed-cli.ts")], { cwd: REPO_ROOT, stdio: ["pipe", "pipe", "pipe"] });
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`seeding failed (${code}): ${err}`))));
    child.stdin.end(input);
  });
}
