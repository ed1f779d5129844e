package psync

import (
	"encoding/json"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// parseDocument decodes one JSON document into the values encoding/json gives with UseNumber
// (map[string]any, []any, json.Number, string, bool, nil), in one pass over the bytes and without
// reflection: a push is decoded for every message a device sends, and encoding/json's generic
// path (a validating scan, then a second walk through reflect) was most of its cost. ok is false
// for anything encoding/json refuses. The caller checks UTF-8 first (decodeDocument).
// jsondoc_test.go compares both decoders on the protocol's vectors, mutated documents and a fuzz
// target.
//
// maxDepth bounds the nesting of objects and arrays: deeper is refused (tooDeep) when the parser
// reaches it, before building anything below it.
func parseDocument(raw []byte, maxDepth int) (v any, ok bool, tooDeep bool) {
	p := docParser{data: raw, keys: map[string]string{}, maxDepth: maxDepth}
	p.space()
	v, ok = p.value()
	if !ok {
		return nil, false, p.tooDeep
	}
	p.space()
	if p.pos != len(p.data) {
		return nil, false, false
	}
	return v, true, false
}

type docParser struct {
	data []byte
	pos  int
	keys map[string]string // object keys seen in this document, so that repeated keys share one string

	depth, maxDepth int
	tooDeep         bool
}

// enter counts one more level of nesting; false past maxDepth.
func (p *docParser) enter() bool {
	p.depth++
	if p.depth > p.maxDepth {
		p.tooDeep = true
		return false
	}
	return true
}

func (p *docParser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *docParser) value() (any, bool) {
	if p.pos >= len(p.data) {
		return nil, false
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, ok := p.str()
		return s, ok
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	}
	return nil, false
}

func (p *docParser) literal(word string) bool {
	if len(p.data)-p.pos < len(word) || string(p.data[p.pos:p.pos+len(word)]) != word {
		return false
	}
	p.pos += len(word)
	return true
}

func (p *docParser) object() (any, bool) {
	empty, ok := p.open('{', '}')
	if !ok {
		return nil, false
	}
	obj := map[string]any{}
	if empty {
		return obj, true
	}
	for {
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, false
		}
		key, ok := p.key()
		if !ok || !p.colon() {
			return nil, false
		}
		v, ok := p.value()
		if !ok {
			return nil, false
		}
		obj[key] = v
		if done, ok := p.after('}'); !ok {
			return nil, false
		} else if done {
			return obj, true
		}
	}
}

// open reads the opening bracket c of an object or array and counts one more level of nesting;
// empty: its closing bracket came right after (and was read too).
func (p *docParser) open(c, closing byte) (empty, ok bool) {
	if p.pos >= len(p.data) || p.data[p.pos] != c {
		return false, false
	}
	p.pos++
	if !p.enter() {
		return false, false
	}
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == closing {
		p.pos++
		p.depth--
		return true, true
	}
	return false, true
}

// colon reads the colon after an object key, with the white space around it.
func (p *docParser) colon() bool {
	p.space()
	if p.pos >= len(p.data) || p.data[p.pos] != ':' {
		return false
	}
	p.pos++
	p.space()
	return true
}

// after reads what follows a member or an element: a comma (more follows) or the closing
// bracket (done; the level of nesting ends).
func (p *docParser) after(closing byte) (done, ok bool) {
	p.space()
	if p.pos >= len(p.data) {
		return false, false
	}
	switch p.data[p.pos] {
	case ',':
		p.pos++
		p.space()
		return false, true
	case closing:
		p.pos++
		p.depth--
		return true, true
	}
	return false, false
}

// key reads an object key, shared with the same key earlier in the document.
func (p *docParser) key() (string, bool) {
	start := p.pos + 1
	for i := start; i < len(p.data); i++ {
		c := p.data[i]
		if c == '"' {
			if k, ok := p.keys[string(p.data[start:i])]; ok {
				p.pos = i + 1
				return k, true
			}
			k := string(p.data[start:i])
			p.keys[k] = k
			p.pos = i + 1
			return k, true
		}
		if c == '\\' || c < 0x20 {
			break
		}
	}
	return p.str()
}

func (p *docParser) array() (any, bool) {
	empty, ok := p.open('[', ']')
	if !ok {
		return nil, false
	}
	arr := []any{}
	if empty {
		return arr, true
	}
	for {
		v, ok := p.value()
		if !ok {
			return nil, false
		}
		arr = append(arr, v)
		if done, ok := p.after(']'); !ok {
			return nil, false
		} else if done {
			return arr, true
		}
	}
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? as its literal text.
func (p *docParser) number() (any, bool) {
	start, d := p.pos, p.data
	i := p.pos
	if d[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(d) && d[i] == '0' {
		i++
	} else if digits() == 0 {
		return nil, false
	}
	if i < len(d) && d[i] == '.' {
		i++
		if digits() == 0 {
			return nil, false
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if digits() == 0 {
			return nil, false
		}
	}
	p.pos = i
	return json.Number(d[start:i]), true
}

// str reads a string at p.pos (the opening quote), unescaping as encoding/json does.
func (p *docParser) str() (string, bool) {
	d := p.data
	start := p.pos + 1
	i := start
	for i < len(d) {
		c := d[i]
		if c == '"' {
			p.pos = i + 1
			return string(d[start:i]), true
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", false
		}
		i++
	}
	// With escapes.
	buf := make([]byte, 0, i-start+16)
	buf = append(buf, d[start:i]...)
	for i < len(d) {
		c := d[i]
		switch {
		case c == '"':
			p.pos = i + 1
			return string(buf), true
		case c < 0x20:
			return "", false
		case c != '\\':
			buf = append(buf, c)
			i++
			continue
		}
		i++
		if i >= len(d) {
			return "", false
		}
		switch e := d[i]; e {
		case '"', '\\', '/':
			buf = append(buf, e)
			i++
		case 'b':
			buf, i = append(buf, '\b'), i+1
		case 'f':
			buf, i = append(buf, '\f'), i+1
		case 'n':
			buf, i = append(buf, '\n'), i+1
		case 'r':
			buf, i = append(buf, '\r'), i+1
		case 't':
			buf, i = append(buf, '\t'), i+1
		case 'u':
			r, ok := hex4(d, i+1)
			if !ok {
				return "", false
			}
			i += 5
			if utf16.IsSurrogate(r) {
				// A pair makes one character; a lone half is U+FFFD (encoding/json does the same).
				r2, ok2 := rune(-1), false
				if i+1 < len(d) && d[i] == '\\' && d[i+1] == 'u' {
					r2, ok2 = hex4(d, i+2)
				}
				if dec := utf16.DecodeRune(r, r2); ok2 && dec != utf8.RuneError {
					buf = utf8.AppendRune(buf, dec)
					i += 6
					break
				}
				r = utf8.RuneError
			}
			buf = utf8.AppendRune(buf, r)
		default:
			return "", false
		}
	}
	return "", false
}

func hex4(d []byte, i int) (rune, bool) {
	if i+4 > len(d) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(d[i:i+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	return rune(v), true
}
