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
  /** The id of the key `seal` uses (the vault's current key). */
  keyId?: string;
  /** The same plaintext sealed again with the current key: null when the ciphertext is sealed with
   * it already or does not open. A saved login's field sealed with an older key (written before a
   * key rotation, or by a device still unlocked with the old key) is sealed again this way. */
  reseal?(place: SealPlace, ciphertext: string): Promise<string | null>;
}

/** The key id a vault ciphertext names (v1.<keyId>.<nonce>.<body>). */
function keyIdOfCiphertext(ciphertext: string): string | undefined {
  return ciphertext.split(".")[1];
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
  // A field this save keeps as it is, but sealed with another key than the vault's current one (an
  // older key, before a rotation): sealed again with the current one, its plaintext unchanged.
  const resealed: Partial<Record<SealedField, { from: string; to: string }>> = {};
  if (sealer?.reseal && sealer.keyId !== undefined) {
    for (const f of SEALED) {
      const current = found.fields[f];
      if (f in sealed || value[f] === undefined || typeof current !== "string" || keyIdOfCiphertext(current) === sealer.keyId) continue;
      const to = await sealer.reseal({ workspaceId, recordId: id, field: f }, current);
      if (to !== null) resealed[f] = { from: current, to };
    }
  }
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
      // Sealed again only while it is still the value it was sealed from (a change that arrived
      // meanwhile is kept).
      else if (resealed[f] !== undefined && row.fields[f] === resealed[f].from) patch[f] = resealed[f].to;
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
 * passphrase over an existing record (`id`). Every field is written together (a rotation's
 * generation is copied), in one mutation, so the per-field merge can never mix two wrappings.
 */
export async function saveVaultKey(db: ClientDb, workspaceId: string, key: VaultKey, id?: string): Promise<CommandResult<{ id: string }>> {
  if (id === undefined) return db.create("vaultKeys", workspaceId, key);
  const found = await db.get("vaultKeys", id);
  if (!found || found.deleted || found.workspaceId !== workspaceId) return { ok: false, issues: [notFound()] };
  const r = await db.update("vaultKeys", id, wholeKey(key));
  return r.ok ? { ok: true, id } : r;
}

/** Every field of a key record, for an update (a generation is set at creation and copied). */
function wholeKey(key: VaultKey): Patch<"vaultKeys"> {
  return { keyId: key.keyId, kdf: key.kdf, wrappedKey: key.wrappedKey, ...(key.generation === undefined ? {} : { generation: key.generation }) };
}

/** A vault key rotation made on the device (pwa/src/vault/keys.ts prepareRotation, rotate.ts). */
export interface VaultKeyRotation {
  /** The new key record (a generation above every key of the workspace). */
  key: VaultKey;
  /** Existing key records (by id) wrapped again under the new passphrase. */
  rewrapped: ReadonlyMap<string, VaultKey>;
}

/**
 * Stores a vault key rotation: the new key record, every old key record re-wrapped under the new
 * passphrase, and every live login's secret and notes sealed again with the new key (`reseal`: the
 * unlocked vault; null leaves a field as it is — one no open key reads). All in one transaction, or
 * nothing: a key record gone meanwhile refuses the whole rotation. A field changed meanwhile (a sync
 * arrived between the re-seal and the write) is left as it arrived; it is sealed again when next
 * saved. Conflicts' ciphertexts are not rewritten (pwa/src/vault/README.md says why).
 */
export async function rotateVaultKey(
  db: ClientDb,
  workspaceId: string,
  rotation: VaultKeyRotation,
  reseal: (place: SealPlace, ciphertext: string) => Promise<string | null>,
): Promise<CommandResult<{ id: string; resealed: number; left: number }>> {
  const planned: { id: string; field: SealedField; from: string; to: string }[] = [];
  let left = 0;
  for (const login of await db.list("logins", workspaceId)) {
    for (const field of SEALED) {
      const from = login.fields[field];
      if (typeof from !== "string") continue;
      const to = await reseal({ workspaceId, recordId: login.id, field }, from);
      if (to === null) left++;
      else planned.push({ id: login.id, field, from, to });
    }
  }
  return atomically(db, async (refuse) => {
    const created = must(await db.create("vaultKeys", workspaceId, rotation.key), refuse);
    for (const [id, key] of rotation.rewrapped) {
      const row = recordOf("vaultKeys", await rowById(db, "vaultKeys", id));
      if (!row || row.deleted || row.workspaceId !== workspaceId) return refuse([notFound()]);
      must(await db.update("vaultKeys", id, wholeKey(key)), refuse);
    }
    let resealed = 0;
    const byLogin = new Map<string, typeof planned>();
    for (const p of planned) byLogin.set(p.id, [...(byLogin.get(p.id) ?? []), p]);
    for (const [id, fields] of byLogin) {
      const row = recordOf("logins", await rowById(db, "logins", id));
      if (!row || row.deleted) {
        left += fields.length;
        continue;
      }
      const patch: Record<string, string> = {};
      for (const p of fields) {
        if (row.fields[p.field] === p.from) patch[p.field] = p.to;
        else left++;
      }
      if (Object.keys(patch).length === 0) continue;
      must(await db.update("logins", id, patch as Patch<"logins">), refuse);
      resealed += Object.keys(patch).length;
    }
    return { id: created.id, resealed, left };
  });
}
