package psync

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"patrimonio/core"
	"patrimonio/server/authz"
	"patrimonio/server/members"
	"patrimonio/server/store"
	schema "patrimonio/shared-schema"
	"patrimonio/sync/internal/arena"
)

// Group commit: pushes wait in one queue; each committer takes the first waiting push and every
// other push already waiting (up to MaxGroupMutations mutations) and applies them all in ONE
// transaction, then answers each. Under load this turns many small commits (one WAL flush each on
// Postgres, one write lock each on SQLite) into few large ones; with a single push waiting there
// is no added delay. Workspaces are locked in id order, so two groups (or two server instances)
// never deadlock. Should a group fail, each of its pushes is retried alone, so one push cannot
// fail another.

type job struct {
	client Client
	muts   []ClientMutation
	done   chan jobResult
	key    string // the workspace it was routed by (Engine.route)
	seq    uint64 // its place among the pushes submitted to the engine (Engine.behindFailed)
}

type jobResult struct {
	outcomes []Outcome
	err      error
}

func (e *Engine) committer(queue chan *job) {
	defer e.bg.Done()
	// One group commit at a time: each reuses what the one before it used.
	var bufs groupBuffers
	for {
		var first *job
		select {
		case first = <-queue:
		case <-e.ctx.Done():
			select {
			case first = <-queue: // finish what is queued before stopping
			default:
				return
			}
		}
		group, n := []*job{first}, len(first.muts)
	more:
		for n < e.opts.MaxGroupMutations {
			select {
			case j := <-queue:
				group = append(group, j)
				n += len(j.muts)
			default:
				break more
			}
		}
		e.commitGroup(group, &bufs)
	}
}

func (e *Engine) commitGroup(group []*job, bufs *groupBuffers) {
	// Commits finish even while the engine stops (the pushes are already queued).
	ctx, cancel := context.WithTimeout(context.WithoutCancel(e.ctx), 2*time.Minute)
	defer cancel()
	// A push queued behind a failed one of its client is answered with that, unapplied. (The group
	// is the committer's own slice: filtered in place, and only after a failure.)
	if e.failures.Load() > 0 {
		if group = slices.DeleteFunc(group, e.refusedBehindFailed); len(group) == 0 {
			return
		}
	}
	results, heads, err := e.commit(ctx, group, bufs)
	if err != nil && len(group) > 1 {
		e.log.Warn("sync: group commit failed; retrying its pushes one by one", "pushes", len(group), "err", err)
		for _, j := range group {
			if e.refusedBehindFailed(j) {
				continue
			}
			r, h, err := e.commit(ctx, []*job{j}, bufs)
			if err != nil {
				e.log.Error("sync: push failed", "client", j.client.ClientID, "err", err)
				e.pushFailed(j)
				e.answer(j, jobResult{err: err})
				continue
			}
			e.announce(h)
			e.answer(j, r[0])
		}
		return
	}
	if err != nil {
		e.log.Error("sync: push failed", "client", group[0].client.ClientID, "err", err)
		e.pushFailed(group[0])
		e.answer(group[0], jobResult{err: err})
		return
	}
	e.announce(heads)
	for i, j := range group {
		e.answer(j, results[i])
	}
}

// announce tells this instance's watchers of a commit (other instances hear it through NOTIFY,
// sent inside the transaction).
func (e *Engine) announce(commits []Commit) {
	for _, c := range commits {
		e.watchers.committed(c)
	}
}

type recordKey struct{ workspace, collection, id string }

type recordEntry struct {
	state   *RecordState
	encoded []byte // state as JSON, once changed (in the group's arena)
	seq     int64
	exists  bool // a row exists in sync_records
	dirty   bool
	// created: the record is new and only created's mutation has written it in this group; its
	// state, which that mutation alone decides, is not made unless a later mutation of the group
	// writes the record too (current). state is noRecordState meanwhile.
	created    Mutation
	hasCreated bool
	// size is the length of the state's JSON, as read or as written: what remembering the record
	// costs, roughly (cached.go).
	size int
}

// current returns the record's state, made from its creating mutation if it has not been yet.
func (r *recordEntry) current() *RecordState {
	if r.hasCreated {
		s := noRecordState.cloneFor(len(r.created.Fields))
		if _, err := s.Apply(r.created); err != nil {
			panic("sync: a creating mutation applied once is refused on the same empty state: " + err.Error())
		}
		r.state, r.created, r.hasCreated = s, Mutation{}, false
	}
	return r.state
}

// deleted and conflicts are the record's deleted and conflicts columns.
func (r *recordEntry) deleted() bool {
	if r.hasCreated {
		return r.created.Op == OpDelete
	}
	return r.state.Deleted()
}

func (r *recordEntry) conflicts() int64 {
	if r.hasCreated {
		return 0
	}
	return int64(len(r.state.Conflicts))
}

var (
	recordColumns = []string{"workspace_id", "collection", "record_id", "seq", "deleted", "conflicts", "state", "updated_at"}
	changeColumns = []string{"workspace_id", "seq", "collection", "record_id", "client_id", "mutation_id", "mutation", "created_at", "run_length"}
)

type workspaceEntry struct {
	exists  bool
	head    int64 // last seq allocated
	startAt int64
	gcSeq   int64
	written bool // head is written already (the cached way's guard)
}

type clientWorkspace struct{ client, workspace string }

