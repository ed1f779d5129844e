package psync

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"patrimonio/core"
	"patrimonio/server/store"
	schema "patrimonio/shared-schema"
)

// Options configure an Engine. The zero value of every field means its default.
type Options struct {
	// Now tells the time (change log times, retention); tests inject a scripted clock. The hybrid
	// logical clock reads it too.
	Now    func() time.Time
	Logger *slog.Logger
	// Node is the node id of this engine's clock (default: a fresh random one per process, which
	// is how CLOCK.md wants it: a node id never outlives its clock state).
	Node string
	// MaxDrift bounds how far ahead of this server's clock a pushed stamp is trusted
	// (DefaultMaxDrift); further ahead, the mutation is re-stamped (CLOCK.md).
	MaxDrift time.Duration

	// Retention is how long the change log, tombstones and rejections are kept (30 days). A
	// client whose cursor is older than the oldest kept change must resync.
	Retention time.Duration
	// GCInterval is how often garbage is collected (1 hour); negative turns the loop off
	// (CollectGarbage can still be called).
	GCInterval time.Duration

	Limits Limits

	// Committers is the number of transactions that apply pushes at once (1 on SQLite, whose
	// writes are serialised anyway; 2 on Postgres, leaving the pool's other connections to
	// readers). A workspace's pushes go to one committer while any is queued or committing
	// (Engine.route). MaxGroupMutations
	// bounds the mutations one group commit takes from the queue (4000).
	Committers        int
	MaxGroupMutations int
}

// Limits bound what one push or page may cost (PROTOCOL.md, "Limits"). The transport's own
// limits (message rate, sockets per user, send queue) are socket.Options'.
type Limits struct {
	MaxMessageBytes     int // largest frame either way (1 MiB)
	MaxMutationsPerPush int // 500
	MaxChangesPerPage   int // changes or snapshot records per page (500)
	MaxPageBytes        int // a page's payload is cut near this size (768 KiB), below MaxMessageBytes
	// MaxStateBytes bounds a record's whole merge state, conflicts included (512 KiB), so that
	// every record fits in one snapshot page.
	MaxStateBytes int
}

func (o Options) withDefaults(dialect store.Dialect) Options {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Node == "" {
		o.Node = NewNodeID()
	}
	if o.MaxDrift == 0 {
		o.MaxDrift = DefaultMaxDrift
	}
	if o.Retention == 0 {
		o.Retention = 30 * 24 * time.Hour
	}
	if o.GCInterval == 0 {
		o.GCInterval = time.Hour
	}
	l := &o.Limits
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.MaxMessageBytes, schema.MaxMessageBytes)
	def(&l.MaxMutationsPerPush, schema.MaxMutationsPerPush)
	def(&l.MaxChangesPerPage, schema.MaxChangesPerPage)
	def(&l.MaxPageBytes, 768<<10)
	def(&l.MaxStateBytes, 512<<10)
	if o.Committers <= 0 {
		o.Committers = 2
		if dialect == store.SQLite {
			o.Committers = 1
		}
	}
	def(&o.MaxGroupMutations, 4000)
	return o
}

// Engine is the server side of sync: it applies pushed mutations (one transaction per group of
// pushes, exactly once, merged per field), serves the change log and snapshots, collects garbage,
// and tells its watchers (the WebSocket transport, sync/socket) of every commit of this instance
// and, on Postgres, of every instance sharing the database (watch.go).
type Engine struct {
	db    *store.DB
	opts  Options
	log   *slog.Logger
	clock *Clock

	collections map[string]string // collection -> entity
	watchers    watchers          // watch.go
	cache       commitCache       // what this instance's commits read and wrote (cached.go)

	jobs []chan *job // one queue per committer; a workspace's pushes always meet in one
	// routes holds the queue of every workspace with pushes queued or committing (by their first
	// mutation's), and load how many such workspaces each queue has (Engine.route).
	routeMu sync.Mutex
	routes  map[string]*route
	load    []int
	closeMu sync.RWMutex // held for reading while queueing a job; Close takes it to refuse more
	closed  bool

	serverWrites sync.Mutex // one WriteAsServer at a time (server_write.go)

	// failedMu guards failed: per client and workspace queue (job.key), the last push of that
	// client that failed (the database's trouble: nothing of it was applied).
	failedMu  sync.Mutex
	failed    map[clientWorkspace]failedPush
	failures  atomic.Int32  // len(failed), read without the lock
	submitted atomic.Uint64 // pushes submitted so far: each job's seq

	ctx    context.Context // ends at Close: background loops stop
	cancel context.CancelFunc
	bg     sync.WaitGroup // committers, listener, garbage collector
}

