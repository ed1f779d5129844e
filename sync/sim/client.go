package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/gorilla/websocket"

	schema "patrimonio/shared-schema"
	psync "patrimonio/sync"
	"patrimonio/sync/device"
	"patrimonio/sync/socket"
)

// Client is a simulated device: what clientdb does, in Go, speaking the real protocol
// (PROTOCOL.md) over a real WebSocket. It keeps
//
//   - a durable state (what the device database holds, and all that survives a crash of the
//     device): its client id, its clock's last stamp, its next mutation id, per workspace the
//     confirmed record states (the server's, merged with sync's RecordState — the same core the
//     server runs), the cursor and a snapshot's page token, and the outbox of pending mutations;
//   - a volatile state: the socket and what was sent on it.
//
// A local edit is made on the device's view (confirmed state with the pending outbox re-applied
// on top), stamped with the device's hybrid logical clock, and appended to the outbox in one step
// (one lock: the model of one Dexie transaction). The device pushes its outbox in order, resends
// everything unacknowledged on every new socket, applies pages atomically in order, drops a
// mutation from the outbox when its echo is applied (or when its acknowledged seq is reached), and
// observes every stamp it receives.
type Client struct {
	Name string
	user *User
	ws   []string // workspaces it syncs
	// foreign: workspaces the user may not read (targets of probes).
	foreign []string
	proxy   *Proxy
	ledger  *Ledger
	stats   *Stats

	mu      sync.Mutex
	cond    *sync.Cond
	d       *durable
	clock   *psync.Clock
	skew    time.Duration // the device's wall clock: real time + skew
	choose  *rand.Rand    // the device's own decisions on a socket (how to sync, batch sizes)
	want    bool          // the device wants to be online
	down    bool          // crashed, not restarted yet
	stopped bool
	started bool
	// databaseRestarts: the scenario restarts the database, so the server may fail (1011).
	databaseRestarts bool

	conn      *device.Conn    // current socket (nil while offline)
	welcomed  bool            // the current socket got its welcome
	gapPull   map[string]bool // a pull after a gap is on its way
	pageLimit map[string]int  // the limit to pull the next page with (0: default)
	probeNext string          // a foreign workspace to put in the next hello

	wg sync.WaitGroup
}

// durable is the device database. It goes through JSON on a crash, so that nothing else survives.
type durable struct {
	ClientID       string                   `json:"clientId"`
	Node           string                   `json:"node"`
	ClockLast      string                   `json:"clockLast,omitempty"`
	NextMutationID int64                    `json:"nextMutationId"`
	Spaces         map[string]*device.Space `json:"spaces"`
	Outbox         []*pending               `json:"outbox"`
	Rejected       []*pending               `json:"rejected"`
}

// pending is an outbox entry.
type pending struct {
	MutationID int64          `json:"mutationId"`
	Workspace  string         `json:"workspaceId"`
	Collection string         `json:"collection"`
	Record     string         `json:"recordId"`
	Mutation   psync.Mutation `json:"mutation"`
	AckSeq     int64          `json:"ackSeq,omitempty"`
	AckStamp   *psync.Stamp   `json:"ackStamp,omitempty"`
	sent       bool           // sent on some socket (volatile: only for the statistics)
}

const collection = "tasks"

func recordKey(collection, id string) string { return device.RecordKey(collection, id) }

func newClient(name string, u *User, workspaces, foreign []string, proxy *Proxy, ledger *Ledger, stats *Stats, skew time.Duration, seed uint64) *Client {
	c := &Client{Name: name, user: u, ws: workspaces, foreign: foreign, proxy: proxy, ledger: ledger, stats: stats, skew: skew,
		choose: rand.New(rand.NewPCG(seed, 0x5eed))}
	c.cond = sync.NewCond(&c.mu)
	c.d = &durable{ClientID: uuid.NewString(), Node: psync.NewNodeID(), NextMutationID: 1, Spaces: map[string]*device.Space{}}
	for _, w := range workspaces {
		c.d.Spaces[w] = device.NewSpace()
	}
	c.clock = c.newClock()
	return c
}

