package sync

import (
	"net/http"
	gosync "sync"

	"github.com/gorilla/websocket"
)

// The WebSocket transport of an Engine is kept apart from its service (Apply, pages, garbage
// collection: engine.go, apply.go, read.go, gc.go): the endpoint (handler.go), one socket
// (conn.go), this instance's fan-out (hub.go), and their state, here. The transport calls the
// service through the Engine's methods; the service reaches the transport only to poke the hub
// after a commit (apply.go, listen.go) and to close every socket (GoingAway).

// sockets is the transport's state: the origins a handshake may come from, the upgrader, the hub
// of open sockets, and the count of sockets being served (Close waits for it).
type sockets struct {
	origins  map[string]bool // normalized origins (core.ParseOrigin)
	upgrader websocket.Upgrader
	hub      *hub
	open     gosync.WaitGroup
}

func newSockets(origins map[string]bool) *sockets {
	return &sockets{
		origins: origins,
		upgrader: websocket.Upgrader{
			ReadBufferSize:  4096,
			WriteBufferSize: 4096,
			WriteBufferPool: &gosync.Pool{},
			// The origin is checked before the upgrade (ServeHTTP), against the configuration.
			CheckOrigin: func(*http.Request) bool { return true },
		},
		hub: newHub(),
	}
}
