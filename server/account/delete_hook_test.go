package account_test

import (
	"context"
	"testing"

	"patrimonio/core"
	"patrimonio/server/account"
)

// BeforeDelete (billing: cancel the Stripe subscriptions) runs only for a deletion that is
// allowed, and its refusal deletes nothing.
func TestBeforeDeleteRunsOnlyForAnAllowedDeletionAndItsRefusalDeletesNothing(t *testing.T) {
	dialects(t, func(t *testing.T, e *env) {
		ana, token := e.signUp(t, "ana@example.com")
		bob, _ := e.signUp(t, "bob@example.com")
		e.teamWorkspace(t, "Familia", map[string]string{ana.ID: "owner", bob.ID: "viewer"})
		sess, ana := e.authenticate(t, token)
		var calls []string
		var refusal error
		e.withHooks(t, account.Hooks{BeforeDelete: func(ctx context.Context, userID string) error {
			calls = append(calls, userID)
			return refusal
		}})

		// The last owner of a workspace with members: refused before the hook runs.
		wantCode(t, e.svc.Profile.DeleteAccount(e.ctx, ana, sess), core.ECONFLICT)
		if len(calls) != 0 {
			t.Fatalf("the hook ran for a refused deletion: %v", calls)
		}
		if _, err := e.db.Exec(e.ctx, `UPDATE memberships SET role = 'owner' WHERE user_id = ?`, bob.ID); err != nil {
			t.Fatal(err)
		}

		// The hook refuses (Stripe unreachable): its error is the answer, nothing is deleted.
		refusal = &core.Error{Code: core.EUNAVAILABLE, Message: "not now"}
		wantCode(t, e.svc.Profile.DeleteAccount(e.ctx, ana, sess), core.EUNAVAILABLE)
		if rows := e.userRows(t, ana.ID); rows["users"] != 1 || rows["memberships"] != 2 {
			t.Fatalf("Ana's rows after the hook's refusal %v", rows)
		}

		refusal = nil
		if err := e.svc.Profile.DeleteAccount(e.ctx, ana, sess); err != nil {
			t.Fatal(err)
		}
		if len(calls) != 2 || calls[0] != ana.ID || calls[1] != ana.ID {
			t.Fatalf("hook calls %v, want Ana's id twice", calls)
		}
		if rows := e.userRows(t, ana.ID); rows["users"] != 0 {
			t.Fatalf("Ana's rows after the deletion %v", rows)
		}
	})
}
