package socket

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"patrimonio/core"
	schema "patrimonio/shared-schema"
	psync "patrimonio/sync"
	"patrimonio/sync/internal/freelist"
)

// One socket. Three goroutines share it (and one per push in flight):
//
//   - the reader (the handler's goroutine) reads messages one at a time: hello, pushes (submitted
//     to the engine, at most maxPushesInFlight unanswered, all of one workspace, so that a
//     client's pushes commit in the order it sent them), pulls (handed to the deliverer) and
//     pings (anything but a push waits until the pushes before it are answered);
//   - while a push is in flight, a goroutine of its own waits for its commit and answers it, after
//     the push before it;
//   - the deliverer sends every page (snapshot and changes) of every workspace, so pages of one
//     workspace leave in order, answers pulls, reacts to pokes (commits) and re-checks the session;
//   - the writer writes the send queue to the socket and pings.
//
// Memory is bounded: the send queue holds at most Options.SendQueueBytes (producers wait for room;
// pages are read from the database only when there is room), and changes that wait stay in the
// database, not in memory — but for the pages of this instance's recent commits a socket may send
// without reading (at most maxReady of them and maxReadyBytes, shared with the other sockets).

// closeReason is why a socket closes: the close code, and the error message sent before it.
type closeReason struct {
	code    int
	errCode string // "" sends no error message
	key     string
	params  map[string]any
	// silent: the socket cannot (or need not) take any more frames.
	silent bool
}

// WebSocket close codes (PROTOCOL.md, "Close codes"; protocol.ts CLOSE_CODES).
const (
	CloseNormal             = websocket.CloseNormalClosure     // 1000
	CloseGoingAway          = websocket.CloseGoingAway         // 1001
	CloseTooLarge           = websocket.CloseMessageTooBig     // 1009
	CloseInternal           = websocket.CloseInternalServerErr // 1011
	CloseInvalidMessage     = 4400
	CloseUnauthorized       = 4401
	CloseForbidden          = 4403
	CloseTimeout            = 4408
	CloseReplaced           = 4409
	CloseVersion            = 4426
	CloseRateLimited        = 4429
	CloseTooManyConnections = 4430
	CloseSlowConsumer       = 4431
)

var (
	reasonGoingAway     = closeReason{code: CloseGoingAway, errCode: "going_away", key: "sync.error.goingAway"}
	reasonUnauthorized  = closeReason{code: CloseUnauthorized, errCode: "unauthorized", key: "sync.error.unauthorized"}
	reasonForbidden     = closeReason{code: CloseForbidden, errCode: "forbidden", key: "sync.error.forbidden"}
	reasonHelloTimeout  = closeReason{code: CloseTimeout, errCode: "timeout", key: "sync.error.timeout"}
	reasonReplaced      = closeReason{code: CloseReplaced, errCode: "replaced", key: "sync.error.replaced"}
	reasonInvalid       = closeReason{code: CloseInvalidMessage, errCode: "invalid_message", key: "sync.error.invalidMessage"}
	reasonHelloFirst    = closeReason{code: CloseInvalidMessage, errCode: "invalid_message", key: "sync.error.helloFirst"}
	reasonSlowConsumer  = closeReason{code: CloseSlowConsumer, errCode: "slow_consumer", key: "sync.error.slowConsumer"}
	reasonInternal      = closeReason{code: CloseInternal, errCode: "internal", key: "sync.error.internal"}
	reasonPeerClosed    = closeReason{code: CloseNormal, silent: true}
	reasonDropped       = closeReason{code: CloseNormal, silent: true}
	reasonFrameTooLarge = closeReason{code: CloseTooLarge, silent: true} // the library sent 1009 already
)

func (s *Server) reasonTooLarge() closeReason {
	return closeReason{code: CloseTooLarge, errCode: "too_large", key: "sync.error.tooLarge",
		params: map[string]any{"max": s.limits.MaxMessageBytes, "mutations": s.limits.MaxMutationsPerPush}}
}

func (s *Server) reasonRateLimited() closeReason {
	return closeReason{code: CloseRateLimited, errCode: "rate_limited", key: "sync.error.rateLimited",
		params: map[string]any{"max": s.opts.MaxMessagesPerSecond}}
}

func (s *Server) reasonTooManyConnections() closeReason {
	return closeReason{code: CloseTooManyConnections, errCode: "too_many_connections", key: "sync.error.tooManyConnections",
		params: map[string]any{"max": s.opts.MaxConnectionsPerUser}}
}

