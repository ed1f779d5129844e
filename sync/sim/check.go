package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	psync "patrimonio/sync"
)

// The checks after a scenario settled, on the database at rest (the server stopped) and on every
// device's replica:
//
//  1. Server order: each workspace's change log is seq 1..head without a gap; nothing was
//     written to a workspace by a mutation that had to be refused.
//  2. Exactly once: each (client id, mutation id) is in the change log at most once; every
//     mutation a device made (that it may make) is in it exactly once, as made (op, fields,
//     resolves; its stamp, or the server's when it was re-stamped because the device's clock was
//     far ahead); every acknowledgement a device received names its seq and stamp; each client's
//     last decided mutation id per workspace is its last mutation there.
//  3. Refusals: every probe (a write to a workspace the user is not in, a viewer's write) was
//     refused with its code, stored as a rejection, and never applied; nothing else was refused.
//  4. The stored state is the merge of the change log: replaying it (sync's RecordState) gives
//     every record's stored state exactly; the conflicts table is the records' conflicts; and,
//     independently of the merge code, each field holds the write with the highest stamp and the
//     life register the latest delete or restore.
//  5. No silent loss: every applied field write is its field's winning write, or an open conflict
//     record (value and author), or was superseded knowingly (MERGE.md): by a later write of its
//     own device, by a write made on top of it (base), or by a mutation that resolved it.
//  6. Convergence: every device's confirmed records of each of its workspaces equal the server's
//     (fields, clocks, authors, tombstones, seen, conflicts), at the server's head.
//  7. No leak: no frame a device received mentions a record of a workspace its user is not a
//     member of; pages only carry workspaces of its user, and records of that workspace; acks
//     and rejects only its own mutations.
//  8. Nothing broke the protocol on the way (the devices' anomalies: messages the shared schema
//     refuses, gaps in pages, unexpected close codes, resyncs, access denied to one's own
//     workspace, an echo whose stamp differs from its ack).
func (sc *Scenario) check() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db, err := readDatabase(ctx, sc)
	if err != nil {
		return err
	}
	var fails []string
	fail := func(format string, args ...any) {
		if len(fails) < 40 {
			fails = append(fails, fmt.Sprintf(format, args...))
		}
	}
	for _, a := range sc.ledger.Anomalies() {
		fail("anomaly: %s", a)
	}
	sc.checkOrder(db, fail)
	sc.checkExactlyOnce(db, fail)
	replayed := sc.checkState(db, fail)
	sc.checkNoLoss(db, replayed, fail)
	sc.checkReplicas(db, fail)
	sc.checkLeaks(fail)

	sc.stats.add(&sc.stats.Applied, int64(len(db.changes)))
	for _, c := range db.changes {
		if c.m.Late {
			sc.stats.add(&sc.stats.Late, 1)
		}
	}
	for _, r := range db.records {
		sc.stats.add(&sc.stats.Conflicts, int64(len(r.state.Conflicts)))
	}
	if len(fails) > 0 {
		// The last messages of every device a failure names, with their times (the events'
		// clock): what the device sent and heard on the way there.
		n := len(fails)
		for _, c := range sc.clients {
			for _, f := range fails[:n] {
				if strings.Contains(f, c.Name) {
					fails = append(fails, fmt.Sprintf("%s's last messages:\n      %s", c.Name, sc.ledger.Trace(c.Name)))
					break
				}
			}
		}
		return fmt.Errorf("%d checks failed:\n  %s", n, strings.Join(fails, "\n  "))
	}
	return nil
}

// ---------------------------------------------------------------- reading the database

type dbChange struct {
	workspace, collection, record, client string
	seq, mutationID                       int64
	m                                     psync.Mutation
}

type dbRecord struct {
	workspace, key string
	seq            int64
	deleted        bool
	conflicts      int
	state          *psync.RecordState
	raw            string
}

type dbConflict struct {
	workspace, key, field, stamp, value, author string
}

