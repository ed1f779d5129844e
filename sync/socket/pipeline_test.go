package socket_test

import (
	"context"
	"fmt"
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
