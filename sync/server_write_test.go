package psync_test

import (
	"context"
	"errors"
	"testing"

	"patrimonio/core"
	"patrimonio/server/store"
	psync "patrimonio/sync"
)

func TestAServerWriteIsAnOrdinarySyncedChangeAuthoredByTheServersClient(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		clock := newFakeClock()
		e := newEngine(t, db, psync.Options{Now: clock.Now})
		user, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, user, "editor")
		ctx := context.Background()
		rec := newRecordID(t)

		out, err := e.WriteAsServer(ctx, user, w, []psync.ServerChange{{Collection: "tasks", RecordID: rec, Fields: task("Renovar el consentimiento")}})
		if err != nil {
			t.Fatal(err)
		}
		wantStatus(t, out, psync.StatusApplied)
		// A second write replaces the first one's value: it saw it (its base), so no conflict.
		out, err = e.WriteAsServer(ctx, user, w, []psync.ServerChange{{Collection: "tasks", RecordID: rec, Fields: map[string]any{"status": "done"}}})
		if err != nil {
			t.Fatal(err)
		}
		wantStatus(t, out, psync.StatusApplied)

		page, err := e.ChangesPage(ctx, user, w, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Changes) != 2 {
			t.Fatalf("changes: %+v", page.Changes)
		}
		for i, c := range page.Changes {
			if c.Author != psync.ServerClientID(user) || c.MutationID != int64(i+1) {
				t.Errorf("change %d by %s, mutation %d", i, c.Author, c.MutationID)
			}
		}
		state := serverState(t, e, user, w)["tasks/"+rec]
		if state.Fields["status"] != "done" || state.Fields["title"] != "Renovar el consentimiento" || len(state.Conflicts) != 0 {
			t.Fatalf("record: %+v", state)
		}
		if fields, err := e.RecordFields(ctx, w, "tasks", rec); err != nil || fields == nil {
			t.Errorf("the task exists: %v %v", fields, err)
		}
		if _, err := e.WriteAsServer(ctx, user, w, []psync.ServerChange{{Collection: "tasks", RecordID: rec, Delete: true}}); err != nil {
			t.Fatal(err)
		}
		if fields, err := e.RecordFields(ctx, w, "tasks", rec); err != nil || fields != nil {
			t.Errorf("a deleted task exists: %v %v", fields, err)
		}
		if fields, err := e.RecordFields(ctx, w, "tasks", newRecordID(t)); err != nil || fields != nil {
			t.Errorf("a task never written exists: %v %v", fields, err)
		}
		if psync.ServerClientID(user) == psync.ServerClientID(addUser(t, db)) {
			t.Error("two users share the server's client id")
		}
	})
}

func TestAServerWriteIsCheckedLikeAPush(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		clock := newFakeClock()
		e := newEngine(t, db, psync.Options{Now: clock.Now})
		editor, viewer, w := addUser(t, db), addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, editor, "editor")
		addMember(t, db, w, viewer, "viewer")
		ctx := context.Background()

		_, err := e.WriteAsServer(ctx, viewer, w, []psync.ServerChange{{Collection: "tasks", RecordID: newRecordID(t), Fields: task("x")}})
		var rej *psync.RejectedError
		if !errors.As(err, &rej) || rej.Outcome.Code != psync.RejectForbidden || core.ErrorCode(err) != core.EFORBIDDEN {
			t.Fatalf("a write on behalf of a viewer: %v", err)
		}
		// A task without its title breaks the collection's schema.
		_, err = e.WriteAsServer(ctx, editor, w, []psync.ServerChange{{Collection: "tasks", RecordID: newRecordID(t), Fields: map[string]any{"status": "todo"}}})
		if !errors.As(err, &rej) || rej.Outcome.Code != psync.RejectInvalid {
			t.Fatalf("an invalid record: %v", err)
		}
		// A field the schema does not know is refused before anything is applied.
		_, err = e.WriteAsServer(ctx, editor, w, []psync.ServerChange{{Collection: "nope", RecordID: newRecordID(t), Fields: task("x")}})
		if !errors.As(err, &rej) || rej.Outcome.Code != psync.RejectInvalid {
			t.Fatalf("an unknown collection: %v", err)
		}
		head, _, err := e.Head(ctx, w)
		if err != nil || head != 0 {
			t.Fatalf("head %d %v: a refused write was applied", head, err)
		}
		// The refused ids were decided; the next write still goes through.
		out, err := e.WriteAsServer(ctx, editor, w, []psync.ServerChange{{Collection: "tasks", RecordID: newRecordID(t), Fields: task("ok")}})
		if err != nil {
			t.Fatal(err)
		}
		wantStatus(t, out, psync.StatusApplied)
	})
}