func reasonVersion(errCode, key string, client, server int64) closeReason {
	return closeReason{code: CloseVersion, errCode: errCode, key: key, params: map[string]any{"client": client, "server": server}}
}

// pageRequest asks for one page of a workspace: the changes after `after`, or (snapshot) a
// snapshot page, the first or the one after token.
type pageRequest struct {
	workspace string
	after     int64
	snapshot  bool
	limit     int
	token     string
}

// subscription is the state of one workspace on one socket.
type subscription struct {
	pos   int64 // last seq sent
	live  bool  // the last page had hasMore false: send new changes on our own
	dirty bool  // a commit may have added changes after pos
	// head is the highest seq a commit announced since serveLive last looked (math.MaxInt64:
	// read whatever there is); ready are the commits of this instance, in order, whose pages
	// this socket may send without reading them (commit.sendableTo).
	head       int64
	ready      []*commit
	readyBytes int // the ready pages' sizes
}

// maxReady and maxReadyBytes bound the commits a socket keeps to send without reading (their
// pages are shared with the other sockets they go to); past them, it reads.
const (
	maxReady      = 16
	maxReadyBytes = 1 << 20
)

// commit is a commit of the engine as the sockets it pokes share it: its changes messages are
// encoded once, by the first socket that sends them.
type commit struct {
	psync.Commit
	once sync.Once
	msgs [][]byte
	size int // the pages' sizes
}

func newCommit(c psync.Commit) *commit {
	m := &commit{Commit: c}
	for _, p := range c.Pages {
		m.size += p.Size()
	}
	return m
}

func (m *commit) messages() [][]byte {
	m.once.Do(func() {
		for _, p := range m.Pages {
			m.msgs = append(m.msgs, psync.EncodeChanges(m.Workspace, *p))
		}
	})
	return m.msgs
}

// sendableTo: the commit carries its pages, and its transaction read the user's membership of the
// workspace (under the workspace's lock) and found it valid.
func (m *commit) sendableTo(user string) bool {
	if m == nil || m.Pages == nil {
		return false
	}
	_, found := slices.BinarySearch(m.Readers, user)
	return found
}

type conn struct {
	s    *Server
	ws   *websocket.Conn
	p    Principal
	lang string

	out   *sendQueue
	reqs  chan pageRequest
	pokes chan struct{}

	mu       sync.Mutex
	clientID string
	subs     map[string]*subscription

	ctx       context.Context // ends when the socket closes
	cancel    context.CancelFunc
	closing   chan struct{}
	closeOnce sync.Once
	reason    closeReason

	readerDone chan struct{}
	bucket     tokenBucket
	helloDone  bool

	// Pushes in flight: the reader submits a push and reads on; a goroutine of the push's own
	// waits for its commit and answers it after the one before it (answered: closed once the last
	// push submitted is answered). slots bounds them (maxPushesInFlight); unanswered counts those
	// not answered yet; lastWorkspace is the first mutation's workspace of the last one submitted.
	// An idle socket has no such goroutine.
	slots         chan struct{}
	unanswered    sync.WaitGroup
	lastWorkspace string
	answered      chan struct{}
	// id tells the engine which pushes come from this connection: one queued behind a push of
	// this connection that failed is not applied (psync.Client.Conn).
	id uint64

	// deadlineMu orders the reader's own read deadlines with the close's linger: once closing, the
	// read deadline is the writer's alone.
	deadlineMu sync.Mutex
}

func newConn(s *Server, ws *websocket.Conn, p Principal, lang string) *conn {
	ctx, cancel := context.WithCancel(s.ctx)
	return &conn{
		s:          s,
		ws:         ws,
		p:          p,
		lang:       lang,
		out:        newSendQueue(s.opts.SendQueueBytes),
		reqs:       make(chan pageRequest, schema.MaxWorkspaces+16),
		pokes:      make(chan struct{}, 1),
		subs:       map[string]*subscription{},
		ctx:        ctx,
		cancel:     cancel,
		closing:    make(chan struct{}),
		readerDone: make(chan struct{}),
		bucket:     tokenBucket{rate: float64(s.opts.MaxMessagesPerSecond), burst: float64(s.opts.MessageBurst)},

		slots: make(chan struct{}, maxPushesInFlight),
		id:    connIDs.Add(1),
	}
}

// connIDs numbers the connections (conn.id).
var connIDs atomic.Uint64

// maxPushesInFlight is how many pushes of one socket may be submitted to the engine and not
// answered yet: the device client's push window (clientdb/src/client.ts, 2 by default). While one
// commits, the next is read and decoded and waits in its committer's queue, so that it can join
// the next group commit.
const maxPushesInFlight = 2

