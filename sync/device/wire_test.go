package device_test

import (
	"encoding/json"
	"testing"

	schema "patrimonio/shared-schema"
	psync "patrimonio/sync"
	"patrimonio/sync/device"
)

const ws = "3f2b8c1e-9d4a-4b6f-a2c7-5e8d9f0a1b2c"

// Every message the package writes is a valid client message of the shared schema.
func TestTheMessagesADeviceSendsAreValid(t *testing.T) {
	id, err := device.NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	m := id.Create(ws, "tasks", map[string]any{"title": "Pagar el IBI", "status": "todo"})
	edit := id.Create(ws, "tasks", map[string]any{"status": "done"})
	edit.Record = m.Record
	edit.Base = map[string]psync.Stamp{"status": m.Stamp}
	edit.Resolves = []psync.ConflictKey{{Field: "status", Stamp: m.Stamp}}
	other := "7c0d9e8f-1a2b-4c3d-9e4f-5a6b7c8d9e0f"
	for name, msg := range map[string][]byte{
		"hello":          device.Hello{ClientID: id.ClientID, Cursors: map[string]int64{ws: 0}, Fresh: []string{other}, Language: "en"}.Encode(),
		"hello resuming": device.Hello{ClientID: id.ClientID, Resume: map[string]string{ws: "tok"}}.Encode(),
		"push":           device.Push([]device.Mutation{m, edit}),
		"pull changes":   device.PullChanges(ws, 0, 10),
		"pull snapshot":  device.PullSnapshot(ws, "", 0),
		"pull next page": device.PullSnapshot(ws, "tok", 5),
		"ping":           device.Ping,
	} {
		issues, err := schema.Validate("clientMessage", msg, "en")
		if err != nil || len(issues) > 0 {
			t.Errorf("%s: %s: %v %+v", name, msg, err, issues)
		}
	}
	var hello map[string]any
	_ = json.Unmarshal(device.Hello{ClientID: id.ClientID, Cursors: map[string]int64{ws: 0}, Fresh: []string{other}}.Encode(), &hello)
	cursors := hello["cursors"].(map[string]any)
	if cursors[ws] != float64(0) || cursors[other] != nil {
		t.Fatalf("cursors %v: want 0 for the held workspace, null for the fresh one", cursors)
	}
	if _, ok := cursors[other]; !ok {
		t.Fatalf("the fresh workspace is missing: %v", cursors)
	}
}

func TestPageTailReadsTheCursorAndHasMoreOfAChangesPage(t *testing.T) {
	tests := []struct {
		name    string
		msg     string
		cursor  int64
		hasMore bool
	}{
		{"a page with more to come", `{"type":"changes","workspaceId":"w","changes":[{"seq":7,"fields":{"cursor":1}}],"cursor":7,"hasMore":true}`, 7, true},
		{"the last page", `{"type":"changes","workspaceId":"w","changes":[{"seq":9}],"cursor":9,"hasMore":false}`, 9, false},
		{"an empty page", `{"type":"changes","workspaceId":"w","changes":[],"cursor":0,"hasMore":false}`, 0, false},
		{"members in another order are decoded whole", `{"hasMore":true,"cursor":12,"type":"changes","changes":[]}`, 12, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cursor, hasMore, err := device.PageTail([]byte(tt.msg))
			if err != nil || cursor != tt.cursor || hasMore != tt.hasMore {
				t.Fatalf("PageTail = %d, %v, %v; want %d, %v", cursor, hasMore, err, tt.cursor, tt.hasMore)
			}
		})
	}
	if _, _, err := device.PageTail([]byte(`{"type":"changes","cursor":`)); err == nil {
		t.Error("a broken page is read without error")
	}
}

func TestMessageTypeIsReadFromAnyServerMessage(t *testing.T) {
	for msg, want := range map[string]string{
		`{"type":"ack","acks":[]}`:   "ack",
		`{"acks":[],"type":"ack"}`:   "ack",
		`{"type":"pong"}`:            "pong",
		`not json`:                   "",
		`{"type":"changes","x":"y"}`: "changes",
	} {
		if got := device.Type([]byte(msg)); got != want {
			t.Errorf("device.Type(%s) = %q, want %q", msg, got, want)
		}
	}
}
