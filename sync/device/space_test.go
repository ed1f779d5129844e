package device_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	psync "patrimonio/sync"
	"patrimonio/sync/device"
)

// change builds the changes-page entry of a put by author, as the server writes it.
func change(t *testing.T, seq int64, record, author string, stamp psync.Stamp, fields map[string]any) psync.Change {
	t.Helper()
	body, err := json.Marshal(map[string]any{"op": "put", "stamp": stamp.String(), "fields": fields, "base": map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	return psync.Change{Seq: seq, Collection: "tasks", RecordID: record, Author: author, MutationID: seq, Body: body}
}

func TestASpaceHeldAtCursorZeroSaysZeroAndTakesChangeOne(t *testing.T) {
	clock, _ := psync.NewClock(psync.ClockConfig{Node: psync.NewNodeID(), Now: time.Now})
	author := uuid.NewString()
	rec, _ := uuid.NewV7()
	s := device.NewSpace()

	var h device.Hello
	s.AddToHello(&h, ws)
	if len(h.Fresh) != 1 || len(h.Cursors) != 0 {
		t.Fatalf("a space that holds nothing: %+v, want a null cursor", h)
	}
	if _, err := s.ApplyChanges(device.Page{WorkspaceID: ws}); err == nil {
		t.Fatal("changes applied before any snapshot")
	}
	// The empty snapshot of a new workspace.
	if _, err := s.ApplySnapshot(device.Page{Snapshot: true, WorkspaceID: ws, Cursor: 0}); err != nil {
		t.Fatal(err)
	}
	h = device.Hello{}
	s.AddToHello(&h, ws)
	if c, ok := h.Cursors[ws]; !ok || c != 0 || len(h.Fresh) != 0 {
		t.Fatalf("a space held at 0: %+v, want cursor 0", h)
	}
	st := clock.Now()
	applied, err := s.ApplyChanges(device.Page{WorkspaceID: ws, Cursor: 1,
		Changes: []psync.Change{change(t, 1, rec.String(), author, st, map[string]any{"title": "Pagar el IBI", "status": "todo"})}})
	if err != nil || len(applied) != 1 || s.Cursor != 1 {
		t.Fatalf("change 1: %v, %d applied, cursor %d", err, len(applied), s.Cursor)
	}
	if got := s.Records[device.RecordKey("tasks", rec.String())].Fields["title"]; got != "Pagar el IBI" {
		t.Fatalf("title %v", got)
	}
	// An overlapping page is skipped; a gap stops at the cursor.
	applied, err = s.ApplyChanges(device.Page{WorkspaceID: ws, Cursor: 1,
		Changes: []psync.Change{change(t, 1, rec.String(), author, st, map[string]any{"title": "otra"})}})
	if err != nil || len(applied) != 0 {
		t.Fatalf("a replayed change: %v, %d applied", err, len(applied))
	}
	_, err = s.ApplyChanges(device.Page{WorkspaceID: ws, Cursor: 3,
		Changes: []psync.Change{change(t, 3, rec.String(), author, clock.Now(), map[string]any{"status": "done"})}})
	var gap *device.GapError
	if !errors.As(err, &gap) || gap.Tail || gap.Cursor != 1 || gap.Seq != 3 || s.Cursor != 1 {
		t.Fatalf("a gap: %v (cursor %d)", err, s.Cursor)
	}
	_, err = s.ApplyChanges(device.Page{WorkspaceID: ws, Cursor: 2})
	if !errors.As(err, &gap) || !gap.Tail {
		t.Fatalf("a page that ends before its cursor: %v", err)
	}
	// A snapshot in progress resumes with its token; a reset forgets everything.
	s.Reset()
	if _, err := s.ApplySnapshot(device.Page{Snapshot: true, WorkspaceID: ws, Cursor: 1, HasMore: true, PageToken: "tok"}); err != nil {
		t.Fatal(err)
	}
	h = device.Hello{}
	s.AddToHello(&h, ws)
	if h.Resume[ws] != "tok" || len(h.Cursors) != 0 || len(h.Fresh) != 0 {
		t.Fatalf("a snapshot in progress: %+v", h)
	}
}
