package sim

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Proxy is a fault-injecting WebSocket proxy between one simulated device and the server. The
// device opens its socket to the proxy; for each such socket the proxy opens one to the server
// (forwarding the session cookie, with the server's own Origin, as a browser loading the app from
// the server would send) and relays frames both ways, one JSON message per frame, as the server
// and the device sent them. On the way it can:
//
//   - delay frames (each direction keeps its order: TCP never reorders one socket; frames are
//     reordered relative to other sockets, e.g. a push still in flight on a socket the device has
//     already left, which reaches the server after the device's newer socket said hello);
//   - duplicate frames (a push, a pull, a page or an ack arrives twice);
//   - drop frames: a socket that goes into a black hole loses every frame in both directions and
//     is cut a little later (what a dead network path looks like: frames in flight are lost, then
//     the connection breaks);
//   - cut the connection right after the server committed a push and before the device hears the
//     ack (the ack frame is dropped and both sides are cut);
//   - cut connections at once (no close frame: in-flight frames are lost).
//
// When the device closes its socket (it went offline, or it crashed), the frames it sent before
// are still delivered to the server, in order and with their delays, before the proxy closes the
// server's socket: the bytes were on the wire.
type Proxy struct {
	name     string
	upstream func() string // the server's base URL (http://host:port); it changes when the server restarts elsewhere
	stats    *Stats
	seed     uint64

	ln  net.Listener
	srv *http.Server

	mu      sync.Mutex
	faults  Faults
	ackCut  bool // the next ack (server → device) is dropped and the connection cut
	links   map[*link]struct{}
	linkSeq uint64
	closed  bool
	wg      sync.WaitGroup
}

// Faults are the proxy's ongoing faults, applied to every frame of every connection.
type Faults struct {
	// MaxDelay delays each frame by a random time up to it (0: no delay).
	MaxDelay time.Duration
	// DupToServer and DupToClient are the probabilities that a frame is delivered twice.
	DupToServer, DupToClient float64
}

// NewProxy starts a proxy on a free port of 127.0.0.1. Its faults start off.
func NewProxy(name string, seed uint64, upstream func() string, stats *Stats) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{name: name, upstream: upstream, stats: stats, seed: seed, ln: ln, links: map[*link]struct{}{}}
	p.srv = &http.Server{Handler: http.HandlerFunc(p.serve), ReadHeaderTimeout: 5 * time.Second}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		_ = p.srv.Serve(ln)
	}()
	return p, nil
}

// URL is the sync endpoint as the device sees it.
func (p *Proxy) URL() string { return "ws://" + p.ln.Addr().String() + "/api/v1/sync" }

// SetFaults replaces the ongoing faults.
func (p *Proxy) SetFaults(f Faults) {
	p.mu.Lock()
	p.faults = f
	p.mu.Unlock()
}

// ArmAckCut makes the proxy drop the next ack the server sends and cut that connection: the push
// is committed, the device never hears so.
func (p *Proxy) ArmAckCut() {
	p.mu.Lock()
	p.ackCut = true
	p.mu.Unlock()
}

// Heal turns every fault off (connections already doomed by a black hole are still cut).
func (p *Proxy) Heal() {
	p.mu.Lock()
	p.faults = Faults{}
	p.ackCut = false
	p.mu.Unlock()
}

// CutAll cuts every connection now: no close frame, frames in flight are lost.
func (p *Proxy) CutAll() int {
	n := 0
	for _, l := range p.snapshotLinks() {
		if l.cut() {
			n++
		}
	}
	return n
}

// BlackHole drops every frame of the current connections from now on, both ways, and cuts them
// after d.
func (p *Proxy) BlackHole(d time.Duration) int {
	links := p.snapshotLinks()
	for _, l := range links {
		l.mu.Lock()
		l.blackHole = true
		l.mu.Unlock()
		time.AfterFunc(d, func() { l.cut() })
	}
	return len(links)
}

func (p *Proxy) snapshotLinks() []*link {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]*link, 0, len(p.links))
	for l := range p.links {
		out = append(out, l)
	}
	return out
}

