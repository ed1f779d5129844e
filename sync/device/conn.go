package device

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/gorilla/websocket"

	psync "patrimonio/sync"
)

// DialOptions say how a device opens its socket: the session cookie ("name=value") and the
// Origin a browser would send (the server's public URL).
type DialOptions struct {
	Origin string
	Cookie string
	// HandshakeTimeout bounds the opening handshake (30 s when 0).
	HandshakeTimeout time.Duration
	// ReadLimit is the largest frame read (4 MiB when 0).
	ReadLimit int64
	// WriteTimeout bounds one write (1 min when 0).
	WriteTimeout time.Duration
}

// Conn is one socket of a device. Reads happen on one goroutine at a time; writes may come from
// several (a mutex orders them).
type Conn struct {
	ws           *websocket.Conn
	wmu          sync.Mutex
	writeTimeout time.Duration
}

// Dial opens the sync socket at url (ws://host/api/v1/sync). The response is the handshake's
// when there is one (a refused handshake: its status).
func Dial(url string, o DialOptions) (*Conn, *http.Response, error) {
	if o.HandshakeTimeout == 0 {
		o.HandshakeTimeout = 30 * time.Second
	}
	if o.ReadLimit == 0 {
		o.ReadLimit = 4 << 20
	}
	if o.WriteTimeout == 0 {
		o.WriteTimeout = time.Minute
	}
	h := http.Header{}
	if o.Origin != "" {
		h.Set("Origin", o.Origin)
	}
	if o.Cookie != "" {
		h.Set("Cookie", o.Cookie)
	}
	dialer := websocket.Dialer{HandshakeTimeout: o.HandshakeTimeout, ReadBufferSize: 4096, WriteBufferSize: 4096}
	ws, res, err := dialer.Dial(url, h)
	if err != nil {
		if res != nil {
			return nil, res, fmt.Errorf("open the sync socket: %w (HTTP %d)", err, res.StatusCode)
		}
		return nil, nil, fmt.Errorf("open the sync socket: %w", err)
	}
	ws.SetReadLimit(o.ReadLimit)
	return &Conn{ws: ws, writeTimeout: o.WriteTimeout}, res, nil
}

// Close closes the socket at once (no close handshake: a device that goes away).
func (c *Conn) Close() error { return c.ws.Close() }

// Leave ends the socket: with a close frame first (1000) when clean, else by cutting the
// connection (a device that loses its network or crashes).
func (c *Conn) Leave(clean bool) {
	if clean {
		_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	}
	_ = c.ws.NetConn().Close()
}

// Write sends one message.
func (c *Conn) Write(msg []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_ = c.ws.SetWriteDeadline(time.Now().Add(c.writeTimeout))
	return c.ws.WriteMessage(websocket.TextMessage, msg)
}

// Read returns the next message; timeout 0 waits as long as it takes. A close frame is a
// *websocket.CloseError.
func (c *Conn) Read(timeout time.Duration) ([]byte, error) {
	if timeout > 0 {
		_ = c.ws.SetReadDeadline(time.Now().Add(timeout))
	} else {
		_ = c.ws.SetReadDeadline(time.Time{})
	}
	_, msg, err := c.ws.ReadMessage()
	return msg, err
}

// ReadExpecting reads the next message, an error when it is one of the messages that end a
// device's plans (error, reject, resyncRequired, accessDenied).
func (c *Conn) ReadExpecting(timeout time.Duration) (string, []byte, error) {
	msg, err := c.Read(timeout)
	if err != nil {
		return "", nil, err
	}
	typ := Type(msg)
	switch typ {
	case "error", "reject", "resyncRequired", "accessDenied":
		return typ, msg, fmt.Errorf("the server sent %s", msg)
	}
	return typ, msg, nil
}

// Identity is who a device is to the server: its client id (one per device database), its
// hybrid logical clock, and its mutation ids (strictly increasing).
type Identity struct {
	ClientID string
	Clock    *psync.Clock
	nextID   int64
}

// NewIdentity makes a new device: a random client id, a clock of its own node on the real time.
func NewIdentity() (*Identity, error) {
	clock, err := psync.NewClock(psync.ClockConfig{Node: psync.NewNodeID(), Now: time.Now})
	if err != nil {
		return nil, err
	}
	return &Identity{ClientID: uuid.NewString(), Clock: clock}, nil
}

// Create makes the mutation that creates a new record (a UUIDv7 id) of collection with fields.
func (d *Identity) Create(workspace, collection string, fields map[string]any) Mutation {
	d.nextID++
	id, _ := uuid.NewV7()
	return Mutation{MutationID: d.nextID, Workspace: workspace, Collection: collection, Record: id.String(),
		Mutation: psync.Mutation{Op: psync.OpPut, Stamp: d.Clock.Now(), Fields: fields, Base: map[string]psync.Stamp{}}}
}

// Hello says hello on c and waits for the welcome, whose clock the device observes.
func (d *Identity) Hello(c *Conn, h Hello) error {
	h.ClientID = d.ClientID
	if err := c.Write(h.Encode()); err != nil {
		return err
	}
	typ, msg, err := c.ReadExpecting(30 * time.Second)
	if err != nil {
		return err
	}
	if typ != "welcome" {
		return fmt.Errorf("expected welcome, got %.200s", msg)
	}
	if st, err := DecodeWelcome(msg); err == nil {
		d.Clock.Observe(st)
	}
	return nil
}

// CatchUp reads the pages of workspace, pulling while a page has more, until one says hasMore
// false: after it the workspace is live on the socket. Other messages are skipped. It returns
// the number of records or changes read.
func CatchUp(c *Conn, workspace string) (int, error) {
	n := 0
	for {
		typ, msg, err := c.ReadExpecting(2 * time.Minute)
		if err != nil {
			return n, err
		}
		if typ != "snapshot" && typ != "changes" {
			continue
		}
		p, err := DecodePage(msg)
		if err != nil {
			return n, err
		}
		if p.WorkspaceID != workspace {
			continue
		}
		n += p.Entries()
		if !p.HasMore {
			return n, nil
		}
		if err := c.Write(p.NextPull(0)); err != nil {
			return n, err
		}
	}
}
