package socket_test

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"patrimonio/server/store"
	psync "patrimonio/sync"
	"patrimonio/sync/socket"
)

// The counterpart of TestASocketThatStopsAnsweringPingsIsDropped: pongs count as life. (Added
// with the fix by the bench: the read deadline was only extended by data messages, so every
// socket that had nothing to send, an idle app, was dropped after PongWait.)
func TestASocketThatAnswersPingsStaysOpenWithoutSendingMessages(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		env := newSocketEnv(t, db, psync.Options{}, socket.Options{PingInterval: 100 * time.Millisecond, PongWait: time.Second})
		user := addUser(t, db)
		c := env.connect(user)
		c.hello(uuid.NewString(), map[string]any{}, nil)
		// The client only reads (the WebSocket library answers each ping with a pong meanwhile)
		// for well over PongWait, sending no message.
		failed := make(chan error, 1)
		received := make(chan []byte, 16)
		go func() {
			for {
				_ = c.ws.SetReadDeadline(time.Now().Add(hangGuard))
				_, data, err := c.ws.ReadMessage()
				if err != nil {
					failed <- err
					return
				}
				received <- data
			}
		}()
		select {
		case err := <-failed:
			t.Fatalf("the socket closed although its client answered every ping: %v", err)
		case data := <-received:
			t.Fatalf("unexpected message %s", data)
		case <-time.After(3 * time.Second):
		}
		c.send(map[string]any{"type": "ping"})
		select {
		case err := <-failed:
			t.Fatalf("the socket closed: %v", err)
		case data := <-received:
			if m := c.decode(data); m["type"] != "pong" {
				t.Fatalf("got %v, want a pong", m)
			}
		case <-time.After(hangGuard):
			t.Fatal("no pong")
		}
	})
}
