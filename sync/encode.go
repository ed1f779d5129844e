package psync

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"
)

// Hand-written JSON encoders for what every push writes: the record state and the mutation body.
// They write what encoding/json writes for the same values (sorted map keys, the same escaping of
// strings), a few times faster and with a fraction of the allocations; the tests compare them
// with encoding/json on every state the merge vectors produce.

// appendState appends s as JSON. fields is the byte length of its "fields" object (an upper
// bound of the record's own size: the record is the fields without the null ones).
func appendState(b []byte, s *RecordState) (out []byte, fields int) {
	b = append(b, `{"fields":`...)
	start := len(b)
	// A state's fields, clocks and authors have the same keys (each written field has its value,
	// clock and author), sorted once; a state where they differ sorts each.
	var buf [32]string
	keys := sortedKeysInto(buf[:], s.Fields)
	b = appendObjectSorted(b, s.Fields, keys)
	fields = len(b) - start
	b = append(b, `,"clocks":`...)
	var ok bool
	if b, ok = appendStampsSorted(b, s.Clocks, keys); !ok {
		b = appendStamps(b, s.Clocks)
	}
	b = append(b, `,"authors":{`...)
	authors := keys
	if !sameKeys(keys, s.Authors) {
		var abuf [32]string
		authors = sortedKeysInto(abuf[:], s.Authors)
	}
	// Fields written together share their author: its text is copied from the previous one.
	prev, prevAt, prevEnd := "", -1, -1
	for i, k := range authors {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		if a := s.Authors[k]; prevAt >= 0 && a == prev {
			b = append(b, b[prevAt:prevEnd]...)
		} else {
			prev, prevAt = a, len(b)
			b = appendString(b, a)
			prevEnd = len(b)
		}
	}
	b = append(b, '}')
	if s.Life != nil {
		b = append(b, `,"life":{"stamp":"`...)
		b = s.Life.Stamp.appendText(b)
		b = append(b, `","author":`...)
		b = appendString(b, s.Life.Author)
		b = append(b, `,"deleted":`...)
		b = strconv.AppendBool(b, s.Life.Deleted)
		if len(s.Life.Base) > 0 {
			b = append(b, `,"base":`...)
			b = appendStamps(b, s.Life.Base)
		}
		b = append(b, '}')
	}
	b = append(b, `,"seen":`...)
	b = appendStamps(b, s.Seen)
	if len(s.Late) > 0 {
		b = append(b, `,"late":[`...)
		for i, st := range s.Late {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '"')
			b = st.appendText(b)
			b = append(b, '"')
		}
		b = append(b, ']')
	}
	b = append(b, `,"conflicts":[`...)
	for i, c := range s.Conflicts {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"field":`...)
		b = appendString(b, c.Field)
		b = append(b, `,"value":`...)
		b = appendValue(b, c.Value)
		b = append(b, `,"stamp":"`...)
		b = c.Stamp.appendText(b)
		b = append(b, `","author":`...)
		b = appendString(b, c.Author)
		b = append(b, '}')
	}
	return append(b, "]}"...), fields
}

// appendNewRecord appends, one after the other, the state that m makes of a record with no state
// yet and m's change body: what appendState and appendBody append for them, but without making
// that state (newRecordState would), and sharing the fields' keys, their JSON and the stamp's text
// between the two. It returns where the state ends and the size of its fields object. In that
// state every field m writes wins, with m's stamp and author; a delete or a restore sets the life
// register; m's node is seen; there is no conflict. m must be valid (Mutation.Validate).
func appendNewRecord(b []byte, m *Mutation) (out []byte, stateEnd, fields int) {
	b = append(b, `{"fields":`...)
	fieldsAt := len(b)
	var buf [32]string
	keys := sortedKeysInto(buf[:], m.Fields)
	b = appendObjectSorted(b, m.Fields, keys)
	fields = len(b) - fieldsAt
	// Every clock is m's stamp and every author m's author: each text is written once and copied.
	stampAt, stampEnd := -1, -1
	stamp := func(b []byte) []byte {
		if stampAt >= 0 {
			return append(b, b[stampAt:stampEnd]...)
		}
		stampAt = len(b)
		b = m.Stamp.appendText(b)
		stampEnd = len(b)
		return b
	}
	b = append(b, `,"clocks":{`...)
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, `:"`...)
		b = stamp(b)
		b = append(b, '"')
	}
	b = append(b, `},"authors":{`...)
	at, end := -1, -1
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		if at >= 0 {
			b = append(b, b[at:end]...)
		} else {
			at = len(b)
			b = appendString(b, m.Author)
			end = len(b)
		}
	}
	b = append(b, '}')
	if m.Op == OpDelete || m.Op == OpRestore {
		b = append(b, `,"life":{"stamp":"`...)
		b = stamp(b)
		b = append(b, `","author":`...)
		b = appendString(b, m.Author)
		b = append(b, `,"deleted":`...)
		b = strconv.AppendBool(b, m.Op == OpDelete)
		if m.Op == OpDelete && len(m.Base) > 0 {
			b = append(b, `,"base":`...)
			b = appendStamps(b, m.Base)
		}
		b = append(b, '}')
	}
	b = append(b, `,"seen":{`...)
	b = appendString(b, m.Stamp.Node)
	b = append(b, `:"`...)
	b = stamp(b)
	b = append(b, `"},"conflicts":[]}`...)
	stateEnd = len(b)
	// The body: its fields are the state's (m's, with the same keys).
	return appendBodyOf(b, m, b[stampAt:stampEnd], b[fieldsAt:fieldsAt+fields]), stateEnd, fields
}

