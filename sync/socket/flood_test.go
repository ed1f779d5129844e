package socket_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/gorilla/websocket"

	"patrimonio/server/httpapi"
	"patrimonio/server/store"
	schema "patrimonio/shared-schema"
	psync "patrimonio/sync"
	"patrimonio/sync/socket"
)

// A client that floods one socket past the message rate gets what PROTOCOL.md promises: the
// messages the server sent before it decided, then error rate_limited, then the close frame with
// 4429 — never a reset connection that loses them.
//
// The hard case is a flood both ways: the server has more to send than the buffers hold (here a
// snapshot page, with socket buffers kept small on both ends), and the client writes its whole
// flood before it reads anything. If the server stopped reading when it decided to close, the
// client's writes would block, the server's writes too (nobody reads them), until the server's
// write timed out and it cut the connection with unread data: a reset, and no close frame. The
// server goes on reading (and discarding) while it closes, so the flood gets through, the client
// then reads, and the close frame arrives. Odd rounds read while they flood.
func TestAFloodedSocketIsClosedWith4429NotReset(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		env := newSocketEnv(t, db, psync.Options{}, socket.Options{MaxMessagesPerSecond: 20, MessageBurst: 40})
		user, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, user, "owner")
		d := newDevice(t, env.engine, user, time.Now)
		var muts []psync.ClientMutation
		for i := range 30 {
			muts = append(muts, d.Put(w, newRecordID(t), map[string]any{"title": fmt.Sprintf("tarea %02d", i), "status": "todo",
				"notes": strings.Repeat("n", 2000)}, nil))
		}
		apply(t, env.engine, d, muts...)

		// The same engine behind a listener whose sockets have small buffers.
		ln, err := (&net.ListenConfig{Control: smallBuffers}).Listen(context.Background(), "tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewUnstartedServer(env.sockets)
		srv.Listener.Close()
		srv.Listener = ln
		srv.Start()
		t.Cleanup(srv.Close)
		dialer := websocket.Dialer{NetDialContext: (&net.Dialer{Control: smallBuffers}).DialContext}
		url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/api/v1/sync"

		for round := range 4 {
			ws, _, err := dialer.Dial(url, http.Header{"Origin": {env.server.URL}, "Cookie": {httpapi.SessionCookie + "=" + env.signIn(user)}})
			if err != nil {
				t.Fatal(err)
			}
			c := &wsClient{t: t, ws: ws}
			// Welcome, then a snapshot page bigger than both buffers: the server's writer waits
			// until the client reads.
			c.send(map[string]any{"type": "hello", "protocolVersion": schema.ProtocolVersion, "schemaVersion": schema.SchemaVersion, "clientId": uuid.NewString(),
				"cursors": map[string]any{w: nil}})
			c.expect("welcome")
			// The snapshot starts to arrive: the server is in the middle of writing it.
			typ, page, err := ws.NextReader()
			if err != nil || typ != websocket.TextMessage {
				t.Fatalf("round %d: the snapshot: %v", round, err)
			}
			first := make([]byte, 1)
			if _, err := io.ReadFull(page, first); err != nil {
				t.Fatal(err)
			}
			ping := []byte(`{"type":"ping"}` + strings.Repeat(" ", 16<<10))
			const flood = 400 // 6.4 MB
			flooded := make(chan int, 1)
			write := func() {
				n := 0
				for range flood {
					if err := ws.WriteMessage(websocket.TextMessage, ping); err != nil {
						break
					}
					n++
				}
				flooded <- n
			}
			if round%2 == 0 {
				write()
			} else {
				go write()
			}
			rest, err := io.ReadAll(page)
			if err != nil {
				t.Fatalf("round %d: the rest of the snapshot: %v", round, err)
			}
			if m := c.decode(append(first, rest...)); m["type"] != "snapshot" {
				t.Fatalf("round %d: %v, want the snapshot", round, m)
			}
			var types []string
			var last message
			for {
				_ = ws.SetReadDeadline(time.Now().Add(hangGuard))
				_, data, err := ws.ReadMessage()
				if err != nil {
					var ce *websocket.CloseError
					if !errors.As(err, &ce) {
						t.Fatalf("round %d: the socket ended without a close frame after %s: %v", round, summary(types), err)
					}
					if ce.Code != socket.CloseRateLimited {
						t.Fatalf("round %d: closed with %d, want %d", round, ce.Code, socket.CloseRateLimited)
					}
					break
				}
				last = c.decode(data)
				types = append(types, last["type"].(string))
			}
			if len(types) < 40 || types[len(types)-2] != "pong" {
				t.Fatalf("round %d: after the snapshot: %s", round, summary(types))
			}
			if last["type"] != "error" || last["code"] != "rate_limited" {
				t.Fatalf("round %d: the message before the close: %v", round, last)
			}
			if n := <-flooded; n < 40 {
				t.Fatalf("round %d: only %d pings sent: not a flood", round, n)
			}
			ws.Close()
		}
	})
}

// smallBuffers keeps a socket's kernel buffers small (no autotuning), so that a few tens of
// kilobytes fill them.
func smallBuffers(_, _ string, rc syscall.RawConn) error {
	var serr error
	err := rc.Control(func(fd uintptr) {
		if serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 8<<10); serr == nil {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_SNDBUF, 8<<10)
		}
	})
	if err != nil {
		return err
	}
	return serr
}

// summary counts message types in order: "welcome, snapshot, pong×39, error".
func summary(types []string) string {
	var parts []string
	for i := 0; i < len(types); {
		j := i
		for j < len(types) && types[j] == types[i] {
			j++
		}
		if j-i > 1 {
			parts = append(parts, fmt.Sprintf("%s×%d", types[i], j-i))
		} else {
			parts = append(parts, types[i])
		}
		i = j
	}
	return strings.Join(parts, ", ")
}
