package account

import (
	"context"
	"fmt"
	"strings"

	"patrimonio/core"
	"patrimonio/server/authz"
	"patrimonio/server/members"
)

// DeleteAccount deletes the user for good, in one transaction: their personal workspace with
// everything in it, every team workspace of which they are the only member, and then the user row,
// whose foreign keys take along the sessions, passkeys, TOTP and recovery codes, e-mailed codes,
// memberships and sync clients (a workspace's foreign keys take along its invitations and its sync
// data). It needs a recent proof (EREVERIFY).
//
// BeforeDelete (billing: cancel the user's subscriptions) runs first, once the deletion is known
// to be allowed; if it fails (EUNAVAILABLE: Stripe cannot be reached), nothing is deleted.
//
// It refuses (ECONFLICT, naming the workspaces) while the user is the last owner of a team
// workspace that has other members: they must first make another member an owner, or delete the
// workspace, so that nobody is left in a workspace no one can manage.
func (s *Profile) DeleteAccount(ctx context.Context, u *User, sess *Session) error {
	if err := s.requireRecentProof(ctx, sess); err != nil {
		return err
	}
	if s.hooks.BeforeDelete != nil {
		// Refuse first what the transaction below would refuse (nothing is canceled for an account
		// that stays), then let billing cancel the subscriptions outside any transaction (a call to
		// Stripe must not hold SQLite's write lock). If it fails, nothing is deleted.
		if _, blocking, err := s.deletionPlan(ctx, s.db, u.ID, false); err != nil {
			return err
		} else if len(blocking) > 0 {
			return s.lastOwnerError(ctx, blocking)
		}
		if err := s.hooks.BeforeDelete(ctx, u.ID); err != nil {
			return err
		}
	}
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	// Lock the user's workspaces, so that members added or removed meanwhile (an invitation
	// accepted, another owner leaving) wait for this decision.
	doomed, blocking, err := s.deletionPlan(ctx, tx, u.ID, true)
	if err != nil {
		return err
	}
	if len(blocking) > 0 {
		return s.lastOwnerError(ctx, blocking)
	}
	for _, id := range doomed {
		if _, err := members.DeleteWorkspace(ctx, tx, id); err != nil {
			return fmt.Errorf("delete account %s: %w", u.ID, err)
		}
	}
	res, err := tx.Exec(ctx, `DELETE FROM users WHERE id = ?`, u.ID)
	if err != nil {
		return fmt.Errorf("delete account %s: %w", u.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("delete account %s: %w", u.ID, err)
	} else if n == 0 {
		return core.Refuse(ctx, core.ENOTFOUND, "account.user.notFound")
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("delete account %s: commit: %w", u.ID, err)
	}
	// The sessions went with the user row; their live connections go now.
	if s.hooks.OnUserEnded != nil {
		s.hooks.OnUserEnded(u.ID)
	}
	return nil
}

// deletionPlan returns the workspaces the deletion of the user takes along (ids) and the names of
// those that forbid it; with lock (q a transaction), the workspace rows stay locked.
func (s *base) deletionPlan(ctx context.Context, q members.Querier, userID string, lock bool) (doomed, blocking []string, err error) {
	mine, err := members.OfUser(ctx, q, userID, lock)
	if err != nil {
		return nil, nil, fmt.Errorf("delete account %s: %w", userID, err)
	}
	for _, m := range mine {
		n, owners, err := members.Count(ctx, q, m.ID)
		if err != nil {
			return nil, nil, fmt.Errorf("delete account %s: %w", userID, err)
		}
		deleteIt, err := authz.AccountDeletion(m.Kind, m.Role, n, owners)
		switch {
		case err != nil:
			blocking = append(blocking, m.Name)
		case deleteIt:
			doomed = append(doomed, m.ID)
		}
	}
	return doomed, blocking, nil
}

// lastOwnerError names the team workspaces that stop the deletion, quoted in the way of the
// language of ctx.
func (s *base) lastOwnerError(ctx context.Context, names []string) error {
	left, right := "«", "»"
	if core.LanguageFrom(ctx) == core.LangEN {
		left, right = "\u201c", "\u201d"
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = left + n + right
	}
	if len(names) == 1 {
		return core.Refuse(ctx, core.ECONFLICT, "account.lastOwner", quoted[0])
	}
	return core.Refuse(ctx, core.ECONFLICT, "account.lastOwnerMany", strings.Join(quoted, ", "))
}
