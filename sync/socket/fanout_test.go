package socket_test

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"patrimonio/server/store"
	psync "patrimonio/sync"
	"patrimonio/sync/socket"
)

// readCounter is the engine as the socket server reaches it, counting the change pages each user's
// sockets read.
type readCounter struct {
	*psync.Engine
	mu    sync.Mutex
	reads map[string]int // user -> ChangesPage calls returned
}

func (r *readCounter) ChangesPage(ctx context.Context, userID, workspaceID string, after int64, limit int) (psync.ChangesPage, error) {
	page, err := r.Engine.ChangesPage(ctx, userID, workspaceID, after, limit)
	r.mu.Lock()
	r.reads[userID]++
	r.mu.Unlock()
	return page, err
}

func (r *readCounter) count(user string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reads[user]
}

func (r *readCounter) total() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, c := range r.reads {
		n += c
	}
	return n
}

func (r *readCounter) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reads = map[string]int{}
}

// A live socket of the user who pushed (the pusher's own, the user's other devices) is sent the
// commit's page as the commit wrote it, without reading it back: the commit's transaction read
// that user's membership under the workspace's lock. The page is the one a read would return.
// Another member's socket still reads its page, in the same statement as its membership: removed
// from the workspace, it gets accessDenied, not the change.
func TestALiveSocketOfThePushersUserIsSentTheCommitsPageWithoutReadingIt(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		counter := &readCounter{reads: map[string]int{}}
		env := newSocketEnvOver(t, db, psync.Options{}, socket.Options{}, func(e *psync.Engine) socket.Engine {
			counter.Engine = e
			return counter
		})
		owner, other, w := addUser(t, db), addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, owner, "owner")
		addMember(t, db, w, other, "editor")
		a, b, c := env.connect(owner), env.connect(owner), env.connect(other)
		for _, s := range []*wsClient{a, b, c} {
			s.hello(uuid.NewString(), map[string]any{w: nil}, nil)
			s.expect("snapshot")
		}
		// After its snapshot, each socket reads once what was committed since it began.
		for deadline := time.Now().Add(hangGuard); counter.total() < 3; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d reads after the snapshots, want 3", counter.total())
			}
		}
		counter.reset()

		// until reads s's changes messages until its cursor reaches seq; it returns their changes.
		until := func(s *wsClient, seq int64) []any {
			var changes []any
			for {
				m := s.next()
				switch m["type"] {
				case "ack":
					continue
				case "changes":
					changes = append(changes, m["changes"].([]any)...)
					if cursor, _ := psync.JSONInt(m["cursor"]); cursor >= seq {
						return changes
					}
				default:
					t.Fatalf("got %v, want changes", m)
				}
			}
		}
		clock, _ := psync.NewClock(psync.ClockConfig{Node: psync.NewNodeID(), Now: time.Now})
		const n = 6
		var gotB []any
		for i := int64(1); i <= n; i++ {
			a.send(push(wireMutation(i, w, "tasks", newRecordID(t), "put", clock.Now(), task(fmt.Sprintf("tarea %d", i)), nil)))
			until(a, i) // its own change comes back too
			gotB = append(gotB, until(b, i)...)
			until(c, i)
		}
		if got := counter.count(owner); got != 0 {
			t.Errorf("the pusher's user's sockets read %d change pages, want none (the commits carried them)", got)
		}
		if got := counter.count(other); got < 1 {
			t.Errorf("another member's socket read %d change pages, want its own reads", got)
		}
		page, err := env.engine.ChangesPage(context.Background(), owner, w, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		want := b.decode(psync.EncodeChanges(w, page))["changes"]
		if !reflect.DeepEqual(gotB, want) {
			t.Errorf("the commits' pages differ from the change log as read:\n got %v\nwant %v", gotB, want)
		}

		removeMember(t, db, w, other)
		a.send(push(wireMutation(n+1, w, "tasks", newRecordID(t), "put", clock.Now(), task("después"), nil)))
		until(b, n+1)
		if m := c.next(); m["type"] != "accessDenied" {
			t.Fatalf("a removed member's socket got %v, want accessDenied", m)
		}
	})
}

// A commit of more changes than a page holds carries them as consecutive pages, each cut where a
// read would cut it: a live socket of the pusher's user is sent them all without reading, and they
// hold what the change log holds.
func TestACommitOfSeveralPagesIsSentWithoutReadingIt(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		counter := &readCounter{reads: map[string]int{}}
		const perPage = 3
		env := newSocketEnvOver(t, db, psync.Options{Limits: psync.Limits{MaxChangesPerPage: perPage}}, socket.Options{}, func(e *psync.Engine) socket.Engine {
			counter.Engine = e
			return counter
		})
		owner, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, owner, "owner")
		a, b := env.connect(owner), env.connect(owner)
		for _, s := range []*wsClient{a, b} {
			s.hello(uuid.NewString(), map[string]any{w: nil}, nil)
			s.expect("snapshot")
		}
		for deadline := time.Now().Add(hangGuard); counter.total() < 2; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d reads after the snapshots, want 2", counter.total())
			}
		}
		counter.reset()

		clock, _ := psync.NewClock(psync.ClockConfig{Node: psync.NewNodeID(), Now: time.Now})
		const n = 2*perPage + 1
		var muts []map[string]any
		for i := int64(1); i <= n; i++ {
			muts = append(muts, wireMutation(i, w, "tasks", newRecordID(t), "put", clock.Now(), task(fmt.Sprintf("tarea %d", i)), nil))
		}
		a.send(push(muts...))
		var got []any
		var sizes []int
		for cursor := int64(0); cursor < n; {
			m := b.next()
			if m["type"] != "changes" {
				t.Fatalf("got %v, want changes", m)
			}
			changes := m["changes"].([]any)
			got, sizes = append(got, changes...), append(sizes, len(changes))
			cursor, _ = psync.JSONInt(m["cursor"])
			if m["hasMore"] != false {
				t.Errorf("a live page says it has more: %v", m["hasMore"])
			}
		}
		if !reflect.DeepEqual(sizes, []int{perPage, perPage, 1}) {
			t.Errorf("pages of %v changes, want %d, %d and 1", sizes, perPage, perPage)
		}
		if reads := counter.count(owner); reads != 0 {
			t.Errorf("the pusher's user's sockets read %d change pages, want none (the commit carried them)", reads)
		}
		var want []any
		for after := int64(0); after < n; {
			page, err := env.engine.ChangesPage(context.Background(), owner, w, after, 0)
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, b.decode(psync.EncodeChanges(w, page))["changes"].([]any)...)
			after = page.Cursor
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("the commit's pages differ from the change log as read:\n got %v\nwant %v", got, want)
		}
	})
}
