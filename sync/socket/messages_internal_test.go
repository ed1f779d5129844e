package socket

import (
	"bytes"
	"math/rand/v2"
	"testing"

	psync "patrimonio/sync"
)

// ackMessage and ackEntry are the ack message as encoding/json writes it: the reference of
// ackWriter.
type ackMessage struct {
	Type string     `json:"type"`
	Acks []ackEntry `json:"acks"`
}

type ackEntry struct {
	MutationID int64        `json:"mutationId"`
	Status     psync.Status `json:"status"`
	Seq        int64        `json:"seq"`
	Stamp      *psync.Stamp `json:"stamp,omitempty"`
}

// TestTheAckWriterWritesWhatEncodingJSONWrites: the hand-written ack encoder and encoding/json
// write the same bytes for acks with and without stamps, and large ids and sequence numbers (an
// ack lists at least one mutation: the connection sends none otherwise).
func TestTheAckWriterWritesWhatEncodingJSONWrites(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	var none ackWriter
	if none.message() != nil {
		t.Fatal("an ack writer with no entry writes a message")
	}
	for range 500 {
		var acks []ackEntry
		var w ackWriter
		n := 1 + rng.IntN(6)
		for range n {
			o := psync.Outcome{MutationID: rng.Int64N(1 << 53), Status: psync.StatusApplied, Seq: rng.Int64N(1 << 40)}
			switch rng.IntN(3) {
			case 0:
				o.Status, o.Seq = psync.StatusDuplicate, 0
			case 1:
				o.Stamp = psync.Stamp{Millis: rng.Int64N(1 << 44), Counter: uint16(rng.IntN(1 << 16)), Node: "0123456789abcdef"}
			}
			a := ackEntry{MutationID: o.MutationID, Status: o.Status, Seq: o.Seq}
			if !o.Stamp.IsZero() {
				st := o.Stamp
				a.Stamp = &st
			}
			acks = append(acks, a)
			w.add(o, n)
		}
		want := mustJSON(ackMessage{Type: msgAck, Acks: acks})
		if got := w.message(); !bytes.Equal(got, want) {
			t.Fatalf("the ack writer writes\n%s\nencoding/json\n%s", got, want)
		}
	}
}