func (c *Client) newClock() *psync.Clock {
	var last psync.Stamp
	if c.d.ClockLast != "" {
		var err error
		if last, err = psync.ParseStamp(c.d.ClockLast); err != nil {
			panic(err)
		}
	}
	clock, err := psync.NewClock(psync.ClockConfig{Node: c.d.Node, Now: c.wall, Last: last})
	if err != nil {
		panic(err)
	}
	return clock
}

// wall is the device's wall clock. Read with c.mu held or not: skew only changes under c.mu,
// and the clock reads it under its own lock, so take a copy.
func (c *Client) wall() time.Time {
	return time.Now().Add(c.skewNow())
}

var skewMu sync.Mutex

func (c *Client) skewNow() time.Duration {
	skewMu.Lock()
	defer skewMu.Unlock()
	return c.skew
}

// SetSkew moves the device's wall clock (it may jump backwards: the clock stays monotonic).
func (c *Client) SetSkew(d time.Duration) {
	skewMu.Lock()
	c.skew = d
	skewMu.Unlock()
}

// ClientID is the device's current client id.
func (c *Client) ClientID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.d.ClientID
}

// Start runs the device: it connects whenever it wants to be online.
func (c *Client) Start() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.want = true
	if c.started {
		c.cond.Broadcast()
		return
	}
	c.started = true
	c.wg.Add(1)
	go c.loop()
}

// Stop disconnects the device for good.
func (c *Client) Stop() {
	c.mu.Lock()
	c.stopped = true
	c.dropConnLocked(false)
	c.cond.Broadcast()
	c.mu.Unlock()
	c.wg.Wait()
}

// SetOnline makes the device go offline (the network is gone: the socket just dies) or online.
func (c *Client) SetOnline(on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.want = on
	if !on {
		c.dropConnLocked(false)
	}
	c.cond.Broadcast()
}

// Reconnect closes the socket (cleanly) and lets the device open a new one at once.
func (c *Client) Reconnect() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropConnLocked(true)
}

// Crash loses everything but the durable state (which goes through JSON, as it would through
// IndexedDB); the device is down until Restart.
func (c *Client) Crash() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropConnLocked(false)
	c.down = true
	raw, err := json.Marshal(c.d)
	if err != nil {
		panic(err)
	}
	d := &durable{}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(d); err != nil {
		panic(err)
	}
	for _, s := range d.Spaces {
		if s.Records == nil {
			s.Records = map[string]*psync.RecordState{}
		}
	}
	c.d = d
	c.clock = c.newClock()
}

// Restart brings a crashed device back.
func (c *Client) Restart() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.down = false
	c.cond.Broadcast()
}

// ProbeHello makes the next hello ask for a workspace the user may not read.
func (c *Client) ProbeHello(workspace string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.probeNext = workspace
}

// ProbePull asks, on the open socket, for a workspace the user may not read.
func (c *Client) ProbePull(workspace string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.welcomed {
		return false
	}
	c.sendLocked(device.PullSnapshot(workspace, "", 0))
	return true
}

// SmallPull pulls the changes after the cursor of one workspace with a small limit: the answer
// overlaps what the server sends live, and further pages come by pulls.
func (c *Client) SmallPull(rng *rand.Rand) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.welcomed {
		return false
	}
	w := c.ws[rng.IntN(len(c.ws))]
	s := c.d.Spaces[w]
	if !s.Held {
		return false // (it holds nothing to read changes after yet)
	}
	limit := 1 + rng.IntN(3)
	c.pageLimit[w] = limit
	after := s.Cursor
	if after > 0 && rng.IntN(3) == 0 {
		after = max(0, after-int64(rng.IntN(4))) // an older cursor: the page overlaps what we have
	}
	c.sendLocked(device.PullChanges(w, after, limit))
	return true
}

func (c *Client) dropConnLocked(clean bool) {
	if c.conn == nil {
		return
	}
	c.ledger.trace(c.Name, "×", []byte(`{"type":"the device leaves its socket"}`))
	c.conn.Leave(clean)
	c.conn = nil
	c.welcomed = false
}

