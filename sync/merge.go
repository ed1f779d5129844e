package psync

import (
	"encoding/json"
	"slices"
	"sort"

	"patrimonio/core"
)

// Op is what a mutation does to one record.
type Op string

const (
	// OpPut writes one or more fields (creating the record is a put of all its fields).
	OpPut Op = "put"
	// OpDelete deletes the record: a tombstone with its own stamp. Field values stay under it.
	OpDelete Op = "delete"
	// OpRestore undeletes the record, and may write fields at the same time.
	OpRestore Op = "restore"
	// OpResolve closes conflict records (the user dismissed them) without writing a field.
	OpResolve Op = "resolve"
)

// Mutation is one change of one record, made on one device: the unit the merge applies. All its
// field writes share its stamp. See MERGE.md for the rules.
type Mutation struct {
	Op     Op     `json:"op"`
	Stamp  Stamp  `json:"stamp"`
	Author string `json:"author"` // the client (device) id that made it
	// Fields are the values written (put, restore).
	Fields map[string]any `json:"fields,omitempty"`
	// Base holds the clocks of the record as the author saw them when making the mutation (the
	// device sends its record's clocks; only the fields written, or all for a delete, matter).
	// A field missing from Base had no value on the device.
	Base map[string]Stamp `json:"base,omitempty"`
	// Resolves lists conflict records that this mutation closes (restoring a losing value, or
	// dismissing it with OpResolve).
	Resolves []ConflictKey `json:"resolves,omitempty"`
	// Late is set by the server, never by a device: the server applied this mutation for the first
	// time after a later mutation of the same node to the same record (a device's ids decided out
	// of order). Every replica then merges it as new rather than as a duplicate (MERGE.md, rule 7).
	Late bool `json:"late,omitempty"`
}

// ConflictKey identifies a conflict record within its record: the field and the losing stamp.
type ConflictKey struct {
	Field string `json:"field"`
	Stamp Stamp  `json:"stamp"`
}

// Conflict is a field write that lost to a concurrent write of the same field (one made without
// seeing it): the value it wrote, who wrote it (client id) and when (its stamp).
type Conflict struct {
	Field  string `json:"field"`
	Value  any    `json:"value"`
	Stamp  Stamp  `json:"stamp"`
	Author string `json:"author"`
}

// Key returns the conflict's identity.
func (c Conflict) Key() ConflictKey { return ConflictKey{Field: c.Field, Stamp: c.Stamp} }

// Life is the record's life register: the latest delete or restore, by stamp.
type Life struct {
	Stamp   Stamp  `json:"stamp"`
	Author  string `json:"author"`
	Deleted bool   `json:"deleted"`
	// Base is the deleting mutation's Base (the clocks the deleter saw); empty after a restore.
	Base map[string]Stamp `json:"base,omitempty"`
}

// RecordState is one record as the merge sees it. Fields, Clocks and Authors hold the winning
// write of each field; Life the latest delete or restore; Seen the newest stamp applied from each
// node (what makes re-applying a mutation a no-op); Late the stamps of the late mutations applied
// below their node's Seen (sorted; what makes re-applying one of them a no-op); Conflicts the open
// conflict records, sorted by field and stamp.
type RecordState struct {
	Fields    map[string]any    `json:"fields"`
	Clocks    map[string]Stamp  `json:"clocks"`
	Authors   map[string]string `json:"authors"`
	Life      *Life             `json:"life,omitempty"`
	Seen      map[string]Stamp  `json:"seen"`
	Late      []Stamp           `json:"late,omitempty"`
	Conflicts []Conflict        `json:"conflicts"`
}

// Effect says what applying a mutation changed.
type Effect struct {
	// Duplicate: a mutation with this stamp, or a later one from the same node, was applied to this
	// record before (for a Late mutation: this one was). Field values and the life register still
	// merge (a no-op for a true duplicate); conflict records are left alone.
	Duplicate bool `json:"duplicate"`
	// Changed lists the fields whose winning write changed, sorted.
	Changed []string `json:"changed"`
	// LifeChanged: the life register changed (the record was deleted or restored).
	LifeChanged bool `json:"lifeChanged"`
	// Opened and Closed list the conflict records created and resolved, sorted by field and stamp.
	Opened []Conflict `json:"opened"`
	Closed []Conflict `json:"closed"`
}

// NewRecordState returns an empty record state.
func NewRecordState() *RecordState {
	s := &RecordState{}
	s.init()
	return s
}

