// Logins vault commands. A login's `secret` and `notes` are end-to-end encrypted: the screen hands
// the plaintext and a sealer (the unlocked vault, pwa/src/vault) to these commands, which validate
// the plaintext with the shared schema (loginPlaintext: secret 1–1000 characters, notes ≤ 4000),
// seal each field for its place (workspace, record id, field) and write only ciphertext: the
// device database, the outbox, the server and its change log never see the plaintext.
import {
  loginPlaintextSchema,
  validateWith,
  type Issue,
  type Login,
  type LoginPlaintext,
  type VaultKey,
} from "@patrimonio/shared-schema";
import Dexie from "dexie";
import type { ClientDb, CommandResult, Patch } from "../clientdb";
import { atomically, must, recordOf, rowById } from "./batch";
import { sameFieldValue } from "./formPatch";
import "../validation"; // the record schemas load with the commands (see loadValidation)

export type SealedField = "secret" | "notes";

export interface SealPlace {
  workspaceId: string;
  recordId: string;
  field: SealedField;
}

/** Encrypts one field's plaintext for its place (the unlocked vault). */
export interface LoginSealer {
  seal(place: SealPlace, plaintext: string): Promise<string>;
}

export const VAULT_LOCKED_KEY = "validation.vault.locked";
const SEALED: readonly SealedField[] = ["secret", "notes"];
const PLAIN = ["institution", "url", "username", "assetId"] as const;

export interface SaveLoginOptions {
  /** The login to save over (absent: a new login). */
  id?: string;
  /** The plaintext the form started from (every field it opened with; a field absent from it had
   * no value). A field unchanged since is not written (formPatch.ts): an unchanged secret or note
   * keeps its ciphertext (not sealed again, so no needless conflict with another device), and a field
   * another device changed while the form was open keeps that value. Absent: every field is written. */
  previous?: Partial<LoginPlaintext>;
}

const notFound = (): Issue => ({ path: "", key: "validation.notFound", params: {} });

/**
 * Creates or saves a login from its plaintext. A secret or notes to write needs `sealer` (the
 * unlocked vault): without it the command refuses with `validation.vault.locked` and writes nothing.
 * A new login is created and sealed in one transaction (two mutations: its record id is part of the
 * associated data, so the fields are sealed once the id exists).
 */
export async function saveLogin(
  db: ClientDb,
  workspaceId: string,
  input: LoginPlaintext,
  sealer: LoginSealer | null,
  options: SaveLoginOptions = {},
): Promise<CommandResult<{ id: string }>> {
  const checked = validateWith(loginPlaintextSchema, input);
  if (!checked.ok) return checked;
  const value = checked.value;
  const plain: Record<string, unknown> = {};
  for (const k of PLAIN) if (value[k] !== undefined) plain[k] = value[k];
  const toSeal = SEALED.filter((f) => value[f] !== undefined && value[f] !== options.previous?.[f]);
  if (toSeal.length > 0 && sealer === null) return { ok: false, issues: [{ path: toSeal[0]!, key: VAULT_LOCKED_KEY, params: {} }] };
  const sealAll = async (recordId: string): Promise<Record<string, string>> => {
    const out: Record<string, string> = {};
    for (const f of toSeal) out[f] = await sealer!.seal({ workspaceId, recordId, field: f }, value[f]!);
    return out;
  };

  const id = options.id;
  if (id === undefined) {
    return atomically(db, async (refuse) => {
      const created = must(await db.create("logins", workspaceId, plain as Login), refuse);
      if (toSeal.length > 0) {
        // WebCrypto is not IndexedDB: Dexie.waitFor keeps the transaction open meanwhile.
        const sealed = await Dexie.waitFor(sealAll(created.id));
        must(await db.update("logins", created.id, sealed), refuse);
      }
      return { id: created.id };
    });
  }

  const found = await db.get("logins", id);
  if (!found || found.deleted || found.workspaceId !== workspaceId) return { ok: false, issues: [notFound()] };
  const sealed = await sealAll(id);
  return atomically(db, async (refuse) => {
    const row = recordOf("logins", await rowById(db, "logins", id));
    if (!row || row.deleted) return refuse([notFound()]);
    const previous = options.previous;
    const unchanged = (k: keyof LoginPlaintext) => previous !== undefined && sameFieldValue(value[k], previous[k]);
    const patch: Record<string, unknown> = {};
    for (const k of PLAIN) if (!unchanged(k)) patch[k] = plain[k] ?? null;
    for (const f of SEALED) {
      if (f in sealed) patch[f] = sealed[f];
      else if (value[f] === undefined && !unchanged(f)) patch[f] = null;
    }
    must(await db.update("logins", id, patch as Patch<"logins">), refuse);
    return { id };
  });
}

/** Deletes a login (a tombstone: restorable like any record; its ciphertext stays unreadable). */
export function deleteLogin(db: ClientDb, id: string): Promise<CommandResult> {
  return db.delete("logins", id);
}

/**
 * Stores a wrapped vault key: a new record (set-up, no `id`) or the same key wrapped with a new
 * passphrase over an existing record (`id`). All three fields are written together, in one
 * mutation, so the per-field merge can never mix two wrappings.
 */
export async function saveVaultKey(db: ClientDb, workspaceId: string, key: VaultKey, id?: string): Promise<CommandResult<{ id: string }>> {
  if (id === undefined) return db.create("vaultKeys", workspaceId, key);
  const found = await db.get("vaultKeys", id);
  if (!found || found.deleted || found.workspaceId !== workspaceId) return { ok: false, issues: [notFound()] };
  const r = await db.update("vaultKeys", id, { keyId: key.keyId, kdf: key.kdf, wrappedKey: key.wrappedKey });
  return r.ok ? { ok: true, id } : r;
}