// loop connects whenever the device wants to be online, with exponential backoff and jitter.
func (c *Client) loop() {
	defer c.wg.Done()
	backoff := time.Millisecond
	for {
		c.mu.Lock()
		for !c.stopped && (!c.want || c.down || c.conn != nil) {
			c.cond.Wait()
		}
		if c.stopped {
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		conn, err := c.dial()
		if err != nil {
			c.mu.Lock()
			jitter := time.Duration(c.choose.Int64N(int64(backoff) + 1))
			c.mu.Unlock()
			time.Sleep(backoff/2 + jitter)
			backoff = min(2*backoff, 40*time.Millisecond)
			continue
		}
		backoff = time.Millisecond
		c.read(conn)
	}
}

var errNotWanted = errors.New("the device does not want to be online any more")

// dial opens a socket and says hello.
func (c *Client) dial() (*device.Conn, error) {
	conn, _, err := device.Dial(c.proxy.URL(), device.DialOptions{Cookie: "patrimonio_session=" + c.user.Token,
		HandshakeTimeout: 3 * time.Second, WriteTimeout: 3 * time.Second})
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped || !c.want || c.down || c.conn != nil {
		conn.Close()
		return nil, errNotWanted
	}
	c.conn, c.welcomed = conn, false
	c.gapPull, c.pageLimit = map[string]bool{}, map[string]int{}
	hello := device.Hello{ClientID: c.d.ClientID, Language: "es"}
	for _, w := range c.ws {
		s := c.d.Spaces[w]
		if !s.Held && s.Token == "" && c.choose.IntN(2) == 1 {
			// A first sync by a pull with small pages (after the welcome), not through hello.
			c.pageLimit[w] = 1 + c.choose.IntN(2)
			continue
		}
		s.AddToHello(&hello, w) // its cursor (0 included), its snapshot to resume, or null
	}
	if c.probeNext != "" {
		hello.Fresh = append(hello.Fresh, c.probeNext)
		c.probeNext = ""
		c.stats.add(&c.stats.Probes, 1)
	}
	if !c.sendLocked(hello.Encode()) {
		return nil, errors.New("hello not sent")
	}
	return conn, nil
}

// sendLocked writes one message on the current socket; a failed write ends the socket.
func (c *Client) sendLocked(data []byte) bool {
	if c.conn == nil {
		return false
	}
	c.ledger.trace(c.Name, "→", data)
	if err := c.conn.Write(data); err != nil {
		c.dropConnLocked(false)
		return false
	}
	return true
}

// read reads the socket until it ends.
func (c *Client) read(conn *device.Conn) {
	defer func() {
		c.mu.Lock()
		if c.conn == conn {
			c.dropConnLocked(false)
		}
		c.cond.Broadcast()
		c.mu.Unlock()
	}()
	for {
		data, err := conn.Read(0)
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				c.closed(ce.Code, ce.Text)
			}
			c.ledger.trace(c.Name, "×", []byte(fmt.Sprintf(`{"type":%q}`, "closed: "+err.Error())))
			return
		}
		c.ledger.addFrame(c.Name, data)
		c.ledger.trace(c.Name, "←", data)
		if issues, err := schema.Validate("serverMessage", data, "en"); err != nil || len(issues) > 0 {
			c.ledger.anomaly(c.Name, "the server sent a message the protocol does not allow: %v %+v: %.300s", err, issues, data)
			continue
		}
		c.mu.Lock()
		if c.conn != conn {
			// The device left this socket (or crashed) while the frame was on its way.
			c.mu.Unlock()
			return
		}
		c.handleLocked(data)
		c.mu.Unlock()
	}
}

func (c *Client) closed(code int, text string) {
	switch code {
	case websocket.CloseNormalClosure, websocket.CloseNoStatusReceived, websocket.CloseAbnormalClosure:
	case socket.CloseReplaced:
		c.stats.add(&c.stats.Replaced, 1)
	case socket.CloseGoingAway:
		c.stats.add(&c.stats.GoingAway, 1)
	case socket.CloseInternal:
		// The database failed under the server (a restart): reconnect. Anywhere else it is a
		// server failure.
		c.stats.add(&c.stats.Internal, 1)
		if !c.databaseRestarts {
			c.ledger.anomaly(c.Name, "the server closed the socket with %d %q (internal) while its database was up", code, text)
		}
	default:
		c.ledger.anomaly(c.Name, "the server closed the socket with %d %q", code, text)
	}
}

