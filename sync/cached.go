package psync

import (
	"errors"
	"slices"
	"strings"
	"sync"
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
// wrote, as of the head they left. A group of pushes whose every read is remembered is decided
// from memory, and its writes go with the commit (in one round trip, for a live edit), behind two
// guards that fail the transaction unless the database still holds what was remembered:
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
// A record not remembered that a mutation creates (a put with no base) is taken for one that does
// not exist yet: it is written as a new row, whose insert fails if the record exists after all
// (checkDecided). So a device's batch of creations skips the read of its records as well.
//
// A guard that fails raises serialization_failure (sync_expect, migration 0018): the transaction
// is rolled back whole, and the push is committed the general way, which reads everything again.
// What is remembered only ever costs that fallback when it is out of date: it is never trusted
// without the guards. Only Postgres takes this way; SQLite has no round trips to save.
// BenchmarkApplyOne/postgres (a one-mutation push, in process): 330 → 233 µs.

// Bounds of what is remembered: a workspace's records are forgotten when more than
// cachedRecordsPerWorkspace, or more than cachedRecordBytes of their JSON, would be remembered (a
// record larger than that is not remembered at all), a workspace when more than cachedWorkspaces
// would be: at most 32 MiB of states' JSON in all (about three times that once decoded), and
// typically a few hundred KB. A group of more than cachedGroupMutations mutations (a device
// catching up, a bulk import) is not a live edit: its records are not remembered (making the
// states of its new records would cost what appendNewRecord saves), and it leaves none of its
// workspaces' records remembered either.
const (
	cachedWorkspaces          = 512
	cachedRecordsPerWorkspace = 32
	cachedRecordBytes         = 64 << 10 // a workspace's remembered records' JSON, at most
	cachedGroupMutations      = 16
	cachedBindings            = 4096
)

type commitCache struct {
	mu         sync.Mutex
	workspaces map[string]*cachedWorkspace
	bindings   map[string]string // client id -> user id

	// How many groups took the cached way, and how many of those found the database changed
	// (CachedCommits, for the tests).
	hits, stale atomic.Int64
}

// cachedWorkspace is what this instance knows of a workspace as of head: every record in records
// is its state at head (as the database holds it).
type cachedWorkspace struct {
	head, gcSeq int64
	roles       map[string]authz.Role // user id -> role
	last        map[string]int64      // client id -> last decided mutation id
	records     map[recordKey]cachedRecord
	bytes       int // the records' JSON lengths, summed
}

type cachedRecord struct {
	state *RecordState // never written: a mutation merges into a copy (cloneFor)
	seq   int64
	size  int // its JSON's length
}

// cachedPlan is a group that can be decided from memory: the reads it would make, as remembered.
type cachedPlan struct {
	workspaces []cachedHead // in id order: the order workspaces are locked in
	clients    []cachedClient
	cached     map[recordKey]cachedRecord
	// absent are the records not remembered that the group creates (a put with no base: the
	// device has seen no write of the record), taken for records that do not exist yet: the
	// group writes each as a new row, which fails if it exists (checkDecided).
	absent []recordKey
}

type cachedHead struct {
	workspace   string
	head, gcSeq int64
}

// cachedClient is a client's binding, its user's role and its last decided id in a workspace.
type cachedClient struct {
	client, user, workspace string
	role                    authz.Role
	last                    int64
}

// CachedCommits returns how many groups of pushes this engine decided from memory, and how many of
// those found the database changed and were committed the general way.
func (e *Engine) CachedCommits() (hits, stale int64) {
	return e.cache.hits.Load(), e.cache.stale.Load()
}

// plan returns the cached plan of a group, or nil when it has to take the general way: a
// workspace, a client's binding, a user's role or a client's last id not remembered, a mutation
// id at or below that last id (a resend, answered from the database), or a record neither
// remembered nor created by its mutation (a put with no base).
func (c *commitCache) plan(group []*job) *cachedPlan {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := &cachedPlan{cached: map[recordKey]cachedRecord{}}
	heads := map[string]bool{}
	clients := map[clientWorkspace]bool{}
	for _, j := range group {
		if c.bindings[j.client.ClientID] != j.client.UserID {
			return nil
		}
		for _, m := range j.muts {
			cw := c.workspaces[m.WorkspaceID]
			if cw == nil {
				return nil
			}
			if !heads[m.WorkspaceID] {
				heads[m.WorkspaceID] = true
				p.workspaces = append(p.workspaces, cachedHead{m.WorkspaceID, cw.head, cw.gcSeq})
			}
			role, known := cw.roles[j.client.UserID]
			last, decided := cw.last[j.client.ClientID]
			if !known || !decided || m.MutationID <= last {
				return nil
			}
			if k := (clientWorkspace{j.client.ClientID, m.WorkspaceID}); !clients[k] {
				clients[k] = true
				p.clients = append(p.clients, cachedClient{j.client.ClientID, j.client.UserID, m.WorkspaceID, role, last})
			}
			key := recordKey{m.WorkspaceID, m.Collection, m.RecordID}
			if _, seen := p.cached[key]; seen {
				continue
			}
			if r, ok := cw.records[key]; ok {
				p.cached[key] = r
			} else if m.Mutation.Op == OpPut && len(m.Mutation.Base) == 0 {
				p.absent = append(p.absent, key) // repeats are harmless: checkDecided reads each
			} else {
				return nil
			}
		}
	}
	slices.SortFunc(p.workspaces, func(a, b cachedHead) int { return strings.Compare(a.workspace, b.workspace) })
	return p
}

// errStale: a group decided from memory rejected a mutation (checkDecided).
var errStale = errors.New("sync: a group decided from memory rejected a mutation")

// checkDecided, after the decisions: a group decided from memory commits only if it applied every
// mutation. A rejection is decided from memory, but nothing in the database would check it: the
// record it was judged against may exist after all (one taken for absent is written as a new row
// only when a mutation applies to it, and that insert is the check), and a rejection is rare, so
// it is decided again the general way, from what the database holds.
func (g *groupTxn) checkDecided(p *cachedPlan) error {
	for _, r := range g.results {
		for _, o := range r.outcomes {
			if o.Status != StatusApplied {
				return errStale
			}
		}
	}
	for _, key := range p.absent {
		if r := g.records[key]; r == nil || r.exists || !r.dirty {
			return errStale
		}
	}
	return nil
}

// readCached is read's counterpart on the cached way: the plan's reads, as remembered. The guards
// that check them go after the decisions (guardCached).
func (g *groupTxn) readCached(p *cachedPlan) error {
	for _, h := range p.workspaces {
		g.workspaces[h.workspace] = &workspaceEntry{exists: true, head: h.head, startAt: h.head, gcSeq: h.gcSeq}
	}
	for _, c := range p.clients {
		g.roles[userWorkspace{c.user, c.workspace}] = c.role
		g.last[clientWorkspace{c.client, c.workspace}] = c.last
	}
	for key, r := range p.cached {
		g.records[key] = g.entry(recordEntry{state: r.state, seq: r.seq, exists: true, size: r.size})
	}
	return nil
}

// guardCached queues the guards of a group decided from memory, before its writes, so that
// everything written runs under the locks. They come after the decisions so that the workspace's
// guard can write the group's new head itself: the row is locked and written once (write skips
// it). A read a decision makes (previousVerdict, for an id below one the group decided) so runs
// before the lock; it reads the workspace's change log, which the head guard then finds unchanged
// or the group falls back.
//
// Each workspace row is held first (FOR KEY SHARE), as the general way holds it (lockWorkspaces),
// and in the same order: a deletion of the workspace waits there, before it cascades to the
// sync_workspaces row this group then locks and writes (without the hold first, the write's
// foreign key check and the deletion would deadlock).
func (g *groupTxn) guardCached(p *cachedPlan) error {
	for _, h := range p.workspaces {
		we := g.workspaces[h.workspace]
		if err := g.tx.exec(g.ctx, `WITH held AS (SELECT id FROM workspaces WHERE id = ? FOR KEY SHARE),
			locked AS (UPDATE sync_workspaces SET seq = ?, updated_at = ?
				WHERE workspace_id = (SELECT id FROM held) AND seq = ? AND gc_seq = ? RETURNING 1)
			SELECT sync_expect(count(*) = 1, 'the workspace head') FROM locked`, h.workspace, we.head, g.now, h.head, h.gcSeq); err != nil {
			return err
		}
		we.written = true
	}
	for _, c := range p.clients {
		if err := g.tx.exec(g.ctx, `SELECT sync_expect(
				EXISTS (SELECT 1 FROM sync_clients WHERE client_id = ? AND user_id = ?)
				AND EXISTS (`+members.RoleQuery+` AND role = ?)
				AND EXISTS (SELECT 1 FROM sync_client_workspaces WHERE client_id = ? AND workspace_id = ? AND last_mutation_id = ?),
				'the client, role or last mutation id')`,
			c.client, c.user, c.workspace, c.user, string(c.role), c.client, c.workspace, c.last); err != nil {
			return err
		}
	}
	return nil
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
			cw.forgetRecords()
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
		if old, ok := cw.records[key]; ok {
			delete(cw.records, key)
			cw.bytes -= old.size
		}
		if !r.exists && !r.dirty || r.size > cachedRecordBytes {
			continue // no such record; or too large to remember
		}
		if len(cw.records) >= cachedRecordsPerWorkspace || cw.bytes+r.size > cachedRecordBytes {
			cw.forgetRecords()
		}
		state := r.state
		if r.dirty {
			// What a read would give (decodeState of what was written), not the group's own
			// values: the same Go types for every value, whichever way the push was decoded.
			var err error
			if state, err = decodeState(r.encoded); err != nil {
				continue
			}
		}
		cw.records[key] = cachedRecord{state: state, seq: r.seq, size: r.size}
		cw.bytes += r.size
	}
}

func (cw *cachedWorkspace) forgetRecords() {
	clear(cw.records)
	cw.bytes = 0
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
