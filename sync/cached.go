package sync

import (
	"errors"
	"slices"
	gosync "sync"
	"sync/atomic"

	"github.com/jackc/pgx/v5/pgconn"

	"patrimonio/server/authz"
	"patrimonio/server/members"
)

// The cached commit: a live edit in one round trip to Postgres (issue 17).
//
// The general way, a push's reads (the client's binding, the workspace's lock and head, the
// user's role, the client's last decided id, the records' states) cost a round trip before
// anything can be decided, and a live edit (one mutation, after a pause) spent about half of its
// commit waiting for it. This instance remembers, per workspace, what its commits there read and
// wrote, as of the head they left. A push whose every read is remembered is decided from memory,
// and its writes go in one round trip with the commit, behind two guards that fail the
// transaction unless the database still holds what was remembered:
//
//  1. the workspace's sync_workspaces row, locked (as a push locks it): its seq, which every
//     applied mutation on any instance raises, and its gc_seq, which garbage collection raises
//     when it removes tombstones, are the remembered ones. A record is written only under that
//     lock, by a transaction that raises seq, so an unchanged seq means unchanged records;
//  2. read after the lock, in a statement of its own (so with a snapshot taken under the lock):
//     the client is still bound to the user, the user's role and the client's last decided id in
//     the workspace are the remembered ones (a push whose mutations were all rejected raises no
//     seq but moves the last id).
//
// A record not remembered is taken for one that does not exist yet (a device creating it): it is
// written as a new row, whose insert fails if the record exists after all (checkAbsent).
//
// A guard that fails raises serialization_failure (sync_expect, migration 0018): the transaction
// is rolled back whole, and the push is committed the general way, which reads everything again.
// What is remembered only ever costs that fallback when it is out of date: it is never trusted
// without the guards. Only Postgres takes this way; SQLite has no round trips to save.
// BenchmarkApplyOne/postgres (a one-mutation push, in process): 330 → 233 µs.

// Bounds of what is remembered: a workspace's records are forgotten when more than
// cachedRecordsPerWorkspace would be remembered, a workspace when more than cachedWorkspaces
// would be. A group of more than cachedGroupMutations mutations (a device catching up, a
// bulk import) is not a live edit: its records are not remembered (making the states of its new
// records would cost what appendNewRecord saves), and it leaves none of its workspaces' records
// remembered either.
const (
	cachedWorkspaces          = 512
	cachedRecordsPerWorkspace = 32
	cachedGroupMutations      = 16
	cachedBindings            = 4096
)

type commitCache struct {
	mu         gosync.Mutex
	workspaces map[string]*cachedWorkspace
	bindings   map[string]string // client id -> user id

	// How many pushes took the cached way, and how many of those found the database changed
	// (tests, and the benchmark's curiosity).
	hits, stale atomic.Int64
}

// cachedWorkspace is what this instance knows of a workspace as of head: every record in records
// is its state at head (as the database holds it).
type cachedWorkspace struct {
	head, gcSeq int64
	roles       map[string]authz.Role // user id -> role
	last        map[string]int64      // client id -> last decided mutation id
	records     map[recordKey]cachedRecord
}

type cachedRecord struct {
	state *RecordState // never written: a mutation merges into a copy (cloneFor)
	seq   int64
}

// cachedPlan is a push that can be decided from memory: the reads it would make, as remembered.
type cachedPlan struct {
	workspace, client, user string
	head, gcSeq, last       int64
	role                    authz.Role
	records                 []recordKey // each in cached
	cached                  map[recordKey]cachedRecord
	// absent are the records not remembered, taken for records that do not exist yet (a device
	// creating one): the push writes each as a new row, which fails if it exists (checkAbsent).
	absent []recordKey
}

// CachedCommits returns how many pushes this engine decided from memory, and how many of those
// found the database changed and were committed the general way.
func (e *Engine) CachedCommits() (hits, stale int64) {
	return e.cache.hits.Load(), e.cache.stale.Load()
}

// plan returns the cached plan of a group, or nil when it has to take the general way: more than
// one push, or more than cachedGroupMutations mutations, or more than one workspace, or the
// workspace, the client's binding, the user's role or the client's last id not remembered, or a
// mutation id at or below that last id (a resend, answered from the database). A record not
// remembered is taken for one that does not exist yet (absent).
func (c *commitCache) plan(group []*job) *cachedPlan {
	if len(group) != 1 || len(group[0].muts) == 0 || len(group[0].muts) > cachedGroupMutations {
		return nil
	}
	j := group[0]
	w := j.muts[0].WorkspaceID
	c.mu.Lock()
	defer c.mu.Unlock()
	cw := c.workspaces[w]
	if cw == nil || c.bindings[j.client.ClientID] != j.client.UserID {
		return nil
	}
	role, known := cw.roles[j.client.UserID]
	last, decided := cw.last[j.client.ClientID]
	if !known || !decided {
		return nil
	}
	p := &cachedPlan{workspace: w, client: j.client.ClientID, user: j.client.UserID, head: cw.head, gcSeq: cw.gcSeq,
		last: last, role: role, cached: make(map[recordKey]cachedRecord, len(j.muts))}
	for _, m := range j.muts {
		if m.WorkspaceID != w || m.MutationID <= last {
			return nil
		}
		key := recordKey{m.WorkspaceID, m.Collection, m.RecordID}
		if _, seen := p.cached[key]; seen || slices.Contains(p.absent, key) {
			continue
		}
		if r, ok := cw.records[key]; ok {
			p.cached[key] = r
			p.records = append(p.records, key)
		} else {
			p.absent = append(p.absent, key)
		}
	}
	return p
}

