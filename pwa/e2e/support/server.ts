import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");
export const BINARY = path.join(REPO_ROOT, "bin", "patrimonio");

export interface RunningServer {
  url: string;
  process: ChildProcess;
  dataDir: string;
  stop(): Promise<void>;
}

/** Asks the kernel for a free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      if (address === null || typeof address === "string") {
        reject(new Error("no port"));
        return;
      }
      srv.close(() => resolve(address.port));
    });
  });
}

/**
 * Starts the real server binary (built by `make build`) on a free port with its own data directory.
 * Without DATABASE_URL in `env` it runs on a fresh SQLite file. Its public URL is
 * http://localhost:<port>: WebAuthn needs a host name (an IP address cannot be a relying party id),
 * and browsers treat localhost as a secure context (Secure cookies, passkeys). E-mails go to a dev
 * outbox in the data directory (GET /api/v1/dev/outbox); secrets at rest (TOTP) are sealed with a
 * fresh random key; the per-client sign-up limit is lifted.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "patrimonio-e2e-"));
  const outbox = path.join(dataDir, "outbox");
  mkdirSync(outbox);
  const childEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PATRIMONIO_ADDR: `127.0.0.1:${port}`,
    PATRIMONIO_PUBLIC_URL: url,
    PATRIMONIO_WEB_DIR: path.join(REPO_ROOT, "pwa", "dist"),
    PATRIMONIO_LOG_LEVEL: "warn",
    PATRIMONIO_DEV_OUTBOX: outbox,
    PATRIMONIO_SECRET_KEY: randomBytes(32).toString("base64"),
    // Every test signs its accounts up from 127.0.0.1: lift the per-client sign-up limit (20 per
    // 15 minutes by default), which a whole run would reach.
    PATRIMONIO_SIGNUPS_PER_IP: "100000",
    ...env,
  };
  const child = spawn(BINARY, [], { cwd: dataDir, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));

  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  // Wait until the health endpoint answers (or the process dies).
  for (;;) {
    const early = await Promise.race([exited, new Promise<"wait">((r) => setTimeout(() => r("wait"), 100))]);
    if (early !== "wait") {
      throw new Error(`server exited with ${String(early)} before it was ready:\n${output}`);
    }
    try {
      const res = await fetch(`${url}/api/v1/health`);
      if (res.status === 200 || res.status === 503) break;
    } catch {
      // not listening yet
    }
  }
  return {
    url,
    process: child,
    dataDir,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
