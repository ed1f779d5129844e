package sync

import (
	"sync/atomic"

	schema "patrimonio/shared-schema"
)

// What the engine offers a transport (sync/socket, the WebSocket endpoint): news of commits
// (Watch), and the protocol's messages as the engine reads and writes them (wire.go). The
// engine knows nothing of sockets.

// Watcher hears what live readers of the change log need to know. Its methods are called from the
// engine's committers and its listener: they must return at once (note the news, wake a reader).
type Watcher interface {
	// Committed: the workspace's change log now reaches seq (a commit of this instance, after it
	// is durable; or, on Postgres, of another instance sharing the database).
	Committed(workspace string, seq int64)
	// Missed: commits of other instances may have gone unheard (the listening connection was
	// lost); read every followed workspace again.
	Missed()
	// Ended: another instance ended a session (kind EndSession) or a user (EndUser), AnnounceEnd.
	Ended(kind, id string)
}

// watchers is the engine's list of watchers, replaced whole when one is added (read without a
// lock on every commit).
type watchers struct{ list atomic.Pointer[[]Watcher] }

// Watch adds w to the watchers of every commit from now on.
func (e *Engine) Watch(w Watcher) {
	for {
		old := e.watchers.list.Load()
		var next []Watcher
		if old != nil {
			next = append(next, *old...)
		}
		next = append(next, w)
		if e.watchers.list.CompareAndSwap(old, &next) {
			return
		}
	}
}

func (ws *watchers) each(f func(Watcher)) {
	if list := ws.list.Load(); list != nil {
		for _, w := range *list {
			f(w)
		}
	}
}

func (ws *watchers) committed(workspace string, seq int64) {
	ws.each(func(w Watcher) { w.Committed(workspace, seq) })
}

func (ws *watchers) missed() { ws.each(func(w Watcher) { w.Missed() }) }

func (ws *watchers) ended(kind, id string) { ws.each(func(w Watcher) { w.Ended(kind, id) }) }

// ServerTime is a fresh stamp of the engine's clock (the welcome's serverTime).
func (e *Engine) ServerTime() Stamp { return e.clock.Now() }

// ---------------------------------------------------------------- the protocol's messages

// DecodeMessage reads one client message as a JSON document with exact numbers (json.Number),
// refusing invalid UTF-8, trailing data and nesting deeper than the schema allows. It does not
// validate it against the schema.
func DecodeMessage(raw []byte) (map[string]any, error) {
	v, err := decodeDocument(raw)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errMalformed
	}
	return m, nil
}

// JSONInt reads a JSON integer of a decoded message (false: absent, or not an integer).
func JSONInt(v any) (int64, bool) { return intOf(v) }

// Hello is a hello message that passed the schema.
type Hello = helloMessage

// ReadHello reads a hello that passed the schema.
func ReadHello(m map[string]any) Hello { return readHello(m) }

// Pull is a pull message that passed the schema.
type Pull = pullMessage

// ReadPull reads a pull that passed the schema.
func ReadPull(m map[string]any) Pull { return readPull(m) }

// EncodeChanges is the changes message of a page.
func EncodeChanges(workspaceID string, page ChangesPage) []byte {
	return encodeChanges(workspaceID, page)
}

// EncodeSnapshot is the snapshot message of a page.
func EncodeSnapshot(workspaceID string, page SnapshotPage) []byte {
	return encodeSnapshot(workspaceID, page)
}

// ErrBadPageToken: a snapshot page token this server did not write (SnapshotPage).
var ErrBadPageToken = errBadPageToken

// ValidMessage says whether a decoded client message passes the shared schema.
func ValidMessage(m map[string]any, lang string) bool {
	issues, err := schema.ValidateValue("clientMessage", m, lang)
	return err == nil && len(issues) == 0
}
