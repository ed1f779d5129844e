package psync

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
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
			want, _ := json.Marshal(mutationBody{Op: m.Op, Stamp: m.Stamp, Fields: m.Fields, Base: m.Base, Resolves: m.Resolves, Late: m.Late})
			if string(got) != string(want) {
				t.Fatalf("body:\n got %s\nwant %s", got, want)
			}
		}
	}

	// The encoder sorts the fields' keys once for the clocks and authors too; states whose clocks
	// or authors have other keys than their fields are written as they are all the same.
	st := Stamp{Millis: 1_800_000_000_000, Node: "a1b2c3d4e5f60718"}
	base := func() *RecordState {
		return &RecordState{
			Fields:  map[string]any{"a": "x", "m": nil, "z": json.Number("1")},
			Clocks:  map[string]Stamp{"a": st, "m": st, "z": st},
			Authors: map[string]string{"a": "c1", "m": "c1", "z": "c2"},
			Seen:    map[string]Stamp{st.Node: st},
		}
	}
	variants := map[string]func(s *RecordState){
		"same keys":              func(*RecordState) {},
		"a clock of another key": func(s *RecordState) { delete(s.Clocks, "m"); s.Clocks["n"] = st },
		"a clock of the first key gone, another added": func(s *RecordState) { delete(s.Clocks, "a"); s.Clocks["b"] = st },
		"a clock more":             func(s *RecordState) { s.Clocks["q"] = st },
		"a clock fewer":            func(s *RecordState) { delete(s.Clocks, "z") },
		"an author of another key": func(s *RecordState) { delete(s.Authors, "z"); s.Authors["y"] = "c3" },
		"an author fewer":          func(s *RecordState) { delete(s.Authors, "a") },
		"no fields, clocks kept":   func(s *RecordState) { s.Fields = map[string]any{} },
	}
	for name, change := range variants {
		state := base()
		change(state)
		got, _ := appendState(nil, state)
		want, err := json.Marshal(state)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}

// A record's first mutation in a group is written without making its state (appendNewRecord, and
// the record entry's deleted and conflicts columns): exactly what merging it into an empty state
// gives, and that state when a later mutation needs it (current), for mutations of every kind.
func TestANewRecordsFirstMutationIsWrittenAsTheMergeMakesIt(t *testing.T) {
	seed := testSeed(t)
	rng := rand.New(rand.NewPCG(seed, seed^0xa5a5))
	ops := map[Op]int{}
	for range 300 {
		h, err := simulate(rng, 2+rng.IntN(4), 10+rng.IntN(30))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range h.muts {
			for f := range m.Fields {
				m.Fields[f] = awkwardValues[rng.IntN(len(awkwardValues))]
			}
			if m.Op == OpDelete && rng.IntN(2) == 0 {
				m.Base = nil // a delete made with no base: no "base" in its life register
			}
			ops[m.Op]++
			want := NewRecordState()
			if _, err := want.Apply(m); err != nil {
				t.Fatal(err)
			}
			wantJSON, wantFields := appendState(nil, want)
			wantBody := appendBody(nil, m)
			// Written after something, as a group writes it into its scratch buffer.
			got, stateEnd, fields := appendNewRecord([]byte("before"), &m)
			if string(got[:stateEnd]) != "before"+string(wantJSON) || fields != wantFields {
				t.Fatalf("%s:\n got %s (fields %d)\nwant %s (fields %d)", m.Op, got[:stateEnd], fields, wantJSON, wantFields)
			}
			if string(got[stateEnd:]) != string(wantBody) {
				t.Fatalf("%s: body\n got %s\nwant %s", m.Op, got[stateEnd:], wantBody)
			}
			entry := recordEntry{state: &noRecordState, created: m, hasCreated: true}
			if entry.deleted() != want.Deleted() || entry.conflicts() != int64(len(want.Conflicts)) {
				t.Fatalf("%s: columns deleted %v, conflicts %d; want %v, %d", m.Op, entry.deleted(), entry.conflicts(), want.Deleted(), len(want.Conflicts))
			}
			if made := entry.current(); !reflect.DeepEqual(made, want) || entry.hasCreated {
				t.Fatalf("%s: the state made later\n got %+v\nwant %+v", m.Op, made, want)
			}
			if !reflect.DeepEqual(noRecordState, RecordState{}) {
				t.Fatalf("making the state wrote the shared empty state: %+v", noRecordState)
			}
		}
	}
	for _, op := range []Op{OpPut, OpDelete, OpRestore, OpResolve} {
		if ops[op] == 0 {
			t.Errorf("no %s among the mutations: the test does not cover it", op)
		}
	}
}

// appendString escapes as encoding/json does: every byte alone and after a plain one, every pair
// of bytes of 0x80 and above around the two-byte and three-byte starts (U+2028 and U+2029
// among them), and random strings of bytes of every kind.
func TestAppendStringEscapesAsEncodingJSONDoes(t *testing.T) {
	check := func(s string) {
		t.Helper()
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendString(nil, s); string(got) != string(want) {
			t.Fatalf("appendString(%q) = %s, want %s", s, got, want)
		}
	}
	for c := range 256 {
		check(string([]byte{byte(c)}))
		check("ab" + string([]byte{byte(c)}) + "cd")
	}
	for hi := 0x80; hi < 0x100; hi++ {
		for lo := 0x80; lo < 0xc0; lo++ {
			check(string([]byte{byte(hi), byte(lo)}))
			check("x" + string([]byte{0xe2, byte(hi), byte(lo)}) + "y")
		}
	}
	seed := testSeed(t)
	rng := rand.New(rand.NewPCG(seed, seed^0xa5a5))
	alphabet := []byte("aZ09 _-.\"\\<>&\n\t\x00\x1f\x7f\xc3\xa1\xe2\x80\xa8\xa9\xf0\x9f\x8f\x96\xff")
	for range 20000 {
		b := make([]byte, rng.IntN(24))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		check(string(b))
	}
}