func (s *RecordState) init() {
	if s.Fields == nil {
		s.Fields = map[string]any{}
	}
	if s.Clocks == nil {
		s.Clocks = map[string]Stamp{}
	}
	if s.Authors == nil {
		s.Authors = map[string]string{}
	}
	if s.Seen == nil {
		s.Seen = map[string]Stamp{}
	}
	if s.Conflicts == nil {
		s.Conflicts = []Conflict{}
	}
}

// Deleted reports whether the record is deleted (its latest life event is a delete).
func (s *RecordState) Deleted() bool { return s.Life != nil && s.Life.Deleted }

// UnseenByDelete lists, for a deleted record, the fields whose current write the deleter did not
// see (made by another device, and not in the delete's Base): edits that a delete hid without
// knowing them. The UI shows them as "deleted while you edited it"; restoring the record brings
// them back. Empty when the record is not deleted.
func (s *RecordState) UnseenByDelete() []string {
	if !s.Deleted() {
		return nil
	}
	var out []string
	for _, f := range sortedKeys(s.Clocks) {
		base, ok := s.Life.Base[f]
		if s.Authors[f] != s.Life.Author && (!ok || base != s.Clocks[f]) {
			out = append(out, f)
		}
	}
	return out
}

// ShownConflicts lists the conflicts to show the user: those whose value differs from the field's
// current value. A losing write with the winner's value is kept (it matters again if the winner is
// later replaced by someone who never saw it) but there is nothing to show while the values match.
func (s *RecordState) ShownConflicts() []Conflict {
	out := []Conflict{}
	for _, c := range s.Conflicts {
		if !EqualValues(c.Value, s.Fields[c.Field]) {
			out = append(out, c)
		}
	}
	return out
}

// Clone returns a deep copy of the state's maps and slices. Field values are shared: they are
// treated as immutable.
func (s *RecordState) Clone() *RecordState { return s.cloneFor(0) }

// cloneFor is Clone with room for a mutation that writes `fields` fields and comes from a device
// not seen yet, so that applying it grows no map (a record's maps were most of the merge's
// allocations).
func (s *RecordState) cloneFor(fields int) *RecordState {
	c := &RecordState{
		Fields:    make(map[string]any, len(s.Fields)+fields),
		Clocks:    make(map[string]Stamp, len(s.Clocks)+fields),
		Authors:   make(map[string]string, len(s.Authors)+fields),
		Seen:      make(map[string]Stamp, len(s.Seen)+1),
		Conflicts: append([]Conflict{}, s.Conflicts...),
	}
	if len(s.Late) > 0 {
		c.Late = append([]Stamp(nil), s.Late...)
	}
	for k, v := range s.Fields {
		c.Fields[k] = v
	}
	for k, v := range s.Clocks {
		c.Clocks[k] = v
	}
	for k, v := range s.Authors {
		c.Authors[k] = v
	}
	for k, v := range s.Seen {
		c.Seen[k] = v
	}
	if s.Life != nil {
		l := *s.Life
		l.Base = copyStamps(s.Life.Base)
		c.Life = &l
	}
	return c
}