func (c *conn) client() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.clientID
}

// close starts closing the socket for reason (the first reason wins).
func (c *conn) close(reason closeReason) {
	c.closeOnce.Do(func() {
		c.reason = reason
		// closing before the context: whatever finds the context done also finds the socket
		// closing (a push refused for the context is followed by no other: submitPush).
		close(c.closing)
		c.cancel()
	})
}

// closeLinger is how long a closing socket keeps reading (and discarding) after its close frame,
// waiting for the peer's (PROTOCOL.md, "error").
const closeLinger = 2 * time.Second

func (c *conn) isClosing() bool {
	select {
	case <-c.closing:
		return true
	default:
		return false
	}
}

// setReadDeadline sets the reader's deadline unless the socket is closing (then the close's
// linger decides).
func (c *conn) setReadDeadline(t time.Time) {
	c.deadlineMu.Lock()
	defer c.deadlineMu.Unlock()
	if !c.isClosing() {
		_ = c.ws.SetReadDeadline(t)
	}
}

// linger sets the read deadline of a closing socket: the reader discards what still arrives until
// the peer's close frame, an error, or t.
func (c *conn) linger(t time.Time) {
	c.deadlineMu.Lock()
	defer c.deadlineMu.Unlock()
	_ = c.ws.SetReadDeadline(t)
}

// run serves the socket until it closes. It returns once all its goroutines are done.
func (c *conn) run() {
	writerDone := make(chan struct{})
	delivererDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		c.writeLoop()
	}()
	go func() {
		defer close(delivererDone)
		c.deliverLoop()
	}()
	c.readLoop()
	close(c.readerDone)
	c.close(reasonDropped)
	<-writerDone
	<-delivererDone
	c.unanswered.Wait() // the pushes' goroutines (each ends with its push's verdict)
	c.s.hub.remove(c)
}

// ---------------------------------------------------------------- reader

// readLoop reads until the connection ends. Once the socket is closing (whoever decided it) it
// goes on reading and discarding — a lingering close — until the peer's close frame or the
// linger's deadline: a socket is never closed with unread data, which makes the kernel answer with
// a reset that can cost the peer the close frame and the messages before it (a flooding client
// keeps writing while the server closes).
func (c *conn) readLoop() {
	s := c.s
	c.ws.SetReadLimit(int64(s.limits.MaxMessageBytes))
	helloBy := time.Now().Add(s.opts.HelloTimeout)
	// Anything from the client keeps the socket alive (PongWait), control frames included: the
	// pong that answers the server's ping (browsers send it by themselves: an open app that has
	// nothing to say must not be dropped) and a ping. The handlers run on this goroutine, while a
	// message is read (next).
	alive := func() {
		if c.helloDone {
			c.setReadDeadline(time.Now().Add(s.opts.PongWait))
		}
	}
	c.ws.SetPongHandler(func(string) error {
		alive()
		return nil
	})
	answerPing := c.ws.PingHandler()
	c.ws.SetPingHandler(func(data string) error {
		alive()
		return answerPing(data)
	})
	for {
		deadline := helloBy
		if c.helloDone {
			deadline = time.Now().Add(s.opts.PongWait)
		}
		c.setReadDeadline(deadline)
		typ, buf, err := c.next()
		if err != nil {
			c.readFailed(err)
			return
		}
		c.process(typ, buf.Bytes())
		// Nothing keeps a message's bytes past its handling (it is decoded into copies).
		putReadBuffer(buf)
	}
}

// next reads the next message into a pooled buffer.
func (c *conn) next() (int, *bytes.Buffer, error) {
	typ, r, err := c.ws.NextReader()
	if err != nil {
		return 0, nil, err
	}
	buf := getReadBuffer()
	if _, err := buf.ReadFrom(r); err != nil {
		putReadBuffer(buf)
		return 0, nil, err
	}
	return typ, buf, nil
}

// process handles one message read: dropped while closing, refused over the rate limit or when
// not text, else handled.
func (c *conn) process(typ int, data []byte) {
	switch {
	case c.isClosing():
		// lingering: discard
	case !c.bucket.take(time.Now()):
		c.unanswered.Wait() // the pushes before it are answered first (see handle)
		c.close(c.s.reasonRateLimited())
	case typ != websocket.TextMessage:
		c.unanswered.Wait()
		c.close(reasonInvalid)
	default:
		if reason, ok := c.handle(data); !ok {
			c.close(reason)
		}
	}
}

