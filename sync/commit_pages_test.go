package psync_test

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"patrimonio/server/store"
	psync "patrimonio/sync"
)

// commitRecorder keeps the commits an engine announces.
type commitRecorder struct {
	mu      sync.Mutex
	commits []psync.Commit
}

func (r *commitRecorder) Committed(c psync.Commit) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.commits = append(r.commits, c)
}
func (r *commitRecorder) Missed()           {}
func (r *commitRecorder) Ended(_, _ string) {}

// A commit's pages keep their changes as they were written: the bodies are copied out of the
// committer's arena, which the committer's next group writes over (one committer, so it is the
// same arena).
func TestACommitsPagesOutliveItsCommittersNextGroup(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		e := newEngine(t, db, psync.Options{GCInterval: -1, Committers: 1})
		rec := &commitRecorder{}
		e.Watch(rec)
		u, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, u, "owner")
		d := newDevice(t, e, u, time.Now)
		push := func(title string) {
			var muts []psync.ClientMutation
			for i := range 5 {
				muts = append(muts, d.Mutation(psync.OpPut, w, "tasks", newRecordID(t), task(fmt.Sprintf("%s %d", title, i)), nil))
			}
			apply(t, e, d, muts...)
		}
		push("primera")
		rec.mu.Lock()
		if len(rec.commits) != 1 || len(rec.commits[0].Pages) != 1 {
			rec.mu.Unlock()
			t.Fatalf("commits %+v, want one with one page", rec.commits)
		}
		first := rec.commits[0].Pages[0]
		rec.mu.Unlock()
		push("segunda, con un título bastante más largo que la primera") // the same committer, its arena again

		stored, err := e.ChangesPage(context.Background(), u, w, 0, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(stored.Changes) != 5 || len(first.Changes) != 5 {
			t.Fatalf("%d changes stored and %d in the commit, want 5", len(stored.Changes), len(first.Changes))
		}
		for i, c := range first.Changes {
			if !bytes.Equal(c.Body, stored.Changes[i].Body) {
				t.Fatalf("change %d: the commit carries\n%s\nthe change log holds\n%s", c.Seq, c.Body, stored.Changes[i].Body)
			}
		}
	})
}