func (c *Client) handleLocked(data []byte) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		c.ledger.anomaly(c.Name, "undecodable frame: %v", err)
		return
	}
	switch m["type"] {
	case "welcome":
		c.welcomeLocked(data)
	case "ack":
		c.ackLocked(data)
	case "reject":
		c.rejectLocked(data)
	case "snapshot":
		c.snapshotLocked(data)
	case "changes":
		c.changesLocked(data)
	case "resyncRequired":
		w, _ := m["workspaceId"].(string)
		c.ledger.anomaly(c.Name, "resyncRequired for %s (%v): no cursor of the simulation may be too old or in the future", w, m["reason"])
		if s := c.d.Spaces[w]; s != nil {
			s.Reset()
			c.sendLocked(device.PullSnapshot(w, "", 0))
		}
	case "accessDenied":
		w, _ := m["workspaceId"].(string)
		if c.user.Member(w) {
			c.ledger.anomaly(c.Name, "accessDenied for its own workspace %s", w)
		}
	case "error", "pong":
	default:
		c.ledger.anomaly(c.Name, "unexpected message %v", m["type"])
	}
}

func (c *Client) welcomeLocked(data []byte) {
	if c.welcomed {
		c.ledger.anomaly(c.Name, "a second welcome on one socket")
		return
	}
	c.welcomed = true
	if st, err := device.DecodeWelcome(data); err == nil {
		c.clock.Observe(st)
		c.d.ClockLast = c.clock.Last().String()
	}
	// First syncs by pull, with small snapshot pages.
	for _, w := range c.ws {
		s := c.d.Spaces[w]
		if !s.Held && s.Token == "" && c.pageLimit[w] > 0 {
			c.sendLocked(device.PullSnapshot(w, "", c.pageLimit[w]))
		}
	}
	// Resend everything unacknowledged, in order, in batches.
	var batch []*pending
	for _, p := range c.d.Outbox {
		if p.AckSeq != 0 {
			continue
		}
		batch = append(batch, p)
		if p.sent {
			c.stats.add(&c.stats.Resends, 1)
		}
	}
	for len(batch) > 0 {
		n := min(len(batch), 1+c.choose.IntN(8))
		c.pushLocked(batch[:n])
		batch = batch[n:]
	}
}

// wireMutation is an outbox entry as a push carries it.
func wireMutation(p *pending) device.Mutation {
	return device.Mutation{MutationID: p.MutationID, Workspace: p.Workspace, Collection: p.Collection, Record: p.Record, Mutation: p.Mutation}
}

func (c *Client) pushLocked(batch []*pending) {
	if !c.welcomed {
		return
	}
	list := make([]device.Mutation, 0, len(batch))
	for _, p := range batch {
		list = append(list, wireMutation(p))
		p.sent = true
	}
	c.sendLocked(device.Push(list))
}

func (c *Client) findPending(id int64) (int, *pending) {
	for i, p := range c.d.Outbox {
		if p.MutationID == id {
			return i, p
		}
	}
	return -1, nil
}

func (c *Client) ackLocked(data []byte) {
	acks, err := device.DecodeAcks(data)
	if err != nil {
		c.ledger.anomaly(c.Name, "bad ack: %v", err)
		return
	}
	for _, a := range acks {
		ack := Ack{Status: a.Status, Seq: a.Seq}
		if a.Stamp != nil {
			ack.Stamp = a.Stamp.String()
		}
		c.ledger.addAck(c.d.ClientID, ack, a.MutationID)
		if a.Status == "duplicate" {
			c.stats.add(&c.stats.DuplicateAck, 1)
		}
		_, p := c.findPending(a.MutationID)
		if p == nil {
			continue // its echo came first
		}
		if a.Seq == 0 || a.Stamp == nil {
			c.ledger.anomaly(c.Name, "ack of %d without seq or stamp: %+v", a.MutationID, a)
			continue
		}
		p.AckSeq, p.AckStamp = a.Seq, a.Stamp
		c.clock.Observe(*a.Stamp)
		c.d.ClockLast = c.clock.Last().String()
		c.dropConfirmedLocked(p.Workspace)
	}
}