// readBuffers hold the messages being read: a push is up to 1 MiB, and reading each into a new
// slice grown from nothing cost the server twice its size in allocations. Shared, not a buffer
// per socket, so that idle sockets hold none: at most 8, of at most maxKeptReadBuffer bytes each.
var readBuffers = freelist.New(8, func(b *bytes.Buffer) bool { return b.Cap() <= maxKeptReadBuffer })

const maxKeptReadBuffer = 2 << 20

func getReadBuffer() *bytes.Buffer {
	if buf, ok := readBuffers.Get(); ok {
		buf.Reset()
		return buf
	}
	return new(bytes.Buffer)
}

func putReadBuffer(buf *bytes.Buffer) { readBuffers.Put(buf) }

func (c *conn) readFailed(err error) {
	// The pushes read before are answered before the socket closes (a message over the limit
	// after them gets its close after their acks).
	c.unanswered.Wait()
	var ne net.Error
	var ce *websocket.CloseError
	switch {
	case errors.Is(err, websocket.ErrReadLimit):
		c.close(reasonFrameTooLarge)
	case errors.As(err, &ce):
		c.close(reasonPeerClosed)
	case errors.As(err, &ne) && ne.Timeout() && !c.helloDone:
		c.close(reasonHelloTimeout)
	default:
		c.close(reasonDropped)
	}
}

// handle handles one message; false closes the socket for the returned reason.
func (c *conn) handle(data []byte) (closeReason, bool) {
	// A valid push is read straight into its mutations; anything else goes the general way below,
	// which gives the verdict and the issues (psync.FastPush).
	if c.helloDone {
		if muts, ok := psync.FastPush(data, c.s.limits.MaxMutationsPerPush); ok {
			return c.submitPush(muts, nil)
		}
	}
	// Anything else is handled once every push before it is answered: whatever it makes the
	// server send (an error and a close, a pong) comes after their answers, as when pushes were
	// applied one at a time.
	c.unanswered.Wait()
	m, err := psync.DecodeMessage(data)
	if err != nil {
		return reasonInvalid, false
	}
	typ, _ := m["type"].(string)
	if !c.helloDone {
		if typ != msgHello {
			return reasonHelloFirst, false
		}
		return c.handleHello(m)
	}
	switch typ {
	case msgPush:
		return c.handlePush(m)
	case msgPull:
		if !psync.ValidMessage(m, c.lang) {
			return reasonInvalid, false
		}
		p := psync.ReadPull(m)
		select {
		case c.reqs <- pageRequest{workspace: p.WorkspaceID, after: p.After, snapshot: p.Snapshot, limit: p.Limit, token: p.PageToken}:
		case <-c.closing:
		}
		return closeReason{}, true
	case msgPing:
		if !psync.ValidMessage(m, c.lang) {
			return reasonInvalid, false
		}
		return closeReason{}, c.send(mustJSON(simpleMessage{Type: msgPong}))
	case msgHello:
		return reasonHelloFirst, false
	}
	return reasonInvalid, false
}

func (c *conn) handleHello(m map[string]any) (closeReason, bool) {
	s := c.s
	// Versions first: a client of another version may not match this schema at all.
	if v, ok := psync.JSONInt(m["protocolVersion"]); ok && v != schema.ProtocolVersion {
		return reasonVersion("protocol_version", "sync.error.protocolVersion", v, schema.ProtocolVersion), false
	}
	if v, ok := psync.JSONInt(m["schemaVersion"]); ok && v != schema.SchemaVersion {
		return reasonVersion("schema_version", "sync.error.schemaVersion", v, schema.SchemaVersion), false
	}
	if !psync.ValidMessage(m, c.lang) {
		return reasonInvalid, false
	}
	h := psync.ReadHello(m)
	if h.Language != "" {
		c.lang = h.Language
	}
	if err := s.engine.BindClient(c.ctx, c.p.UserID, h.ClientID); err != nil {
		if core.ErrorCode(err) == core.EFORBIDDEN {
			return reasonForbidden, false
		}
		s.log.Error("sync: hello", "err", err)
		return reasonInternal, false
	}
	c.mu.Lock()
	c.clientID = h.ClientID
	c.mu.Unlock()
	if old := s.hub.claimClient(c, h.ClientID); old != nil {
		old.close(reasonReplaced)
	}
	c.helloDone = true
	welcome := welcomeMessage{
		Type:            msgWelcome,
		ProtocolVersion: schema.ProtocolVersion,
		SchemaVersion:   schema.SchemaVersion,
		ServerTime:      s.engine.ServerTime(),
		Limits: welcomeLimits{
			MaxMessageBytes:      s.limits.MaxMessageBytes,
			MaxMutationsPerPush:  s.limits.MaxMutationsPerPush,
			MaxChangesPerPage:    s.limits.MaxChangesPerPage,
			MaxMessagesPerSecond: s.opts.MaxMessagesPerSecond,
		},
	}
	if !c.send(mustJSON(welcome)) {
		return closeReason{}, true
	}
	workspaces := map[string]bool{}
	for w := range h.Cursors {
		workspaces[w] = true
	}
	for w := range h.Fresh {
		workspaces[w] = true
	}
	for w := range h.Resume {
		workspaces[w] = true
	}
	for _, w := range sortedKeys(workspaces) {
		// A snapshot for a workspace the device holds nothing of (or one in progress); else the
		// changes after its cursor, 0 included (an empty snapshot applied: change 1 comes as a
		// change).
		_, held := h.Cursors[w]
		select {
		case c.reqs <- pageRequest{workspace: w, after: h.Cursors[w], snapshot: !held || h.Resume[w] != "", token: h.Resume[w]}:
		case <-c.closing:
			return closeReason{}, true
		}
	}
	return closeReason{}, true
}

