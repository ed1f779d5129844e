package psync_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"patrimonio/server/store"
	psync "patrimonio/sync"
)

// The logins vault is end-to-end encrypted: a login's secret and notes reach the server as vault
// ciphertext (v1.<keyId>.<nonce>.<ciphertext>), never in clear. A device (or a hand-made client)
// that pushes a plaintext secret is refused, alone, with a clear message; the ciphertext is
// accepted and so is the wrapped vault key of the new vaultKeys collection.
func TestThePlaintextSecretOfALoginIsRefused(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		e := newEngine(t, db, psync.Options{})
		user, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, user, "editor")
		d := newDevice(t, e, user, time.Now)
		sealed := "v1.AAECAwQFBgc.AAECAwQFBgcICQoL.AAECAwQFBgcICQoLDA0ODxAREhM"
		key := map[string]any{
			"keyId":      "AAECAwQFBgc",
			"kdf":        map[string]any{"algorithm": "argon2id", "memoryKiB": 65536, "iterations": 3, "parallelism": 1, "salt": "AAECAwQFBgcICQoLDA0ODw"},
			"wrappedKey": "v1.AAECAwQFBgcICQoL." + strings.Repeat("A", 64),
		}
		out := apply(t, e, d,
			d.Mutation(psync.OpPut, w, "logins", newRecordID(t), map[string]any{"institution": "Banco", "secret": "hunter2-in-clear"}, nil),
			d.Mutation(psync.OpPut, w, "logins", newRecordID(t), map[string]any{"institution": "Banco", "notes": "la tarjeta está en el cajón"}, nil),
			d.Mutation(psync.OpPut, w, "logins", newRecordID(t), map[string]any{"institution": "Banco", "secret": sealed, "notes": sealed}, nil),
			d.Mutation(psync.OpPut, w, "vaultKeys", newRecordID(t), key, nil),
		)
		wantStatus(t, out, psync.StatusRejected, psync.StatusRejected, psync.StatusApplied, psync.StatusApplied)
		for i, field := range []string{"secret", "notes"} {
			o := out[i]
			if o.Code != "invalid" || len(o.Issues) != 1 || o.Issues[0].Path != field || o.Issues[0].Key != "validation.format.vaultCiphertext" {
				t.Fatalf("rejection %+v, want validation.format.vaultCiphertext at %q", o, field)
			}
			if issue := fmt.Sprintf("%+v", o.Issues); strings.Contains(issue, "hunter2") || strings.Contains(issue, "cajón") {
				t.Fatalf("the rejection echoes the plaintext: %s", issue)
			}
		}
	})
}

// A wrapped vault key is never deleted through sync, by any role: its key id is named by the
// ciphertexts of every login it sealed (their current values, conflicts, tombstones, other devices'
// unsynced writes), so a deleted key makes those secrets unreadable for everyone, and a device
// that no longer sees a key offers to set the vault up again (a second key, the logins split).
// Owners and editors still write it (set-up, passphrase change) and restore an old tombstone; the
// key goes with its workspace.
func TestNoRoleDeletesAVaultKey(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		e := newEngine(t, db, psync.Options{})
		w := addWorkspace(t, db)
		key := func(salt string) map[string]any {
			return map[string]any{
				"keyId":      "AAECAwQFBgc",
				"kdf":        map[string]any{"algorithm": "argon2id", "memoryKiB": 65536, "iterations": 3, "parallelism": 1, "salt": salt},
				"wrappedKey": "v1.AAECAwQFBgcICQoL." + strings.Repeat("A", 64),
			}
		}
		rec := newRecordID(t)
		var owner string
		for _, role := range []string{"owner", "editor"} {
			user := addUser(t, db)
			addMember(t, db, w, user, role)
			d := newDevice(t, e, user, time.Now)
			if role == "owner" {
				owner = user
				wantStatus(t, apply(t, e, d, d.Mutation(psync.OpPut, w, "vaultKeys", rec, key("AAECAwQFBgcICQoLDA0ODw"), nil)), psync.StatusApplied)
			}
			out := apply(t, e, d, d.Mutation(psync.OpDelete, w, "vaultKeys", rec, nil, nil))
			wantStatus(t, out, psync.StatusRejected)
			if o := out[0]; o.Code != psync.RejectForbidden || len(o.Issues) != 1 || o.Issues[0].Key != "sync.reject.vaultKeyKept" {
				t.Fatalf("%s deleting a vault key: %+v, want forbidden sync.reject.vaultKeyKept", role, o)
			}
			// Writing it (a passphrase change) is still theirs, and so is any other record's delete.
			login := newRecordID(t)
			wantStatus(t, apply(t, e, d,
				d.Mutation(psync.OpPut, w, "vaultKeys", rec, key("ZZECAwQFBgcICQoLDA0ODw"), nil),
				d.Mutation(psync.OpPut, w, "logins", login, map[string]any{"institution": "Banco"}, nil),
				d.Mutation(psync.OpDelete, w, "logins", login, nil, nil),
			), psync.StatusApplied, psync.StatusApplied, psync.StatusApplied)
		}
		state := serverState(t, e, owner, w)["vaultKeys/"+rec]
		if state == nil || state.Life != nil && state.Life.Deleted {
			t.Fatalf("the vault key is gone: %+v", state)
		}
	})
}
