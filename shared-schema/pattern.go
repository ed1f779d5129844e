package schema

import (
	"regexp"
	"strconv"
	"unicode/utf8"
)

// fastPattern compiles the simplest patterns the schemas use (most of them: ids, stamps, field
// names, free text) into a matcher that walks the string once, without the regexp machine:
// "^" atoms "$", each atom a character, an escaped character or a bracket class of characters and
// ranges (negated or not), with an optional ?, *, +, {n}, {n,} or {n,m}. Any other pattern (groups,
// alternatives, "." or Perl classes) returns formatPattern's matcher where it has one (the decimal,
// share and date formats), else nil, and keeps the library's regexp. Strings that are
// not valid UTF-8 also go to the regexp (Go's regexp reads each bad byte as U+FFFD).
// pattern_test.go compares both on every pattern of the schemas.
func fastPattern(pattern string) matcher {
	atoms, ok := parseSimplePattern(pattern)
	if !ok {
		return formatPattern(pattern)
	}
	// Bounded backtracking only: at most one atom without an upper bound and few ways to split
	// the string among the others, so a match costs a small multiple of the string's length.
	unbounded, ways := 0, 1
	for _, a := range atoms {
		switch {
		case a.max < 0:
			unbounded++
		case a.max > a.min:
			ways *= a.max - a.min + 1
		}
	}
	if unbounded > 1 || ways > 256 {
		return nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil
	}
	return &simplePattern{atoms: atoms, re: re}
}

type simplePattern struct {
	atoms []patternAtom
	re    *regexp.Regexp
}

type patternAtom struct {
	ranges   []runeRange // the characters it matches (one range for a single character)
	negated  bool
	min, max int // repetitions; max -1: no bound
}

type runeRange struct{ lo, hi rune }

func (a *patternAtom) matches(r rune) bool {
	in := false
	for _, rg := range a.ranges {
		if r >= rg.lo && r <= rg.hi {
			in = true
			break
		}
	}
	return in != a.negated
}

func (p *simplePattern) MatchString(s string) bool {
	if !utf8.ValidString(s) {
		return p.re.MatchString(s)
	}
	return p.match(0, s)
}

// match reports whether atoms[i:] match all of s (greedy, backtracking one character at a time).
func (p *simplePattern) match(i int, s string) bool {
	if i == len(p.atoms) {
		return s == ""
	}
	a := &p.atoms[i]
	n, pos := 0, 0
	for a.max < 0 || n < a.max {
		r, size := utf8.DecodeRuneInString(s[pos:])
		if size == 0 || !a.matches(r) {
			break
		}
		pos += size
		n++
	}
	for ; n >= a.min; n-- {
		if p.match(i+1, s[pos:]) {
			return true
		}
		if n == 0 {
			break
		}
		_, size := utf8.DecodeLastRuneInString(s[:pos])
		pos -= size
	}
	return false
}

// parseSimplePattern reads "^" atoms "$"; ok is false for anything else.
func parseSimplePattern(p string) ([]patternAtom, bool) {
	if len(p) < 2 || p[0] != '^' || p[len(p)-1] != '$' || (len(p) >= 3 && p[len(p)-2] == '\\') {
		return nil, false
	}
	body := p[1 : len(p)-1]
	var atoms []patternAtom
	for i := 0; i < len(body); {
		var a patternAtom
		switch c := body[i]; {
		case c == '[':
			end, ranges, negated, ok := parseClass(body, i)
			if !ok {
				return nil, false
			}
			a.ranges, a.negated, i = ranges, negated, end
		case c == '\\':
			r, next, ok := parseEscape(body, i)
			if !ok {
				return nil, false
			}
			a.ranges, i = []runeRange{{r, r}}, next
		case c >= 0x80 || isRegexpSpecial(c):
			return nil, false
		default:
			a.ranges, i = []runeRange{{rune(c), rune(c)}}, i+1
		}
		a.min, a.max = 1, 1
		if i < len(body) {
			switch body[i] {
			case '?':
				a.min, a.max, i = 0, 1, i+1
			case '*':
				a.min, a.max, i = 0, -1, i+1
			case '+':
				a.min, a.max, i = 1, -1, i+1
			case '{':
				end, lo, hi, ok := parseRepeat(body, i)
				if !ok {
					return nil, false
				}
				a.min, a.max, i = lo, hi, end
			}
		}
		if i < len(body) && (body[i] == '?' || body[i] == '*' || body[i] == '+' || body[i] == '{') {
			return nil, false // a lazy or stacked quantifier
		}
		atoms = append(atoms, a)
	}
	return atoms, true
}

func isRegexpSpecial(c byte) bool {
	switch c {
	case '.', '[', ']', '{', '}', '(', ')', '*', '+', '?', '|', '^', '$', '\\':
		return true
	}
	return false
}

// parseEscape reads "\x" at body[i]: an escaped punctuation character or \xNN. Letters and digits
// (Perl classes, \b, back references...) are refused.
func parseEscape(body string, i int) (rune, int, bool) {
	if i+1 >= len(body) {
		return 0, 0, false
	}
	c := body[i+1]
	if c == 'x' {
		if i+4 > len(body) {
			return 0, 0, false
		}
		v, err := strconv.ParseUint(body[i+2:i+4], 16, 8)
		if err != nil {
			return 0, 0, false
		}
		return rune(v), i + 4, true
	}
	if c >= 0x80 || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
		return 0, 0, false
	}
	return rune(c), i + 2, true
}

// parseClass reads "[...]" at body[i]: characters, ranges a-z, escapes; a leading ^ negates.
func parseClass(body string, i int) (int, []runeRange, bool, bool) {
	i++
	negated := false
	if i < len(body) && body[i] == '^' {
		negated, i = true, i+1
	}
	var ranges []runeRange
	first := true
	for i < len(body) {
		c := body[i]
		if c == ']' && !first {
			return i + 1, ranges, negated, len(ranges) > 0
		}
		first = false
		lo, next, ok := classChar(body, i)
		if !ok {
			return 0, nil, false, false
		}
		i = next
		hi := lo
		if i+1 < len(body) && body[i] == '-' && body[i+1] != ']' {
			if hi, next, ok = classChar(body, i+1); !ok || hi < lo {
				return 0, nil, false, false
			}
			i = next
		}
		ranges = append(ranges, runeRange{lo, hi})
	}
	return 0, nil, false, false
}

func classChar(body string, i int) (rune, int, bool) {
	c := body[i]
	switch {
	case c == '\\':
		return parseEscape(body, i)
	case c >= 0x80 || c == '[' || c == ']':
		return 0, 0, false
	}
	return rune(c), i + 1, true
}

// parseRepeat reads "{n}", "{n,}" or "{n,m}" at body[i].
func parseRepeat(body string, i int) (int, int, int, bool) {
	j := i + 1
	readInt := func() (int, bool) {
		start := j
		for j < len(body) && body[j] >= '0' && body[j] <= '9' {
			j++
		}
		if j == start || j-start > 4 {
			return 0, false
		}
		n, err := strconv.Atoi(body[start:j])
		return n, err == nil
	}
	lo, ok := readInt()
	if !ok || j >= len(body) {
		return 0, 0, 0, false
	}
	hi := lo
	if body[j] == ',' {
		j++
		if j < len(body) && body[j] == '}' {
			hi = -1
		} else if hi, ok = readInt(); !ok || hi < lo {
			return 0, 0, 0, false
		}
	}
	if j >= len(body) || body[j] != '}' {
		return 0, 0, 0, false
	}
	return j + 1, lo, hi, true
}
