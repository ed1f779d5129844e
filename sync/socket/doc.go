// Package socket is the WebSocket transport of Patrimonio's sync engine (package sync): the
// endpoint GET /api/v1/sync that devices speak the protocol over (../PROTOCOL.md).
//
// It holds everything about sockets and nothing about the change log: the handshake (the
// upgrader, the Origin check, authentication through an Authenticator), one socket's state and
// its three goroutines (conn.go: hello with versions, pushes and acks, pages with flow control,
// limits with close codes, keepalive, the lingering close), and this instance's fan-out (hub.go).
// It reaches the engine only through the small Engine interface (apply a push, read a page, a
// role, the server's time) and hears of commits as the engine's Watcher; the engine imports no
// WebSocket library and knows nothing of sockets.
//
// The name says what it is: the socket side of sync, as opposed to the engine's service. (Not
// "ws" or "websocket", which are the library's; not "transport", which would not say which.)
package socket
