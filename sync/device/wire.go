package device

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	schema "patrimonio/shared-schema"
	psync "patrimonio/sync"
)

// ---------------------------------------------------------------- device → server

// Hello is the first message of a socket. Cursors: the workspaces the device holds, each with
// the last seq it applied (0 included: an empty snapshot applied). Fresh: the workspaces it holds
// nothing of (a null cursor: the server sends a snapshot). Resume: snapshots in progress.
type Hello struct {
	ClientID string
	Cursors  map[string]int64
	Fresh    []string
	Resume   map[string]string
	Language string
}

// Encode writes the hello message of this protocol and schema version.
func (h Hello) Encode() []byte {
	cursors := map[string]any{}
	for w, c := range h.Cursors {
		cursors[w] = c
	}
	for _, w := range h.Fresh {
		cursors[w] = nil
	}
	m := map[string]any{"type": "hello", "protocolVersion": schema.ProtocolVersion, "schemaVersion": schema.SchemaVersion,
		"clientId": h.ClientID, "cursors": cursors}
	if len(h.Resume) > 0 {
		m["resume"] = h.Resume
	}
	if h.Language != "" {
		m["language"] = h.Language
	}
	return mustJSON(m)
}

// Mutation is one mutation of a push: where it goes, the client's mutation id, and the merge
// mutation (its Author is not sent: the server takes the connection's client id).
type Mutation struct {
	MutationID int64
	Workspace  string
	Collection string
	Record     string
	psync.Mutation
}

// MarshalJSON writes the mutation as a push carries it (PROTOCOL.md, "push").
func (m Mutation) MarshalJSON() ([]byte, error) {
	out := map[string]any{"mutationId": m.MutationID, "workspaceId": m.Workspace, "collection": m.Collection,
		"recordId": m.Record, "op": string(m.Op), "stamp": m.Stamp.String()}
	base := map[string]string{}
	for f, s := range m.Base {
		base[f] = s.String()
	}
	out["base"] = base
	if len(m.Fields) > 0 {
		out["fields"] = m.Fields
	}
	if len(m.Resolves) > 0 {
		rs := make([]map[string]string, 0, len(m.Resolves))
		for _, r := range m.Resolves {
			rs = append(rs, map[string]string{"field": r.Field, "stamp": r.Stamp.String()})
		}
		out["resolves"] = rs
	}
	return json.Marshal(out)
}

// Push is a push of mutations, in mutation id order.
func Push(muts []Mutation) []byte {
	return mustJSON(map[string]any{"type": "push", "mutations": muts})
}

// PullChanges asks for the changes after `after` (0 included); limit 0: the server's default.
func PullChanges(workspace string, after int64, limit int) []byte {
	m := map[string]any{"type": "pull", "workspaceId": workspace, "after": after}
	if limit > 0 {
		m["limit"] = limit
	}
	return mustJSON(m)
}

// PullSnapshot asks for a snapshot page: the next one of the snapshot token continues, or the
// first of a new snapshot (token ""); limit 0: the server's default.
func PullSnapshot(workspace, token string, limit int) []byte {
	m := map[string]any{"type": "pull", "workspaceId": workspace}
	if token != "" {
		m["pageToken"] = token
	}
	if limit > 0 {
		m["limit"] = limit
	}
	return mustJSON(m)
}

// Ping is the app-level liveness check.
var Ping = []byte(`{"type":"ping"}`)

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// ---------------------------------------------------------------- server → device

// Type reads a message's "type". The server writes it first; anything else is decoded.
func Type(msg []byte) string {
	const prefix = `{"type":"`
	if bytes.HasPrefix(msg, []byte(prefix)) {
		rest := msg[len(prefix):]
		if end := bytes.IndexByte(rest, '"'); end > 0 {
			return string(rest[:end])
		}
	}
	var m struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(msg, &m)
	return m.Type
}

// DecodeWelcome returns the server's clock of a welcome (for the device's clock to observe).
func DecodeWelcome(msg []byte) (psync.Stamp, error) {
	var w struct {
		ServerTime string `json:"serverTime"`
	}
	if err := json.Unmarshal(msg, &w); err != nil {
		return psync.Stamp{}, fmt.Errorf("decode welcome: %w", err)
	}
	return psync.ParseStamp(w.ServerTime)
}

// Ack is one entry of an ack message. Stamp is absent for a duplicate whose change is no longer
// kept (Seq 0).
type Ack struct {
	MutationID int64
	Status     string
	Seq        int64
	Stamp      *psync.Stamp
}