// Close cuts every connection and stops the proxy.
func (p *Proxy) Close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.CutAll()
	_ = p.srv.Close()
	p.wg.Wait()
}

var proxyUpgrader = websocket.Upgrader{
	ReadBufferSize:  4096,
	WriteBufferSize: 4096,
	CheckOrigin:     func(*http.Request) bool { return true },
}

func (p *Proxy) serve(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		http.Error(w, "proxy closed", http.StatusServiceUnavailable)
		return
	}
	p.linkSeq++
	n := p.linkSeq
	p.wg.Add(1)
	p.mu.Unlock()
	defer p.wg.Done()

	base := p.upstream()
	if base == "" {
		http.Error(w, "server down", http.StatusBadGateway)
		return
	}
	header := http.Header{"Origin": {base}}
	if c := r.Header.Get("Cookie"); c != "" {
		header.Set("Cookie", c)
	}
	dialer := websocket.Dialer{HandshakeTimeout: 3 * time.Second, ReadBufferSize: 4096, WriteBufferSize: 4096}
	ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
	defer cancel()
	up, resp, err := dialer.DialContext(ctx, "ws"+strings.TrimPrefix(base, "http")+"/api/v1/sync", header)
	if err != nil {
		status := http.StatusBadGateway
		if resp != nil {
			status = resp.StatusCode
		}
		http.Error(w, "upstream: "+err.Error(), status)
		return
	}
	down, err := proxyUpgrader.Upgrade(w, r, nil)
	if err != nil {
		up.Close()
		return
	}
	up.SetReadLimit(4 << 20)
	down.SetReadLimit(4 << 20)
	l := &link{p: p, device: down, server: up, rng: rand.New(rand.NewPCG(p.seed, n)), done: make(chan struct{})}
	l.toServer = newPipe(l, up, true)
	l.toDevice = newPipe(l, down, false)
	p.mu.Lock()
	p.links[l] = struct{}{}
	p.mu.Unlock()
	l.run()
	p.mu.Lock()
	delete(p.links, l)
	p.mu.Unlock()
}

// link is one relayed connection: the device's socket and the server's.
type link struct {
	p              *Proxy
	device, server *websocket.Conn
	toServer       *pipe
	toDevice       *pipe

	mu        sync.Mutex
	rng       *rand.Rand
	blackHole bool
	isCut     bool
	done      chan struct{}
}

func (l *link) run() {
	var wg sync.WaitGroup
	wg.Add(4)
	go func() { defer wg.Done(); l.read(l.device, l.toServer) }()
	go func() { defer wg.Done(); l.read(l.server, l.toDevice) }()
	go func() { defer wg.Done(); l.toServer.write() }()
	go func() { defer wg.Done(); l.toDevice.write() }()
	wg.Wait()
	_ = l.device.Close()
	_ = l.server.Close()
}

// cut closes both sockets without close frames; whatever is queued is lost. It reports whether
// this call cut the link.
func (l *link) cut() bool {
	l.mu.Lock()
	if l.isCut {
		l.mu.Unlock()
		return false
	}
	l.isCut = true
	close(l.done)
	l.mu.Unlock()
	_ = l.device.NetConn().Close()
	_ = l.server.NetConn().Close()
	l.toServer.wake()
	l.toDevice.wake()
	l.p.stats.add(&l.p.stats.ConnectionsCut, 1)
	return true
}

func (l *link) cutDone() bool {
	select {
	case <-l.done:
		return true
	default:
		return false
	}
}

// frameType reads a message's "type" (cheaply enough for a test).
func frameType(data []byte) string {
	var head struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(data, &head)
	return head.Type
}

