// "Download my data" (profile, "Your data"): everything the person keeps in the app, as one JSON
// file another program can read — made on the device from its database, so it works offline and
// nothing is asked of the server. README.md, "Your data", describes the format.
//
// What it holds: the account's identity (from /me), then each workspace the person belongs to with
// its records as this device shows them (its own changes not yet sent included, deleted records
// not), one list per collection, each record `{ id, ...fields }`. What it leaves out: the logins
// vault's secrets and notes (end-to-end encrypted; exporting them in clear would put every password
// in a file) and the vault's keys, which open nothing without the passphrase.
import type { ClientDb } from "@patrimonio/clientdb";
import type { CollectionName } from "@patrimonio/shared-schema";
import type { Me, User, Workspace } from "../api/types";

/** The format's name and version, written at the top of every file. */
export const EXPORT_FORMAT = "patrimonio.export";
export const EXPORT_VERSION = 1;

/** The collections exported, in the file's order. vaultKeys is never exported. */
export const EXPORTED_COLLECTIONS = [
  "assets",
  "valuations",
  "legalStructures",
  "liabilities",
  "cashFlows",
  "beneficiaries",
  "legacyInstructions",
  "tasks",
  "logins",
  "fxRates",
] as const satisfies readonly CollectionName[];

/** Fields left out of a collection's records (the vault's ciphertext). */
const LEFT_OUT: Partial<Record<CollectionName, readonly string[]>> = { logins: ["secret", "notes"] };

export type ExportedRecord = { id: string } & Record<string, unknown>;

export interface ExportedWorkspace {
  id: string;
  name: string;
  kind: Workspace["kind"];
  role: Workspace["role"];
  /** This device's changes to the workspace's records the server has not confirmed yet. */
  unsyncedRecords: number;
  collections: Record<(typeof EXPORTED_COLLECTIONS)[number], ExportedRecord[]>;
}

export interface DataExport {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exportedAt: string;
  /** The account's identity as /me gives it (username null until chosen). */
  account: Pick<User, "email" | "firstName" | "lastName" | "birthday" | "gender" | "country" | "state"> & { username: string | null };
  workspaces: ExportedWorkspace[];
  notIncluded: string[];
}

/** Builds the export of every workspace in `workspaces` from the device database. */
export async function buildDataExport(db: ClientDb, me: Pick<Me, "user">, workspaces: readonly Workspace[], now: Date = new Date()): Promise<DataExport> {
  const { user } = me;
  const out: ExportedWorkspace[] = [];
  for (const ws of workspaces) {
    let unsynced = 0;
    const collections = {} as ExportedWorkspace["collections"];
    for (const collection of EXPORTED_COLLECTIONS) {
      const leftOut = LEFT_OUT[collection] ?? [];
      const records = await db.list(collection, ws.id);
      collections[collection] = records.map((r) => {
        if (r.pending > 0) unsynced++;
        const fields: Record<string, unknown> = { ...(r.fields as Record<string, unknown>) };
        for (const f of leftOut) delete fields[f];
        return { id: r.id, ...fields };
      });
    }
    out.push({ id: ws.id, name: ws.name, kind: ws.kind, role: ws.role, unsyncedRecords: unsynced, collections });
  }
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: now.toISOString(),
    account: {
      email: user.email,
      username: user.username ?? null,
      firstName: user.firstName,
      lastName: user.lastName,
      birthday: user.birthday,
      gender: user.gender,
      country: user.country,
      state: user.state,
    },
    workspaces: out,
    notIncluded: ["logins.secret", "logins.notes", "vaultKeys"],
  };
}

/** The export's text: indented JSON, ending with a newline. */
export function dataExportText(data: DataExport): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}

/** The number of records in an export (for the message once downloaded). */
export function exportedRecordCount(data: DataExport): number {
  let n = 0;
  for (const ws of data.workspaces) for (const list of Object.values(ws.collections)) n += list.length;
  return n;
}
