package psync

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"patrimonio/core"
	schema "patrimonio/shared-schema"
)

// This file is the protocol's Go side: decoding client messages (after the shared schema has
// validated them) and encoding server messages. The messages are defined once, in
// shared-schema/src/protocol.ts; PROTOCOL.md describes the flow.

// The push message's type (the transport, sync/socket, reads and writes the others).
const msgPush = "push"

// Reasons of resyncRequired and accessDenied.
const (
	ResyncCursorTooOld   = "cursor_too_old"
	ResyncCursorInFuture = "cursor_in_future"
	DeniedNotAMember     = "not_a_member"
)

// decodeDocument reads one JSON document with exact numbers (json.Number), as encoding/json's
// Decoder with UseNumber would (parseDocument, jsondoc.go). It refuses invalid UTF-8, trailing
// data and nesting deeper than schema.MaxDepth (the parser stops at the first level past it, so a
// hostile document costs no memory).
func decodeDocument(raw []byte) (any, error) {
	if !utf8.Valid(raw) {
		return nil, errMalformed
	}
	v, ok, tooDeep := parseDocument(raw, schema.MaxDepth)
	switch {
	case ok:
		return v, nil
	case tooDeep || depthOfJSON(raw) > schema.MaxDepth:
		// Too deep wherever the nesting is, even after a syntax error.
		return nil, errTooDeep
	}
	return nil, errMalformed
}

var (
	errMalformed = core.Errorf(core.EINVALID, "The message is not valid JSON.")
	errTooDeep   = core.Errorf(core.EINVALID, "The message nests too deep.")
)

// depthOfJSON is the deepest nesting of objects and arrays in raw (brackets inside strings do not
// count). It does not check that raw is valid JSON.
func depthOfJSON(raw []byte) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, c := range raw {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// intOf reads a JSON integer (json.Number, or a Go number from tests) that the schema has
// validated as an integer within the safe range.
func intOf(v any) (int64, bool) {
	switch n := v.(type) {
	case json.Number:
		i, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil {
			f, ferr := n.Float64()
			if ferr != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
				return 0, false
			}
			return int64(f), true
		}
		return i, true
	case float64:
		if n != math.Trunc(n) || math.Abs(n) > 1<<53 {
			return 0, false
		}
		return int64(n), true
	case int:
		return int64(n), true
	case int64:
		return n, true
	}
	return 0, false
}

// ---------------------------------------------------------------- client messages

type helloMessage struct {
	ProtocolVersion int64
	SchemaVersion   int64
	ClientID        string
	// Cursors: the last seq applied, per workspace the device holds (0 included: an empty
	// snapshot applied). Fresh: the workspaces it holds nothing of (a null cursor: a snapshot).
	Cursors  map[string]int64
	Fresh    map[string]bool
	Resume   map[string]string
	Language string
}

// readHello reads a hello that passed the schema.
func readHello(m map[string]any) helloMessage {
	h := helloMessage{Cursors: map[string]int64{}, Fresh: map[string]bool{}, Resume: map[string]string{}}
	h.ProtocolVersion, _ = intOf(m["protocolVersion"])
	h.SchemaVersion, _ = intOf(m["schemaVersion"])
	h.ClientID, _ = m["clientId"].(string)
	cursors, _ := m["cursors"].(map[string]any)
	for w, c := range cursors {
		if c == nil {
			h.Fresh[w] = true
			continue
		}
		h.Cursors[w], _ = intOf(c)
	}
	resume, _ := m["resume"].(map[string]any)
	for w, t := range resume {
		h.Resume[w], _ = t.(string)
	}
	h.Language, _ = m["language"].(string)
	return h
}

type pullMessage struct {
	WorkspaceID string
	// After: the changes after it; Snapshot (no after): a snapshot, new or continued (PageToken).
	After     int64
	Snapshot  bool
	Limit     int
	PageToken string
}

func readPull(m map[string]any) pullMessage {
	var p pullMessage
	p.WorkspaceID, _ = m["workspaceId"].(string)
	var hasAfter bool
	p.After, hasAfter = intOf(m["after"])
	p.Snapshot = !hasAfter
	if l, ok := intOf(m["limit"]); ok {
		p.Limit = int(l)
	}
	p.PageToken, _ = m["pageToken"].(string)
	return p
}

// ClientMutation is one mutation of a push: where it goes (workspace, collection, record), the
// client's mutation id, and the merge mutation itself. The engine sets Mutation.Author to the
// client id of the connection; whatever a client might claim is never read.
type ClientMutation struct {
	MutationID  int64
	WorkspaceID string
	Collection  string
	RecordID    string
	Mutation    Mutation
}