// errStale: a push decided from memory wrote nothing that would show whether a record it took
// for absent exists (checkAbsent).
var errStale = errors.New("sync: a record taken for absent was not written")

// checkAbsent, after the decisions: every record the plan took for absent is written as a new
// row, whose insert fails (unique_violation on sync_records' key) if the record exists after all.
// A record the push did not write (its mutations rejected) would leave a verdict that nothing
// checked, so the push takes the general way.
func (g *groupTxn) checkAbsent(p *cachedPlan) error {
	for _, key := range p.absent {
		if r := g.records[key]; r == nil || r.exists || !r.dirty {
			return errStale
		}
	}
	return nil
}

// readCached is read's counterpart on the cached way: the plan's reads as remembered, and the
// guards that check them, queued first so that everything after them runs under the lock.
func (g *groupTxn) readCached(p *cachedPlan) error {
	g.workspaces[p.workspace] = &workspaceEntry{exists: true, head: p.head, startAt: p.head, gcSeq: p.gcSeq}
	g.roles[userWorkspace{p.user, p.workspace}] = p.role
	g.last[clientWorkspace{p.client, p.workspace}] = p.last
	for _, key := range p.records {
		r := p.cached[key]
		g.records[key] = g.entry(recordEntry{state: r.state, seq: r.seq, exists: true})
	}
	// The workspace row is held first (FOR KEY SHARE), as the general way holds it (lockWorkspaces):
	// a deletion of the workspace waits there, before it cascades to the sync_workspaces row this
	// push then locks and writes twice (the second write checks its foreign key again, the row
	// version being this transaction's: without the hold first, the two would deadlock).
	if err := g.tx.exec(g.ctx, `WITH held AS (SELECT id FROM workspaces WHERE id = ? FOR KEY SHARE),
		locked AS (UPDATE sync_workspaces SET updated_at = ?
			WHERE workspace_id = (SELECT id FROM held) AND seq = ? AND gc_seq = ? RETURNING 1)
		SELECT sync_expect(count(*) = 1, 'the workspace head') FROM locked`, p.workspace, g.now, p.head, p.gcSeq); err != nil {
		return err
	}
	return g.tx.exec(g.ctx, `SELECT sync_expect(
			EXISTS (SELECT 1 FROM sync_clients WHERE client_id = ? AND user_id = ?)
			AND EXISTS (`+members.RoleQuery+` AND role = ?)
			AND EXISTS (SELECT 1 FROM sync_client_workspaces WHERE client_id = ? AND workspace_id = ? AND last_mutation_id = ?),
			'the client, role or last mutation id')`,
		p.client, p.user, p.workspace, p.user, string(p.role), p.client, p.workspace, p.last)
}

// isStale tells a push decided from memory that the database holds something else (a guard's
// serialization_failure, a record taken for absent that exists) from any other failure.
func isStale(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "40001" || pgErr.Code == "23505" && pgErr.ConstraintName == "sync_records_pkey"
	}
	return errors.Is(err, errStale)
}

// remember keeps what a committed group read and wrote, as of the heads it left.
func (c *commitCache) remember(g *groupTxn) {
	n := 0
	for _, j := range g.group {
		n += len(j.muts)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.workspaces == nil {
		c.workspaces, c.bindings = map[string]*cachedWorkspace{}, map[string]string{}
	}
	for i, j := range g.group {
		if g.results[i].err == nil {
			if len(c.bindings) >= cachedBindings {
				clear(c.bindings)
			}
			c.bindings[j.client.ClientID] = j.client.UserID
		}
	}
	for w, we := range g.workspaces {
		if !we.exists {
			delete(c.workspaces, w)
			continue
		}
		cw := c.workspaces[w]
		if cw == nil || cw.head != we.startAt || cw.gcSeq != we.gcSeq {
			// Not known as of where this group started: start again from what it read.
			if cw == nil && len(c.workspaces) >= cachedWorkspaces {
				for other := range c.workspaces {
					delete(c.workspaces, other)
					break
				}
			}
			cw = &cachedWorkspace{roles: map[string]authz.Role{}, last: map[string]int64{}, records: map[recordKey]cachedRecord{}}
			c.workspaces[w] = cw
		}
		cw.head, cw.gcSeq = we.head, we.gcSeq
		if n > cachedGroupMutations {
			clear(cw.records)
		}
	}
	for uw, role := range g.roles {
		if cw := c.workspaces[uw.workspace]; cw != nil {
			if role == authz.None {
				delete(cw.roles, uw.user)
			} else {
				cw.roles[uw.user] = role
			}
		}
	}
	for k, id := range g.last {
		if cw := c.workspaces[k.workspace]; cw != nil && g.workspaces[k.workspace] != nil {
			cw.last[k.client] = id
		}
	}
	if n > cachedGroupMutations {
		return
	}
	for key, r := range g.records {
		cw := c.workspaces[key.workspace]
		if cw == nil {
			continue
		}
		if !r.exists && !r.dirty {
			delete(cw.records, key) // no such record
			continue
		}
		if _, ok := cw.records[key]; !ok && len(cw.records) >= cachedRecordsPerWorkspace {
			clear(cw.records)
		}
		cw.records[key] = cachedRecord{state: r.current(), seq: r.seq}
	}
}

// forget drops what is remembered of the group's workspaces (a commit that failed: whether it
// committed is not known).
func (c *commitCache) forget(group []*job) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, j := range group {
		for _, m := range j.muts {
			delete(c.workspaces, m.WorkspaceID)
		}
	}
}