type dbRejection struct {
	client, workspace, code, issues string
	id                              int64
}

type database struct {
	heads      map[string]int64
	changes    []dbChange // by workspace, then seq
	byMutation map[mutKey][]dbChange
	records    map[string]*dbRecord // workspace + "|" + collection/record
	conflicts  []dbConflict
	rejections map[mutKey]dbRejection
	last       map[string]int64 // client + "|" + workspace → last decided mutation id
}

func readDatabase(ctx context.Context, sc *Scenario) (*database, error) {
	d := &database{heads: map[string]int64{}, byMutation: map[mutKey][]dbChange{}, records: map[string]*dbRecord{},
		rejections: map[mutKey]dbRejection{}, last: map[string]int64{}}
	q := func(query string, scan func(func(...any) error) error) error {
		rows, err := sc.db.Query(ctx, query)
		if err != nil {
			return fmt.Errorf("%s: %w", query, err)
		}
		defer rows.Close()
		for rows.Next() {
			if err := scan(rows.Scan); err != nil {
				return fmt.Errorf("%s: %w", query, err)
			}
		}
		return rows.Err()
	}
	err := q(`SELECT workspace_id, seq FROM sync_workspaces`, func(scan func(...any) error) error {
		var w string
		var seq int64
		err := scan(&w, &seq)
		d.heads[w] = seq
		return err
	})
	if err != nil {
		return nil, err
	}
	err = q(`SELECT workspace_id, seq, collection, record_id, client_id, mutation_id, mutation FROM sync_changes ORDER BY workspace_id, seq`,
		func(scan func(...any) error) error {
			var c dbChange
			var body string
			if err := scan(&c.workspace, &c.seq, &c.collection, &c.record, &c.client, &c.mutationID, &body); err != nil {
				return err
			}
			ch := psync.Change{Seq: c.seq, Collection: c.collection, RecordID: c.record, Author: c.client, MutationID: c.mutationID, Body: json.RawMessage(body)}
			m, err := ch.Mutation()
			if err != nil {
				return err
			}
			c.m = m
			d.changes = append(d.changes, c)
			k := mutKey{c.client, c.mutationID}
			d.byMutation[k] = append(d.byMutation[k], c)
			return nil
		})
	if err != nil {
		return nil, err
	}
	err = q(`SELECT workspace_id, collection, record_id, seq, deleted, conflicts, state FROM sync_records`, func(scan func(...any) error) error {
		var r dbRecord
		var collection, id string
		if err := scan(&r.workspace, &collection, &id, &r.seq, &r.deleted, &r.conflicts, &r.raw); err != nil {
			return err
		}
		r.key = recordKey(collection, id)
		st, err := psync.SnapshotRecord{Collection: collection, RecordID: id, State: json.RawMessage(r.raw)}.Decode()
		if err != nil {
			return err
		}
		r.state = st
		d.records[r.workspace+"|"+r.key] = &r
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = q(`SELECT workspace_id, collection, record_id, field, stamp, value, author FROM sync_conflicts`, func(scan func(...any) error) error {
		var c dbConflict
		var collection, id string
		if err := scan(&c.workspace, &collection, &id, &c.field, &c.stamp, &c.value, &c.author); err != nil {
			return err
		}
		c.key = recordKey(collection, id)
		d.conflicts = append(d.conflicts, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = q(`SELECT client_id, mutation_id, workspace_id, code, issues FROM sync_rejections`, func(scan func(...any) error) error {
		var r dbRejection
		if err := scan(&r.client, &r.id, &r.workspace, &r.code, &r.issues); err != nil {
			return err
		}
		d.rejections[mutKey{r.client, r.id}] = r
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = q(`SELECT client_id, workspace_id, last_mutation_id FROM sync_client_workspaces`, func(scan func(...any) error) error {
		var c, w string
		var id int64
		err := scan(&c, &w, &id)
		d.last[c+"|"+w] = id
		return err
	})
	return d, err
}

// ---------------------------------------------------------------- 1. order

func (sc *Scenario) checkOrder(db *database, fail func(string, ...any)) {
	next := map[string]int64{}
	for _, c := range db.changes {
		if c.workspace != sc.world.A && c.workspace != sc.world.B {
			fail("order: a change in workspace %s, which no device may write", c.workspace)
		}
		if c.seq != next[c.workspace]+1 {
			fail("order: workspace %s: change %d after %d", c.workspace[:8], c.seq, next[c.workspace])
		}
		next[c.workspace] = c.seq
	}
	for w, head := range db.heads {
		if next[w] != head {
			fail("order: workspace %s: head %d, last change %d", w[:8], head, next[w])
		}
	}
}

// ---------------------------------------------------------------- 2, 3. exactly once, refusals

func (sc *Scenario) checkExactlyOnce(db *database, fail func(string, ...any)) {
	for k, list := range db.byMutation {
		if len(list) > 1 {
			var seqs []int64
			for _, c := range list {
				seqs = append(seqs, c.seq)
			}
			fail("exactly once: mutation %d of client %s applied %d times (seqs %v)", k.id, k.client, len(list), seqs)
		}
	}
	lastMade := map[string]int64{}
	made := sc.ledger.madeSorted()
	known := map[mutKey]bool{}
	for _, m := range made {
		k := mutKey{m.Client, m.MutationID}
		known[k] = true
		lastMade[m.Client+"|"+m.Workspace] = max(lastMade[m.Client+"|"+m.Workspace], m.MutationID)
		applied := db.byMutation[k]
		rej, rejected := db.rejections[k]
		sc.ledger.mu.Lock()
		got := append([]string(nil), sc.ledger.rejects[k]...)
		sc.ledger.mu.Unlock()
		if m.Expect != "" {
			if len(applied) > 0 {
				fail("refusal: %s's mutation %d (%s in %s, expecting %s) was applied at seq %d", m.Device, m.MutationID, m.Mutation.Op, m.Workspace[:8], m.Expect, applied[0].seq)
			}
			if !rejected || rej.code != m.Expect {
				fail("refusal: %s's mutation %d: stored rejection %+v, want code %s", m.Device, m.MutationID, rej, m.Expect)
			}
			for _, code := range got {
				if code != m.Expect {
					fail("refusal: %s's mutation %d rejected with %s, want %s", m.Device, m.MutationID, code, m.Expect)
				}
			}
			if len(got) == 0 {
				fail("refusal: %s never heard that its mutation %d was refused", m.Device, m.MutationID)
			}
			continue
		}
		if rejected || len(got) > 0 {
			fail("refusal: %s's valid mutation %d (%s of %s/%s, fields %v) was rejected: %+v %v; the record's changes: %s",
				m.Device, m.MutationID, m.Mutation.Op, m.Collection, m.Record, m.Mutation.Fields, rej, got, db.changesOf(m.Workspace, m.Collection, m.Record))
			for _, o := range made {
				if o.Client == m.Client && o.Record == m.Record {
					_, refused := db.rejections[mutKey{o.Client, o.MutationID}]
					fail("  the device's mutation %d of that record: %s %v, stamp %v, in the log %d times, rejected %v",
						o.MutationID, o.Mutation.Op, o.Mutation.Fields, o.Mutation.Stamp, len(db.byMutation[mutKey{o.Client, o.MutationID}]), refused)
				}
			}
			continue
		}
		if len(applied) != 1 {
			fail("exactly once: %s's mutation %d (%s of %s) is in the change log %d times", m.Device, m.MutationID, m.Mutation.Op, m.Record, len(applied))
			continue
		}
		c := applied[0]
		if c.workspace != m.Workspace || c.collection != m.Collection || c.record != m.Record || c.m.Op != m.Mutation.Op ||
			!equalFields(c.m.Fields, m.Mutation.Fields) || !equalResolves(c.m.Resolves, m.Mutation.Resolves) {
			fail("exactly once: %s's mutation %d was applied as something else: %+v, made %+v", m.Device, m.MutationID, c.m, m.Mutation)
		}
		if c.m.Stamp != m.Mutation.Stamp {
			// Re-stamped: only a stamp far ahead of the server's clock is (CLOCK.md); the server's
			// stamp is then its arrival time, earlier than the far stamp.
			if !c.m.Stamp.Before(m.Mutation.Stamp) || m.Mutation.Stamp.Millis-c.m.Stamp.Millis < int64(4*time.Minute/time.Millisecond) {
				fail("clock: %s's mutation %d was re-stamped from %s to %s, which is not far behind", m.Device, m.MutationID, m.Mutation.Stamp, c.m.Stamp)
			}
			sc.stats.add(&sc.stats.Restamped, 1)
		}
		for _, a := range sc.acksOf(k) {
			if a.Seq != c.seq || a.Stamp != c.m.Stamp.String() {
				fail("ack: %s's mutation %d acknowledged %s at seq %d stamp %s; the change log has seq %d stamp %s", m.Device, m.MutationID, a.Status, a.Seq, a.Stamp, c.seq, c.m.Stamp)
			}
		}
	}
	for k := range db.byMutation {
		if !known[k] {
			fail("exactly once: the change log holds mutation %d of client %s, which no device made", k.id, k.client)
		}
	}
	sc.ledger.mu.Lock()
	for k := range sc.ledger.acks {
		if !known[k] {
			fail("ack: an acknowledgement of mutation %d of client %s, which no device made", k.id, k.client)
		}
	}
	sc.ledger.mu.Unlock()
	for k, id := range lastMade {
		if db.last[k] != id {
			fail("exactly once: the last decided mutation of %s is %d, the last one made %d", k, db.last[k], id)
		}
	}
}

func (sc *Scenario) acksOf(k mutKey) []Ack {
	sc.ledger.mu.Lock()
	defer sc.ledger.mu.Unlock()
	return append([]Ack(nil), sc.ledger.acks[k]...)
}

func equalFields(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || !psync.EqualValues(v, w) {
			return false
		}
	}
	return true
}

func equalResolves(a, b []psync.ConflictKey) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// ---------------------------------------------------------------- 4. state

func canonical(st *psync.RecordState) string {
	b, err := json.Marshal(st)
	if err != nil {
		return "unencodable: " + err.Error()
	}
	return string(b)
}

// checkState replays the change log and compares; it returns the replayed states.
func (sc *Scenario) checkState(db *database, fail func(string, ...any)) map[string]*psync.RecordState {
	replayed := map[string]*psync.RecordState{}
	lastSeq := map[string]int64{}
	for _, c := range db.changes {
		k := c.workspace + "|" + recordKey(c.collection, c.record)
		st := replayed[k]
		if st == nil {
			st = psync.NewRecordState()
			replayed[k] = st
		}
		if _, err := st.Apply(c.m); err != nil {
			fail("state: change %d of %s does not apply: %v", c.seq, c.workspace[:8], err)
		}
		lastSeq[k] = c.seq
	}
	for k, st := range replayed {
		r := db.records[k]
		if r == nil {
			fail("state: record %s has changes but no stored state", k)
			continue
		}
		if got, want := canonical(r.state), canonical(st); got != want {
			fail("state: record %s: stored %s, the change log merges to %s", k, got, want)
		}
		if r.seq != lastSeq[k] || r.deleted != r.state.Deleted() || r.conflicts != len(r.state.Conflicts) {
			fail("state: record %s: seq %d deleted %v conflicts %d; its last change is %d, its state deleted %v with %d conflicts",
				k, r.seq, r.deleted, r.conflicts, lastSeq[k], r.state.Deleted(), len(r.state.Conflicts))
		}
	}
	for k := range db.records {
		if replayed[k] == nil {
			fail("state: record %s is stored but has no change", k)
		}
	}
	// The conflicts table is the records' conflicts.
	want := map[string]bool{}
	for k, r := range db.records {
		for _, c := range r.state.Conflicts {
			want[fmt.Sprintf("%s|%s|%s|%s|%s", k, c.Field, c.Stamp, valueJSON(c.Value), c.Author)] = true
		}
	}
	got := map[string]bool{}
	for _, c := range db.conflicts {
		got[fmt.Sprintf("%s|%s|%s|%s|%s|%s", c.workspace, c.key, c.field, c.stamp, normalizeJSON(c.value), c.author)] = true
	}
	for k := range want {
		if !got[k] {
			fail("conflicts: %s is in its record's state but not in the conflicts table", k)
		}
	}
	for k := range got {
		if !want[k] {
			fail("conflicts: %s is in the conflicts table but not in its record's state", k)
		}
	}
	// Independently of the merge code: each field holds the write with the highest stamp, the
	// life register the latest delete or restore.
	type winner struct {
		stamp  psync.Stamp
		value  any
		author string
	}
	fields := map[string]map[string]winner{}
	life := map[string]winner{}
	for _, c := range db.changes {
		k := c.workspace + "|" + recordKey(c.collection, c.record)
		if fields[k] == nil {
			fields[k] = map[string]winner{}
		}
		for f, v := range c.m.Fields {
			if w, ok := fields[k][f]; !ok || w.stamp.Before(c.m.Stamp) {
				fields[k][f] = winner{c.m.Stamp, v, c.client}
			}
		}
		if c.m.Op == psync.OpDelete || c.m.Op == psync.OpRestore {
			if w, ok := life[k]; !ok || w.stamp.Before(c.m.Stamp) {
				life[k] = winner{c.m.Stamp, c.m.Op == psync.OpDelete, c.client}
			}
		}
	}
	for k, fs := range fields {
		r := db.records[k]
		if r == nil {
			continue
		}
		for f, w := range fs {
			if r.state.Clocks[f] != w.stamp || !psync.EqualValues(r.state.Fields[f], w.value) || r.state.Authors[f] != w.author {
				fail("state: record %s field %s holds %v (%s by %s); the latest write is %v (%s by %s)", k, f,
					r.state.Fields[f], r.state.Clocks[f], r.state.Authors[f], w.value, w.stamp, w.author)
			}
		}
		if w, ok := life[k]; ok {
			if r.state.Life == nil || r.state.Life.Stamp != w.stamp || r.state.Deleted() != w.value.(bool) {
				fail("state: record %s life %+v; the latest delete or restore is %s (deleted %v)", k, r.state.Life, w.stamp, w.value)
			}
		} else if r.state.Deleted() {
			fail("state: record %s is deleted without a delete", k)
		}
	}
	return replayed
}

func valueJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func normalizeJSON(s string) string {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return s
	}
	return valueJSON(v)
}

// ---------------------------------------------------------------- 5. no silent loss

func (sc *Scenario) checkNoLoss(db *database, replayed map[string]*psync.RecordState, fail func(string, ...any)) {
	byRecord := map[string][]dbChange{}
	for _, c := range db.changes {
		k := c.workspace + "|" + recordKey(c.collection, c.record)
		byRecord[k] = append(byRecord[k], c)
	}
	for k, list := range byRecord {
		r := db.records[k]
		if r == nil {
			continue
		}
		st := r.state
		for _, c := range list {
			for f, v := range c.m.Fields {
				if st.Clocks[f] == c.m.Stamp {
					if !psync.EqualValues(st.Fields[f], v) || st.Authors[f] != c.client {
						fail("loss: record %s field %s: winning stamp %s holds %v by %s, written as %v by %s", k, f, c.m.Stamp, st.Fields[f], st.Authors[f], v, c.client)
					}
					continue
				}
				if hasConflict(st, f, c.m.Stamp, v, c.client) {
					continue
				}
				if by := knowinglySuperseded(list, c, f); by != nil {
					continue
				}
				fail("loss: record %s: %s's write of %s = %v (stamp %s, seq %d) is neither the winner (%v, %s by %s) nor a conflict record, and nothing superseded it knowingly\n%s",
					k, c.client, f, v, c.m.Stamp, c.seq, st.Fields[f], st.Clocks[f], st.Authors[f], fieldHistory(list, f))
			}
		}
	}
}

// fieldHistory replays a record's changes (in seq order, as the change log is read) and tells,
// for each one that writes, deletes, restores or resolves field f, what the merge made of it:
// whether it counted as a duplicate (its node had a stamp as late applied: no conflict is opened
// or closed then), and the conflicts of f it opened and closed. What a failed no-loss check needs
// to be explained.
func fieldHistory(list []dbChange, f string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "          history of %s:", f)
	st := psync.NewRecordState()
	for _, c := range list {
		eff, err := st.Apply(c.m)
		v, writes := c.m.Fields[f]
		resolves := slices.ContainsFunc(c.m.Resolves, func(k psync.ConflictKey) bool { return k.Field == f })
		if !writes && !resolves && c.m.Op != psync.OpDelete && c.m.Op != psync.OpRestore {
			continue
		}
		fmt.Fprintf(&b, "\n            seq %d %s by %s stamp %s", c.seq, c.m.Op, c.client, c.m.Stamp)
		if writes {
			fmt.Fprintf(&b, " %s=%s", f, valueJSON(v))
		}
		if base, ok := c.m.Base[f]; ok {
			fmt.Fprintf(&b, " base %s", base)
		}
		if err != nil {
			fmt.Fprintf(&b, " (does not apply: %v)", err)
			continue
		}
		if eff.Duplicate {
			b.WriteString(" duplicate")
		}
		for _, o := range eff.Opened {
			if o.Field == f {
				fmt.Fprintf(&b, " opened %s by %s", o.Stamp, o.Author)
			}
		}
		for _, o := range eff.Closed {
			if o.Field == f {
				fmt.Fprintf(&b, " closed %s by %s", o.Stamp, o.Author)
			}
		}
	}
	fmt.Fprintf(&b, "\n            seen %v", st.Seen)
	return b.String()
}

func hasConflict(st *psync.RecordState, f string, stamp psync.Stamp, v any, author string) bool {
	for _, c := range st.Conflicts {
		if c.Field == f && c.Stamp == stamp {
			return psync.EqualValues(c.Value, v) && c.Author == author
		}
	}
	return false
}

// knowinglySuperseded finds a change of the record that superseded c's write of f knowingly: a
// later write of f by the same device, a write of f made on top of it (its base names c's stamp),
// or a mutation that resolves it.
func knowinglySuperseded(list []dbChange, c dbChange, f string) *dbChange {
	for i := range list {
		o := &list[i]
		if o.seq == c.seq {
			continue
		}
		for _, r := range o.m.Resolves {
			if r.Field == f && r.Stamp == c.m.Stamp {
				return o
			}
		}
		if _, writes := o.m.Fields[f]; !writes {
			continue
		}
		if o.client == c.client && c.m.Stamp.Before(o.m.Stamp) {
			return o
		}
		if b, ok := o.m.Base[f]; ok && b == c.m.Stamp {
			return o
		}
	}
	return nil
}

// ---------------------------------------------------------------- 6. convergence

func (sc *Scenario) checkReplicas(db *database, fail func(string, ...any)) {
	for _, c := range sc.clients {
		for _, w := range c.ws {
			records, cursor := c.Replica(w)
			if cursor != db.heads[w] {
				fail("replica: %s's cursor of %s is %d, the head %d", c.Name, w[:8], cursor, db.heads[w])
			}
			for k, st := range records {
				r := db.records[w+"|"+k]
				if r == nil {
					fail("replica: %s holds %s, which the server does not have", c.Name, k)
					continue
				}
				if got, want := canonical(st), canonical(r.state); got != want {
					fail("replica: %s's %s is %s; the server's %s", c.Name, k, got, want)
				}
			}
			for key, r := range db.records {
				if r.workspace == w && records[r.key] == nil {
					fail("replica: %s lacks %s", c.Name, key)
				}
			}
		}
		for _, id := range c.RejectedIDs() {
			sc.ledger.mu.Lock()
			m := sc.ledger.made[mutKey{c.ClientID(), id}]
			sc.ledger.mu.Unlock()
			if m == nil || m.Expect == "" {
				fail("replica: %s holds its mutation %d as rejected", c.Name, id)
			}
		}
	}
}

// ---------------------------------------------------------------- 7. leaks

func (sc *Scenario) checkLeaks(fail func(string, ...any)) {
	sc.ledger.mu.Lock()
	defer sc.ledger.mu.Unlock()
	recordsOf := map[string][]string{}
	for id, w := range sc.ledger.records {
		recordsOf[w] = append(recordsOf[w], id)
	}
	for _, ids := range recordsOf {
		sort.Strings(ids)
	}
	for _, c := range sc.clients {
		own := map[int64]bool{}
		for k, m := range sc.ledger.made {
			if m.Device == c.Name {
				own[k.id] = true
			}
		}
		for i, frame := range sc.ledger.frames[c.Name] {
			for _, w := range c.foreign {
				for _, id := range recordsOf[w] {
					if bytes.Contains(frame, []byte(id)) {
						fail("leak: frame %d to %s (user %s, not a member of %s) mentions record %s of it: %.300s", i, c.Name, c.user.Name, w[:8], id, frame)
					}
				}
			}
			var msg struct {
				Type        string `json:"type"`
				WorkspaceID string `json:"workspaceId"`
				Records     []struct {
					RecordID string `json:"recordId"`
				} `json:"records"`
				Changes []struct {
					RecordID   string `json:"recordId"`
					Author     string `json:"author"`
					MutationID int64  `json:"mutationId"`
				} `json:"changes"`
				Acks []struct {
					MutationID int64 `json:"mutationId"`
				} `json:"acks"`
				MutationID int64 `json:"mutationId"`
			}
			if err := json.Unmarshal(frame, &msg); err != nil {
				fail("leak: frame %d to %s is not JSON", i, c.Name)
				continue
			}
			switch msg.Type {
			case "snapshot", "changes":
				if !c.user.Member(msg.WorkspaceID) {
					fail("leak: %s (user %s) got a %s page of workspace %s", c.Name, c.user.Name, msg.Type, msg.WorkspaceID)
				}
				var ids []string
				for _, r := range msg.Records {
					ids = append(ids, r.RecordID)
				}
				for _, ch := range msg.Changes {
					ids = append(ids, ch.RecordID)
				}
				for _, id := range ids {
					if w := sc.ledger.records[id]; w != msg.WorkspaceID {
						fail("leak: %s got record %s in a page of %s; it belongs to %q", c.Name, id, msg.WorkspaceID, w)
					}
				}
			case "ack":
				for _, a := range msg.Acks {
					if !own[a.MutationID] {
						fail("leak: %s got an ack of mutation %d, which it did not make", c.Name, a.MutationID)
					}
				}
			case "reject":
				if !own[msg.MutationID] {
					fail("leak: %s got a reject of mutation %d, which it did not make", c.Name, msg.MutationID)
				}
			}
		}
	}
}

// changesOf lists a record's changes in the log (seq, client, mutation id, op), for a failure's
// message.
func (d *database) changesOf(workspace, collection, record string) string {
	var b strings.Builder
	for _, c := range d.changes {
		if c.workspace == workspace && c.collection == collection && c.record == record {
			fmt.Fprintf(&b, "[seq %d: %s #%d %s %v] ", c.seq, c.client, c.mutationID, c.m.Op, c.m.Stamp)
		}
	}
	if b.Len() == 0 {
		return "none"
	}
	return b.String()
}