// read relays the frames of src into out, applying the faults, until src ends.
func (l *link) read(src *websocket.Conn, out *pipe) {
	stats := l.p.stats
	for {
		typ, data, err := src.ReadMessage()
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				out.push(item{close: true, code: ce.Code, text: ce.Text, at: time.Now()})
			} else {
				out.push(item{abort: true, at: time.Now()})
			}
			return
		}
		l.p.mu.Lock()
		f := l.p.faults
		ackCut := false
		msgType := frameType(data)
		if !out.toServer && msgType == "ack" && l.p.ackCut {
			l.p.ackCut = false
			ackCut = true
		}
		l.p.mu.Unlock()
		if ackCut {
			stats.add(&stats.AckCuts, 1)
			stats.add(&stats.FramesDropped, 1)
			l.cut()
			continue
		}
		l.mu.Lock()
		hole := l.blackHole
		var delay time.Duration
		if f.MaxDelay > 0 {
			delay = time.Duration(l.rng.Int64N(int64(f.MaxDelay) + 1))
		}
		dupP := f.DupToClient
		if out.toServer {
			dupP = f.DupToServer
		}
		// Not duplicated: hello (a second hello is a protocol error, not a network's doing) and
		// pulls (a second pull is a second request; the device asks for each page once).
		dup := dupP > 0 && l.rng.Float64() < dupP && msgType != "hello" && msgType != "pull" && msgType != "welcome" && msgType != "error"
		l.mu.Unlock()
		if hole {
			stats.add(&stats.FramesDropped, 1)
			continue
		}
		if delay > 0 {
			stats.add(&stats.FramesDelayed, 1)
		}
		at := time.Now().Add(delay)
		out.push(item{typ: typ, data: data, at: at})
		if dup {
			stats.add(&stats.FramesDuplicated, 1)
			out.push(item{typ: typ, data: data, at: at})
		}
	}
}

// item is one frame waiting in a pipe, or the end of its source (a close frame, or an abrupt end).
type item struct {
	typ   int
	data  []byte
	at    time.Time
	close bool
	code  int
	text  string
	abort bool
}

// pipe is one direction of a link: a FIFO of frames, each delivered no earlier than its time and
// never before the frames ahead of it.
type pipe struct {
	l        *link
	dst      *websocket.Conn
	toServer bool

	mu     sync.Mutex
	queue  []item
	last   time.Time
	signal chan struct{}
}

func newPipe(l *link, dst *websocket.Conn, toServer bool) *pipe {
	return &pipe{l: l, dst: dst, toServer: toServer, signal: make(chan struct{}, 1)}
}

func (p *pipe) push(it item) {
	p.mu.Lock()
	if it.at.Before(p.last) {
		it.at = p.last
	}
	p.last = it.at
	p.queue = append(p.queue, it)
	p.mu.Unlock()
	p.wake()
}

func (p *pipe) wake() {
	select {
	case p.signal <- struct{}{}:
	default:
	}
}

// write delivers the queue to dst until the source's end has been delivered, or the link is cut.
func (p *pipe) write() {
	for {
		p.mu.Lock()
		var it item
		has := len(p.queue) > 0
		if has {
			it = p.queue[0]
		}
		p.mu.Unlock()
		if p.l.cutDone() {
			return
		}
		if !has {
			select {
			case <-p.signal:
			case <-p.l.done:
			}
			continue
		}
		if wait := time.Until(it.at); wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-p.l.done:
				t.Stop()
				return
			}
		}
		p.mu.Lock()
		p.queue = p.queue[1:]
		p.mu.Unlock()
		switch {
		case it.abort:
			// The source ended without a close frame: end the other side the same way, once
			// everything before has been delivered.
			_ = p.dst.NetConn().Close()
			p.other().wake()
			return
		case it.close:
			msg := websocket.FormatCloseMessage(it.code, it.text)
			if it.code == websocket.CloseNoStatusReceived {
				msg = websocket.FormatCloseMessage(websocket.CloseNormalClosure, "")
			}
			_ = p.dst.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
			// The other direction ends when the peer answers the close; make sure it does end.
			time.AfterFunc(2*time.Second, func() { _ = p.dst.NetConn().Close() })
			return
		default:
			_ = p.dst.SetWriteDeadline(time.Now().Add(5 * time.Second))
			if err := p.dst.WriteMessage(it.typ, it.data); err != nil {
				// The destination is gone: frames still queued for it are lost with it.
				_ = p.dst.NetConn().Close()
				return
			}
		}
	}
}

func (p *pipe) other() *pipe {
	if p.toServer {
		return p.l.toDevice
	}
	return p.l.toServer
}