func (c *Client) rejectLocked(data []byte) {
	msg, err := device.DecodeReject(data)
	if err != nil {
		c.ledger.anomaly(c.Name, "bad reject: %v", err)
		return
	}
	c.ledger.addReject(c.d.ClientID, msg.MutationID, msg.Code)
	i, p := c.findPending(msg.MutationID)
	if p == nil {
		return
	}
	// Final: the device keeps it as rejected, for the user to fix or discard.
	c.d.Outbox = append(c.d.Outbox[:i], c.d.Outbox[i+1:]...)
	c.d.Rejected = append(c.d.Rejected, p)
}

// dropConfirmedLocked drops the outbox entries of workspace w whose acknowledged seq the cursor
// has reached: the confirmed state holds them.
func (c *Client) dropConfirmedLocked(w string) {
	s := c.d.Spaces[w]
	if s == nil || !s.Held {
		return
	}
	out := c.d.Outbox[:0]
	for _, p := range c.d.Outbox {
		if p.Workspace == w && p.AckSeq != 0 && p.AckSeq <= s.Cursor {
			continue
		}
		out = append(out, p)
	}
	c.d.Outbox = out
}

func (c *Client) snapshotLocked(data []byte) {
	page, err := device.DecodePage(data)
	if err != nil {
		c.ledger.anomaly(c.Name, "bad snapshot: %v", err)
		return
	}
	s := c.d.Spaces[page.WorkspaceID]
	if s == nil {
		c.ledger.anomaly(c.Name, "a snapshot of %s, which it does not sync", page.WorkspaceID)
		return
	}
	if s.Held {
		return // a page it no longer waits for (a duplicate)
	}
	previous := s.Token
	// The page is applied atomically: ApplySnapshot decodes everything first.
	states, err := s.ApplySnapshot(page)
	if err != nil {
		c.ledger.anomaly(c.Name, "undecodable snapshot: %v", err)
		return
	}
	for _, st := range states {
		c.observeState(st)
	}
	if page.HasMore {
		if previous == page.PageToken {
			return // a page it applied already (a duplicate): its pull is out
		}
		c.sendLocked(page.NextPull(c.pageLimit[page.WorkspaceID]))
		return
	}
	delete(c.pageLimit, page.WorkspaceID)
	c.d.ClockLast = c.clock.Last().String()
	c.dropConfirmedLocked(page.WorkspaceID)
}

func (c *Client) observeState(st *psync.RecordState) {
	for _, s := range st.Clocks {
		c.clock.Observe(s)
	}
	if st.Life != nil {
		c.clock.Observe(st.Life.Stamp)
	}
}

func (c *Client) changesLocked(data []byte) {
	page, err := device.DecodePage(data)
	if err != nil {
		c.ledger.anomaly(c.Name, "bad changes page: %v", err)
		return
	}
	w := page.WorkspaceID
	s := c.d.Spaces[w]
	if s == nil {
		c.ledger.anomaly(c.Name, "changes of %s, which it does not sync", w)
		return
	}
	if !s.Held {
		c.ledger.anomaly(c.Name, "changes of %s before its snapshot finished", w)
		return
	}
	// The whole page is applied at once (the lock is held); every change is decoded first.
	applied, err := s.ApplyChanges(page)
	for _, ch := range applied {
		c.clock.Observe(ch.Mutation.Stamp)
		if ch.Author == c.d.ClientID {
			if i, p := c.findPending(ch.MutationID); p != nil {
				if p.AckStamp != nil && *p.AckStamp != ch.Mutation.Stamp {
					c.ledger.anomaly(c.Name, "mutation %d acknowledged with stamp %s, echoed with %s", ch.MutationID, p.AckStamp, ch.Mutation.Stamp)
				}
				c.d.Outbox = append(c.d.Outbox[:i], c.d.Outbox[i+1:]...)
			}
		}
	}
	var gapErr *device.GapError
	gap := errors.As(err, &gapErr)
	switch {
	case gap && !gapErr.Tail:
		c.ledger.anomaly(c.Name, "a gap in %s: %v", w, err)
	case err != nil && !gap:
		c.ledger.anomaly(c.Name, "changes of %s: %v", w, err)
		gap = true // read again from the cursor
	}
	c.d.ClockLast = c.clock.Last().String()
	c.dropConfirmedLocked(w)
	if gap {
		if !c.gapPull[w] {
			c.gapPull[w] = true
			c.sendLocked(device.PullChanges(w, s.Cursor, 0))
		}
		return
	}
	c.gapPull[w] = false
	if page.HasMore {
		c.sendLocked(page.NextPull(c.pageLimit[w]))
	}
}

