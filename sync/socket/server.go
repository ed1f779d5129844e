package socket

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"patrimonio/core"
	"patrimonio/server/authz"
	schema "patrimonio/shared-schema"
	psync "patrimonio/sync"
)

// Engine is what the transport needs of the sync engine (*psync.Engine implements it).
type Engine interface {
	// BindClient records that clientID belongs to userID (EFORBIDDEN: it belongs to another).
	BindClient(ctx context.Context, userID, clientID string) error
	// Submit queues one push for its committer; its Wait returns once its commit is durable.
	// Pushes whose first mutations are of one workspace apply in the order they were submitted.
	Submit(ctx context.Context, client psync.Client, muts []psync.ClientMutation) (psync.Push, error)
	ChangesPage(ctx context.Context, userID, workspaceID string, after int64, limit int) (psync.ChangesPage, error)
	SnapshotPage(ctx context.Context, userID, workspaceID, token string, limit int) (psync.SnapshotPage, error)
	ReadRole(ctx context.Context, userID, workspaceID string) (authz.Role, error)
	// ServerTime is the welcome's serverTime.
	ServerTime() psync.Stamp
	// Options: the limits of a push and a page (Limits), which the welcome announces.
	Options() psync.Options
	// Watch registers the hub to hear every commit (psync.Watcher).
	Watch(w psync.Watcher)
	// AnnounceEnd tells the other instances sharing the database that a session or user ended.
	AnnounceEnd(kind, id string)
}

// Options configure a Server. The zero value of every field means its default.
type Options struct {
	// PublicURL is the origin users load the app from (config.Config.PublicURL). A socket opens
	// only when its handshake's Origin is PublicURL or one of AllowedOrigins.
	PublicURL      string
	AllowedOrigins []string
	Logger         *slog.Logger

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

	// MaxMessagesPerSecond is the sustained rate of messages a connection may send (100 per
	// second, with bursts of MessageBurst, 200). PROTOCOL.md, "Limits".
	MaxMessagesPerSecond  int
	MessageBurst          int
	MaxConnectionsPerUser int // open sockets per user on one server instance (32)
	SendQueueBytes        int // bytes queued for one socket before producers wait (4 MiB)
}

func (o Options) withDefaults() Options {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
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
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.MaxMessagesPerSecond, 100)
	def(&o.MessageBurst, 2*o.MaxMessagesPerSecond)
	def(&o.MaxConnectionsPerUser, 32)
	def(&o.SendQueueBytes, 4<<20)
	return o
}

// Server is the WebSocket endpoint of an engine (ServeHTTP) and the registry of its open sockets.
type Server struct {
	engine Engine
	auth   Authenticator
	opts   Options
	limits psync.Limits // the engine's
	log    *slog.Logger

	origins  map[string]bool // normalized origins (core.ParseOrigin)
	upgrader websocket.Upgrader
	hub      *hub
	open     sync.WaitGroup // sockets being served; Close waits for them

	closeMu sync.RWMutex // held for reading while a socket is admitted; GoingAway takes it
	closed  bool

	ctx    context.Context // ends at Close: every socket's context
	cancel context.CancelFunc
}

// New serves engine's sockets. auth tells who opens one (nil: nobody is signed in, every socket
// is closed with 4401). The server hears the engine's commits from now on; Close stops it (before
// the engine's Close).
func New(engine Engine, auth Authenticator, opts Options) (*Server, error) {
	opts = opts.withDefaults()
	origins := map[string]bool{}
	for _, o := range append([]string{opts.PublicURL}, opts.AllowedOrigins...) {
		if o == "" {
			continue
		}
		norm, err := core.ParseOrigin(o)
		if err != nil {
			return nil, fmt.Errorf("sync socket: allowed origin: %w", err)
		}
		origins[norm] = true
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		engine:  engine,
		auth:    auth,
		opts:    opts,
		limits:  engine.Options().Limits,
		log:     opts.Logger,
		origins: origins,
		upgrader: websocket.Upgrader{
			ReadBufferSize:  4096,
			WriteBufferSize: 4096,
			WriteBufferPool: &sync.Pool{},
			// The origin is checked before the upgrade (ServeHTTP), against the configuration.
			CheckOrigin: func(*http.Request) bool { return true },
		},
		hub:    newHub(),
		ctx:    ctx,
		cancel: cancel,
	}
	engine.Watch(watcher{s})
	return s, nil
}

