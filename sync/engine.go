package sync

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	gosync "sync"
	"time"

	"patrimonio/core"
	"patrimonio/server/store"
	schema "patrimonio/shared-schema"
)

// Options configure an Engine. The zero value of every field means its default.
type Options struct {
	// PublicURL is the origin users load the app from (config.Config.PublicURL). A socket opens
	// only when its handshake's Origin is PublicURL or one of AllowedOrigins.
	PublicURL      string
	AllowedOrigins []string

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
	// readers). Pushes to one workspace always go to the same committer. MaxGroupMutations
	// bounds the mutations one group commit takes from the queue (4000).
	Committers        int
	MaxGroupMutations int

	// SessionCheckInterval is how often an open socket re-validates its session and the user's
	// memberships (30 s): sign-out and expiry close it within that time.
	SessionCheckInterval time.Duration
	// PingInterval is how often the server pings (30 s); a socket that sends nothing, not even a
	// pong, for PongWait (75 s) is dropped.
	PingInterval time.Duration
	PongWait     time.Duration
	// HelloTimeout: the first message must arrive within it (10 s).
	HelloTimeout time.Duration
	// WriteTimeout bounds one write to a socket (10 s); SlowConsumerTimeout how long the server
	// waits for room in a socket's send queue (30 s). Either exceeded: the socket is closed as a
	// slow consumer and catches up after reconnecting.
	WriteTimeout        time.Duration
	SlowConsumerTimeout time.Duration
}

// Limits bound what one connection may cost (PROTOCOL.md, "Limits").
type Limits struct {
	MaxMessageBytes     int // largest frame either way (1 MiB)
	MaxMutationsPerPush int // 500
	MaxChangesPerPage   int // changes or snapshot records per page (500)
	MaxPageBytes        int // a page's payload is cut near this size (768 KiB), below MaxMessageBytes
	// MaxMessagesPerSecond is the sustained rate of messages a connection may send (100 per
	// second, with bursts of MessageBurst, 200).
	MaxMessagesPerSecond  int
	MessageBurst          int
	MaxConnectionsPerUser int // open sockets per user on one server instance (32)
	SendQueueBytes        int // bytes queued for one socket before producers wait (4 MiB)
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
	def(&l.MaxMessagesPerSecond, 100)
	def(&l.MessageBurst, 2*l.MaxMessagesPerSecond)
	def(&l.MaxConnectionsPerUser, 32)
	def(&l.SendQueueBytes, 4<<20)
	def(&l.MaxStateBytes, 512<<10)
	if o.Committers <= 0 {
		o.Committers = 2
		if dialect == store.SQLite {
			o.Committers = 1
		}
	}
	def(&o.MaxGroupMutations, 4000)
	dur := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	dur(&o.SessionCheckInterval, 30*time.Second)
	dur(&o.PingInterval, 30*time.Second)
	dur(&o.PongWait, 75*time.Second)
	dur(&o.HelloTimeout, 10*time.Second)
	dur(&o.WriteTimeout, 10*time.Second)
	dur(&o.SlowConsumerTimeout, 30*time.Second)
	return o
}

// Engine is the server side of sync: it applies pushed mutations (one transaction per group of
// pushes, exactly once, merged per field), serves the change log and snapshots, collects garbage,
// fans changes out to the sockets of this instance and, on Postgres, of every instance sharing the
// database, and serves the WebSocket endpoint (ServeHTTP).
type Engine struct {
	db    *store.DB
	auth  Authenticator
	opts  Options
	log   *slog.Logger
	clock *Clock

	collections map[string]string // collection -> entity
	ws          *sockets          // the WebSocket transport (sockets.go)

	jobs    []chan *job    // one queue per committer; a workspace's pushes always meet in one
	closeMu gosync.RWMutex // held for reading while queueing a job; Close takes it to refuse more
	closed  bool

	ctx    context.Context // ends at Close: background loops stop
	cancel context.CancelFunc
	bg     gosync.WaitGroup // committers, listener, garbage collector
}

// New starts an engine over db: its committers, its garbage collector and, on Postgres, the
// listener that hears other instances' commits. auth authenticates socket handshakes (nil is
// allowed for an engine used without sockets). Close stops it.
func New(db *store.DB, auth Authenticator, opts Options) (*Engine, error) {
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
	origins := map[string]bool{}
	for _, o := range append([]string{opts.PublicURL}, opts.AllowedOrigins...) {
		if o == "" {
			continue
		}
		norm, err := core.ParseOrigin(o)
		if err != nil {
			return nil, fmt.Errorf("sync: allowed origin: %w", err)
		}
		origins[norm] = true
	}
	ctx, cancel := context.WithCancel(context.Background())
	e := &Engine{
		db:          db,
		auth:        auth,
		opts:        opts,
		log:         opts.Logger,
		clock:       clock,
		collections: collections,
		ws:          newSockets(origins),
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

// GoingAway closes every open socket with close code 1001 (going away), so that clients
// reconnect (to this server after a restart, or to another instance). http.Server.Shutdown does
// not wait for hijacked connections: register it with http.Server.RegisterOnShutdown.
func (e *Engine) GoingAway() {
	e.closeMu.Lock()
	e.closed = true
	e.closeMu.Unlock()
	for _, c := range e.ws.hub.closeAll() {
		c.close(reasonGoingAway)
	}
}

// Close closes every socket (going away), waits for them to end, finishes the queued pushes and
// stops the background loops. Call it before closing the database. Calls after the first do
// nothing.
func (e *Engine) Close() error {
	e.GoingAway()
	e.ws.open.Wait()
	e.cancel()
	e.bg.Wait()
	// Pushes queued after the committers stopped (none can be, since closed refuses them) would
	// wait forever; answer them anyway.
	for _, queue := range e.jobs {
	drain:
		for {
			select {
			case j := <-queue:
				j.done <- jobResult{err: errStopped}
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
	if len(muts) == 0 {
		return nil, nil
	}
	if len(muts) > e.opts.Limits.MaxMutationsPerPush {
		return nil, core.Errorf(core.ETOOLARGE, "A push may hold at most %d mutations.", e.opts.Limits.MaxMutationsPerPush)
	}
	j := &job{client: client, muts: muts, done: make(chan jobResult, 1)}
	e.closeMu.RLock()
	if e.closed {
		e.closeMu.RUnlock()
		return nil, errStopped
	}
	// Pushes to one workspace queue for the same committer, so that they group into one
	// transaction instead of waiting for each other's workspace lock.
	h := fnv.New32a()
	h.Write([]byte(muts[0].WorkspaceID))
	select {
	case e.jobs[h.Sum32()%uint32(len(e.jobs))] <- j:
		e.closeMu.RUnlock()
	case <-ctx.Done():
		e.closeMu.RUnlock()
		return nil, ctx.Err()
	}
	select {
	case r := <-j.done:
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
