package sim

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// upstream is a WebSocket server that records the frames it receives and answers each push with
// an ack.
type upstream struct {
	srv    *httptest.Server
	mu     sync.Mutex
	frames []string
	closed chan struct{}
}

func newUpstream(t *testing.T) *upstream {
	u := &upstream{closed: make(chan struct{}, 16)}
	up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	u.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer ws.Close()
		for {
			_, data, err := ws.ReadMessage()
			if err != nil {
				u.closed <- struct{}{}
				return
			}
			u.mu.Lock()
			u.frames = append(u.frames, string(data))
			u.mu.Unlock()
			if frameType(data) == "push" {
				_ = ws.WriteMessage(websocket.TextMessage, []byte(`{"type":"ack","acks":[]}`))
				_ = ws.WriteMessage(websocket.TextMessage, []byte(`{"type":"pong"}`))
			}
		}
	}))
	t.Cleanup(u.srv.Close)
	return u
}

func (u *upstream) received() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]string(nil), u.frames...)
}

func dialProxy(t *testing.T, p *Proxy) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(p.URL(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

func msg(typ string, n int) []byte { return []byte(fmt.Sprintf(`{"type":%q,"n":%d}`, typ, n)) }

func ns(frames []string) []int {
	var out []int
	for _, f := range frames {
		var m struct{ N int }
		_ = json.Unmarshal([]byte(f), &m)
		out = append(out, m.N)
	}
	return out
}

func TestTheProxy(t *testing.T) {
	t.Run("delayed frames keep their order within a connection", func(t *testing.T) {
		u := newUpstream(t)
		p, err := NewProxy("t", 1, func() string { return u.srv.URL }, &Stats{})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		p.SetFaults(Faults{MaxDelay: 5 * time.Millisecond})
		ws := dialProxy(t, p)
		for i := 1; i <= 40; i++ {
			if err := ws.WriteMessage(websocket.TextMessage, msg("ping", i)); err != nil {
				t.Fatal(err)
			}
		}
		// The device leaves at once: what it sent is still delivered, in order.
		ws.NetConn().Close()
		<-u.closed
		got := ns(u.received())
		if len(got) != 40 {
			t.Fatalf("got %d frames, want 40", len(got))
		}
		for i, n := range got {
			if n != i+1 {
				t.Fatalf("frame %d is %d: %v", i, n, got)
			}
		}
	})
	t.Run("a duplicated push reaches the server twice, a pull never", func(t *testing.T) {
		u := newUpstream(t)
		p, err := NewProxy("t", 2, func() string { return u.srv.URL }, &Stats{})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		p.SetFaults(Faults{DupToServer: 1})
		ws := dialProxy(t, p)
		_ = ws.WriteMessage(websocket.TextMessage, msg("pull", 1))
		_ = ws.WriteMessage(websocket.TextMessage, msg("ping", 2))
		ws.NetConn().Close()
		<-u.closed
		if got := ns(u.received()); fmt.Sprint(got) != "[1 2 2]" {
			t.Fatalf("the server received %v, want [1 2 2]", got)
		}
	})
	t.Run("an armed ack cut drops the ack and cuts the connection", func(t *testing.T) {
		u := newUpstream(t)
		stats := &Stats{}
		p, err := NewProxy("t", 3, func() string { return u.srv.URL }, stats)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		p.ArmAckCut()
		ws := dialProxy(t, p)
		_ = ws.WriteMessage(websocket.TextMessage, msg("push", 1))
		_ = ws.SetReadDeadline(time.Now().Add(30 * time.Second)) // a hang guard
		_, data, err := ws.ReadMessage()
		if err == nil {
			t.Fatalf("the device received %s; want the connection cut before the ack", data)
		}
		if stats.AckCuts.Load() != 1 || len(u.received()) != 1 {
			t.Fatalf("ack cuts %d, frames the server received %v", stats.AckCuts.Load(), u.received())
		}
	})
	t.Run("a black hole drops every frame and then cuts", func(t *testing.T) {
		u := newUpstream(t)
		stats := &Stats{}
		p, err := NewProxy("t", 4, func() string { return u.srv.URL }, stats)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		ws := dialProxy(t, p)
		_ = ws.WriteMessage(websocket.TextMessage, msg("ping", 1))
		for len(u.received()) == 0 {
			time.Sleep(time.Millisecond)
		}
		p.BlackHole(20 * time.Millisecond)
		_ = ws.WriteMessage(websocket.TextMessage, msg("ping", 2))
		_ = ws.SetReadDeadline(time.Now().Add(30 * time.Second)) // a hang guard
		if _, _, err := ws.ReadMessage(); err == nil {
			t.Fatal("the connection was not cut")
		}
		if got := ns(u.received()); fmt.Sprint(got) != "[1]" {
			t.Fatalf("the server received %v, want only the frame before the black hole", got)
		}
	})
}
