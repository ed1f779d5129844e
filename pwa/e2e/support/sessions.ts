// Sessions of the e2e server (the SQLite one global-setup.ts starts), changed in its database the
// way time would change them. Every sign-in counts as a fresh proof of identity for ten minutes; a
// test that wants the re-verification dialog forgets that proof instead of waiting ten minutes.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

/** The server's SQLite file: `data/patrimonio.db` under its working directory (the data directory). */
function databasePath(): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("E2E_DATA_DIR is unset: global setup did not start the server");
  const file = path.join(dataDir, "data", "patrimonio.db");
  if (!existsSync(file)) throw new Error(`no SQLite database at ${file}`);
  return file;
}

/**
 * Forgets the last proof of identity of every session of the user with this address, as if it had
 * been made more than ten minutes ago: the next sensitive action answers "reverification_required".
 * Uses the sqlite3 command-line shell (Debian package sqlite3) on the server's live database.
 */
export function forgetProofOfIdentity(email: string): void {
  if (!/^[^'\s]+@[^'\s]+$/.test(email)) throw new Error(`unexpected address ${email}`);
  const sql = `UPDATE sessions SET reverified_at = NULL WHERE user_id IN (SELECT id FROM users WHERE email = '${email.toLowerCase()}');
SELECT changes();`;
  const out = execFileSync("sqlite3", ["-cmd", ".timeout 5000", databasePath(), sql], { encoding: "utf8" });
  if (Number(out.trim()) < 1) throw new Error(`no session of ${email} to age (sqlite3 said ${JSON.stringify(out)})`);
}
