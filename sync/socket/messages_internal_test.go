package socket

import (
	"bytes"
	"math/rand/v2"
	"testing"

	psync "patrimonio/sync"
)

// TestEncodeAckWritesWhatEncodingJSONWrites: the hand-written ack encoder and encoding/json write
// the same bytes for acks with and without stamps, and large ids and sequence numbers (an ack
// lists at least one mutation: the connection sends none otherwise).
func TestEncodeAckWritesWhatEncodingJSONWrites(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for range 500 {
		var acks []ackEntry
		for range 1 + rng.IntN(6) {
			a := ackEntry{MutationID: rng.Int64N(1 << 53), Status: psync.StatusApplied, Seq: rng.Int64N(1 << 40)}
			switch rng.IntN(3) {
			case 0:
				a.Status, a.Seq = psync.StatusDuplicate, 0
			case 1:
				st := psync.Stamp{Millis: rng.Int64N(1 << 44), Counter: uint16(rng.IntN(1 << 16)), Node: "0123456789abcdef"}
				a.Stamp = &st
			}
			acks = append(acks, a)
		}
		want := mustJSON(ackMessage{Type: msgAck, Acks: acks})
		if got := encodeAck(acks); !bytes.Equal(got, want) {
			t.Fatalf("encodeAck writes\n%s\nencoding/json\n%s", got, want)
		}
	}
}
