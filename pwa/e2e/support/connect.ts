// Bank and broker connections end to end: the fake Enable Banking and SnapTrade APIs of the Go tests
// (server/cmd/fakeproviders: the same fixtures, the same checks of the JWT and the request signature)
// on a free loopback port, and the real server binary pointed at them through its environment.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { REPO_ROOT, startServer, type RunningServer } from "./server";

export interface FakeProviders {
  enablebanking: string;
  snaptrade: string;
  appId: string;
  clientId: string;
  consumerKey: string;
  keyFile: string;
  stop(): Promise<void>;
}

/** Builds and starts the fake providers; resolves once they print their addresses. */
export async function startFakeProviders(): Promise<FakeProviders> {
  const dir = mkdtempSync(path.join(tmpdir(), "patrimonio-fakeproviders-"));
  const binary = path.join(dir, "fakeproviders");
  execFileSync("go", ["build", "-o", binary, "./server/cmd/fakeproviders"], { cwd: REPO_ROOT, stdio: "inherit" });
  const keyFile = path.join(dir, "enablebanking.pem");
  const child: ChildProcess = spawn(binary, ["-addr", "127.0.0.1:0", "-key-out", keyFile], { stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  let output = "";
  const info = await new Promise<Omit<FakeProviders, "keyFile" | "stop">>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve(JSON.parse(line) as Omit<FakeProviders, "keyFile" | "stop">);
    });
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => reject(new Error(`fakeproviders exited with ${String(code)}:\n${output}`)));
  });
  return {
    ...info,
    keyFile,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
    },
  };
}

/** The real server with both providers configured against the fakes (SQLite, its own data). */
export function startConnectServer(fake: FakeProviders): Promise<RunningServer> {
  return startServer({
    PATRIMONIO_ENABLEBANKING_APP_ID: fake.appId,
    PATRIMONIO_ENABLEBANKING_KEY_FILE: fake.keyFile,
    PATRIMONIO_ENABLEBANKING_API_URL: fake.enablebanking,
    PATRIMONIO_SNAPTRADE_CLIENT_ID: fake.clientId,
    PATRIMONIO_SNAPTRADE_CONSUMER_KEY: fake.consumerKey,
    PATRIMONIO_SNAPTRADE_API_URL: fake.snaptrade,
  });
}