// readMutation reads one mutation that passed the schema. A stamp the schema's pattern accepts
// but that is no real instant (2025-02-30) is an issue at its path.
func readMutation(m map[string]any) (ClientMutation, []schema.Issue) {
	var cm ClientMutation
	var issues []schema.Issue
	cm.MutationID, _ = intOf(m["mutationId"])
	cm.WorkspaceID, _ = m["workspaceId"].(string)
	cm.Collection, _ = m["collection"].(string)
	cm.RecordID, _ = m["recordId"].(string)
	op, _ := m["op"].(string)
	cm.Mutation.Op = Op(op)
	// path is only built for a stamp that does not parse.
	stamp := func(path func() string, v any) Stamp {
		s, _ := v.(string)
		st, err := ParseStamp(s)
		if err != nil {
			issues = append(issues, schema.Issue{Path: path(), Key: "validation.format.hlc", Params: map[string]any{}})
		}
		return st
	}
	cm.Mutation.Stamp = stamp(func() string { return "stamp" }, m["stamp"])
	if fields, ok := m["fields"].(map[string]any); ok {
		cm.Mutation.Fields = fields
	}
	if base, ok := m["base"].(map[string]any); ok {
		cm.Mutation.Base = make(map[string]Stamp, len(base))
		for _, f := range sortedKeys(base) {
			cm.Mutation.Base[f] = stamp(func() string { return "base." + f }, base[f])
		}
	}
	if resolves, ok := m["resolves"].([]any); ok {
		for i, r := range resolves {
			key, _ := r.(map[string]any)
			field, _ := key["field"].(string)
			cm.Mutation.Resolves = append(cm.Mutation.Resolves,
				ConflictKey{Field: field, Stamp: stamp(func() string { return fmt.Sprintf("resolves.%d.stamp", i) }, key["stamp"])})
		}
	}
	return cm, issues
}

// ---------------------------------------------------------------- server messages

// encodeChanges writes a changes message. The stored mutation bodies are spliced in as they are,
// so that delivering a change costs no decoding.
func encodeChanges(workspaceID string, page ChangesPage) []byte {
	var b bytes.Buffer
	b.Grow(128 + page.bytes)
	b.WriteString(`{"type":"changes","workspaceId":`)
	writeJSONString(&b, workspaceID)
	b.WriteString(`,"changes":[`)
	for i, c := range page.Changes {
		if i > 0 {
			b.WriteByte(',')
		}
		writeChange(&b, c)
	}
	b.WriteString(`],"cursor":`)
	b.WriteString(strconv.FormatInt(page.Cursor, 10))
	b.WriteString(`,"hasMore":`)
	b.WriteString(strconv.FormatBool(page.HasMore))
	b.WriteByte('}')
	return b.Bytes()
}

func writeChange(b *bytes.Buffer, c Change) {
	b.WriteString(`{"seq":`)
	b.WriteString(strconv.FormatInt(c.Seq, 10))
	b.WriteString(`,"collection":`)
	writeJSONString(b, c.Collection)
	b.WriteString(`,"recordId":`)
	writeJSONString(b, c.RecordID)
	b.WriteString(`,"author":`)
	writeJSONString(b, c.Author)
	b.WriteString(`,"mutationId":`)
	b.WriteString(strconv.FormatInt(c.MutationID, 10))
	// The body is a JSON object {"op":...}: splice its members in.
	body := bytes.TrimSpace(c.Body)
	if len(body) > 2 {
		b.WriteByte(',')
		b.Write(body[1 : len(body)-1])
	}
	b.WriteByte('}')
}

// encodeSnapshot writes a snapshot message, with each record's stored state spliced in.
func encodeSnapshot(workspaceID string, page SnapshotPage) []byte {
	var b bytes.Buffer
	b.Grow(160 + page.bytes)
	b.WriteString(`{"type":"snapshot","workspaceId":`)
	writeJSONString(&b, workspaceID)
	b.WriteString(`,"records":[`)
	for i, r := range page.Records {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"collection":`)
		writeJSONString(&b, r.Collection)
		b.WriteString(`,"recordId":`)
		writeJSONString(&b, r.RecordID)
		b.WriteString(`,"seq":`)
		b.WriteString(strconv.FormatInt(r.Seq, 10))
		b.WriteString(`,"state":`)
		b.Write(r.State)
		b.WriteByte('}')
	}
	b.WriteString(`],"cursor":`)
	b.WriteString(strconv.FormatInt(page.Cursor, 10))
	b.WriteString(`,"hasMore":`)
	b.WriteString(strconv.FormatBool(page.HasMore))
	if page.PageToken != "" {
		b.WriteString(`,"pageToken":`)
		writeJSONString(&b, page.PageToken)
	}
	b.WriteByte('}')
	return b.Bytes()
}

func writeJSONString(b *bytes.Buffer, s string) {
	if isPlainASCII(s) {
		b.WriteByte('"')
		b.WriteString(s)
		b.WriteByte('"')
		return
	}
	enc, _ := json.Marshal(s)
	b.Write(enc)
}

// isPlainASCII: printable ASCII without characters JSON escapes (ids, collection names).
func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// issuePathIndex splits "mutations.3.fields.name" into 3 and "fields.name".
func issuePathIndex(path string) (int, string, bool) {
	rest, ok := strings.CutPrefix(path, "mutations.")
	if !ok {
		return 0, "", false
	}
	num, tail, _ := strings.Cut(rest, ".")
	i, err := strconv.Atoi(num)
	if err != nil || i < 0 {
		return 0, "", false
	}
	return i, tail, true
}

func sortIssues(issues []schema.Issue) {
	sort.SliceStable(issues, func(i, j int) bool {
		if issues[i].Path != issues[j].Path {
			return issues[i].Path < issues[j].Path
		}
		return issues[i].Key < issues[j].Key
	})
}

// decodeExact decodes JSON keeping numbers exact (json.Number).
func decodeExact(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(v)
}