func copyStamps(m map[string]Stamp) map[string]Stamp {
	if m == nil {
		return nil
	}
	c := make(map[string]Stamp, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// Validate checks a mutation's shape; the merge applies only valid mutations. Errors are EINVALID.
func (m *Mutation) Validate() error {
	switch m.Op {
	case OpPut, OpDelete, OpRestore, OpResolve:
	default:
		return core.Errorf(core.EINVALID, "Unknown mutation operation %q.", m.Op)
	}
	if err := m.Stamp.Validate(); err != nil {
		return err
	}
	if m.Author == "" {
		return core.Errorf(core.EINVALID, "A mutation needs its author's client id.")
	}
	switch m.Op {
	case OpPut:
		if len(m.Fields) == 0 {
			return core.Errorf(core.EINVALID, "A put must write at least one field.")
		}
	case OpDelete, OpResolve:
		if len(m.Fields) != 0 {
			return core.Errorf(core.EINVALID, "A %s cannot write fields.", m.Op)
		}
	}
	if m.Op == OpResolve && len(m.Resolves) == 0 {
		return core.Errorf(core.EINVALID, "A resolve must name at least one conflict.")
	}
	for f, v := range m.Fields {
		if !ValidFieldName(f) {
			return core.Errorf(core.EINVALID, "Invalid field name %q.", f)
		}
		if !validValue(v) {
			return core.Errorf(core.EINVALID, "The value of field %q is not a JSON value.", f)
		}
	}
	for f, b := range m.Base {
		if !ValidFieldName(f) {
			return core.Errorf(core.EINVALID, "Invalid field name %q in base.", f)
		}
		if err := b.Validate(); err != nil {
			return core.Errorf(core.EINVALID, "Invalid base stamp of field %q.", f)
		}
	}
	for _, k := range m.Resolves {
		if !ValidFieldName(k.Field) || k.Stamp.Validate() != nil {
			return core.Errorf(core.EINVALID, "Invalid conflict key in resolves.")
		}
	}
	return nil
}

// ValidFieldName reports whether f can name a field: an ASCII identifier of 1 to 64 characters
// starting with a letter (the shared schema's field names all are).
func ValidFieldName(f string) bool {
	if len(f) == 0 || len(f) > 64 {
		return false
	}
	for i := 0; i < len(f); i++ {
		c := f[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !(letter || i > 0 && (c >= '0' && c <= '9' || c == '_')) {
			return false
		}
	}
	return true
}

// Apply merges one mutation into the record state and says what changed. It returns an EINVALID
// error, and changes nothing, for an invalid mutation.
//
// The rules (MERGE.md explains them):
//
//   - Each field is a last-writer-wins register: the write with the higher stamp wins, on every
//     replica, in any order of arrival. Equal stamps are the same write (stamps are unique); should
//     two different writes ever share a stamp, the greater value (then author) wins, so replicas
//     still agree.
//   - The life register works the same way: the latest of all deletes and restores (by stamp)
//     decides whether the record is deleted. Field writes keep merging under a tombstone, so a
//     restore brings back the latest value of every field, and a write never undeletes a record:
//     only a restore does.
//   - When two field writes meet, the loser becomes a conflict record unless it was superseded
//     knowingly: the winner was made on top of it (the winner's Base for the field is the loser's
//     stamp) or by the same device (a device never competes with itself). A loser with the
//     winner's value is recorded too, but not shown (ShownConflicts) while the values match. A
//     later write by the loser's device, or one made on top of the lost value, closes the
//     conflict; so does a mutation listing it in Resolves.
//   - A mutation whose stamp is not newer than the newest stamp already applied from its node is a
//     duplicate: it still merges (a no-op when it truly is a duplicate) but opens and closes no
//     conflict, so applying a mutation twice changes nothing.
//   - Unless the server marked it Late (it applied the mutation for the first time after a later
//     one of the same node): then it merges as new, once (its stamp joins Late). Its losing write
//     opens no conflict while the same device's later write of the field is the winner or an open
//     conflict (superseded knowingly, by its own device).
//
// Field values, clocks, authors, the life register and Seen converge for any order of the same
// mutations, duplicates included. Conflict records converge for every causal order (one where
// each mutation comes after those its author had applied when making it, as on the server and on
// every device), and stay unchanged when any mutation is applied again.
func (s *RecordState) Apply(m Mutation) (Effect, error) {
	if err := m.Validate(); err != nil {
		return Effect{}, err
	}
	s.init()
	eff := Effect{Changed: make([]string, 0, len(m.Fields))}
	last, ok := s.Seen[m.Stamp.Node]
	switch {
	case !ok || Compare(m.Stamp, last) > 0:
		s.Seen[m.Stamp.Node] = m.Stamp
	case m.Late && m.Stamp.Before(last) && s.addLate(m.Stamp):
		// A first application that comes after its node's later mutation: new, once.
	default:
		eff.Duplicate = true
	}
	track := !eff.Duplicate
	switch m.Op {
	case OpDelete:
		eff.LifeChanged = s.applyLife(m, true)
	case OpRestore:
		eff.LifeChanged = s.applyLife(m, false)
	}
	var buf [32]string
	for _, f := range sortedKeysInto(buf[:], m.Fields) {
		s.applyField(f, m.Fields[f], &m, track, &eff)
	}
	if track {
		for _, k := range m.Resolves {
			s.closeConflict(k, &eff)
		}
	}
	sortConflicts(eff.Opened)
	sortConflicts(eff.Closed)
	return eff, nil
}

func (s *RecordState) applyLife(m Mutation, deleted bool) bool {
	next := &Life{Stamp: m.Stamp, Author: m.Author, Deleted: deleted}
	if deleted {
		next.Base = copyStamps(m.Base)
	}
	if cur := s.Life; cur != nil {
		switch Compare(m.Stamp, cur.Stamp) {
		case -1:
			return false
		case 0:
			// Same stamp: the same mutation again, unless a client broke the protocol. Decide
			// deterministically anyway: a delete beats a restore, then the greater author wins.
			if cur.Deleted == deleted && cur.Author == m.Author {
				return false
			}
			if cur.Deleted != deleted {
				if cur.Deleted {
					return false
				}
			} else if m.Author < cur.Author {
				return false
			}
		}
	}
	s.Life = next
	return true
}

func (s *RecordState) applyField(f string, v any, m *Mutation, track bool, eff *Effect) {
	base, hasBase := m.Base[f]
	if track {
		// The author supersedes its own earlier losing values of f, and a write made on top of a
		// lost value supersedes that value knowingly.
		for i := 0; i < len(s.Conflicts); {
			c := s.Conflicts[i]
			if c.Field == f && (c.Author == m.Author && c.Stamp.Before(m.Stamp) || hasBase && c.Stamp == base) {
				s.Conflicts = append(s.Conflicts[:i], s.Conflicts[i+1:]...)
				eff.Closed = append(eff.Closed, c)
				continue
			}
			i++
		}
	}
	cur, has := s.Clocks[f]
	curValue, curAuthor := s.Fields[f], s.Authors[f]
	win := !has
	if has {
		switch Compare(m.Stamp, cur) {
		case 1:
			win = true
		case 0:
			// Same stamp: the same write (a no-op), unless the protocol was broken; then the
			// greater value, then the greater author, wins everywhere.
			c := CompareValues(v, curValue)
			win = c > 0 || c == 0 && m.Author > curAuthor
			if win {
				s.set(f, v, m.Stamp, m.Author, eff)
			}
			return
		}
	}
	if win {
		if has && track && curAuthor != m.Author && !(hasBase && base == cur) {
			s.openConflict(Conflict{Field: f, Value: curValue, Stamp: cur, Author: curAuthor}, eff)
		}
		s.set(f, v, m.Stamp, m.Author, eff)
		return
	}
	if track && curAuthor != m.Author && !s.laterOwnConflict(f, m) {
		s.openConflict(Conflict{Field: f, Value: v, Stamp: m.Stamp, Author: m.Author}, eff)
	}
}

// laterOwnConflict reports whether m's author has an open conflict on f with a later stamp: its
// own later write, which supersedes m's knowingly (only a late mutation can meet one).
func (s *RecordState) laterOwnConflict(f string, m *Mutation) bool {
	for _, c := range s.Conflicts {
		if c.Field == f && c.Author == m.Author && m.Stamp.Before(c.Stamp) {
			return true
		}
	}
	return false
}

// addLate records the stamp of a late mutation applied as new, and reports false when it was
// already there (the same late mutation again).
func (s *RecordState) addLate(st Stamp) bool {
	i := sort.Search(len(s.Late), func(i int) bool { return !s.Late[i].Before(st) })
	if i < len(s.Late) && s.Late[i] == st {
		return false
	}
	s.Late = slices.Insert(s.Late, i, st)
	return true
}

func (s *RecordState) set(f string, v any, st Stamp, author string, eff *Effect) {
	s.Fields[f] = v
	s.Clocks[f] = st
	s.Authors[f] = author
	eff.Changed = append(eff.Changed, f) // applyField runs in field order, so this stays sorted
}

func conflictLess(a, b ConflictKey) bool {
	if a.Field != b.Field {
		return a.Field < b.Field
	}
	return a.Stamp.Before(b.Stamp)
}

func (s *RecordState) findConflict(k ConflictKey) (int, bool) {
	i := sort.Search(len(s.Conflicts), func(i int) bool { return !conflictLess(s.Conflicts[i].Key(), k) })
	return i, i < len(s.Conflicts) && s.Conflicts[i].Key() == k
}

func (s *RecordState) openConflict(c Conflict, eff *Effect) {
	i, found := s.findConflict(c.Key())
	if found {
		return
	}
	s.Conflicts = append(s.Conflicts, Conflict{})
	copy(s.Conflicts[i+1:], s.Conflicts[i:])
	s.Conflicts[i] = c
	eff.Opened = append(eff.Opened, c)
}

func (s *RecordState) closeConflict(k ConflictKey, eff *Effect) {
	i, found := s.findConflict(k)
	if !found {
		return
	}
	eff.Closed = append(eff.Closed, s.Conflicts[i])
	s.Conflicts = append(s.Conflicts[:i], s.Conflicts[i+1:]...)
}

func sortConflicts(cs []Conflict) {
	sort.Slice(cs, func(i, j int) bool { return conflictLess(cs[i].Key(), cs[j].Key()) })
}

// MarshalJSON writes the state with empty maps and lists as {} and [] (never null), the shape
// clientdb stores.
func (s RecordState) MarshalJSON() ([]byte, error) {
	c := s
	c.init()
	type plain RecordState
	return json.Marshal(plain(c))
}