type changeRow struct {
	key        recordKey
	seq        int64
	client     string
	mutationID int64
	body       []byte // in the group's arena
	// run is the length of the run this change starts (migration 0017): the client's consecutive
	// mutation ids applied one after the other in this group, so at consecutive seqs of one
	// workspace. 0 on a change that continues the run before it.
	run int32
}

type conflictOp struct {
	key   recordKey
	c     Conflict
	open  bool
	seq   int64
	value string
}

type rejectionRow struct {
	client, workspace string
	mutationID        int64
	code              string
	issues            []byte
}

// mutationBody is a mutation as the change log stores it and the wire carries it (the change's
// other members come from the row).
type mutationBody struct {
	Op       Op               `json:"op"`
	Stamp    Stamp            `json:"stamp"`
	Fields   map[string]any   `json:"fields,omitempty"`
	Base     map[string]Stamp `json:"base"`
	Resolves []ConflictKey    `json:"resolves,omitempty"`
	Late     bool             `json:"late,omitempty"`
}

// commit applies a group of pushes in one transaction. It returns one result per job (a job
// whose client is not bound to its user fails alone) and the new head of every workspace that
// changed. A group whose reads this instance remembers is decided from memory, its writes behind
// guards (cached.go); should the database have changed since, it is committed the general way.
// The phases, in order, are the methods of groupTxn below.
func (e *Engine) commit(ctx context.Context, group []*job, bufs *groupBuffers) ([]jobResult, []Commit, error) {
	if e.db.Dialect() == store.Postgres {
		if plan := e.cache.plan(group); plan != nil {
			e.cache.hits.Add(1)
			results, commits, err := e.commitWith(ctx, group, bufs, plan)
			if !isStale(err) {
				return results, commits, err
			}
			e.cache.stale.Add(1)
		}
	}
	return e.commitWith(ctx, group, bufs, nil)
}