func (c *conn) handlePush(m map[string]any) (closeReason, bool) {
	s := c.s
	muts, rejected, err := psync.ParsePush(m, s.limits.MaxMutationsPerPush)
	if err != nil {
		if core.ErrorCode(err) == core.ETOOLARGE {
			return s.reasonTooLarge(), false
		}
		return reasonInvalid, false
	}
	return c.submitPush(muts, rejected)
}

// submitPush submits a push's valid mutations to the engine, to be answered once they commit,
// and returns without waiting, but for a free slot (maxPushesInFlight). A push whose first
// mutation's workspace differs from the one before it waits until that one is answered: pushes of
// one connection are applied in the order they are sent (PROTOCOL.md), which the engine keeps
// for pushes of one workspace (they queue for one committer) and not across workspaces.
func (c *conn) submitPush(muts []psync.ClientMutation, rejected []psync.Outcome) (closeReason, bool) {
	if w := muts[0].WorkspaceID; w != c.lastWorkspace {
		c.unanswered.Wait()
		c.lastWorkspace = w
	}
	select {
	case c.slots <- struct{}{}:
	case <-c.closing:
		return closeReason{}, true
	}
	if c.isClosing() {
		// A closing socket submits nothing more (the pushes before this one may not all have been
		// submitted): the device sends it again, after the ones before it, on its next socket.
		<-c.slots
		return closeReason{}, true
	}
	p, err := c.s.engine.Submit(c.ctx, psync.Client{UserID: c.p.UserID, ClientID: c.client(), Conn: c.id}, muts)
	if err != nil {
		<-c.slots
		return c.pushFailed(err)
	}
	before, answered := c.answered, make(chan struct{})
	c.answered = answered
	c.unanswered.Add(1)
	go func() {
		defer c.unanswered.Done()
		defer func() { <-c.slots }()
		defer close(answered)
		// The engine's verdict, also once the socket is closing: the engine decides every push
		// it queued, and "answered" must mean decided, for a push of another workspace behind
		// this one waits for it (above) and would otherwise be decided first, its mutations
		// judged before the earlier ones they build on (an edit of a record this push creates,
		// refused as incomplete). Found by the simulation (seeds 45332165, 45332175).
		outcomes, err := p.Wait(context.WithoutCancel(c.ctx))
		if before != nil {
			<-before // answers leave in the order the pushes came
		}
		if reason, ok := c.answerPush(outcomes, err, rejected); !ok {
			c.close(reason)
		}
	}()
	return closeReason{}, true
}

// pushFailed is the close reason, if any, of a push the engine could not apply.
func (c *conn) pushFailed(err error) (closeReason, bool) {
	if c.ctx.Err() != nil {
		return closeReason{}, true // closing anyway; the client resends
	}
	c.s.log.Error("sync: push", "client", c.client(), "err", err)
	if core.ErrorCode(err) == core.EUNAVAILABLE {
		return reasonGoingAway, false
	}
	return reasonInternal, false
}