// appendBody appends a mutation as the change log stores it (see mutationBody).
func appendBody(b []byte, m Mutation) []byte { return appendBodyOf(b, &m, nil, nil) }

// appendBodyOf is appendBody given m's stamp as text and its fields as JSON when they are already
// written (nil: write them). They may be parts of b.
func appendBodyOf(b []byte, m *Mutation, stamp, fields []byte) []byte {
	b = append(b, `{"op":`...)
	b = appendString(b, string(m.Op))
	b = append(b, `,"stamp":"`...)
	if stamp != nil {
		b = append(b, stamp...)
	} else {
		b = m.Stamp.appendText(b)
	}
	b = append(b, '"')
	if len(m.Fields) > 0 {
		b = append(b, `,"fields":`...)
		if fields != nil {
			b = append(b, fields...)
		} else {
			b = appendObject(b, m.Fields)
		}
	}
	b = append(b, `,"base":`...)
	b = appendStamps(b, m.Base)
	if len(m.Resolves) > 0 {
		b = append(b, `,"resolves":[`...)
		for i, k := range m.Resolves {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"field":`...)
			b = appendString(b, k.Field)
			b = append(b, `,"stamp":"`...)
			b = k.Stamp.appendText(b)
			b = append(b, `"}`...)
		}
		b = append(b, ']')
	}
	if m.Late {
		b = append(b, `,"late":true`...)
	}
	return append(b, '}')
}

func appendStamps(b []byte, m map[string]Stamp) []byte {
	var buf [32]string
	b, _ = appendStampsSorted(b, m, sortedKeysInto(buf[:], m))
	return b
}

// appendStampsSorted appends m with keys, its keys sorted. It reports false, and appends nothing,
// when m's keys are not exactly keys.
func appendStampsSorted(b []byte, m map[string]Stamp, keys []string) ([]byte, bool) {
	if len(m) != len(keys) {
		return b, false
	}
	start := len(b)
	b = append(b, '{')
	// Fields written together share their stamp: its text is copied from the previous one.
	var prev Stamp
	prevAt, prevEnd := -1, -1
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, `:"`...)
		st, ok := m[k]
		if !ok {
			return b[:start], false
		}
		if prevAt >= 0 && st == prev {
			b = append(b, b[prevAt:prevEnd]...)
		} else {
			prev, prevAt = st, len(b)
			b = st.appendText(b)
			prevEnd = len(b)
		}
		b = append(b, '"')
	}
	return append(b, '}'), true
}

// sameKeys reports whether m's keys are exactly keys (which are distinct).
func sameKeys[V any](keys []string, m map[string]V) bool {
	if len(m) != len(keys) {
		return false
	}
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

func appendObject(b []byte, m map[string]any) []byte {
	var buf [32]string
	return appendObjectSorted(b, m, sortedKeysInto(buf[:], m))
}

// appendObjectSorted appends m, whose keys are keys, sorted.
func appendObjectSorted(b []byte, m map[string]any, keys []string) []byte {
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		b = appendValue(b, m[k])
	}
	return append(b, '}')
}

// appendValue appends a field value (what decoding JSON gives: nil, bool, json.Number, string,
// []any, map[string]any); any other type goes through encoding/json.
func appendValue(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, x)
	case string:
		return appendString(b, x)
	case json.Number:
		if x == "" {
			return append(b, '0')
		}
		return append(b, x...)
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendValue(b, e)
		}
		return append(b, ']')
	case map[string]any:
		return appendObject(b, x)
	case float64:
		if !math.IsInf(x, 0) && !math.IsNaN(x) && x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.AppendInt(b, int64(x), 10)
		}
	}
	enc, err := json.Marshal(v)
	if err != nil {
		return append(b, "null"...)
	}
	return append(b, enc...)
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string, escaped as encoding/json escapes it (HTML characters,
// U+2028 and U+2029 included; invalid UTF-8 becomes U+FFFD).
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		// Runs of bytes written as they are (most of every string) cost one table look-up each.
		for i < len(s) && plainJSONByte[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// plainJSONByte: the ASCII bytes that encoding/json writes as they are (not a control character,
// quote, backslash or one of its HTML-escaped <, >, &). Bytes of 0x80 and above are not: they
// are read as UTF-8 (invalid sequences and U+2028/U+2029 are escaped).
var plainJSONByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()
