// The wrappings of a workspace's vault keys, and what an unlocked vault must tell about them.
//
// A vault key record is written whole (keyId, kdf, wrappedKey in one mutation), so when two
// devices change the passphrase at the same time the per-field merge keeps one change as the
// record and the other as conflicts, one per field, sharing that change's stamp. The losing change
// is not lost: its wrapping is those conflicts' values, and it still opens the same key with the
// passphrase chosen on its device. Unlocking tries it (after the record's own wrapping), and the
// screen says what happened and lets an editor keep one (restoreWrite / dismissWrite).
//
// Two devices that set a vault up at the same time make two records (two keys): a passphrase
// opens the one it wrapped; the other one is named here so the screen can ask for its passphrase.
import type { ConflictView } from "@patrimonio/clientdb";
import { vaultKeyGeneration, type VaultKdf, type VaultKey } from "@patrimonio/shared-schema";
import { currentKey, type StoredVaultKey, type UnlockedVault } from "./session";

/** Every wrapping of the workspace's key records: each record's own, then each losing change's. */
export function wrappingsOf(records: readonly StoredVaultKey[], conflicts: readonly ConflictView[]): StoredVaultKey[] {
  const out: StoredVaultKey[] = [];
  for (const r of records) {
    out.push({ id: r.id, fields: r.fields });
    for (const lost of lostWrappings(r, conflicts)) out.push({ id: r.id, fields: lost.fields, lost: lost.stamp });
  }
  return out;
}

/** The losing wrappings of one record: for each stamp, the values its conflicts kept (a field the
 * losing change wrote with the same value, like the key id, is the record's own). */
export function lostWrappings(record: StoredVaultKey, conflicts: readonly ConflictView[]): { stamp: string; at: number; fields: VaultKey }[] {
  const byStamp = new Map<string, { at: number; values: Record<string, unknown> }>();
  for (const c of conflicts) {
    if (c.collection !== "vaultKeys" || c.recordId !== record.id) continue;
    const entry = byStamp.get(c.stamp) ?? { at: c.at, values: {} };
    entry.values[c.field] = c.value;
    byStamp.set(c.stamp, entry);
  }
  const out: { stamp: string; at: number; fields: VaultKey }[] = [];
  for (const [stamp, { at, values }] of byStamp) {
    const wrappedKey = values.wrappedKey;
    if (typeof wrappedKey !== "string") continue;
    const kdf = (values.kdf ?? record.fields.kdf) as VaultKdf;
    const keyId = typeof values.keyId === "string" ? values.keyId : record.fields.keyId;
    const generation = record.fields.generation;
    out.push({ stamp, at, fields: { keyId, kdf, wrappedKey, ...(generation === undefined ? {} : { generation }) } });
  }
  return out.sort((a, b) => (a.stamp < b.stamp ? -1 : a.stamp > b.stamp ? 1 : 0));
}

/** What the unlocked vault must tell about one key record. */
export type VaultNotice =
  /** Another key (a concurrent set-up under another passphrase, or `rotation`: a rotation made at
   * the same time elsewhere, of the same generation as the key this session writes with): its
   * logins do not open. Its passphrase joins it under this session's. */
  | { kind: "otherKey"; recordId: string; record: VaultKey; rotation: boolean }
  /** The key was rotated elsewhere: a key of a higher generation than the one this session writes
   * with, which it cannot open. Only the new passphrase opens it; this session never joins it
   * (that would wrap the new key under the old passphrase). */
  | { kind: "rotated"; recordId: string }
  /** The passphrase typed here opened a losing wrapping: a concurrent change (made at `at`) won,
   * and its passphrase is the vault's now; `stamp` names the losing change (to keep it). */
  | { kind: "lost"; recordId: string; stamp: string; at: number }
  /** The passphrase typed here is the vault's; a concurrent change (at `at`) lost and its
   * passphrase still opens the vault until it is dismissed (`stamps`). */
  | { kind: "won"; recordId: string; stamps: string[]; at: number }
  /** The passphrase was changed elsewhere since this session opened the vault: the next unlock
   * needs the new one. */
  | { kind: "changed"; recordId: string };

/** The notices of an unlocked vault: the key records as they are now (with their clocks, for the
 * time of a winning change) and their conflicts, against what this session opened. */
export function vaultNotices(
  records: readonly (StoredVaultKey & { clocks?: Record<string, string> })[],
  conflicts: readonly ConflictView[],
  vault: UnlockedVault,
): VaultNotice[] {
  const out: VaultNotice[] = [];
  const writing = records.find((r) => r.fields.keyId === currentKey(vault, records).keyId);
  const writingGeneration = writing ? vaultKeyGeneration(writing.fields) : 1;
  for (const r of records) {
    const opened = vault.opened.get(r.id);
    const lost = lostWrappings(r, conflicts);
    if (opened === undefined) {
      if (vault.keys.has(r.fields.keyId)) continue;
      const generation = vaultKeyGeneration(r.fields);
      if (generation > writingGeneration) {
        if (!out.some((n) => n.kind === "rotated")) out.push({ kind: "rotated", recordId: r.id });
      }
      else out.push({ kind: "otherKey", recordId: r.id, record: r.fields, rotation: generation > 1 && generation === writingGeneration });
      continue;
    }
    if (opened === r.fields.wrappedKey) {
      if (lost.length > 0) out.push({ kind: "won", recordId: r.id, stamps: lost.map((l) => l.stamp), at: lost[lost.length - 1]!.at });
      continue;
    }
    const mine = lost.find((l) => l.fields.wrappedKey === opened);
    if (mine) {
      const winner = r.clocks?.wrappedKey;
      out.push({ kind: "lost", recordId: r.id, stamp: mine.stamp, at: winner ? Date.parse(winner.slice(0, 24)) : Number.NaN });
    } else out.push({ kind: "changed", recordId: r.id });
  }
  // A rotation elsewhere re-wrapped the keys this session opened too: its notice says it all. No
  // key is joined meanwhile: this session's passphrase is the old one, and a key joined under it
  // would open with the old passphrase again; the new passphrase opens them all.
  if (out.some((n) => n.kind === "rotated")) return out.filter((n) => n.kind !== "changed" && n.kind !== "otherKey");
  return out;
}