// answerPush answers every mutation of a push once the engine has decided them (outcomes, or
// err): an ack for the applied and duplicate ones, a reject for each of `rejected` and for those
// the engine refused.
func (c *conn) answerPush(outcomes []psync.Outcome, err error, rejected []psync.Outcome) (closeReason, bool) {
	if err != nil {
		return c.pushFailed(err)
	}
	// In mutation id order: the engine's outcomes are, in the push's order (and a device pushes
	// its ids in order); the mutations refused before the engine join them.
	all := outcomes
	if len(rejected) > 0 || !slices.IsSortedFunc(outcomes, byMutationID) {
		all = append(append(make([]psync.Outcome, 0, len(rejected)+len(outcomes)), rejected...), outcomes...)
		slices.SortStableFunc(all, byMutationID)
	}
	var acks ackWriter
	for _, o := range all {
		if o.Status == psync.StatusRejected {
			msg := rejectMessage{Type: msgReject, MutationID: o.MutationID, Code: o.Code, Issues: wireIssues(o.Issues, c.lang)}
			if !c.send(mustJSON(msg)) {
				return closeReason{}, true
			}
			continue
		}
		acks.add(o, len(all))
	}
	if msg := acks.message(); msg != nil {
		c.send(msg)
	}
	return closeReason{}, true
}

func byMutationID(a, b psync.Outcome) int { return cmp.Compare(a.MutationID, b.MutationID) }

// send queues a message. It waits while the queue is full; a socket that takes no room for
// SlowConsumerTimeout is closed as a slow consumer. false: the socket is closing.
func (c *conn) send(msg []byte) bool {
	switch c.out.push(msg, c.s.opts.SlowConsumerTimeout, c.closing) {
	case nil:
		return true
	case errQueueTimeout:
		c.close(reasonSlowConsumer)
	}
	return false
}

// ---------------------------------------------------------------- writer

func (c *conn) writeLoop() {
	s := c.s
	ping := time.NewTicker(s.opts.PingInterval)
	defer ping.Stop()
	for {
		select {
		case <-c.closing:
			c.finish()
			return
		case <-c.out.ready:
			for {
				msg, ok := c.out.pop()
				if !ok {
					break
				}
				_ = c.ws.SetWriteDeadline(time.Now().Add(s.opts.WriteTimeout))
				if err := c.ws.WriteMessage(websocket.TextMessage, msg); err != nil {
					var ne net.Error
					if errors.As(err, &ne) && ne.Timeout() {
						c.close(closeReason{code: CloseSlowConsumer, silent: true})
					} else {
						c.close(reasonDropped)
					}
					c.finish()
					return
				}
			}
		case <-ping.C:
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(s.opts.WriteTimeout)); err != nil {
				c.close(reasonDropped)
				c.finish()
				return
			}
		}
	}
}

// finish ends a closing socket: unless the reason is silent, it writes what was queued, the error
// and the close frame, then half-closes the connection (FIN: the peer reads everything, then the
// end); meanwhile the reader goes on discarding what the peer still sends (readLoop), until the
// peer's close frame or closeLinger after ours. Then the connection is closed, with nothing
// unread.
func (c *conn) finish() {
	r := c.reason
	lingerUntil := time.Now() // silent: the connection is gone or needs nothing more
	if !r.silent {
		// What was queued before the reason to close (a welcome, acks) goes first: the error
		// and the close frame come last, in the order the server decided them. The whole close
		// may take one write timeout (the peer reads while we write: see readLoop).
		deadline := time.Now().Add(c.s.opts.WriteTimeout)
		_ = c.ws.SetWriteDeadline(deadline)
		for {
			msg, ok := c.out.pop()
			if !ok || c.ws.WriteMessage(websocket.TextMessage, msg) != nil {
				break
			}
		}
		if r.errCode != "" {
			msg := errorMessage{Type: msgError, Code: r.errCode, Message: schema.Message(c.lang, r.key, r.params)}
			_ = c.ws.WriteMessage(websocket.TextMessage, mustJSON(msg))
		}
		if err := c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(r.code, r.errCode), deadline); err == nil {
			if hc, ok := c.ws.NetConn().(interface{ CloseWrite() error }); ok {
				_ = hc.CloseWrite()
			}
			lingerUntil = time.Now().Add(closeLinger)
		}
	}
	c.linger(lingerUntil)
	<-c.readerDone
	_ = c.ws.Close()
}

// closeNow closes a socket that was never run (refused at the handshake), reading and discarding
// what the client sends meanwhile (its hello) like any closing socket.
func (c *conn) closeNow(r closeReason) {
	c.close(r)
	go func() {
		defer close(c.readerDone)
		c.readLoop()
	}()
	c.finish()
}

// ---------------------------------------------------------------- deliverer