// DecodeAcks reads an ack message.
func DecodeAcks(msg []byte) ([]Ack, error) {
	var a struct {
		Acks []struct {
			MutationID int64   `json:"mutationId"`
			Status     string  `json:"status"`
			Seq        int64   `json:"seq"`
			Stamp      *string `json:"stamp"`
		} `json:"acks"`
	}
	if err := json.Unmarshal(msg, &a); err != nil {
		return nil, fmt.Errorf("decode ack: %w", err)
	}
	out := make([]Ack, 0, len(a.Acks))
	for _, e := range a.Acks {
		ack := Ack{MutationID: e.MutationID, Status: e.Status, Seq: e.Seq}
		if e.Stamp != nil {
			st, err := psync.ParseStamp(*e.Stamp)
			if err != nil {
				return nil, fmt.Errorf("ack of %d: %w", e.MutationID, err)
			}
			ack.Stamp = &st
		}
		out = append(out, ack)
	}
	return out, nil
}

// Reject is a reject message (its issues are not decoded).
type Reject struct {
	MutationID int64  `json:"mutationId"`
	Code       string `json:"code"`
}

// DecodeReject reads a reject message.
func DecodeReject(msg []byte) (Reject, error) {
	var r Reject
	if err := json.Unmarshal(msg, &r); err != nil {
		return r, fmt.Errorf("decode reject: %w", err)
	}
	return r, nil
}

// Page is a snapshot or a changes page. Changes carry their raw mutation (Change.Mutation
// decodes it); records their raw state (SnapshotRecord.Decode).
type Page struct {
	Snapshot    bool
	WorkspaceID string
	Cursor      int64
	HasMore     bool
	PageToken   string
	Records     []psync.SnapshotRecord
	Changes     []psync.Change
}

// Entries is the number of records or changes of the page.
func (p Page) Entries() int { return len(p.Records) + len(p.Changes) }

// NextPull is the pull that asks for the page after p (while p.HasMore).
func (p Page) NextPull(limit int) []byte {
	if p.Snapshot {
		return PullSnapshot(p.WorkspaceID, p.PageToken, limit)
	}
	return PullChanges(p.WorkspaceID, p.Cursor, limit)
}

// DecodePage reads a snapshot or changes message.
func DecodePage(msg []byte) (Page, error) {
	var raw struct {
		Type        string `json:"type"`
		WorkspaceID string `json:"workspaceId"`
		Cursor      int64  `json:"cursor"`
		HasMore     bool   `json:"hasMore"`
		PageToken   string `json:"pageToken"`
		Records     []struct {
			Collection string          `json:"collection"`
			RecordID   string          `json:"recordId"`
			Seq        int64           `json:"seq"`
			State      json.RawMessage `json:"state"`
		} `json:"records"`
		Changes []json.RawMessage `json:"changes"`
	}
	if err := json.Unmarshal(msg, &raw); err != nil {
		return Page{}, fmt.Errorf("decode page: %w", err)
	}
	if raw.Type != "snapshot" && raw.Type != "changes" {
		return Page{}, fmt.Errorf("decode page: a %q message", raw.Type)
	}
	p := Page{Snapshot: raw.Type == "snapshot", WorkspaceID: raw.WorkspaceID, Cursor: raw.Cursor, HasMore: raw.HasMore, PageToken: raw.PageToken}
	for _, r := range raw.Records {
		p.Records = append(p.Records, psync.SnapshotRecord{Collection: r.Collection, RecordID: r.RecordID, Seq: r.Seq, State: r.State})
	}
	for _, c := range raw.Changes {
		var head struct {
			Seq        int64  `json:"seq"`
			Collection string `json:"collection"`
			RecordID   string `json:"recordId"`
			Author     string `json:"author"`
			MutationID int64  `json:"mutationId"`
		}
		if err := json.Unmarshal(c, &head); err != nil {
			return Page{}, fmt.Errorf("decode change: %w", err)
		}
		p.Changes = append(p.Changes, psync.Change{Seq: head.Seq, Collection: head.Collection, RecordID: head.RecordID,
			Author: head.Author, MutationID: head.MutationID, Body: c})
	}
	return p, nil
}

// PageTail reads cursor and hasMore of a changes page without decoding its changes: the server
// writes them last (`...],"cursor":N,"hasMore":B}`), after the changes, where a nested key
// cannot come. Anything else is decoded whole. (For readers that only count: benchmarks.)
func PageTail(msg []byte) (cursor int64, hasMore bool, err error) {
	i := bytes.LastIndex(msg, []byte(`],"cursor":`))
	if i >= 0 {
		rest := msg[i+len(`],"cursor":`):]
		if j := bytes.IndexByte(rest, ','); j > 0 {
			if n, perr := strconv.ParseInt(string(rest[:j]), 10, 64); perr == nil {
				tail := rest[j:]
				switch {
				case bytes.Equal(tail, []byte(`,"hasMore":true}`)):
					return n, true, nil
				case bytes.Equal(tail, []byte(`,"hasMore":false}`)):
					return n, false, nil
				}
			}
		}
	}
	var p struct {
		Cursor  int64 `json:"cursor"`
		HasMore bool  `json:"hasMore"`
	}
	if err := json.Unmarshal(msg, &p); err != nil {
		return 0, false, fmt.Errorf("decode page: %w", err)
	}
	return p.Cursor, p.HasMore, nil
}