// ServeHTTP is the WebSocket endpoint (GET /api/v1/sync). Before the upgrade it checks that the
// request is a WebSocket handshake (400) from an allowed Origin (403; a browser always sends
// Origin, and a page of another site must never reach the socket with the user's cookie). After
// it: a socket without a signed-in user, or whose user is not the one the `user` query parameter
// names, is closed with 4401 (1011 when the session could not be
// read at all, e.g. the database did not answer), one over the user's connection limit with
// 4430. Then the socket is served until it closes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	lang := schema.Language(r.Header.Get("Accept-Language"))
	if !websocket.IsWebSocketUpgrade(r) {
		writeHTTPError(w, http.StatusBadRequest, core.EINVALID, "This address only accepts WebSocket connections.")
		return
	}
	if !s.originAllowed(r.Header.Get("Origin")) {
		writeHTTPError(w, http.StatusForbidden, core.EFORBIDDEN, "This origin may not open the sync socket.")
		return
	}
	s.closeMu.RLock()
	if s.closed {
		s.closeMu.RUnlock()
		writeHTTPError(w, http.StatusServiceUnavailable, core.EUNAVAILABLE, "The server is shutting down.")
		return
	}
	s.open.Add(1)
	s.closeMu.RUnlock()
	defer s.open.Done()

	var principal Principal
	var authErr error = errNoAuthenticator
	if s.auth != nil {
		principal, authErr = s.auth.Authenticate(r)
	}
	ws, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader answered the client
	}
	c := newConn(s, ws, principal, lang)
	if authErr != nil && core.ErrorCode(authErr) != core.EUNAUTHORIZED {
		// Not "nobody is signed in" but "the session could not be read" (the database did not
		// answer): the server's failure. The device must reconnect, not sign in again.
		s.log.Error("sync: authenticate a socket", "err", authErr)
		c.closeNow(reasonInternal)
		return
	}
	if authErr != nil || principal.UserID == "" {
		c.closeNow(reasonUnauthorized)
		return
	}
	// The client names the user whose data it holds (`?user=`): a cookie that changed hands
	// meanwhile (another user signed in, in another tab) must not sync that user's device.
	if want := r.URL.Query().Get("user"); want != "" && want != principal.UserID {
		c.closeNow(reasonUnauthorized)
		return
	}
	switch s.hub.add(c, s.opts.MaxConnectionsPerUser) {
	case hubClosed:
		c.closeNow(reasonGoingAway)
		return
	case userFull:
		c.closeNow(s.reasonTooManyConnections())
		return
	}
	c.run()
}

var errNoAuthenticator = core.Errorf(core.EUNAUTHORIZED, "No authenticator.")

func (s *Server) originAllowed(origin string) bool {
	if origin == "" {
		return false
	}
	norm, err := core.ParseOrigin(origin)
	return err == nil && s.origins[norm]
}

func writeHTTPError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"code": code, "message": message}})
}

// GoingAway closes every open socket with close code 1001 (going away) and refuses new ones, so
// that clients reconnect (to this server after a restart, or to another instance).
// http.Server.Shutdown does not wait for hijacked connections: register it with
// http.Server.RegisterOnShutdown.
func (s *Server) GoingAway() {
	s.closeMu.Lock()
	s.closed = true
	s.closeMu.Unlock()
	for _, c := range s.hub.closeAll() {
		c.close(reasonGoingAway)
	}
}

// Close closes every socket (going away) and waits for them to end. Call it before the engine's
// Close. Calls after the first do nothing.
func (s *Server) Close() error {
	s.GoingAway()
	s.open.Wait()
	s.cancel()
	return nil
}

// EndSession closes, with code 4401, every socket opened with the session: at once on this
// instance, and on the other instances sharing a Postgres database through a notification (call it
// at sign-out and on every security event that ends a session).
func (s *Server) EndSession(sessionID string) {
	s.endLocal(psync.EndSession, sessionID)
	s.engine.AnnounceEnd(psync.EndSession, sessionID)
}

// EndUser closes, with code 4401, every socket of the user, on this instance and (Postgres) on the
// others.
func (s *Server) EndUser(userID string) {
	s.endLocal(psync.EndUser, userID)
	s.engine.AnnounceEnd(psync.EndUser, userID)
}

// endLocal closes this instance's sockets of a session or a user.
func (s *Server) endLocal(kind, id string) {
	for _, c := range s.hub.all() {
		if (kind == psync.EndSession && c.p.SessionID == id) || (kind == psync.EndUser && c.p.UserID == id) {
			c.close(reasonUnauthorized)
		}
	}
}

// OpenSockets is the number of sockets open on this instance.
func (s *Server) OpenSockets() int {
	n, _ := s.hub.count()
	return n
}

// watcher hears the engine's commits for the hub (psync.Watcher).
type watcher struct{ s *Server }

func (w watcher) Committed(c psync.Commit) { w.s.hub.poke(c) }
func (w watcher) Missed()                  { w.s.hub.pokeAll() }
func (w watcher) Ended(kind, id string)    { w.s.endLocal(kind, id) }