// New starts an engine over db: its committers, its garbage collector and, on Postgres, the
// listener that hears other instances' commits. Close stops it.
func New(db *store.DB, opts Options) (*Engine, error) {
	opts = opts.withDefaults(db.Dialect())
	if opts.Limits.MaxPageBytes >= opts.Limits.MaxMessageBytes-4096 {
		return nil, fmt.Errorf("sync: MaxPageBytes (%d) must leave room below MaxMessageBytes (%d)", opts.Limits.MaxPageBytes, opts.Limits.MaxMessageBytes)
	}
	if opts.Limits.MaxMutationsPerPush > schema.MaxMutationsPerPush || opts.Limits.MaxChangesPerPage > schema.MaxChangesPerPage {
		return nil, fmt.Errorf("sync: batch limits above the protocol's (%d mutations, %d changes)", schema.MaxMutationsPerPush, schema.MaxChangesPerPage)
	}
	clock, err := NewClock(ClockConfig{Node: opts.Node, Now: opts.Now, MaxDrift: opts.MaxDrift})
	if err != nil {
		return nil, err
	}
	collections, err := schema.Collections()
	if err != nil {
		return nil, fmt.Errorf("sync: load the shared schema: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	e := &Engine{
		db:          db,
		opts:        opts,
		log:         opts.Logger,
		clock:       clock,
		collections: collections,
		ctx:         ctx,
		cancel:      cancel,
	}
	if db.Pool() != nil {
		// Listen before serving anything, so that no commit of another instance is missed.
		conn, err := e.startListening(ctx)
		if err != nil {
			cancel()
			return nil, err
		}
		e.bg.Add(1)
		go e.listen(conn)
	}
	e.routes, e.load = map[string]*route{}, make([]int, opts.Committers)
	for range opts.Committers {
		queue := make(chan *job, 256)
		e.jobs = append(e.jobs, queue)
		e.bg.Add(1)
		go e.committer(queue)
	}
	if opts.GCInterval > 0 {
		e.bg.Add(1)
		go e.collectLoop()
	}
	return e, nil
}

// Node is the node id of this engine's clock (the node of the stamps it issues when re-stamping).
func (e *Engine) Node() string { return e.clock.Node() }

// Options returns the options in effect, defaults filled in.
func (e *Engine) Options() Options { return e.opts }

// Close refuses new pushes, finishes the queued ones and stops the background loops. Close the
// transport first (socket.Server.Close), then the engine, then the database. Calls after the
// first do nothing.
func (e *Engine) Close() error {
	e.closeMu.Lock()
	e.closed = true
	e.closeMu.Unlock()
	e.cancel()
	e.bg.Wait()
	// Pushes queued after the committers stopped (none can be, since closed refuses them) would
	// wait forever; answer them anyway.
	for _, queue := range e.jobs {
	drain:
		for {
			select {
			case j := <-queue:
				e.answer(j, jobResult{err: errStopped})
			default:
				break drain
			}
		}
	}
	return nil
}

var errStopped = core.Errorf(core.EUNAVAILABLE, "The sync engine is stopped.")

func (e *Engine) now() time.Time { return e.opts.Now().UTC().Truncate(time.Microsecond) }

// Client is who pushes: the signed-in user and the client id (device database) bound to them.
type Client struct {
	UserID   string
	ClientID string
	// Conn identifies the connection the pushes come from (any number unique among this engine's
	// live connections; 0: none, as Apply's direct callers). A push queued behind a failed one of
	// the same connection is not applied (Engine.behindFailed).
	Conn uint64
}

// BindClient records that clientID belongs to userID (at its first hello). A client id already
// bound to another user is refused with EFORBIDDEN: a device database belongs to one account.
func (e *Engine) BindClient(ctx context.Context, userID, clientID string) error {
	now := e.now()
	var owner string
	err := e.db.QueryRow(ctx, `INSERT INTO sync_clients (client_id, user_id, created_at, last_seen_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (client_id) DO UPDATE SET last_seen_at = CASE WHEN sync_clients.user_id = excluded.user_id
			THEN excluded.last_seen_at ELSE sync_clients.last_seen_at END
		RETURNING user_id`, clientID, userID, now, now).Scan(&owner)
	if err != nil {
		return fmt.Errorf("bind sync client: %w", err)
	}
	if owner != userID {
		return errClientOfAnotherUser
	}
	return nil
}

var errClientOfAnotherUser = core.Errorf(core.EFORBIDDEN, "This client id belongs to another user.")

// Apply applies the mutations of one push by client, in order, and returns one outcome per
// mutation. It waits for the commit: an outcome is final once Apply returns. Mutations already
// decided (resends) are answered as they were the first time; each new one is checked (the
// user's role in its workspace, the merged record against its collection's schema) and applied,
// or rejected alone. The client must have been bound to the user (BindClient).
func (e *Engine) Apply(ctx context.Context, client Client, muts []ClientMutation) ([]Outcome, error) {
	p, err := e.Submit(ctx, client, muts)
	if err != nil {
		return nil, err
	}
	return p.Wait(ctx)
}

// Push is a push submitted to the engine (Submit): queued for its committer, or being applied.
type Push interface {
	// Wait waits for the push's commit and returns its outcomes (see Apply). Call it once.
	Wait(ctx context.Context) ([]Outcome, error)
}

// submitted is the engine's Push: its job (nil for a push of no mutation).
type submitted struct{ j *job }

// Submit queues one push by client for its committer and returns without waiting for the commit
// (Wait does); otherwise as Apply. Pushes whose first mutations are of the same workspace are
// applied in the order they were submitted, so a socket may submit a client's next push to that
// workspace before the previous one is answered.
func (e *Engine) Submit(ctx context.Context, client Client, muts []ClientMutation) (Push, error) {
	if len(muts) == 0 {
		return submitted{}, nil
	}
	if len(muts) > e.opts.Limits.MaxMutationsPerPush {
		return nil, core.Errorf(core.ETOOLARGE, "A push may hold at most %d mutations.", e.opts.Limits.MaxMutationsPerPush)
	}
	j := &job{client: client, muts: muts, done: make(chan jobResult, 1), key: muts[0].WorkspaceID, seq: e.submitted.Add(1)}
	e.closeMu.RLock()
	if e.closed {
		e.closeMu.RUnlock()
		return nil, errStopped
	}
	select {
	case e.jobs[e.route(j.key)] <- j:
		e.closeMu.RUnlock()
		return submitted{j: j}, nil
	case <-ctx.Done():
		e.unroute(j.key)
		e.closeMu.RUnlock()
		return nil, ctx.Err()
	}
}

// route is the queue of a workspace's pushes. While it has pushes queued or committing, they all
// go to one queue, so that they group into one transaction (instead of waiting for each other's
// workspace lock) and apply in the order they came; a workspace with none is given the queue with
// the fewest such workspaces, so that a few busy workspaces spread over the committers (a hash
// put all of them on one committer now and then).
type route struct{ queue, pending int }

func (e *Engine) route(workspace string) int {
	e.routeMu.Lock()
	defer e.routeMu.Unlock()
	r := e.routes[workspace]
	if r == nil {
		r = &route{}
		for q, n := range e.load {
			if n < e.load[r.queue] {
				r.queue = q
			}
		}
		e.routes[workspace] = r
		e.load[r.queue]++
	}
	r.pending++
	return r.queue
}

// unroute ends a push of workspace (answered, or never queued).
func (e *Engine) unroute(workspace string) {
	e.routeMu.Lock()
	defer e.routeMu.Unlock()
	r := e.routes[workspace]
	if r.pending--; r.pending == 0 {
		delete(e.routes, workspace)
		e.load[r.queue]--
	}
}

// answer gives a job its result and ends its route.
func (e *Engine) answer(j *job, r jobResult) {
	e.unroute(j.key)
	j.done <- r
}

// failedPush is a client's push that failed: the pushes submitted until then (seq), its
// connection, and how long the mark holds (until).
type failedPush struct {
	seq   uint64
	conn  uint64
	until time.Time
}

// failedFor bounds how long a failed push is remembered: longer than any push waits in a queue.
const failedFor = time.Minute

// errBehindFailed answers a push queued behind a failed push of the same client (behindFailed).
var errBehindFailed = core.Errorf(core.EUNAVAILABLE, "An earlier push of this device failed; this one was not applied. Send them again, in order.")

// pushFailed remembers that j failed: none of its mutations was applied.
func (e *Engine) pushFailed(j *job) {
	e.failedMu.Lock()
	defer e.failedMu.Unlock()
	if e.failed == nil || len(e.failed) >= 4096 {
		e.failed = map[clientWorkspace]failedPush{}
	}
	e.failed[clientWorkspace{j.client.ClientID, j.key}] = failedPush{seq: e.submitted.Load(), conn: j.client.Conn, until: e.opts.Now().Add(failedFor)}
	e.failures.Store(int32(len(e.failed)))
}

// behindFailed reports whether j must not be applied because a push of its client to the same
// workspace queue failed before it: j was submitted before that failure, or comes from the same
// connection (which closes with the failure). Its ids come after the failed push's, which are not
// decided, so applying it would decide a device's later mutations before its earlier ones (a
// socket submits its next push while the one before commits, and a failed group's pushes are
// retried one by one). The device hears of the failure when its socket closes and sends
// everything again, in order, on a new connection, which the mark does not hold back.
func (e *Engine) behindFailed(j *job) bool {
	if e.failures.Load() == 0 {
		return false
	}
	e.failedMu.Lock()
	defer e.failedMu.Unlock()
	key := clientWorkspace{j.client.ClientID, j.key}
	f, ok := e.failed[key]
	if !ok {
		return false
	}
	if e.opts.Now().After(f.until) {
		delete(e.failed, key)
		e.failures.Store(int32(len(e.failed)))
		return false
	}
	return j.seq <= f.seq || j.client.Conn != 0 && j.client.Conn == f.conn
}

// refusedBehindFailed answers j with errBehindFailed, unapplied, when it is behind a failed push
// of its client (behindFailed), and reports whether it did.
func (e *Engine) refusedBehindFailed(j *job) bool {
	if !e.behindFailed(j) {
		return false
	}
	e.answer(j, jobResult{err: errBehindFailed})
	return true
}

func (p submitted) Wait(ctx context.Context) ([]Outcome, error) {
	if p.j == nil {
		return nil, nil
	}
	select {
	case r := <-p.j.done:
		return r.outcomes, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// collectLoop collects garbage every GCInterval.
func (e *Engine) collectLoop() {
	defer e.bg.Done()
	t := time.NewTicker(e.opts.GCInterval)
	defer t.Stop()
	for {
		select {
		case <-e.ctx.Done():
			return
		case <-t.C:
			if _, err := e.CollectGarbage(e.ctx); err != nil && !errors.Is(err, context.Canceled) {
				e.log.Error("sync: garbage collection failed", "err", err)
			}
		}
	}
}
