package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	gosync "sync"
	"time"

	"github.com/google/uuid"
	"github.com/gorilla/websocket"

	schema "patrimonio/shared-schema"
	psync "patrimonio/sync"
)

// device speaks the sync protocol (sync/PROTOCOL.md) over a real socket, as a device would: its
// own client id, clock and mutation ids. Reads happen on one goroutine at a time (the caller's);
// writes may come from several (a mutex).
type device struct {
	ws       *websocket.Conn
	wmu      gosync.Mutex
	clientID string
	clock    *psync.Clock
	nextID   int64
}

var dialer = websocket.Dialer{HandshakeTimeout: 30 * time.Second, ReadBufferSize: 4096, WriteBufferSize: 4096}

// dialDevice opens a socket with the session cookie and the Origin a browser would send.
func dialDevice(s *serverProc, cookie string) (*device, error) {
	h := http.Header{"Origin": {s.url}, "Cookie": {cookie}}
	ws, res, err := dialer.Dial(s.syncURL(), h)
	if err != nil {
		if res != nil {
			return nil, fmt.Errorf("open the sync socket: %w (HTTP %d)", err, res.StatusCode)
		}
		return nil, fmt.Errorf("open the sync socket: %w", err)
	}
	ws.SetReadLimit(4 << 20)
	clock, err := psync.NewClock(psync.ClockConfig{Node: psync.NewNodeID(), Now: time.Now})
	if err != nil {
		ws.Close()
		return nil, err
	}
	return &device{ws: ws, clientID: uuid.NewString(), clock: clock}, nil
}

func (d *device) close() { _ = d.ws.Close() }

func (d *device) write(msg []byte) error {
	d.wmu.Lock()
	defer d.wmu.Unlock()
	_ = d.ws.SetWriteDeadline(time.Now().Add(time.Minute))
	return d.ws.WriteMessage(websocket.TextMessage, msg)
}

// read returns the next message and its type; an `error` message from the server is an error.
func (d *device) read(timeout time.Duration) (string, []byte, error) {
	if timeout > 0 {
		_ = d.ws.SetReadDeadline(time.Now().Add(timeout))
	} else {
		_ = d.ws.SetReadDeadline(time.Time{})
	}
	_, msg, err := d.ws.ReadMessage()
	if err != nil {
		return "", nil, err
	}
	typ := messageType(msg)
	if typ == "error" || typ == "reject" || typ == "resyncRequired" || typ == "accessDenied" {
		return typ, msg, fmt.Errorf("the server sent %s", msg)
	}
	return typ, msg, nil
}

// hello says hello for a first sync of the fresh workspaces (null cursors: snapshots) and waits
// for welcome.
func (d *device) hello(fresh ...string) error {
	cursors := map[string]any{}
	for _, w := range fresh {
		cursors[w] = nil
	}
	msg, _ := json.Marshal(map[string]any{
		"type": "hello", "protocolVersion": schema.ProtocolVersion, "schemaVersion": schema.SchemaVersion, "clientId": d.clientID, "cursors": cursors,
	})
	if err := d.write(msg); err != nil {
		return err
	}
	typ, body, err := d.read(30 * time.Second)
	if err != nil {
		return err
	}
	if typ != "welcome" {
		return fmt.Errorf("expected welcome, got %s", body)
	}
	var w struct {
		ServerTime psync.Stamp `json:"serverTime"`
	}
	if err := json.Unmarshal(body, &w); err == nil {
		d.clock.Observe(w.ServerTime)
	}
	return nil
}

// catchUp reads pages of workspace (pulling while hasMore) until one says hasMore false: after
// it the workspace is live on this socket. It returns the number of records or changes read.
func (d *device) catchUp(workspace string) (int, error) {
	n := 0
	for {
		typ, msg, err := d.read(2 * time.Minute)
		if err != nil {
			return n, err
		}
		if typ != "snapshot" && typ != "changes" {
			continue
		}
		p, err := decodePage(msg)
		if err != nil {
			return n, err
		}
		n += p.entries()
		if !p.HasMore {
			return n, nil
		}
		if err := d.write(pullMessage(workspace, p)); err != nil {
			return n, err
		}
	}
}

