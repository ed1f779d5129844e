// The real server for integration tests: built from source with `go build` (the Go build cache
// makes it quick after the first time) and started on a free port with a fresh SQLite file in a
// temporary directory, as pwa/e2e/support/server.ts does for the browser tests.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export const REPO_ROOT = path.resolve(import.meta.dirname, "../..");

export interface RealServer {
  url: string;
  process: ChildProcess;
  /** Everything the server printed. */
  output(): string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      if (address === null || typeof address === "string") return reject(new Error("no port"));
      srv.close(() => resolve(address.port));
    });
  });
}

/** Builds the server binary into `dir` and returns its path. */
export function buildServer(dir: string): string {
  const binary = path.join(dir, "patrimonio");
  execFileSync("go", ["build", "-o", binary, "./server/cmd/patrimonio"], { cwd: REPO_ROOT, stdio: "pipe" });
  return binary;
}

/** Starts `binary` on a free port with its own data directory (SQLite unless env says otherwise). */
export async function startServer(binary: string, env: Record<string, string> = {}): Promise<RealServer> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "patrimonio-clientdb-"));
  const child = spawn(binary, [], {
    cwd: dataDir,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PATRIMONIO_ADDR: `127.0.0.1:${port}`,
      PATRIMONIO_PUBLIC_URL: url,
      PATRIMONIO_LOG_LEVEL: "warn",
      // The tests sign their accounts up from 127.0.0.1: lift the per-client sign-up limit.
      PATRIMONIO_SIGNUPS_PER_IP: "100000",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  for (;;) {
    const early = await Promise.race([exited, new Promise<"wait">((r) => setTimeout(() => r("wait"), 100))]);
    if (early !== "wait") throw new Error(`server exited with ${String(early)} before it was ready:\n${output}`);
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
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
