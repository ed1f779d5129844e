package device

import (
	"fmt"

	psync "patrimonio/sync"
)

// Space is what a device holds of one workspace: the confirmed record states (the server's, as
// the pages brought them), the cursor, and a snapshot in progress. It is plain data (JSON), so a
// device that "crashes" keeps exactly what it stored.
type Space struct {
	// Cursor is the last seq applied; meaningful when Held.
	Cursor int64 `json:"cursor"`
	// Held: a snapshot completed (even an empty one, at cursor 0): the device holds the workspace
	// as of Cursor. Until then its hello cursor is null.
	Held bool `json:"held"`
	// Token continues a snapshot in progress.
	Token string `json:"token,omitempty"`
	// Records: RecordKey(collection, id) → the confirmed state.
	Records map[string]*psync.RecordState `json:"records"`
}

// NewSpace is a workspace the device holds nothing of.
func NewSpace() *Space { return &Space{Records: map[string]*psync.RecordState{}} }

// RecordKey names a record in a Space.
func RecordKey(collection, id string) string { return collection + "/" + id }

// Reset forgets everything (a resync: the next snapshot starts from nothing).
func (s *Space) Reset() { *s = *NewSpace() }

// AddToHello puts the workspace in a hello: its cursor when held (0 included), its snapshot to
// resume, or a null cursor (a first sync).
func (s *Space) AddToHello(h *Hello, workspace string) {
	switch {
	case s.Token != "":
		if h.Resume == nil {
			h.Resume = map[string]string{}
		}
		h.Resume[workspace] = s.Token
	case s.Held:
		if h.Cursors == nil {
			h.Cursors = map[string]int64{}
		}
		h.Cursors[workspace] = s.Cursor
	default:
		h.Fresh = append(h.Fresh, workspace)
	}
}

// ApplySnapshot applies a snapshot page, atomically (every state is decoded before anything
// changes): each record's state replaces the confirmed one. A page with more to come keeps its
// token (to resume); the last page makes the workspace held at the snapshot's cursor. It returns
// the states applied (for the device's clock to observe).
func (s *Space) ApplySnapshot(p Page) ([]*psync.RecordState, error) {
	if !p.Snapshot {
		return nil, fmt.Errorf("not a snapshot page")
	}
	states := make([]*psync.RecordState, len(p.Records))
	for i, r := range p.Records {
		st, err := r.Decode()
		if err != nil {
			return nil, fmt.Errorf("snapshot record %s: %w", r.RecordID, err)
		}
		states[i] = st
	}
	if s.Records == nil {
		s.Records = map[string]*psync.RecordState{}
	}
	for i, r := range p.Records {
		s.Records[RecordKey(r.Collection, r.RecordID)] = states[i]
	}
	if p.HasMore {
		s.Token = p.PageToken
	} else {
		s.Token, s.Cursor, s.Held = "", p.Cursor, true
	}
	return states, nil
}

// Applied is a change ApplyChanges merged.
type Applied struct {
	psync.Change
	Mutation psync.Mutation
}

// GapError: a changes page does not continue from the cursor (a change is missing); nothing after
// the gap is applied. Tail: the page's changes ended before its cursor (rather than skipping a
// seq in the middle).
type GapError struct {
	Cursor, Seq int64
	Tail        bool
}

func (e *GapError) Error() string { return fmt.Sprintf("change %d after cursor %d", e.Seq, e.Cursor) }

// ApplyChanges merges a changes page into the confirmed states, in seq order, with the same merge
// as the server (RecordState.Apply). Changes at or below the cursor are skipped (a page that
// overlaps what the device has); every change is decoded before anything is merged. A missing
// change stops it with *GapError (what came before stays applied, the cursor at the last one); a
// page that ends before its own cursor is a gap too. It returns the changes merged.
func (s *Space) ApplyChanges(p Page) ([]Applied, error) {
	if p.Snapshot {
		return nil, fmt.Errorf("not a changes page")
	}
	if !s.Held {
		return nil, fmt.Errorf("changes before the snapshot finished")
	}
	list := make([]Applied, 0, len(p.Changes))
	for _, ch := range p.Changes {
		m, err := ch.Mutation()
		if err != nil {
			return nil, err
		}
		list = append(list, Applied{Change: ch, Mutation: m})
	}
	var out []Applied
	for _, a := range list {
		if a.Seq <= s.Cursor {
			continue
		}
		if a.Seq != s.Cursor+1 {
			return out, &GapError{Cursor: s.Cursor, Seq: a.Seq}
		}
		key := RecordKey(a.Collection, a.RecordID)
		st := s.Records[key]
		if st == nil {
			st = psync.NewRecordState()
			s.Records[key] = st
		}
		if _, err := st.Apply(a.Mutation); err != nil {
			return out, fmt.Errorf("change %d does not apply: %w", a.Seq, err)
		}
		s.Cursor = a.Seq
		out = append(out, a)
	}
	if s.Cursor < p.Cursor {
		return out, &GapError{Cursor: s.Cursor, Seq: p.Cursor, Tail: true}
	}
	return out, nil
}
