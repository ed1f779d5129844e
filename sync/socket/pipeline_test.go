package socket_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"patrimonio/server/store"
	psync "patrimonio/sync"
	"patrimonio/sync/socket"
)

// gatedEngine is the engine seen through two hooks: it logs the pushes' way (submitted,
// answered) and holds the answer of each push until release says so.
type gatedEngine struct {
	*psync.Engine

	mu      sync.Mutex
	cond    *sync.Cond
	events  []string
	release func(events []string) bool
}

func (g *gatedEngine) log(event string) {
	g.mu.Lock()
	g.events = append(g.events, event)
	g.cond.Broadcast()
	g.mu.Unlock()
}

func (g *gatedEngine) Submit(ctx context.Context, client psync.Client, muts []psync.ClientMutation) (psync.Push, error) {
	p, err := g.Engine.Submit(ctx, client, muts)
	g.log(fmt.Sprint("submitted ", muts[0].MutationID))
	return &gatedPush{Push: p, g: g, id: muts[0].MutationID}, err
}

type gatedPush struct {
	psync.Push
	g  *gatedEngine
	id int64
}

// Wait holds the answer until the gate opens (or hangGuard passes: a socket that waits for the
// answer before reading on never opens it, and the test then fails on its events).
func (p *gatedPush) Wait(ctx context.Context) ([]psync.Outcome, error) {
	g := p.g
	stop := time.AfterFunc(hangGuard, func() { g.log("gave up") })
	defer stop.Stop()
	g.mu.Lock()
	for !g.release(g.events) && g.events[len(g.events)-1] != "gave up" {
		g.cond.Wait()
	}
	g.mu.Unlock()
	out, err := p.Push.Wait(ctx)
	g.log(fmt.Sprint("answered ", p.id))
	return out, err
}

func has(events []string, e string) bool {
	for _, x := range events {
		if x == e {
			return true
		}
	}
	return false
}

// A socket reads a client's next push while the one before it commits when both are of one
// workspace (whose pushes the engine applies in order), and answers them in order. A push of
// another workspace waits until the one before it is answered, so that a connection's pushes
// still apply in the order they are sent.
func TestASocketReadsTheNextPushWhileTheOneBeforeCommits(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		owner, w1, w2 := addUser(t, db), addWorkspace(t, db), addWorkspace(t, db)
		addMember(t, db, w1, owner, "owner")
		addMember(t, db, w2, owner, "owner")
		var g *gatedEngine
		env := newSocketEnvOver(t, db, psync.Options{}, socket.Options{}, func(e *psync.Engine) socket.Engine {
			g = &gatedEngine{Engine: e}
			g.cond = sync.NewCond(&g.mu)
			return g
		})
		a := env.connect(owner)
		a.hello(uuid.NewString(), map[string]any{w1: nil, w2: nil}, nil)
		a.expect("snapshot")
		a.expect("snapshot")
		clock, _ := psync.NewClock(psync.ClockConfig{Node: psync.NewNodeID(), Now: time.Now})
		put := func(id int64, w string) map[string]any {
			return wireMutation(id, w, "tasks", newRecordID(t), "put", clock.Now(), task(fmt.Sprint("tarea ", id)), nil)
		}
		acked := func(n int) []int64 {
			var ids []int64
			for len(ids) < n {
				m := a.next()
				switch m["type"] {
				case "ack":
					for _, x := range m["acks"].([]any) {
						id, _ := psync.JSONInt(x.(map[string]any)["mutationId"])
						ids = append(ids, id)
					}
				case "changes":
				default:
					t.Fatalf("got %v, want acks", m)
				}
			}
			return ids
		}

		// One queue: the first push's answer waits until the second is submitted.
		g.release = func(events []string) bool { return has(events, "submitted 2") }
		a.send(push(put(1, w1)))
		a.send(push(put(2, w1)))
		if ids := acked(2); ids[0] != 1 || ids[1] != 2 {
			t.Errorf("acks %v, want 1 then 2", ids)
		}
		if has(g.events, "gave up") {
			t.Fatalf("the second push was not submitted while the first was being answered: %v", g.events)
		}

		// Another workspace: the fourth push is submitted only after the third is answered. (Were
		// it not, it would be submitted as soon as it is read, well before the third's commit
		// ends.)
		g.mu.Lock()
		g.events = nil
		g.release = func([]string) bool { return true }
		g.mu.Unlock()
		a.send(push(put(3, w1)))
		a.send(push(put(4, w2)))
		if ids := acked(2); ids[0] != 3 || ids[1] != 4 {
			t.Errorf("acks %v, want 3 then 4", ids)
		}
		g.mu.Lock()
		events := append([]string(nil), g.events...)
		g.mu.Unlock()
		want := []string{"submitted 3", "answered 3", "submitted 4", "answered 4"}
		if fmt.Sprint(events) != fmt.Sprint(want) {
			t.Errorf("events %v, want %v", events, want)
		}
	})
}

// heldEngine holds the commit of the push whose first mutation id is held until release is
// closed, as a slow commit in another workspace's queue would: that push is queued (the engine
// will decide it whatever happens to its socket) and its Wait returns with its verdict, or early
// when the waiter gives up (its context ends), as the engine's own Wait does.
type heldEngine struct {
	*psync.Engine
	held    int64
	release chan struct{}

	mu     sync.Mutex
	events []string
}