func (c *conn) deliverLoop() {
	// Re-checks are spread (±25%), so that sockets opened together do not all query at once.
	every := c.s.opts.SessionCheckInterval
	jittered := func() time.Duration { return every*3/4 + rand.N(every/2+1) }
	check := time.NewTimer(jittered())
	defer check.Stop()
	for {
		select {
		case <-c.closing:
			return
		case req := <-c.reqs:
			c.servePull(req)
		case <-c.pokes:
			c.serveLive()
		case <-check.C:
			c.recheck()
			check.Reset(jittered())
		}
	}
}

func (c *conn) subscription(workspace string) *subscription {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.subs[workspace]
	if s == nil {
		s = &subscription{}
		c.subs[workspace] = s
	}
	return s
}

func (c *conn) drop(workspace string) {
	c.mu.Lock()
	delete(c.subs, workspace)
	c.mu.Unlock()
	c.s.hub.unsubscribe(c, workspace)
}

// poke: the workspace's head is now seq (from a commit here or elsewhere); m is this instance's
// commit (nil: read the changes).
func (c *conn) poke(workspace string, seq int64, m *commit) {
	c.mu.Lock()
	s := c.subs[workspace]
	if s != nil && seq > s.pos {
		s.dirty = true
		s.head = max(s.head, seq)
		if s.live && len(s.ready) < maxReady && m.sendableTo(c.p.UserID) && s.readyBytes+m.size <= maxReadyBytes {
			s.ready = append(s.ready, m)
			s.readyBytes += m.size
		}
	}
	c.mu.Unlock()
	select {
	case c.pokes <- struct{}{}:
	default:
	}
}

// servePull answers a pull (or a hello's cursor): one page.
func (c *conn) servePull(req pageRequest) {
	s := c.subscription(req.workspace)
	// Follow the workspace before reading, so that no commit falls between the read and the
	// subscription.
	c.s.hub.subscribe(c, req.workspace)
	c.mu.Lock()
	s.live, s.dirty, s.head, s.ready, s.readyBytes = false, false, 0, nil, 0
	c.mu.Unlock()
	if req.snapshot || req.token != "" {
		c.serveSnapshot(req)
		return
	}
	c.serveChanges(req.workspace, req.after, req.limit, true)
}

func (c *conn) serveSnapshot(req pageRequest) {
	e := c.s.engine
	page, err := e.SnapshotPage(c.ctx, c.p.UserID, req.workspace, req.token, req.limit)
	if err != nil && req.token != "" && errors.Is(err, psync.ErrBadPageToken) {
		// A token this server did not write (another version): start the snapshot again.
		page, err = e.SnapshotPage(c.ctx, c.p.UserID, req.workspace, "", req.limit)
	}
	if err != nil {
		c.readFailedFor(req.workspace, err)
		return
	}
	if !c.send(psync.EncodeSnapshot(req.workspace, page)) {
		return
	}
	if page.HasMore {
		return
	}
	c.mu.Lock()
	s := c.subs[req.workspace]
	if s != nil {
		s.pos, s.live = page.Cursor, true
		s.dirty, s.head = true, math.MaxInt64 // changes committed since the snapshot began
	}
	c.mu.Unlock()
	c.serveLive()
}

// serveChanges sends the page after `after`. A page answering a pull is sent even when empty; a
// live page only when it holds changes.
func (c *conn) serveChanges(workspace string, after int64, limit int, answer bool) {
	page, err := c.s.engine.ChangesPage(c.ctx, c.p.UserID, workspace, after, limit)
	if err != nil {
		c.readFailedFor(workspace, err)
		return
	}
	if !answer && len(page.Changes) == 0 {
		return
	}
	if !c.send(psync.EncodeChanges(workspace, page)) {
		return
	}
	c.mu.Lock()
	if s := c.subs[workspace]; s != nil {
		s.pos, s.live = page.Cursor, !page.HasMore
	}
	c.mu.Unlock()
}

