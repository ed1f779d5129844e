package psync

import (
	"strconv"
	"sync"
	"unicode/utf8"

	schema "patrimonio/shared-schema"
	"patrimonio/sync/internal/freelist"
)

// FastPush reads a push message that is valid as it is (every mutation passes the schema and the
// push rules) straight from its bytes into the mutations ParsePush would return for it, in one
// pass: no envelope maps, no generic validation. Anything else (another message type, any rule
// broken, anything it does not expect such as an escaped key, a repeated key or a number written
// 1.0) gives ok false, and the caller takes the general way (DecodeMessage, then ParsePush), which
// gives the verdict and the issues. So it only has to be one-sided to be safe: it never accepts a
// push that the general way does not accept whole, and then returns exactly what that way returns
// (fastpush_test.go compares both on the shared vectors, generated pushes, mutated documents and a
// fuzz target). Most pushes a device sends are valid, so most take this way (issue 17: decoding
// and validating the envelope was a fifth of the server's CPU per mutation).
func FastPush(raw []byte, maxMutations int) (muts []ClientMutation, ok bool) {
	if len(raw) > schema.MaxMessageBytes || !utf8.Valid(raw) {
		return nil, false
	}
	known := pushFieldsByCollection()
	if known == nil {
		return nil, false
	}
	p := &docParser{data: raw, keys: map[string]string{}, maxDepth: schema.MaxDepth}
	f := fastPushReader{p: p, known: known, limit: min(maxMutations, schema.MaxMutationsPerPush)}
	// The mutations are read into a reused slice, then copied into one of their exact number:
	// growing a new slice to it was a tenth of the bytes a push allocated.
	f.muts, _ = pushScratch.Get()
	defer func() {
		clear(f.muts)
		pushScratch.Put(f.muts[:0])
	}()
	p.space()
	if !f.root() {
		return nil, false
	}
	p.space()
	if p.pos != len(p.data) {
		return nil, false
	}
	return append([]ClientMutation(nil), f.muts...), true
}

// pushScratch keeps the slices pushes are read into (a garbage collection would empty a
// sync.Pool every few pushes under load): one per push being read at once, at most 8.
var pushScratch = freelist.New(8, func(m []ClientMutation) bool { return cap(m) <= 2*schema.MaxMutationsPerPush })

type fastPushReader struct {
	p     *docParser
	known map[string]map[string]bool // collection -> its record's field names
	limit int
	muts  []ClientMutation
}

// object walks an object whose keys are plain (no escapes), calling member with the parser on
// each value; false on anything else or when member says so. It counts one level of nesting.
func (f *fastPushReader) object(member func(key []byte) bool) bool {
	p := f.p
	empty, ok := p.open('{', '}')
	if !ok || empty {
		return ok
	}
	for {
		key, ok := f.plainString()
		if !ok || !p.colon() || !member(key) {
			return false
		}
		if done, ok := p.after('}'); !ok || done {
			return ok
		}
	}
}

// array walks an array, calling item on each element; it counts one level of nesting.
func (f *fastPushReader) array(item func() bool) bool {
	p := f.p
	empty, ok := p.open('[', ']')
	if !ok || empty {
		return ok
	}
	for {
		if !item() {
			return false
		}
		if done, ok := p.after(']'); !ok || done {
			return ok
		}
	}
}

// plainString reads a string without escapes or control characters, as the bytes between its
// quotes (false for any other value: the general way decides those).
func (f *fastPushReader) plainString() ([]byte, bool) {
	p := f.p
	d := p.data
	if p.pos >= len(d) || d[p.pos] != '"' {
		return nil, false
	}
	for i := p.pos + 1; i < len(d); i++ {
		switch c := d[i]; {
		case c == '"':
			s := d[p.pos+1 : i]
			p.pos = i + 1
			return s, true
		case c == '\\' || c < 0x20:
			return nil, false
		}
	}
	return nil, false
}

func (f *fastPushReader) root() bool {
	var seenType, seenMutations bool
	return f.object(func(key []byte) bool {
		switch string(key) {
		case "type":
			v, ok := f.plainString()
			if seenType || !ok || string(v) != msgPush {
				return false
			}
			seenType = true
			return true
		case "mutations":
			if seenMutations {
				return false
			}
			seenMutations = true
			if !f.array(f.mutation) {
				return false
			}
			return len(f.muts) > 0
		}
		return false
	}) && seenType && seenMutations
}

// The members of a mutation, as bits.
const (
	hasMutationID = 1 << iota
	hasWorkspace
	hasCollection
	hasRecord
	hasOp
	hasStamp
	hasBase
	hasFields
	hasResolves

	requiredMembers = hasMutationID | hasWorkspace | hasCollection | hasRecord | hasOp | hasStamp | hasBase
)