// commitWith commits a group the general way (plan nil) or the cached way.
func (e *Engine) commitWith(ctx context.Context, group []*job, bufs *groupBuffers, plan *cachedPlan) ([]jobResult, []Commit, error) {
	tx, err := e.beginTxn(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer tx.rollback(ctx)
	n := 0
	for _, j := range group {
		n += len(j.muts)
	}
	g := &groupTxn{
		e: e, ctx: ctx, tx: tx, now: e.now(), group: group, results: make([]jobResult, len(group)),
		workspaces: map[string]*workspaceEntry{}, roles: map[userWorkspace]authz.Role{},
		last: map[clientWorkspace]int64{}, collected: map[clientWorkspace]int64{}, decided: map[clientWorkspace]int64{},
	}
	bufs.lend(g, n)
	defer bufs.keep(g)
	phases := []func() error{g.read, g.decide, g.write}
	if plan != nil {
		phases = []func() error{func() error { return g.readCached(plan) }, g.decide, func() error { return g.checkDecided(plan) }, func() error { return g.guardCached(plan) }, g.write}
	}
	postgres := e.db.Dialect() == store.Postgres
	for _, phase := range phases {
		if err := phase(); err != nil {
			if postgres {
				e.cache.forget(group)
			}
			return nil, nil, err
		}
	}
	heads, err := g.notify()
	if err == nil {
		err = tx.commit(ctx)
	}
	if err != nil {
		if postgres {
			e.cache.forget(group)
		}
		return nil, nil, fmt.Errorf("commit push: %w", err)
	}
	if postgres {
		e.cache.remember(g)
	}
	return g.results, g.commits(heads), nil
}

// groupBuffers are the maps and slices of a group commit that its committer's next one reuses:
// sized for the group (one record, verdict, entry and change per mutation at most), they were
// most of a commit's own allocations. Nothing in them outlives its commit (the results and the
// commits' pages are copies), and keep empties them, so that they hold on to nothing.
type groupBuffers struct {
	records  map[recordKey]*recordEntry
	verdicts map[clientMutation]Outcome
	entries  []recordEntry
	changes  []changeRow
	scratch  []byte
	// The group's record states and change bodies (recordEntry.encoded, changeRow.body): written
	// to the database and copied into the commits' pages before the commit ends. A full group's
	// fit in the chunks kept.
	arena arena.Arena
}

// lend gives g the buffers, grown to room for n mutations where they have less.
func (b *groupBuffers) lend(g *groupTxn, n int) {
	if b.records == nil {
		b.records, b.verdicts = make(map[recordKey]*recordEntry, n), make(map[clientMutation]Outcome, n)
		b.arena.Keep = keptArenaChunks
	}
	if cap(b.entries) < n {
		b.entries = make([]recordEntry, 0, n)
	}
	if cap(b.changes) < n {
		b.changes = make([]changeRow, 0, n)
	}
	g.records, g.verdicts, g.entries, g.changes, g.scratch, g.arena = b.records, b.verdicts, b.entries[:0], b.changes[:0], b.scratch[:0], &b.arena
}

// keptArenaChunks: the arena chunks a committer keeps between groups, room for the states and
// bodies of a group of MaxGroupMutations (4,000) mutations of about 1 KB.
const keptArenaChunks = 4

// keep takes the buffers back from g, emptied.
func (b *groupBuffers) keep(g *groupTxn) {
	clear(g.records)
	clear(g.verdicts)
	clear(g.entries)
	clear(g.changes)
	b.records, b.verdicts, b.entries, b.changes, b.scratch = g.records, g.verdicts, g.entries[:0], g.changes[:0], g.scratch[:0]
	b.arena.Reset()
}

type userWorkspace struct{ user, workspace string }

type clientMutation struct {
	client string
	id     int64
}

// groupTxn is one group commit in progress: what each phase read, and what the decisions will
// write. A job whose client is not bound to its user has its error set in results once the reads
// are in (read), and every later phase skips it.
type groupTxn struct {
	e       *Engine
	ctx     context.Context
	tx      txn
	now     time.Time
	group   []*job
	results []jobResult

	workspaces map[string]*workspaceEntry   // locked, with their heads
	roles      map[userWorkspace]authz.Role // read under the lock
	last       map[clientWorkspace]int64    // last decided mutation id per client and workspace
	collected  map[clientWorkspace]int64    // highest id whose change or rejection GC removed
	records    map[recordKey]*recordEntry   // the records the mutations touch
	verdicts   map[clientMutation]Outcome   // given in this group, for resends within it

	// Scratch buffers reused by every mutation of the group (applyOne).
	scratch []byte
	// arena holds the states and bodies the group writes, until the commit ends.
	arena *arena.Arena
	// entries hold the group's record entries (one allocation; room for one per mutation).
	entries []recordEntry

	// What the decisions write.
	changes     []changeRow
	runStart    int // the index in changes of the last one's run
	conflictOps []conflictOp
	rejections  []rejectionRow
	decided     map[clientWorkspace]int64 // new last ids
}

// read runs the group's reads, in this order: the client bindings, the workspace locks (in id
// order), then, under the locks, the roles, the last decided ids and the records. They do not
// depend on one another's answers, so on Postgres they go in one round trip (pipelined; the server
// runs them in order, so what follows the locks is read under them), and a one-mutation push (a
// device editing live) costs two round trips in all: this one, and its writes with the commit
// (one, when its reads are remembered: readCached).
//
// Reads are made for every job of the group, also one whose client turns out not to be bound to
// its user: its workspaces are locked and its records loaded with the others', and nothing more
// (it is answered with its error; decide never looks at it). Every mutation's authorisation is
// still decided under the lock, in applyOne, from the role read here.
func (g *groupTxn) read() error {
	var rs []read
	owners := g.readBindings(&rs)
	g.lockWorkspaces(&rs)
	g.readRoles(&rs)
	g.readLastIDs(&rs)
	g.loadRecords(&rs)
	if err := g.tx.reads(g.ctx, rs); err != nil {
		return err
	}
	for i, j := range g.group {
		if *owners[j.client.ClientID] != j.client.UserID {
			g.results[i].err = core.Errorf(core.EFORBIDDEN, "The client id is not bound to this user: say hello first.")
		}
	}
	return nil
}

// readBindings reads the user each job's client id is bound to ("" when none).
func (g *groupTxn) readBindings(rs *[]read) map[string]*string {
	owners := map[string]*string{}
	for _, j := range g.group {
		if owners[j.client.ClientID] != nil {
			continue
		}
		owner := new(string)
		owners[j.client.ClientID] = owner
		*rs = append(*rs, read{`SELECT user_id FROM sync_clients WHERE client_id = ?`, []any{j.client.ClientID}, func(rows rowsIter) error {
			if rows.Next() {
				return rows.Scan(owner)
			}
			return nil
		}})
	}
	return owners
}

// lockWorkspaces locks the workspaces written, in id order: the sequence is allocated under this
// lock, so seqs commit in order and no reader sees seq N+1 before N.
//
// On Postgres it also holds the workspace row itself (FOR KEY SHARE: a rename goes on, a deletion
// waits), once per workspace and push. The record states and the change log have no foreign key to
// workspaces (migration 0016), so this is what keeps a push and the deletion of its workspace
// apart: the deletion (members.DeleteWorkspace) waits for the push to commit, then deletes what it
// wrote; a push that comes after the deletion finds no workspace. Taken here, first, the lock also
// keeps the two from deadlocking (before, the push took it per row written, later, while the
// deletion could already be waiting for the push's sync_workspaces row).
func (g *groupTxn) lockWorkspaces(rs *[]read) {
	for _, j := range g.group {
		for _, m := range j.muts {
			g.workspaces[m.WorkspaceID] = nil
		}
	}
	holdWorkspace := ""
	if g.e.db.Dialect() == store.Postgres {
		holdWorkspace = " FOR KEY SHARE"
	}
	for _, w := range sortedKeys(g.workspaces) {
		we := &workspaceEntry{}
		g.workspaces[w] = we
		*rs = append(*rs, read{`INSERT INTO sync_workspaces (workspace_id, seq, gc_seq, updated_at)
			SELECT id, 0, 0, ? FROM workspaces WHERE id = ?` + holdWorkspace + `
			ON CONFLICT (workspace_id) DO UPDATE SET updated_at = excluded.updated_at
			RETURNING seq, gc_seq`, []any{g.now, w}, func(rows rowsIter) error {
			if !rows.Next() {
				return nil // no such workspace
			}
			if err := rows.Scan(&we.head, &we.gcSeq); err != nil {
				return fmt.Errorf("lock workspace %s: %w", w, err)
			}
			we.exists, we.startAt = true, we.head
			return nil
		}})
	}
}

// readRoles reads each user's role in each workspace written (authz.None for a workspace that
// does not exist: no membership row).
func (g *groupTxn) readRoles(rs *[]read) {
	for _, j := range g.group {
		for _, m := range j.muts {
			uw := userWorkspace{j.client.UserID, m.WorkspaceID}
			if _, ok := g.roles[uw]; ok {
				continue
			}
			g.roles[uw] = authz.None
			*rs = append(*rs, read{members.RoleQuery, []any{uw.workspace, uw.user}, func(rows rowsIter) error {
				if !rows.Next() {
					return nil
				}
				role, err := members.ScanRole(rows)
				g.roles[uw] = role
				return err
			}})
		}
	}
}

// readLastIDs reads, per client and workspace, the last decided mutation id and the highest one
// whose change or rejection garbage collection removed (below it a missing verdict is ambiguous).
func (g *groupTxn) readLastIDs(rs *[]read) {
	loaded := map[string]bool{}
	for _, j := range g.group {
		client := j.client.ClientID
		if loaded[client] {
			continue
		}
		loaded[client] = true
		*rs = append(*rs, read{`SELECT workspace_id, last_mutation_id, collected_mutation_id FROM sync_client_workspaces WHERE client_id = ?`,
			[]any{client}, func(rows rowsIter) error {
				for rows.Next() {
					var w string
					var id, gone int64
					if err := rows.Scan(&w, &id, &gone); err != nil {
						return fmt.Errorf("read last mutation ids: %w", err)
					}
					g.last[clientWorkspace{client, w}] = id
					g.collected[clientWorkspace{client, w}] = gone
				}
				return nil
			}})
	}
}

// loadRecords loads the records the mutations touch, in one query per workspace and collection
// (SQLite: per 500 ids). Ids at or below the last decided one are loaded too: most are resends,
// but one may be new (see decide).
func (g *groupTxn) loadRecords(rs *[]read) {
	type workspaceCollection struct{ workspace, collection string }
	wanted := map[workspaceCollection]map[string]bool{}
	for _, j := range g.group {
		for _, m := range j.muts {
			wc := workspaceCollection{m.WorkspaceID, m.Collection}
			if wanted[wc] == nil {
				wanted[wc] = map[string]bool{}
			}
			wanted[wc][m.RecordID] = true
		}
	}
	for _, wc := range slices.SortedFunc(maps.Keys(wanted), func(a, b workspaceCollection) int {
		return cmp.Or(strings.Compare(a.workspace, b.workspace), strings.Compare(a.collection, b.collection))
	}) {
		*rs = append(*rs, g.e.recordReads(wc.workspace, wc.collection, sortedKeys(wanted[wc]), g.records)...)
	}
}

// decide gives every mutation its verdict, in queue order and mutation order.
func (g *groupTxn) decide() error {
	for ji, j := range g.group {
		if g.results[ji].err != nil {
			continue
		}
		outcomes := make([]Outcome, len(j.muts))
		for mi, m := range j.muts {
			o, err := g.decideOne(j.client, m)
			if err != nil {
				return err
			}
			outcomes[mi] = o
		}
		g.results[ji].outcomes = outcomes
	}
	return nil
}

func (g *groupTxn) decideOne(client Client, m ClientMutation) (Outcome, error) {
	cw := clientWorkspace{client.ClientID, m.WorkspaceID}
	if m.MutationID <= g.last[cw] {
		// At or below the last decided id: a resend gets the answer it got then. An id that was
		// never decided (its push committed after one with a higher id: two pushes in flight, a
		// resend racing the original, two sockets on two instances) is decided now; acknowledging
		// it as a duplicate would drop it from the device's outbox unapplied.
		if o, ok := g.verdicts[clientMutation{client.ClientID, m.MutationID}]; ok {
			if o.Status == StatusApplied {
				o.Status = StatusDuplicate
			}
			return o, nil
		}
		o, found, err := g.e.previousVerdict(g.ctx, g.tx, client.ClientID, m.WorkspaceID, m.MutationID, g.collected[cw])
		if err != nil || found {
			return o, err
		}
	} else {
		g.last[cw] = m.MutationID
		g.decided[cw] = m.MutationID
	}
	o, err := g.applyOne(client, m)
	if err != nil {
		return Outcome{}, err
	}
	if o.Status == StatusRejected {
		issues, _ := json.Marshal(o.Issues)
		g.rejections = append(g.rejections, rejectionRow{client.ClientID, m.WorkspaceID, m.MutationID, o.Code, issues})
	}
	g.verdicts[clientMutation{client.ClientID, m.MutationID}] = o
	return o, nil
}

// notify returns the new head of every workspace that changed and, on Postgres, tells the other
// instances (NOTIFY is delivered at commit).
func (g *groupTxn) notify() (map[string]int64, error) {
	heads := map[string]int64{}
	for w, we := range g.workspaces {
		if we.exists && we.head != we.startAt {
			heads[w] = we.head
			if g.e.db.Dialect() == store.Postgres {
				if err := g.tx.exec(g.ctx, `SELECT pg_notify(?, ?)`, notifyChannel, notifyPayload(g.e.clock.Node(), w, we.head)); err != nil {
					return nil, fmt.Errorf("notify commit: %w", err)
				}
			}
		}
	}
	return heads, nil
}

// applyOne decides one new mutation: authorisation, the merge, the merged record's validation
// (and of every value the mutation wrote), the enumeration codes only the server can judge. An
// applied mutation takes the workspace's next seq and adds its change row and conflict ops.
//
// It returns an error only when the database fails (reading enumerations): the push fails and the
// client retries; a mutation is never rejected for the server's own trouble.
func (g *groupTxn) applyOne(client Client, cm ClientMutation) (Outcome, error) {
	e := g.e
	role := g.roles[userWorkspace{client.UserID, cm.WorkspaceID}]
	we := g.workspaces[cm.WorkspaceID]
	records := g.records
	reject := func(code, key string, params map[string]any) (Outcome, error) {
		if params == nil {
			params = map[string]any{}
		}
		return Outcome{MutationID: cm.MutationID, Status: StatusRejected, Code: code,
			Issues: []schema.Issue{{Path: "", Key: key, Params: params}}}, nil
	}
	if err := authz.Authorize(authz.Request{Role: role, Action: authz.RecordWrite}); err != nil {
		if core.ErrorCode(err) == core.EFORBIDDEN {
			return reject(RejectForbidden, "sync.reject.readOnly", map[string]any{"role": string(role)})
		}
		return reject(RejectNotFound, "sync.reject.notMember", nil)
	}
	if cm.Collection == vaultKeysCollection && cm.Mutation.Op == OpDelete {
		// A wrapped vault key is never deleted (authz.VaultKeyDelete): the logins it sealed name it.
		if err := authz.Authorize(authz.Request{Role: role, Action: authz.VaultKeyDelete}); err != nil {
			return reject(RejectForbidden, "sync.reject.vaultKeyKept", nil)
		}
	}
	entity, ok := e.collections[cm.Collection]
	if !ok {
		return Outcome{MutationID: cm.MutationID, Status: StatusRejected, Code: RejectInvalid,
			Issues: []schema.Issue{{Path: "collection", Key: "validation.enum", Params: map[string]any{}}}}, nil
	}
	key := recordKey{cm.WorkspaceID, cm.Collection, cm.RecordID}
	entry := records[key]
	if entry == nil {
		// A new record: its empty state is only read (the mutation merges into a copy).
		entry = g.entry(recordEntry{state: &noRecordState})
		records[key] = entry
	}

	if entry.state == &noRecordState && !entry.hasCreated && g.collectedBefore(we, cm.Mutation) {
		return reject(RejectNotFound, "sync.reject.recordGone", nil)
	}
	m := canonicalMutation(cm.Mutation)
	m.Author = client.ClientID
	effective, restamped := e.clock.Bound(m.Stamp)
	m.Stamp = effective
	// Encoded into the group's scratch buffer; only an applied mutation's state is kept (as a string
	// of its exact size, written as is).
	var (
		next       *RecordState // the merged state; nil for a new record's first mutation
		eff        Effect
		stateLen   int // the state's length in g.scratch (the change's body follows it)
		fieldsSize int
		merged     map[string]any // the record's fields after the mutation (nulls included)
		prior      map[string]any // and before
	)
	if entry.state == &noRecordState && !entry.hasCreated {
		// The record's first mutation: it wins every field it writes and opens no conflict, so the
		// state is written straight from it (appendNewRecord), and made only if needed (current).
		if err := m.Validate(); err != nil {
			return reject(RejectInvalid, "validation.invalid", nil)
		}
		g.scratch, stateLen, fieldsSize = appendNewRecord(g.scratch[:0], &m)
		merged = m.Fields
	} else {
		prev := entry.current()
		// Every mutation reaching here is decided now, for the first time: one whose node the record
		// has already seen later is its device's earlier mutation decided after a later one (ids may
		// be decided out of order: PROTOCOL.md, Guarantees 1). Marked, it merges as new everywhere.
		last, seen := prev.Seen[m.Stamp.Node]
		m.Late = seen && m.Stamp.Before(last)
		next = prev.cloneFor(len(m.Fields))
		var err error
		if eff, err = next.Apply(m); err != nil {
			return reject(RejectInvalid, "validation.invalid", nil)
		}
		g.scratch, fieldsSize = appendState(g.scratch[:0], next)
		stateLen = len(g.scratch)
		merged, prior = next.Fields, prev.Fields
	}
	if m.Op == OpPut || m.Op == OpRestore {
		// null clears a field: the record does not have it. Without nulls the record is the merged
		// fields themselves (only read from here on).
		record := merged
		if hasNull(merged) {
			record = make(map[string]any, len(merged))
			for f, v := range merged {
				if v != nil {
					record[f] = v
				}
			}
		}
		if fieldsSize > schema.MaxRecordBytes {
			if raw := appendObject(nil, record); len(raw) > schema.MaxRecordBytes {
				return reject(RejectTooLarge, "validation.document.tooLarge", map[string]any{"max": schema.MaxRecordBytes})
			}
		}
		issues, err := schema.ValidateValue(entity, record, schema.DefaultLanguage)
		if err != nil {
			return reject(RejectInvalid, "validation.invalid", nil)
		}
		if len(issues) == 0 && next != nil {
			// The values this mutation wrote that lost the merge are not in the record just
			// checked, yet they are kept (as open conflicts, restorable): each must be valid too.
			// (A record's first mutation loses none.)
			if lost := lostValues(m.Fields, eff.Changed); lost != nil {
				withLost := maps.Clone(record)
				maps.Copy(withLost, lost)
				issues, err = schema.ValidateShape(entity, withLost, schema.DefaultLanguage)
				if err != nil {
					return reject(RejectInvalid, "validation.invalid", nil)
				}
			}
		}
		if len(issues) > 0 {
			for i := range issues {
				issues[i].Message = ""
			}
			return Outcome{MutationID: cm.MutationID, Status: StatusRejected, Code: RejectInvalid, Issues: issues}, nil
		}
		// Enumeration codes only the server's data can judge (an admin-added category or structure type).
		refIssues, err := e.checkEnumRefs(g.ctx, g.tx, entity, prior, record)
		if err != nil {
			return Outcome{}, err
		}
		if len(refIssues) > 0 {
			return Outcome{MutationID: cm.MutationID, Status: StatusRejected, Code: RejectInvalid, Issues: refIssues}, nil
		}
	}
	if stateLen > e.opts.Limits.MaxStateBytes {
		return reject(RejectTooLarge, "sync.reject.stateTooLarge", map[string]any{"max": e.opts.Limits.MaxStateBytes})
	}
	// The state and the change's body go into the group's arena, one after the other.
	if next != nil {
		g.scratch = appendBody(g.scratch, m)
	}
	both := g.arena.Copy(g.scratch)
	encoded, body := both[:stateLen:stateLen], both[stateLen:]

	we.head++
	seq := we.head
	if next == nil {
		entry.created, entry.hasCreated = m, true
	} else {
		entry.state = next
	}
	entry.encoded, entry.seq, entry.dirty, entry.size = encoded, seq, true, len(encoded)
	g.appendChange(changeRow{key: key, seq: seq, client: client.ClientID, mutationID: cm.MutationID, body: body})
	for _, c := range eff.Opened {
		g.conflictOps = append(g.conflictOps, conflictOp{key: key, c: c, open: true, seq: seq, value: string(appendValue(nil, c.Value))})
	}
	for _, c := range eff.Closed {
		g.conflictOps = append(g.conflictOps, conflictOp{key: key, c: c})
	}
	return Outcome{MutationID: cm.MutationID, Status: StatusApplied, Seq: seq, Stamp: effective, Restamped: restamped}, nil
}

// appendChange adds c to the change log the group writes, as the next change of the run of the
// change before it when c continues it (same client and workspace, the next mutation id and the
// next seq), or else as the start of a run of its own.
func (g *groupTxn) appendChange(c changeRow) {
	if n := len(g.changes); n > 0 {
		prev := &g.changes[n-1]
		if prev.client == c.client && prev.key.workspace == c.key.workspace && prev.mutationID+1 == c.mutationID && prev.seq+1 == c.seq {
			g.changes[g.runStart].run++
			g.changes = append(g.changes, c)
			return
		}
	}
	c.run = 1
	g.runStart = len(g.changes)
	g.changes = append(g.changes, c)
}

// collectedBefore reports whether m, a put or restore of a record the server does not hold, edits
// a record whose tombstone garbage collection has removed: its base names writes the device saw
// (a creation has none), all of them older than the retention period (no change of a record
// collected is younger: its tombstone is removed only once its last change is that old; the
// allowance is the clock lead a stamp may have, MaxDrift), in a workspace collected at least once.
// Taking it for a creation would bring the deleted record back (MERGE.md rule 2: only a restore
// undoes a delete) or refuse it as invalid for the fields it did not write. An edit whose base is
// younger, of a record never seen (its creation not decided yet, ids out of order), is judged as
// before.
func (g *groupTxn) collectedBefore(we *workspaceEntry, m Mutation) bool {
	if m.Op != OpPut && m.Op != OpRestore || len(m.Base) == 0 || we == nil || we.gcSeq == 0 {
		return false
	}
	limit := g.now.Add(-g.e.opts.Retention).Add(g.e.opts.MaxDrift).UnixMilli()
	for _, s := range m.Base {
		if s.Millis >= limit {
			return false
		}
	}
	return true
}

// vaultKeysCollection holds the logins vault's wrapped keys (pwa/src/vault/README.md).
const vaultKeysCollection = "vaultKeys"

// noRecordState is the state of a record not written yet. It is only ever read: a mutation
// merges into a copy (cloneFor).
var noRecordState RecordState

// entry returns a new record entry holding e, from the group's entries while they have room.
func (g *groupTxn) entry(e recordEntry) *recordEntry {
	if len(g.entries) == cap(g.entries) {
		return &e
	}
	g.entries = append(g.entries, e)
	return &g.entries[len(g.entries)-1]
}

func hasNull(fields map[string]any) bool {
	for _, v := range fields {
		if v == nil {
			return true
		}
	}
	return false
}

// lostValues returns the non-null values of written that are not among changed (the fields whose
// winning write changed, sorted), or nil when every written value won.
func lostValues(written map[string]any, changed []string) map[string]any {
	var lost map[string]any
	for f, v := range written {
		if v == nil {
			continue
		}
		if _, won := slices.BinarySearch(changed, f); won {
			continue
		}
		if lost == nil {
			lost = map[string]any{}
		}
		lost[f] = v
	}
	return lost
}

// canonicalMutation keeps of Base what the merge reads: the written fields' clocks for put and
// restore, every clock for a delete (the tombstone keeps them), none for resolve. The change log
// and the wire carry this form, so every replica merges exactly what the server merged.
func canonicalMutation(m Mutation) Mutation {
	base := map[string]Stamp{}
	switch m.Op {
	case OpDelete:
		for f, s := range m.Base {
			base[f] = s
		}
	case OpPut, OpRestore:
		for f := range m.Fields {
			if s, ok := m.Base[f]; ok {
				base[f] = s
			}
		}
	}
	m.Base = base
	if len(m.Fields) == 0 {
		m.Fields = nil
	}
	m.Late = false // the server's mark alone (applyOne)
	return m
}

// recordReads are the reads that load the current state of the given records of one collection
// into records (those that exist), and let the clock observe their newest stamps (CLOCK.md: a
// re-stamp must order after the values stored).
func (e *Engine) recordReads(workspace, collection string, ids []string, records map[recordKey]*recordEntry) []read {
	scan := func(rows rowsIter) error {
		for rows.Next() {
			key := recordKey{workspace: workspace, collection: collection}
			var seq int64
			var raw []byte
			if err := rows.Scan(&key.id, &seq, &raw); err != nil {
				return fmt.Errorf("load records: %w", err)
			}
			state, err := decodeState(raw)
			if err != nil {
				return fmt.Errorf("load records: record %s/%s: %w", collection, key.id, err)
			}
			if newest, ok := newestStamp(state); ok {
				e.clock.Observe(newest)
			}
			records[key] = &recordEntry{state: state, seq: seq, exists: true, size: len(raw)}
		}
		return nil
	}
	if e.db.Dialect() == store.Postgres {
		// One statement, and still one primary-key lookup per id: a LATERAL subquery with LIMIT
		// cannot be pulled up into a join, so whatever the planner estimates (a table grown fast
		// since its last ANALYZE), the plan is a nested loop over the ids, each an equality on
		// the whole key, never a scan of the collection as an IN list may become.
		return []read{{`SELECT r.record_id, r.seq, r.state FROM unnest(?::text[]) AS k(id)
			CROSS JOIN LATERAL (SELECT record_id, seq, state FROM sync_records
				WHERE workspace_id = ? AND collection = ? AND record_id = k.id LIMIT 1) r`, []any{ids, workspace, collection}, scan}}
	}
	// SQLite plans the IN list on the primary key.
	const chunk = 500
	var rs []read
	for start := 0; start < len(ids); start += chunk {
		part := ids[start:min(start+chunk, len(ids))]
		args := []any{workspace, collection}
		for _, id := range part {
			args = append(args, id)
		}
		rs = append(rs, read{`SELECT record_id, seq, state FROM sync_records
			WHERE workspace_id = ? AND collection = ? AND record_id IN (` + placeholders(len(part)) + `)`, args, scan})
	}
	return rs
}

func decodeState(raw []byte) (*RecordState, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	s := &RecordState{}
	if err := dec.Decode(s); err != nil {
		return nil, err
	}
	s.init()
	return s, nil
}

func newestStamp(s *RecordState) (Stamp, bool) {
	var newest Stamp
	found := false
	consider := func(st Stamp) {
		if !found || st.After(newest) {
			newest, found = st, true
		}
	}
	for _, st := range s.Clocks {
		consider(st)
	}
	if s.Life != nil {
		consider(s.Life.Stamp)
	}
	return newest, found
}

// previousVerdict answers a mutation id at or below the last one decided for its client in its
// workspace: the stored rejection, or the original change (seq and stamp); found is false when
// neither exists and the id is above `collected` (the highest id whose change or rejection garbage
// collection removed), so it was never decided. At or below `collected` a missing verdict is taken
// as collected: a duplicate without seq or stamp (a push would have to stay in flight for the whole
// retention period for that to be wrong).
func (e *Engine) previousVerdict(ctx context.Context, tx txn, client, workspace string, id, collected int64) (Outcome, bool, error) {
	var code string
	var issues []byte
	err := tx.queryRow(ctx, `SELECT code, issues FROM sync_rejections WHERE client_id = ? AND mutation_id = ?`, client, id).Scan(&code, &issues)
	switch {
	case err == nil:
		var list []schema.Issue
		if err := json.Unmarshal(issues, &list); err != nil {
			return Outcome{}, false, fmt.Errorf("read rejection: %w", err)
		}
		return Outcome{MutationID: id, Status: StatusRejected, Code: code, Issues: list}, true, nil
	case !errors.Is(err, sql.ErrNoRows):
		return Outcome{}, false, fmt.Errorf("read rejection: %w", err)
	}
	// The change is in the run that starts nearest below it, if that run covers it (migration
	// 0017): at the seq as far from the run's start as its id is from the start's id. A run whose
	// start is gone was collected whole (sync/gc.go), so its other changes are answered as
	// collected ones below.
	var covers bool
	var seq sql.NullInt64
	var body []byte
	err = tx.queryRow(ctx, `SELECT r.mutation_id + r.run_length > ?, c.seq, c.mutation
		FROM (SELECT seq, mutation_id, run_length FROM sync_changes
			WHERE client_id = ? AND workspace_id = ? AND run_length > 0 AND mutation_id <= ?
			ORDER BY mutation_id DESC LIMIT 1) AS r
		LEFT JOIN sync_changes AS c ON c.workspace_id = ? AND c.seq = r.seq + (? - r.mutation_id) AND c.client_id = ? AND c.mutation_id = ?`,
		id, client, workspace, id, workspace, id, client, id).Scan(&covers, &seq, &body)
	switch {
	case errors.Is(err, sql.ErrNoRows) || err == nil && !covers:
		if id > collected {
			return Outcome{}, false, nil
		}
		return Outcome{MutationID: id, Status: StatusDuplicate}, true, nil
	case err != nil:
		return Outcome{}, false, fmt.Errorf("read change of a resend: %w", err)
	case !seq.Valid:
		// A run covers the id but its change is not where the run says: never decide it again.
		return Outcome{}, false, fmt.Errorf("read change of a resend: mutation %d of client %s is in a run of workspace %s but not at its seq", id, client, workspace)
	}
	var mb struct {
		Stamp Stamp `json:"stamp"`
	}
	if err := json.Unmarshal(body, &mb); err != nil {
		return Outcome{}, false, fmt.Errorf("read change of a resend: %w", err)
	}
	return Outcome{MutationID: id, Status: StatusDuplicate, Seq: seq.Int64, Stamp: mb.Stamp}, true, nil
}

// write writes what the group decided: records, change log, conflicts, rejections, the clients'
// last mutation ids and the workspaces' heads.
func (g *groupTxn) write() error {
	ctx, tx, now := g.ctx, g.tx, g.now
	workspaces, records, changes, conflictOps, rejections, decided := g.workspaces, g.records, g.changes, g.conflictOps, g.rejections, g.decided
	// Records: new ones are inserted (COPY on Postgres), existing ones updated. The workspace lock
	// makes "exists" reliable: only transactions holding it write its records.
	newRows := recordRows{rows: make([]recordRow, 0, len(records)), now: now}
	var updateRows [][]any
	for key, r := range records {
		if !r.dirty {
			continue
		}
		if r.exists {
			updateRows = append(updateRows, recordValues(key, r, now))
		} else {
			newRows.rows = append(newRows.rows, recordRow{key, r})
		}
	}
	if err := tx.insert(ctx, "sync_records", recordColumns, newRows); err != nil {
		return fmt.Errorf("write new records: %w", err)
	}
	if err := insertRows(ctx, tx, `INSERT INTO sync_records (`+strings.Join(recordColumns, ", ")+`) VALUES `,
		` ON CONFLICT (workspace_id, collection, record_id) DO UPDATE SET seq = excluded.seq, deleted = excluded.deleted,
			conflicts = excluded.conflicts, state = excluded.state, updated_at = excluded.updated_at`, len(recordColumns), updateRows); err != nil {
		return fmt.Errorf("write records: %w", err)
	}
	if err := tx.insert(ctx, "sync_changes", changeColumns, changeRows{rows: changes, now: now}); err != nil {
		return fmt.Errorf("write change log: %w", err)
	}

	// Conflicts: the last operation on each conflict wins (opened and closed in one group: gone).
	type conflictPK struct {
		key   recordKey
		field string
		stamp Stamp
	}
	final := map[conflictPK]conflictOp{}
	var order []conflictPK
	for _, op := range conflictOps {
		pk := conflictPK{op.key, op.c.Field, op.c.Stamp}
		if _, ok := final[pk]; !ok {
			order = append(order, pk)
		}
		final[pk] = op
	}
	var openRows [][]any
	for _, pk := range order {
		op := final[pk]
		if op.open {
			openRows = append(openRows, []any{pk.key.workspace, pk.key.collection, pk.key.id, pk.field, pk.stamp.String(), op.value, op.c.Author, op.seq, now})
			continue
		}
		if err := tx.exec(ctx, `DELETE FROM sync_conflicts WHERE workspace_id = ? AND collection = ? AND record_id = ? AND field = ? AND stamp = ?`,
			pk.key.workspace, pk.key.collection, pk.key.id, pk.field, pk.stamp.String()); err != nil {
			return fmt.Errorf("close conflict: %w", err)
		}
	}
	if err := insertRows(ctx, tx, `INSERT INTO sync_conflicts (workspace_id, collection, record_id, field, stamp, value, author, seq, created_at) VALUES `,
		` ON CONFLICT (workspace_id, collection, record_id, field, stamp) DO NOTHING`, 9, openRows); err != nil {
		return fmt.Errorf("open conflicts: %w", err)
	}

	rejectRows := make([][]any, 0, len(rejections))
	for _, r := range rejections {
		rejectRows = append(rejectRows, []any{r.client, r.mutationID, r.workspace, r.code, string(r.issues), now})
	}
	if err := insertRows(ctx, tx, `INSERT INTO sync_rejections (client_id, mutation_id, workspace_id, code, issues, created_at) VALUES `,
		` ON CONFLICT (client_id, mutation_id) DO NOTHING`, 6, rejectRows); err != nil {
		return fmt.Errorf("write rejections: %w", err)
	}

	var lastRows [][]any
	for _, cw := range sortedClientWorkspaces(decided) {
		lastRows = append(lastRows, []any{cw.client, cw.workspace, decided[cw], now})
	}
	if err := insertRows(ctx, tx, `INSERT INTO sync_client_workspaces (client_id, workspace_id, last_mutation_id, updated_at) VALUES `,
		` ON CONFLICT (client_id, workspace_id) DO UPDATE SET
			last_mutation_id = CASE WHEN excluded.last_mutation_id > sync_client_workspaces.last_mutation_id
				THEN excluded.last_mutation_id ELSE sync_client_workspaces.last_mutation_id END,
			updated_at = excluded.updated_at`, 4, lastRows); err != nil {
		return fmt.Errorf("write last mutation ids: %w", err)
	}

	for _, w := range sortedKeys(workspaces) {
		we := workspaces[w]
		if !we.exists || we.head == we.startAt || we.written {
			continue
		}
		if err := tx.exec(ctx, `UPDATE sync_workspaces SET seq = ?, updated_at = ? WHERE workspace_id = ?`, we.head, now, w); err != nil {
			return fmt.Errorf("advance workspace sequence: %w", err)
		}
	}
	return nil
}

func sortedClientWorkspaces(m map[clientWorkspace]int64) []clientWorkspace {
	out := make([]clientWorkspace, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].client != out[j].client {
			return out[i].client < out[j].client
		}
		return out[i].workspace < out[j].workspace
	})
	return out
}
