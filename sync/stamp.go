package psync

import (
	"strings"

	"patrimonio/core"
)

// Stamp is a hybrid logical clock timestamp: a physical time in milliseconds since the Unix epoch
// (UTC), a logical counter that orders events within one millisecond, and the id of the node (clock)
// that issued it. Two stamps issued by one node are never equal, and node ids are unique, so stamps
// are a total order with no ties between different events.
//
// Its text form (String, ParseStamp, JSON) is
//
//	YYYY-MM-DDTHH:MM:SS.sssZ-CCCC-NNNNNNNNNNNNNNNN
//
// the UTC wall time in ms, a 4-digit uppercase hex counter and a 16-char lowercase hex node id. Every
// part has a fixed width, so comparing two stamp strings byte by byte gives the same answer as
// Compare. The shared schema validates the same format (HLC_PATTERN).
type Stamp struct {
	Millis  int64  // ms since 1970-01-01T00:00:00Z, 0 to MaxMillis
	Counter uint16 // logical counter within Millis
	Node    string // 16 lowercase hex characters
}

const (
	// MaxMillis is 9999-12-31T23:59:59.999Z, the last instant a 4-digit year can write.
	MaxMillis int64 = 253402300799999
	// MaxCounter is the largest counter; one more event in the same millisecond moves the stamp to
	// the next millisecond (see Clock).
	MaxCounter = 0xFFFF
	// StampLen is the length of a stamp's text form.
	StampLen = 46
	// NodeLen is the length of a node id.
	NodeLen = 16
)

// ParseStamp reads a stamp's text form. It accepts exactly what String writes: a real calendar
// date and time between 1970 and 9999 (no leap seconds), an uppercase counter and a lowercase node
// id; anything else is an EINVALID error. String(ParseStamp(s)) == s for every accepted s.
func ParseStamp(s string) (Stamp, error) {
	if len(s) != StampLen {
		return Stamp{}, invalidStamp(s, "it must be 46 characters long")
	}
	for i, want := range []byte("dddd-dd-ddTdd:dd:dd.dddZ-") {
		c := s[i]
		if want == 'd' {
			if c < '0' || c > '9' {
				return Stamp{}, invalidStamp(s, "the time is not YYYY-MM-DDTHH:MM:SS.sssZ")
			}
		} else if c != want {
			return Stamp{}, invalidStamp(s, "the time is not YYYY-MM-DDTHH:MM:SS.sssZ")
		}
	}
	num := func(from, to int) int64 {
		var n int64
		for i := from; i < to; i++ {
			n = n*10 + int64(s[i]-'0')
		}
		return n
	}
	year, month, day := num(0, 4), num(5, 7), num(8, 10)
	hour, minute, second, milli := num(11, 13), num(14, 16), num(17, 19), num(20, 23)
	if year < 1970 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) ||
		hour > 23 || minute > 59 || second > 59 {
		return Stamp{}, invalidStamp(s, "the time is not a real UTC instant between 1970 and 9999")
	}
	var counter uint16
	for i := 25; i < 29; i++ {
		c := s[i]
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return Stamp{}, invalidStamp(s, "the counter is not 4 uppercase hex digits")
		}
		counter = counter<<4 | uint16(d)
	}
	if s[29] != '-' {
		return Stamp{}, invalidStamp(s, "a '-' must separate the counter and the node id")
	}
	node := s[30:]
	if !ValidNode(node) {
		return Stamp{}, invalidStamp(s, "the node id is not 16 lowercase hex digits")
	}
	millis := ((daysFromCivil(year, month, day)*24+hour)*60+minute)*60*1000 + second*1000 + milli
	return Stamp{Millis: millis, Counter: counter, Node: node}, nil
}

func invalidStamp(s, why string) error {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return core.Errorf(core.EINVALID, "Invalid clock stamp %q: %s.", s, why)
}