func (h *heldEngine) log(event string) {
	h.mu.Lock()
	h.events = append(h.events, event)
	h.mu.Unlock()
}

func (h *heldEngine) Submit(ctx context.Context, client psync.Client, muts []psync.ClientMutation) (psync.Push, error) {
	h.log(fmt.Sprint("submitted ", muts[0].MutationID))
	if muts[0].MutationID != h.held {
		return h.Engine.Submit(ctx, client, muts)
	}
	p := &heldPush{done: make(chan struct{})}
	go func() {
		defer close(p.done)
		<-h.release
		q, err := h.Engine.Submit(context.Background(), client, muts)
		if err == nil {
			p.out, err = q.Wait(context.Background())
		}
		p.err = err
		h.log(fmt.Sprint("decided ", muts[0].MutationID))
	}()
	return p, nil
}

type heldPush struct {
	done chan struct{}
	out  []psync.Outcome
	err  error
}

func (p *heldPush) Wait(ctx context.Context) ([]psync.Outcome, error) {
	select {
	case <-p.done:
		return p.out, p.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// A push that waits for the one before it (another workspace's: it commits in another queue) is
// decided after it even when the socket closes meanwhile: its mutations build on the earlier ones.
// Here the first push creates a task in w2 (its first mutation is of w1, so it is queued by w1)
// and the second edits that task; had the second been decided first, the edit of a task that does
// not exist yet would be refused as incomplete, for ever (a device's valid edit lost). The socket
// closes (its session ends) while the first push's commit is held; the device then sends both
// again on a new socket, as it does, and every mutation must be applied. Several rounds: the
// socket's closing races the reader.
func TestAPushBehindAnotherWorkspacesPushIsDecidedAfterItWhenTheSocketCloses(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		owner, w1, w2 := addUser(t, db), addWorkspace(t, db), addWorkspace(t, db)
		addMember(t, db, w1, owner, "owner")
		addMember(t, db, w2, owner, "owner")
		h := &heldEngine{held: 1}
		env := newSocketEnvOver(t, db, psync.Options{}, socket.Options{}, func(e *psync.Engine) socket.Engine {
			h.Engine = e
			return h
		})
		clock, _ := psync.NewClock(psync.ClockConfig{Node: psync.NewNodeID(), Now: time.Now})
		for round := range 12 {
			h.mu.Lock()
			h.events, h.release = nil, make(chan struct{})
			h.mu.Unlock()
			client, other, edited := uuid.NewString(), newRecordID(t), newRecordID(t)
			first := push(
				wireMutation(1, w1, "tasks", other, "put", clock.Now(), task("en w1"), nil),
				wireMutation(2, w2, "tasks", edited, "put", clock.Now(), task("creada"), nil))
			second := push(wireMutation(3, w2, "tasks", edited, "put", clock.Now(), map[string]any{"notes": "editada"}, nil))

			token := env.signIn(owner)
			a, _, err := env.dial(token, nil)
			if err != nil {
				t.Fatal(err)
			}
			a.hello(client, map[string]any{w1: nil, w2: nil}, nil)
			a.expect("snapshot")
			a.expect("snapshot")
			a.send(first)
			a.send(second)
			// (The reader takes the second push and waits for the first's answer; a moment for it
			// to get there, so that the close below finds it waiting.)
			time.Sleep(20 * time.Millisecond)
			sess, _, err := env.accounts.Sessions.Authenticate(context.Background(), token)
			if err != nil {
				t.Fatal(err)
			}
			env.sockets.EndSession(sess.ID)
			a.expectClose(socket.CloseUnauthorized, "unauthorized")
			time.Sleep(20 * time.Millisecond) // (what the closing socket's reader does next, it does now)
			close(h.release)
			for {
				h.mu.Lock()
				done := has(h.events, "decided 1")
				h.mu.Unlock()
				if done {
					break
				}
				time.Sleep(time.Millisecond)
			}

			// The device sends everything unacknowledged again, in order, on a new socket.
			b := env.connect(owner)
			b.hello(client, map[string]any{w1: nil, w2: nil}, nil)
			b.send(first)
			b.send(second)
			verdicts := map[int64]string{}
			for len(verdicts) < 3 {
				m := b.next()
				switch m["type"] {
				case "ack":
					for _, x := range m["acks"].([]any) {
						ack := x.(map[string]any)
						id, _ := psync.JSONInt(ack["mutationId"])
						verdicts[id] = ack["status"].(string)
					}
				case "reject":
					id, _ := psync.JSONInt(m["mutationId"])
					verdicts[id] = fmt.Sprint("rejected ", m["code"], " ", m["issues"])
				}
			}
			h.mu.Lock()
			events := append([]string(nil), h.events...)
			h.mu.Unlock()
			if verdicts[3] != "applied" && verdicts[3] != "duplicate" {
				t.Fatalf("round %d: the edit of the task the first push creates: %s; every verdict %v; the engine saw %v",
					round, verdicts[3], verdicts, events)
			}
			if i := slices.Index(events, "submitted 3"); i >= 0 && i < slices.Index(events, "decided 1") {
				t.Fatalf("round %d: the second push was submitted before the first was decided: %v", round, events)
			}
			b.ws.Close()
		}
	})
}