// pushMutation is one mutation being read: what it holds so far, and which members it had.
type pushMutation struct {
	cm   ClientMutation
	seen int // the members read (has* bits)
	// Field names used by base and resolves, checked against the collection once it is known.
	baseKeys, resolveFields []string
	resolveItems            int
}

// mutation reads one mutation and checks it whole: every required member, ids increasing, and the
// push rules.
func (f *fastPushReader) mutation() bool {
	if len(f.muts) >= f.limit {
		return false
	}
	var m pushMutation
	if !f.object(func(key []byte) bool { return f.member(&m, key) }) || !f.valid(&m) {
		return false
	}
	f.muts = append(f.muts, m.cm)
	return true
}

// member reads one member of a mutation (each at most once).
func (f *fastPushReader) member(m *pushMutation, key []byte) bool {
	bit := memberBit(key)
	if bit == 0 || m.seen&bit != 0 {
		return false
	}
	m.seen |= bit
	cm := &m.cm
	switch bit {
	case hasMutationID:
		id, ok := f.positiveInt()
		cm.MutationID = id
		return ok
	case hasWorkspace:
		v, ok := f.plainString()
		if !ok || !isUUIDBytes(v, false) {
			return false
		}
		cm.WorkspaceID = f.intern(v) // a push's mutations mostly share their workspace
	case hasCollection:
		v, ok := f.plainString()
		if _, known := f.known[string(v)]; !ok || !known {
			return false
		}
		cm.Collection = f.intern(v)
	case hasRecord:
		v, ok := f.plainString()
		if !ok || !isUUIDBytes(v, true) {
			return false
		}
		cm.RecordID = string(v)
	case hasOp:
		v, ok := f.plainString()
		switch op := Op(v); op {
		case OpPut, OpDelete, OpRestore, OpResolve:
			cm.Mutation.Op = op
			return ok
		}
		return false
	case hasStamp:
		st, ok := f.stamp()
		cm.Mutation.Stamp = st
		return ok
	case hasBase:
		return f.base(m)
	case hasFields:
		return f.fields(m)
	case hasResolves:
		return f.array(func() bool { return f.resolve(m) })
	}
	return true
}

func memberBit(key []byte) int {
	switch string(key) {
	case "mutationId":
		return hasMutationID
	case "workspaceId":
		return hasWorkspace
	case "collection":
		return hasCollection
	case "recordId":
		return hasRecord
	case "op":
		return hasOp
	case "stamp":
		return hasStamp
	case "base":
		return hasBase
	case "fields":
		return hasFields
	case "resolves":
		return hasResolves
	}
	return 0
}

// base reads the field clocks the device saw: field names to stamps, at most 100, none twice.
func (f *fastPushReader) base(m *pushMutation) bool {
	base := map[string]Stamp{}
	m.cm.Mutation.Base = base
	return f.object(func(field []byte) bool {
		if !isFieldNameBytes(field) {
			return false
		}
		name := string(field)
		if _, repeated := base[name]; repeated || len(base) >= schema.MaxFieldsPerMutation {
			return false
		}
		st, ok := f.stamp()
		base[name] = st
		m.baseKeys = append(m.baseKeys, name)
		return ok
	})
}

// fields reads the values written, as the general way decodes them (any JSON values), at most 100.
func (f *fastPushReader) fields(m *pushMutation) bool {
	p := f.p
	if p.pos >= len(p.data) || p.data[p.pos] != '{' {
		return false
	}
	v, ok := p.object()
	if !ok {
		return false
	}
	fields := v.(map[string]any)
	if len(fields) > schema.MaxFieldsPerMutation {
		return false
	}
	for name := range fields {
		if !isFieldNameBytes(name) {
			return false
		}
	}
	m.cm.Mutation.Fields = fields
	return true
}

// resolve reads one conflict a mutation settles: exactly its field and stamp.
func (f *fastPushReader) resolve(m *pushMutation) bool {
	if m.resolveItems >= schema.MaxFieldsPerMutation {
		return false
	}
	m.resolveItems++
	var key ConflictKey
	var got int
	if !f.object(func(k []byte) bool {
		switch string(k) {
		case "field":
			v, ok := f.plainString()
			if got&1 != 0 || !ok || !isFieldNameBytes(v) {
				return false
			}
			got |= 1
			key.Field = string(v)
			m.resolveFields = append(m.resolveFields, key.Field)
			return true
		case "stamp":
			st, ok := f.stamp()
			if got&2 != 0 || !ok {
				return false
			}
			got |= 2
			key.Stamp = st
			return true
		}
		return false
	}) || got != 3 {
		return false
	}
	m.cm.Mutation.Resolves = append(m.cm.Mutation.Resolves, key)
	return true
}

