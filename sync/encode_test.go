package sync

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// The hand-written encoders must write exactly what encoding/json writes.

var awkwardValues = []any{
	"plain", "", "tildes: áéíóú ñ €", "emoji 🏖️👨‍👩‍👧‍👦", `quotes " and \ backslash`, "<script>&amp;</script>",
	"line\nbreak\ttab\rreturn", "\x00\x01\x1f control", "\u2028\u2029 separators", "bad utf8 \xff\xfe",
	nil, true, false, json.Number("12.50"), json.Number("-3"), json.Number("1e3"), 2.0, 0.25,
	[]any{"a", json.Number("1"), nil, map[string]any{"z": "last", "a": "first"}},
	map[string]any{"percentage": "30", "name": "Ana López", "nested": []any{true}},
}

func TestTheStateEncoderWritesWhatEncodingJSONWrites(t *testing.T) {
	seed := testSeed(t)
	rng := rand.New(rand.NewPCG(seed, seed^0x5a5a))
	for i := range 200 {
		h, err := simulate(rng, 2+rng.IntN(4), 20+rng.IntN(40))
		if err != nil {
			t.Fatal(err)
		}
		state := h.final.Clone()
		// Values of every kind, in fields and conflicts.
		for f := range state.Fields {
			state.Fields[f] = awkwardValues[rng.IntN(len(awkwardValues))]
		}
		for k := range state.Conflicts {
			state.Conflicts[k].Value = awkwardValues[rng.IntN(len(awkwardValues))]
		}
		got, fields := appendState(nil, state)
		want, err := json.Marshal(state)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("state %d:\n got %s\nwant %s", i, got, want)
		}
		wantFields, _ := json.Marshal(state.Fields)
		if fields != len(wantFields) {
			t.Fatalf("fields size %d, want %d", fields, len(wantFields))
		}
		for _, m := range h.muts {
			if m.Op != OpDelete {
				m.Base = map[string]Stamp{}
			}
			for f := range m.Fields {
				m.Fields[f] = awkwardValues[rng.IntN(len(awkwardValues))]
			}
			got := appendBody(nil, m)
			want, _ := json.Marshal(mutationBody{Op: m.Op, Stamp: m.Stamp, Fields: m.Fields, Base: m.Base, Resolves: m.Resolves})
			if string(got) != string(want) {
				t.Fatalf("body:\n got %s\nwant %s", got, want)
			}
		}
	}
}