// serveLive sends the new changes of every live workspace that a commit touched: the pages its
// commits carried when they follow on from the socket's position (no read), else (and for what
// they do not cover) the page read after its position.
func (c *conn) serveLive() {
	for {
		var workspace string
		var after, head int64
		var ready []*commit
		c.mu.Lock()
		for _, w := range sortedKeys(c.subs) {
			s := c.subs[w]
			if s.live && s.dirty {
				workspace, after, head, ready = w, s.pos, s.head, s.ready
				s.dirty, s.head, s.ready, s.readyBytes = false, 0, nil, 0
				break
			}
		}
		c.mu.Unlock()
		if workspace == "" || c.ctx.Err() != nil {
			return
		}
		pos := after
		for _, m := range ready {
			if m.Seq <= pos {
				continue // a read sent it already
			}
			if m.From != pos {
				break // a gap (a commit of another instance in between): read
			}
			for _, msg := range m.messages() {
				if !c.send(msg) {
					return
				}
			}
			pos = m.Seq
		}
		if pos != after {
			c.mu.Lock()
			if s := c.subs[workspace]; s != nil {
				s.pos = pos
			}
			c.mu.Unlock()
		}
		if pos < head {
			c.serveChanges(workspace, pos, 0, false)
		}
	}
}

// readFailedFor turns a failed read of a workspace into its message: accessDenied,
// resyncRequired, or (anything else) closing the socket.
func (c *conn) readFailedFor(workspace string, err error) {
	var resync *psync.ResyncError
	switch {
	case errors.As(err, &resync):
		c.drop(workspace)
		c.send(mustJSON(resyncMessage{Type: msgResyncRequired, WorkspaceID: workspace, Reason: resync.Reason}))
	case core.ErrorCode(err) == core.ENOTFOUND || core.ErrorCode(err) == core.EFORBIDDEN:
		c.drop(workspace)
		c.send(mustJSON(resyncMessage{Type: msgAccessDenied, WorkspaceID: workspace, Reason: psync.DeniedNotAMember}))
	case c.ctx.Err() != nil:
	default:
		c.s.log.Error("sync: read for a socket", "workspace", workspace, "err", err)
		c.close(reasonInternal)
	}
}

// recheck re-validates the session and the memberships of the followed workspaces.
func (c *conn) recheck() {
	if c.p.Check != nil {
		if err := c.p.Check(c.ctx); err != nil {
			if core.ErrorCode(err) == core.EUNAUTHORIZED {
				c.close(reasonUnauthorized)
				return
			}
			if c.ctx.Err() == nil {
				c.s.log.Warn("sync: could not re-check a session", "err", err)
			}
		}
	}
	c.mu.Lock()
	workspaces := sortedKeys(c.subs)
	c.mu.Unlock()
	for _, w := range workspaces {
		role, err := c.s.engine.ReadRole(c.ctx, c.p.UserID, w)
		if err != nil {
			return
		}
		if !role.Valid() {
			c.drop(w)
			c.send(mustJSON(resyncMessage{Type: msgAccessDenied, WorkspaceID: w, Reason: psync.DeniedNotAMember}))
		}
	}
}

// ---------------------------------------------------------------- send queue and rate limit

var (
	errQueueTimeout = errors.New("sync: send queue full for too long")
	errQueueClosed  = errors.New("sync: socket closing")
)

// sendQueue is a FIFO of encoded messages bounded in bytes. A message is always accepted into an
// empty queue, so one message larger than the bound still goes through.
type sendQueue struct {
	mu    sync.Mutex
	items [][]byte
	bytes int
	max   int
	ready chan struct{} // something to write
	space chan struct{} // room was made
}

func newSendQueue(max int) *sendQueue {
	return &sendQueue{max: max, ready: make(chan struct{}, 1), space: make(chan struct{}, 1)}
}

func (q *sendQueue) push(msg []byte, timeout time.Duration, closing <-chan struct{}) error {
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		q.mu.Lock()
		if len(q.items) == 0 || q.bytes+len(msg) <= q.max {
			q.items = append(q.items, msg)
			q.bytes += len(msg)
			roomLeft := q.bytes < q.max
			q.mu.Unlock()
			signal(q.ready)
			if roomLeft {
				signal(q.space) // another waiting producer may fit too
			}
			return nil
		}
		q.mu.Unlock()
		if timer == nil {
			timer = time.NewTimer(timeout)
		}
		select {
		case <-q.space:
		case <-timer.C:
			return errQueueTimeout
		case <-closing:
			return errQueueClosed
		}
	}
}

func (q *sendQueue) pop() ([]byte, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) == 0 {
		return nil, false
	}
	msg := q.items[0]
	q.items[0] = nil
	q.items = q.items[1:]
	q.bytes -= len(msg)
	signal(q.space)
	return msg, true
}

func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// tokenBucket limits a connection's message rate: rate per second, bursts of burst.
type tokenBucket struct {
	rate, burst float64
	tokens      float64
	last        time.Time
}

func (b *tokenBucket) take(now time.Time) bool {
	if b.last.IsZero() {
		b.tokens, b.last = b.burst, now
	}
	b.tokens = math.Min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
