package sync

import (
	"encoding/json"
	"net/http"

	"github.com/gorilla/websocket"

	"patrimonio/core"
	schema "patrimonio/shared-schema"
)

// ServeHTTP is the WebSocket endpoint (GET /api/v1/sync). Before the upgrade it checks that the
// request is a WebSocket handshake (400) from an allowed Origin (403; a browser always sends
// Origin, and a page of another site must never reach the socket with the user's cookie). After
// it: a socket without a signed-in user is closed with 4401 (1011 when the session could not be
// read at all, e.g. the database did not answer), one over the user's connection limit with
// 4430. Then the socket is served until it closes.
func (e *Engine) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	lang := schema.Language(r.Header.Get("Accept-Language"))
	if !websocket.IsWebSocketUpgrade(r) {
		writeHTTPError(w, http.StatusBadRequest, core.EINVALID, "This address only accepts WebSocket connections.")
		return
	}
	if !e.originAllowed(r.Header.Get("Origin")) {
		writeHTTPError(w, http.StatusForbidden, core.EFORBIDDEN, "This origin may not open the sync socket.")
		return
	}
	e.closeMu.RLock()
	if e.closed {
		e.closeMu.RUnlock()
		writeHTTPError(w, http.StatusServiceUnavailable, core.EUNAVAILABLE, "The server is shutting down.")
		return
	}
	e.ws.open.Add(1)
	e.closeMu.RUnlock()
	defer e.ws.open.Done()

	var principal Principal
	var authErr error = errNoAuthenticator
	if e.auth != nil {
		principal, authErr = e.auth.Authenticate(r)
	}
	ws, err := e.ws.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader answered the client
	}
	c := newConn(e, ws, principal, lang)
	if authErr != nil && core.ErrorCode(authErr) != core.EUNAUTHORIZED {
		// Not "nobody is signed in" but "the session could not be read" (the database did not
		// answer): the server's failure. The device must reconnect, not sign in again.
		e.log.Error("sync: authenticate a socket", "err", authErr)
		c.closeNow(reasonInternal)
		return
	}
	if authErr != nil || principal.UserID == "" {
		c.closeNow(reasonUnauthorized)
		return
	}
	switch e.ws.hub.add(c, e.opts.Limits.MaxConnectionsPerUser) {
	case hubClosed:
		c.closeNow(reasonGoingAway)
		return
	case userFull:
		c.closeNow(e.reasonTooManyConnections())
		return
	}
	c.run()
}

var errNoAuthenticator = core.Errorf(core.EUNAUTHORIZED, "No authenticator.")

func (e *Engine) originAllowed(origin string) bool {
	if origin == "" {
		return false
	}
	norm, err := core.ParseOrigin(origin)
	return err == nil && e.ws.origins[norm]
}

func writeHTTPError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"code": code, "message": message}})
}

// EndSession closes, with code 4401, every socket opened with the session: at once on this
// instance, and on the other instances sharing a Postgres database through a notification (call it
// at sign-out and on every security event that ends a session).
func (e *Engine) EndSession(sessionID string) {
	e.endLocal(endSession, sessionID)
	e.announceEnd(endSession, sessionID)
}

// EndUser closes, with code 4401, every socket of the user, on this instance and (Postgres) on the
// others.
func (e *Engine) EndUser(userID string) {
	e.endLocal(endUser, userID)
	e.announceEnd(endUser, userID)
}

// endLocal closes this instance's sockets of a session or a user.
func (e *Engine) endLocal(kind, id string) {
	for _, c := range e.ws.hub.all() {
		if (kind == endSession && c.p.SessionID == id) || (kind == endUser && c.p.UserID == id) {
			c.close(reasonUnauthorized)
		}
	}
}

// OpenSockets is the number of sockets open on this instance.
func (e *Engine) OpenSockets() int {
	n, _ := e.ws.hub.count()
	return n
}