// ValidNode reports whether node is a node id: 16 lowercase hex characters.
func ValidNode(node string) bool {
	if len(node) != NodeLen {
		return false
	}
	for i := 0; i < len(node); i++ {
		c := node[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// Validate reports whether s can be written as a stamp: Millis within 0..MaxMillis and a valid node.
func (s Stamp) Validate() error {
	if s.Millis < 0 || s.Millis > MaxMillis {
		return core.Errorf(core.EINVALID, "Invalid clock stamp: time %d ms is outside 1970–9999.", s.Millis)
	}
	if !ValidNode(s.Node) {
		return core.Errorf(core.EINVALID, "Invalid clock stamp: node id %q is not 16 lowercase hex digits.", s.Node)
	}
	return nil
}

// IsZero reports whether s is the zero Stamp (no stamp).
func (s Stamp) IsZero() bool { return s == Stamp{} }

// String writes the stamp's text form. Only valid stamps (see Validate) round-trip through
// ParseStamp.
func (s Stamp) String() string { return string(s.appendText(make([]byte, 0, StampLen))) }

// appendText appends the stamp's text form to b (String without the allocation of a string).
func (s Stamp) appendText(dst []byte) []byte {
	var b [30]byte
	ms := s.Millis
	days := floorDiv(ms, 86400000)
	rest := ms - days*86400000
	year, month, day := civilFromDays(days)
	put := func(at int, n int64, width int) {
		for i := at + width - 1; i >= at; i-- {
			b[i] = byte('0' + n%10)
			n /= 10
		}
	}
	put(0, year, 4)
	b[4] = '-'
	put(5, month, 2)
	b[7] = '-'
	put(8, day, 2)
	b[10] = 'T'
	put(11, rest/3600000, 2)
	b[13] = ':'
	put(14, rest/60000%60, 2)
	b[16] = ':'
	put(17, rest/1000%60, 2)
	b[19] = '.'
	put(20, rest%1000, 3)
	b[23] = 'Z'
	b[24] = '-'
	const hex = "0123456789ABCDEF"
	for i := 0; i < 4; i++ {
		b[25+i] = hex[s.Counter>>(12-4*i)&0xF]
	}
	b[29] = '-'
	dst = append(dst, b[:]...)
	return append(dst, s.Node...)
}

// Compare orders stamps: by time, then counter, then node id. It returns -1, 0 or +1 and agrees with
// comparing the text forms of valid stamps.
func Compare(a, b Stamp) int {
	switch {
	case a.Millis < b.Millis:
		return -1
	case a.Millis > b.Millis:
		return 1
	case a.Counter < b.Counter:
		return -1
	case a.Counter > b.Counter:
		return 1
	}
	return strings.Compare(a.Node, b.Node)
}

// Before reports whether s orders before t.
func (s Stamp) Before(t Stamp) bool { return Compare(s, t) < 0 }

// After reports whether s orders after t.
func (s Stamp) After(t Stamp) bool { return Compare(s, t) > 0 }

// AppendText appends the text form to b (encoding.TextAppender); like MarshalText it refuses an
// invalid stamp.
func (s Stamp) AppendText(b []byte) ([]byte, error) {
	if err := s.Validate(); err != nil {
		return b, err
	}
	return s.appendText(b), nil
}

// MarshalText writes the text form; it refuses invalid stamps so that nothing unreadable is stored.
func (s Stamp) MarshalText() ([]byte, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads the text form (see ParseStamp).
func (s *Stamp) UnmarshalText(text []byte) error {
	v, err := ParseStamp(string(text))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// ---------------------------------------------------------------- calendar arithmetic
//
// Proleptic Gregorian calendar conversions (days since 1970-01-01), written out so that Go and
// TypeScript (clientdb/src/hlc.ts) compute exactly the same thing with no date library involved.

func isLeap(y int64) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

func daysInMonth(y, m int64) int64 {
	switch m {
	case 2:
		if isLeap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// daysFromCivil returns the number of days from 1970-01-01 to y-m-d.
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// civilFromDays is the inverse of daysFromCivil.
func civilFromDays(z int64) (y, m, d int64) {
	z += 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}
