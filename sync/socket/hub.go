package socket

import (
	"math"
	"sync"

	psync "patrimonio/sync"
)

// hub is this instance's registry of open sockets: per workspace (fan-out), per user (the
// connection limit) and per client id (a newer connection of a client replaces the older one).
type hub struct {
	mu          sync.Mutex
	closed      bool
	conns       map[*conn]struct{}
	byWorkspace map[string]map[*conn]struct{}
	byUser      map[string]int
	byClient    map[string]*conn
}

func newHub() *hub {
	return &hub{
		conns:       map[*conn]struct{}{},
		byWorkspace: map[string]map[*conn]struct{}{},
		byUser:      map[string]int{},
		byClient:    map[string]*conn{},
	}
}

// addResult says why a connection was not admitted.
type addResult int

const (
	added addResult = iota
	hubClosed
	userFull
)

func (h *hub) add(c *conn, maxPerUser int) addResult {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return hubClosed
	}
	if h.byUser[c.p.UserID] >= maxPerUser {
		return userFull
	}
	h.byUser[c.p.UserID]++
	h.conns[c] = struct{}{}
	return added
}

func (h *hub) remove(c *conn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.conns[c]; !ok {
		return
	}
	delete(h.conns, c)
	if h.byUser[c.p.UserID]--; h.byUser[c.p.UserID] <= 0 {
		delete(h.byUser, c.p.UserID)
	}
	for w, set := range h.byWorkspace {
		delete(set, c)
		if len(set) == 0 {
			delete(h.byWorkspace, w)
		}
	}
	if cid := c.client(); cid != "" && h.byClient[cid] == c {
		delete(h.byClient, cid)
	}
}

// claimClient makes c the connection of clientID and returns the one it replaces, if any.
func (h *hub) claimClient(c *conn, clientID string) *conn {
	h.mu.Lock()
	defer h.mu.Unlock()
	old := h.byClient[clientID]
	h.byClient[clientID] = c
	if old == c {
		return nil
	}
	return old
}

func (h *hub) subscribe(c *conn, workspace string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.conns[c]; !ok {
		return
	}
	set := h.byWorkspace[workspace]
	if set == nil {
		set = map[*conn]struct{}{}
		h.byWorkspace[workspace] = set
	}
	set[c] = struct{}{}
}

func (h *hub) unsubscribe(c *conn, workspace string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if set := h.byWorkspace[workspace]; set != nil {
		delete(set, c)
		if len(set) == 0 {
			delete(h.byWorkspace, workspace)
		}
	}
}

// poke tells the sockets of a workspace of a commit.
func (h *hub) poke(pc psync.Commit) {
	h.mu.Lock()
	targets := make([]*conn, 0, len(h.byWorkspace[pc.Workspace]))
	for c := range h.byWorkspace[pc.Workspace] {
		targets = append(targets, c)
	}
	h.mu.Unlock()
	m := newCommit(pc)
	for _, c := range targets {
		c.poke(pc.Workspace, pc.Seq, m)
	}
}

// pokeAll makes every socket read every workspace it follows again (after the listener missed
// notifications).
func (h *hub) pokeAll() {
	h.mu.Lock()
	type target struct {
		c *conn
		w string
	}
	var targets []target
	for w, set := range h.byWorkspace {
		for c := range set {
			targets = append(targets, target{c, w})
		}
	}
	h.mu.Unlock()
	for _, t := range targets {
		t.c.poke(t.w, math.MaxInt64, nil)
	}
}

// closeAll refuses new connections and returns the open ones.
func (h *hub) closeAll() []*conn {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	out := make([]*conn, 0, len(h.conns))
	for c := range h.conns {
		out = append(out, c)
	}
	return out
}

func (h *hub) all() []*conn {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]*conn, 0, len(h.conns))
	for c := range h.conns {
		out = append(out, c)
	}
	return out
}

// Stats of the open sockets.
func (h *hub) count() (conns, workspaces int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.conns), len(h.byWorkspace)
}