// mutation is a mutation as pushed (PROTOCOL.md "push").
type mutation struct {
	MutationID  int64             `json:"mutationId"`
	WorkspaceID string            `json:"workspaceId"`
	Collection  string            `json:"collection"`
	RecordID    string            `json:"recordId"`
	Op          string            `json:"op"`
	Stamp       psync.Stamp       `json:"stamp"`
	Fields      map[string]any    `json:"fields,omitempty"`
	Base        map[string]string `json:"base"`
}

// create makes the mutation that creates a new record of collection with fields.
func (d *device) create(workspace, collection string, fields map[string]any) mutation {
	d.nextID++
	id, _ := uuid.NewV7()
	return mutation{MutationID: d.nextID, WorkspaceID: workspace, Collection: collection, RecordID: id.String(),
		Op: "put", Stamp: d.clock.Now(), Fields: fields, Base: map[string]string{}}
}

func pushMessage(muts []mutation) []byte {
	msg, err := json.Marshal(map[string]any{"type": "push", "mutations": muts})
	if err != nil {
		panic(err)
	}
	return msg
}

// assetFields and taskFields are valid records of two collections (an asset of 6 fields, a task
// of 3), with text that differs per record.
func assetFields(i int) map[string]any {
	return map[string]any{"name": "Piso en Valencia " + strconv.Itoa(i), "assetClass": "real_estate", "category": "residential",
		"currency": "EUR", "participation": "100", "currentValue": strconv.Itoa(150000+i%100000) + ".50"}
}

func taskFields(i int) map[string]any {
	return map[string]any{"title": "Revisar la póliza del seguro " + strconv.Itoa(i), "status": "todo", "priority": "medium"}
}

// messageType reads the "type" member. The server writes it first; anything else is decoded.
func messageType(msg []byte) string {
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

// page is what the bench needs of a snapshot or changes page.
type page struct {
	Type      string            `json:"type"`
	Cursor    int64             `json:"cursor"`
	HasMore   bool              `json:"hasMore"`
	PageToken string            `json:"pageToken"`
	Changes   []json.RawMessage `json:"changes"`
	Records   []json.RawMessage `json:"records"`
}

func (p page) entries() int { return len(p.Changes) + len(p.Records) }

func decodePage(msg []byte) (page, error) {
	var p page
	if err := json.Unmarshal(msg, &p); err != nil {
		return p, fmt.Errorf("decode page: %w", err)
	}
	return p, nil
}

// pageTail reads cursor and hasMore of a changes page without decoding its changes: the server
// writes them last (`...],"cursor":N,"hasMore":B}`), after the changes, where a nested key
// cannot come. Anything else is decoded whole.
func pageTail(msg []byte) (cursor int64, hasMore bool, err error) {
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
	p, err := decodePage(msg)
	return p.Cursor, p.HasMore, err
}

func pullMessage(workspace string, p page) []byte {
	m := map[string]any{"type": "pull", "workspaceId": workspace, "after": p.Cursor}
	if p.Type == "snapshot" {
		delete(m, "after")
		m["pageToken"] = p.PageToken
	}
	msg, _ := json.Marshal(m)
	return msg
}

// ackEntries reads an ack message.
func ackEntries(msg []byte) ([]ackEntry, error) {
	var a struct {
		Acks []ackEntry `json:"acks"`
	}
	if err := json.Unmarshal(msg, &a); err != nil {
		return nil, fmt.Errorf("decode ack: %w", err)
	}
	return a.Acks, nil
}

type ackEntry struct {
	MutationID int64  `json:"mutationId"`
	Status     string `json:"status"`
	Seq        int64  `json:"seq"`
}