// ---------------------------------------------------------------- local edits

// view is the device's view of a workspace: confirmed states with the pending outbox on top.
func (c *Client) viewLocked(w string) map[string]*psync.RecordState {
	s := c.d.Spaces[w]
	out := map[string]*psync.RecordState{}
	if s != nil {
		for k, st := range s.Records {
			out[k] = st.Clone()
		}
	}
	for _, p := range c.d.Outbox {
		if p.Workspace != w {
			continue
		}
		k := recordKey(p.Collection, p.Record)
		st := out[k]
		if st == nil {
			st = psync.NewRecordState()
			out[k] = st
		}
		m := p.Mutation
		m.Author = c.d.ClientID
		_, _ = st.Apply(m)
	}
	return out
}

var (
	titles     = []any{"Pagar el IBI", "Revisar el seguro del hogar", "Llamar al notario", "Renovar el DNI", "Declaración de la renta"}
	notes      = []any{nil, "urgente", "ver el correo del banco", "después del verano", "pedir cita"}
	statuses   = []any{"todo", "in_progress", "done"}
	dueDates   = []any{nil, "2025-06-30", "2025-12-31", "2026-03-15"}
	priorities = []any{nil, "high", "medium", "low"}
	fieldPool  = map[string][]any{"title": titles, "notes": notes, "status": statuses, "dueDate": dueDates, "priority": priorities}
	fieldNames = []string{"dueDate", "notes", "priority", "status", "title"}
)

func pick(rng *rand.Rand, list []any) any { return list[rng.IntN(len(list))] }

// Edit makes one local edit, chosen by rng on the device's current view: create a record, edit
// fields, delete, restore, or settle a conflict (restore the losing value, or dismiss it). It
// reports what it did. A viewer's edit is made too (it is refused by the server: a probe).
func (c *Client) Edit(rng *rand.Rand) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	w := c.ws[rng.IntN(len(c.ws))]
	view := c.viewLocked(w)
	keys := make([]string, 0, len(view))
	for k := range view {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var live, deleted, conflicted []string
	for _, k := range keys {
		st := view[k]
		if len(st.Clocks) == 0 {
			continue // only a dismissal seen so far
		}
		if st.Deleted() {
			deleted = append(deleted, k)
		} else {
			live = append(live, k)
		}
		if len(st.ShownConflicts()) > 0 {
			conflicted = append(conflicted, k)
		}
	}
	roll := rng.IntN(100)
	switch {
	case len(live) == 0 || roll < 12 && len(keys) < 6:
		fields := map[string]any{"title": pick(rng, titles), "status": pick(rng, statuses)}
		for _, f := range []string{"notes", "dueDate", "priority"} {
			if v := pick(rng, fieldPool[f]); v != nil && rng.IntN(2) == 0 {
				fields[f] = v
			}
		}
		id, _ := uuid.NewV7()
		c.makeLocked(w, id.String(), psync.Mutation{Op: psync.OpPut, Fields: fields, Base: map[string]psync.Stamp{}})
		return "create"
	case len(conflicted) > 0 && roll < 30:
		k := conflicted[rng.IntN(len(conflicted))]
		st := view[k]
		shown := st.ShownConflicts()
		cf := shown[rng.IntN(len(shown))]
		base := copyClocks(st.Clocks)
		if rng.IntN(2) == 0 {
			c.makeLocked(w, k[len(collection)+1:], psync.Mutation{Op: psync.OpPut, Fields: map[string]any{cf.Field: cf.Value},
				Base: base, Resolves: []psync.ConflictKey{cf.Key()}})
			return "restore a losing value"
		}
		c.makeLocked(w, k[len(collection)+1:], psync.Mutation{Op: psync.OpResolve, Base: base, Resolves: []psync.ConflictKey{cf.Key()}})
		return "dismiss a conflict"
	case len(deleted) > 0 && roll < 40:
		k := deleted[rng.IntN(len(deleted))]
		m := psync.Mutation{Op: psync.OpRestore, Base: copyClocks(view[k].Clocks)}
		if rng.IntN(2) == 0 {
			m.Fields = map[string]any{"status": pick(rng, statuses)}
		}
		c.makeLocked(w, k[len(collection)+1:], m)
		return "restore"
	case roll < 50:
		k := live[rng.IntN(len(live))]
		c.makeLocked(w, k[len(collection)+1:], psync.Mutation{Op: psync.OpDelete, Base: copyClocks(view[k].Clocks)})
		return "delete"
	default:
		k := live[rng.IntN(len(live))]
		fields := map[string]any{}
		for n := 1 + rng.IntN(3); len(fields) < n; {
			f := fieldNames[rng.IntN(len(fieldNames))]
			fields[f] = pick(rng, fieldPool[f])
		}
		c.makeLocked(w, k[len(collection)+1:], psync.Mutation{Op: psync.OpPut, Fields: fields, Base: copyClocks(view[k].Clocks)})
		return "edit"
	}
}

