package psync

import (
	"encoding/json"
	"slices"
	"sync/atomic"

	"patrimonio/server/authz"
	schema "patrimonio/shared-schema"
)

// What the engine offers a transport (sync/socket, the WebSocket endpoint): news of commits
// (Watch), and the protocol's messages as the engine reads and writes them (wire.go). The
// engine knows nothing of sockets.

// Watcher hears what live readers of the change log need to know. Its methods are called from the
// engine's committers and its listener: they must return at once (note the news, wake a reader).
type Watcher interface {
	// Committed: a workspace's change log now reaches c.Seq (a commit of this instance, after it
	// is durable; or, on Postgres, of another instance sharing the database).
	Committed(c Commit)
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

func (ws *watchers) committed(c Commit) { ws.each(func(w Watcher) { w.Committed(c) }) }

// Commit is what a watcher hears of a commit in one workspace.
type Commit struct {
	Workspace string
	Seq       int64 // the workspace's change log now reaches it

	// A commit of this instance also carries what it wrote, so that a live reader need not read
	// it back: its changes (after From, up to Seq, as consecutive pages, each with no more), and
	// the users whose membership of the workspace the commit's transaction read, under the
	// workspace's lock, and found valid (the pushers). A reader among Readers whose position is
	// From may be sent Pages as they are: they hold the changes ChangesPage would read for it,
	// membership included, cut where it would cut them; as a live reader is sent consecutive
	// commits, each page says it has no more. Pages is nil for another instance's commit and for
	// one of more than maxCommitPages pages (readers read those).
	From    int64
	Pages   []*ChangesPage
	Readers []string
}

// maxCommitPages bounds the pages a commit carries: a group of pushes to one workspace (a
// socket's pushes in flight join the same group).
const maxCommitPages = 4

// Size is about how many bytes the page's changes take (what MaxPageBytes bounds).
func (p ChangesPage) Size() int { return p.bytes }

// commits are the group's commits, one per workspace it advanced, with their pages when they
// fit one.
func (g *groupTxn) commits(heads map[string]int64) []Commit {
	out := make([]Commit, 0, len(heads))
	for _, w := range sortedKeys(heads) {
		we := g.workspaces[w]
		c := Commit{Workspace: w, Seq: heads[w], From: we.startAt}
		limits := g.e.opts.Limits
		var pages []*ChangesPage
		var page *ChangesPage
		// The bodies are in the group's arena, which the committer's next group reuses: they are
		// copied, each page's into one buffer.
		var bodies []byte
		left := bodyBytes(g.changes, w)
		n := 0
		for _, ch := range g.changes {
			if ch.key.workspace != w {
				continue
			}
			size := len(ch.body) + 200 // as ChangesPage counts
			if page == nil || len(page.Changes) == limits.MaxChangesPerPage || page.bytes+size > limits.MaxPageBytes {
				if len(pages) == maxCommitPages {
					pages = nil
					break
				}
				page = &ChangesPage{Changes: make([]Change, 0, min(c.Seq-c.From-int64(n), int64(limits.MaxChangesPerPage)))}
				pages = append(pages, page)
				bodies = make([]byte, 0, min(left, limits.MaxPageBytes))
			}
			if len(bodies)+len(ch.body) > cap(bodies) { // not expected: a page's bodies fit its bytes
				bodies = make([]byte, 0, max(len(ch.body), min(left, limits.MaxPageBytes)))
			}
			bodies = append(bodies, ch.body...)
			left -= len(ch.body)
			page.Changes = append(page.Changes, Change{Seq: ch.seq, Collection: ch.key.collection, RecordID: ch.key.id,
				Author: ch.client, MutationID: ch.mutationID, Body: json.RawMessage(bodies[len(bodies)-len(ch.body) : len(bodies) : len(bodies)])})
			page.Cursor = ch.seq
			page.bytes += size
			n++
		}
		if pages != nil && int64(n) == c.Seq-c.From {
			c.Pages = pages
			for uw, role := range g.roles {
				if uw.workspace == w && authz.Authorize(authz.Request{Role: role, Action: authz.RecordRead}) == nil { // as ChangesPage
					c.Readers = append(c.Readers, uw.user)
				}
			}
			slices.Sort(c.Readers)
		}
		out = append(out, c)
	}
	return out
}

// bodyBytes is the size of the change bodies of workspace w.
func bodyBytes(changes []changeRow, w string) int {
	n := 0
	for _, ch := range changes {
		if ch.key.workspace == w {
			n += len(ch.body)
		}
	}
	return n
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