// valid checks a mutation read whole: its required members, its id after the previous one's, and
// the push rules (shared-schema rules.go pushRules): fields by op, resolves for resolve, and every
// field name one of the collection's.
func (f *fastPushReader) valid(m *pushMutation) bool {
	cm := &m.cm
	if m.seen&requiredMembers != requiredMembers {
		return false
	}
	if n := len(f.muts); n > 0 && cm.MutationID <= f.muts[n-1].MutationID {
		return false
	}
	switch cm.Mutation.Op {
	case OpPut:
		if len(cm.Mutation.Fields) == 0 {
			return false
		}
	case OpRestore:
	default:
		if m.seen&hasFields != 0 {
			return false
		}
	}
	if cm.Mutation.Op == OpResolve && m.resolveItems == 0 {
		return false
	}
	known := f.known[cm.Collection]
	for name := range cm.Mutation.Fields {
		if !known[name] {
			return false
		}
	}
	for _, names := range [][]string{m.baseKeys, m.resolveFields} {
		for _, name := range names {
			if !known[name] {
				return false
			}
		}
	}
	return true
}

// intern returns v as a string, one string for every occurrence of the same text in the push.
func (f *fastPushReader) intern(v []byte) string {
	if s, ok := f.p.keys[string(v)]; ok {
		return s
	}
	s := string(v)
	f.p.keys[s] = s
	return s
}

// positiveInt reads an integer written as plain digits, 1 to 2^53-1.
func (f *fastPushReader) positiveInt() (int64, bool) {
	p := f.p
	d := p.data
	start := p.pos
	i := start
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		i++
	}
	if i == start || i-start > 16 || d[start] == '0' {
		return 0, false
	}
	// A fraction, an exponent or anything else glued on: the general way decides.
	if i < len(d) && (d[i] == '.' || d[i] == 'e' || d[i] == 'E') {
		return 0, false
	}
	n, err := strconv.ParseInt(string(d[start:i]), 10, 64)
	if err != nil || n < 1 || n > maxSafeInteger {
		return 0, false
	}
	p.pos = i
	return n, true
}

// stamp reads an HLC stamp the schema's pattern accepts and that is a real instant.
func (f *fastPushReader) stamp() (Stamp, bool) {
	v, ok := f.plainString()
	if !ok || !isHLCBytes(v) {
		return Stamp{}, false
	}
	st, err := ParseStamp(string(v))
	return st, err == nil
}

// The patterns of the push schema (shared-schema/jsonschema/message.push.json) that FastPush
// checks by hand; fastpush_test.go checks they are still the schema's, and that the checks below
// agree with them.
const (
	pushUUIDPattern      = `^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`
	pushUUIDv7Pattern    = `^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`
	pushHLCPattern       = `^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z-[0-9A-F]{4}-[0-9a-f]{16}$`
	pushFieldNamePattern = `^[A-Za-z_][A-Za-z0-9_]{0,63}$`
)

func isLowerHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' }

// isUUIDBytes: pushUUIDPattern, or pushUUIDv7Pattern when v7.
func isUUIDBytes[T string | []byte](s T, v7 bool) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		case 14:
			if v7 && c != '7' || !v7 && (c < '1' || c > '8') {
				return false
			}
		case 19:
			if c != '8' && c != '9' && c != 'a' && c != 'b' {
				return false
			}
		default:
			if !isLowerHex(c) {
				return false
			}
		}
	}
	return true
}

// isHLCBytes: pushHLCPattern.
func isHLCBytes[T string | []byte](s T) bool {
	const shape = "dddd-dd-ddTdd:dd:dd.dddZ-HHHH-hhhhhhhhhhhhhhhh"
	if len(s) != len(shape) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch want := shape[i]; want {
		case 'd':
			if c < '0' || c > '9' {
				return false
			}
		case 'H':
			if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'F') {
				return false
			}
		case 'h':
			if !isLowerHex(c) {
				return false
			}
		default:
			if c != want {
				return false
			}
		}
	}
	return true
}

// isFieldNameBytes: pushFieldNamePattern.
func isFieldNameBytes[T string | []byte](s T) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// pushFieldsByCollection: each synced collection's record field names, from the shared schema
// (nil if it cannot be read: FastPush then declines every push).
var pushFieldsByCollection = sync.OnceValue(func() map[string]map[string]bool {
	collections, err := schema.Collections()
	if err != nil {
		return nil
	}
	out := make(map[string]map[string]bool, len(collections))
	for collection, entity := range collections {
		names, err := schema.Fields(entity)
		if err != nil {
			return nil
		}
		set := make(map[string]bool, len(names))
		for _, n := range names {
			set[n] = true
		}
		out[collection] = set
	}
	return out
})