// ProbeWrite makes a write to a workspace the user may not read (a fresh record): the server must
// refuse it.
func (c *Client) ProbeWrite(rng *rand.Rand) bool {
	if len(c.foreign) == 0 {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	w := c.foreign[rng.IntN(len(c.foreign))]
	id, _ := uuid.NewV7()
	c.makeLocked(w, id.String(), psync.Mutation{Op: psync.OpPut, Fields: map[string]any{"title": pick(rng, titles), "status": "todo"},
		Base: map[string]psync.Stamp{}})
	c.stats.add(&c.stats.Probes, 1)
	return true
}

func copyClocks(m map[string]psync.Stamp) map[string]psync.Stamp {
	out := make(map[string]psync.Stamp, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// makeLocked stamps a mutation, appends it to the outbox and pushes it when the socket is open.
func (c *Client) makeLocked(w, record string, m psync.Mutation) {
	m.Stamp = c.clock.Now()
	m.Author = c.d.ClientID
	p := &pending{MutationID: c.d.NextMutationID, Workspace: w, Collection: collection, Record: record, Mutation: m}
	c.d.NextMutationID += 1 + int64(c.choose.IntN(2)) // gaps are allowed
	c.d.ClockLast = c.clock.Last().String()
	c.d.Outbox = append(c.d.Outbox, p)
	expect := ""
	switch {
	case !c.user.Member(w):
		expect = psync.RejectNotFound
	case !c.user.CanWrite(w):
		expect = psync.RejectForbidden
		c.stats.add(&c.stats.Probes, 1)
	}
	c.ledger.addMade(&Made{Device: c.Name, Client: c.d.ClientID, MutationID: p.MutationID, Workspace: w, Collection: collection,
		Record: record, Mutation: m, Expect: expect})
	c.stats.add(&c.stats.Mutations, 1)
	if c.welcomed {
		c.pushLocked([]*pending{p})
	}
}

// ---------------------------------------------------------------- settling

// Status says whether the device has settled: online, nothing pending, every workspace synced up
// to heads[w]. When it has not, why.
func (c *Client) Status(heads map[string]int64) (bool, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.welcomed {
		return false, "not connected"
	}
	if len(c.d.Outbox) > 0 {
		var ids []string
		for _, p := range c.d.Outbox {
			ids = append(ids, fmt.Sprintf("%d(ack seq %d)", p.MutationID, p.AckSeq))
		}
		return false, fmt.Sprintf("%d pending: %v", len(c.d.Outbox), ids)
	}
	for _, w := range c.ws {
		s := c.d.Spaces[w]
		if !s.Held {
			return false, fmt.Sprintf("first sync of %s not finished (token %q)", w, s.Token)
		}
		if s.Cursor != heads[w] {
			return false, fmt.Sprintf("cursor %d of %s, head %d", s.Cursor, w, heads[w])
		}
	}
	return true, ""
}

// Replica returns a copy of the device's confirmed records of workspace w and its cursor.
func (c *Client) Replica(w string) (map[string]*psync.RecordState, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]*psync.RecordState{}
	s := c.d.Spaces[w]
	for k, st := range s.Records {
		out[k] = st.Clone()
	}
	return out, s.Cursor
}

// RejectedIDs lists the mutation ids the device holds as rejected.
func (c *Client) RejectedIDs() []int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []int64
	for _, p := range c.d.Rejected {
		out = append(out, p.MutationID)
	}
	return out
}
