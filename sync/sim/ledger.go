package sim

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	psync "patrimonio/sync"
)

// Ledger records, for the checks after a scenario, what the devices did and saw: every mutation
// they made, every verdict they received, every frame that reached them, and anything that broke
// the protocol's promises on the way (anomalies).
type Ledger struct {
	mu        sync.Mutex
	made      map[mutKey]*Made
	acks      map[mutKey][]Ack
	rejects   map[mutKey][]string
	frames    map[string][][]byte // device name → frames received, in order
	records   map[string]string   // record id → workspace id (as made by devices)
	anomalies []string
	traces    map[string][]string // device name → its last messages both ways, summarised, with their times
	start     time.Time           // the scenario's start (the times of traces count from it)
}

type mutKey struct {
	client string
	id     int64
}

// Made is a mutation a device made.
type Made struct {
	Device     string // the device's name in the scenario
	Client     string // client id
	MutationID int64
	Workspace  string
	Collection string
	Record     string
	Mutation   psync.Mutation // as made (the original stamp)
	// Expect is "" for a mutation that must be applied, or the reject code it must get (a probe:
	// a write to a workspace the user is not a member of, or a viewer's write).
	Expect string
}

// Ack is one acknowledgement a device received.
type Ack struct {
	Status string
	Seq    int64
	Stamp  string
}

func newLedger() *Ledger {
	return &Ledger{made: map[mutKey]*Made{}, acks: map[mutKey][]Ack{}, rejects: map[mutKey][]string{},
		frames: map[string][][]byte{}, records: map[string]string{}, traces: map[string][]string{}, start: time.Now()}
}

func (l *Ledger) addMade(m *Made) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.made[mutKey{m.Client, m.MutationID}] = m
	if _, ok := l.records[m.Record]; !ok {
		l.records[m.Record] = m.Workspace
	}
}

func (l *Ledger) addAck(client string, a Ack, id int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := mutKey{client, id}
	l.acks[k] = append(l.acks[k], a)
}

func (l *Ledger) addReject(client string, id int64, code string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := mutKey{client, id}
	l.rejects[k] = append(l.rejects[k], code)
}

func (l *Ledger) addFrame(device string, data []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.frames[device] = append(l.frames[device], data)
}

func (l *Ledger) anomaly(device, format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.anomalies) < 50 {
		l.anomalies = append(l.anomalies, device+": "+fmt.Sprintf(format, args...))
	}
}

// Anomalies lists what broke a promise while the scenario ran.
func (l *Ledger) Anomalies() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.anomalies...)
}

func (l *Ledger) madeSorted() []*Made {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]*Made, 0, len(l.made))
	for _, m := range l.made {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Device != out[j].Device {
			return out[i].Device < out[j].Device
		}
		return out[i].MutationID < out[j].MutationID
	})
	return out
}

// trace notes a message a device sent ("→") or received ("←"), summarised, keeping the last
// traceLines.
func (l *Ledger) trace(device, dir string, data []byte) {
	line := fmt.Sprintf("%6.1fms %s %s", float64(time.Since(l.start).Microseconds())/1000, dir, summarize(data))
	l.mu.Lock()
	defer l.mu.Unlock()
	t := append(l.traces[device], line)
	if len(t) > traceLines {
		t = t[len(t)-traceLines:]
	}
	l.traces[device] = t
}

const traceLines = 60

// Trace is a device's last messages.
func (l *Ledger) Trace(device string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.traces[device], "\n      ")
}

// summarize shortens a protocol message to what matters for a diagnosis.
func summarize(data []byte) string {
	var m struct {
		Type        string           `json:"type"`
		WorkspaceID string           `json:"workspaceId"`
		Cursor      *int64           `json:"cursor"`
		After       *int64           `json:"after"`
		Limit       *int64           `json:"limit"`
		HasMore     *bool            `json:"hasMore"`
		PageToken   string           `json:"pageToken"`
		Cursors     map[string]int64 `json:"cursors"`
		Resume      map[string]any   `json:"resume"`
		Code        string           `json:"code"`
		MutationID  int64            `json:"mutationId"`
		Changes     []struct {
			Seq        int64 `json:"seq"`
			MutationID int64 `json:"mutationId"`
		} `json:"changes"`
		Records   []json.RawMessage `json:"records"`
		Mutations []struct {
			MutationID int64 `json:"mutationId"`
		} `json:"mutations"`
		Acks []struct {
			MutationID int64  `json:"mutationId"`
			Status     string `json:"status"`
			Seq        int64  `json:"seq"`
		} `json:"acks"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Sprintf("undecodable %.80s", data)
	}
	var b strings.Builder
	b.WriteString(m.Type)
	if m.WorkspaceID != "" {
		b.WriteString(" " + m.WorkspaceID[:min(8, len(m.WorkspaceID))])
	}
	num := func(name string, v *int64) {
		if v != nil {
			fmt.Fprintf(&b, " %s=%d", name, *v)
		}
	}
	num("after", m.After)
	num("limit", m.Limit)
	if len(m.Changes) > 0 {
		fmt.Fprintf(&b, " seqs %d..%d", m.Changes[0].Seq, m.Changes[len(m.Changes)-1].Seq)
	}
	if m.Type == "snapshot" {
		fmt.Fprintf(&b, " %d records", len(m.Records))
	}
	num("cursor", m.Cursor)
	if m.HasMore != nil && *m.HasMore {
		b.WriteString(" hasMore")
	}
	if m.PageToken != "" {
		b.WriteString(" token")
	}
	if m.Cursors != nil {
		fmt.Fprintf(&b, " cursors %v", m.Cursors)
	}
	if len(m.Resume) > 0 {
		fmt.Fprintf(&b, " resume %d", len(m.Resume))
	}
	for _, x := range m.Mutations {
		fmt.Fprintf(&b, " m%d", x.MutationID)
	}
	for _, a := range m.Acks {
		fmt.Fprintf(&b, " m%d:%s@%d", a.MutationID, a.Status, a.Seq)
	}
	if m.Type == "reject" {
		fmt.Fprintf(&b, " m%d %s", m.MutationID, m.Code)
	}
	if m.Code != "" && m.Type == "error" {
		b.WriteString(" " + m.Code)
	}
	return b.String()
}
