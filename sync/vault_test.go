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
