package psync

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

const stampA1 = "2025-03-01T10:00:01.000Z-0000-aaaaaaaaaaaaaaaa"

func TestMutationValidateRejectsValuesThatAreNotJSON(t *testing.T) {
	st := mustStampT(t, stampA1)
	tests := []struct {
		name  string
		value any
	}{
		{"NaN is rejected", math.NaN()},
		{"infinity is rejected", math.Inf(1)},
		{"a Go struct is rejected", struct{}{}},
		{"a channel inside an array is rejected", []any{1, make(chan int)}},
		{"a map with non-string keys is rejected", map[int]any{1: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Mutation{Op: OpPut, Stamp: st, Author: "client-a", Fields: map[string]any{"value": tt.value}}
			if err := m.Validate(); err == nil {
				t.Fatal("Validate accepted it")
			}
		})
	}
}

func mustStampT(t *testing.T, s string) Stamp {
	t.Helper()
	st, err := ParseStamp(s)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestStampJSONUsesTheTextForm(t *testing.T) {
	st := mustStampT(t, stampA1)
	b, err := json.Marshal(map[string]Stamp{"s": st})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"s":"`+stampA1+`"}` {
		t.Fatalf("got %s", b)
	}
	var back map[string]Stamp
	if err := json.Unmarshal(b, &back); err != nil || back["s"] != st {
		t.Fatalf("round trip gave %v, %v", back, err)
	}
	if _, err := json.Marshal(Stamp{Millis: -1, Node: "aaaaaaaaaaaaaaaa"}); err == nil {
		t.Fatal("an invalid stamp was marshalled")
	}
	if err := json.Unmarshal([]byte(`"2025-03-01"`), new(Stamp)); err == nil {
		t.Fatal("a malformed stamp was unmarshalled")
	}
}

func TestRecordStateDecodedFromJSONCanBeApplied(t *testing.T) {
	var st RecordState
	if err := json.Unmarshal([]byte(`{"fields":{"value":"1"},"clocks":{"value":"`+stampA1+`"},"authors":{"value":"client-a"}}`), &st); err != nil {
		t.Fatal(err)
	}
	m := Mutation{Op: OpPut, Stamp: mustStampT(t, "2025-03-01T10:00:02.000Z-0000-bbbbbbbbbbbbbbbb"), Author: "client-b", Fields: map[string]any{"value": "2"}}
	eff, err := st.Apply(m)
	if err != nil {
		t.Fatal(err)
	}
	if len(eff.Opened) != 1 || st.Fields["value"] != "2" {
		t.Fatalf("effect %+v, state %s", eff, stateJSON(&st))
	}
	// Empty maps and lists are written as {} and [], never null.
	empty, err := json.Marshal(RecordState{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(empty), "null") {
		t.Fatalf("empty state marshals as %s", empty)
	}
}

func TestCloneIsIndependentOfTheOriginal(t *testing.T) {
	st := NewRecordState()
	if _, err := st.Apply(Mutation{Op: OpPut, Stamp: mustStampT(t, stampA1), Author: "client-a", Fields: map[string]any{"value": "1"}}); err != nil {
		t.Fatal(err)
	}
	before := stateJSON(st)
	c := st.Clone()
	if _, err := c.Apply(Mutation{Op: OpDelete, Stamp: mustStampT(t, "2025-03-01T10:00:02.000Z-0000-bbbbbbbbbbbbbbbb"), Author: "client-b",
		Base: map[string]Stamp{"value": mustStampT(t, stampA1)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Apply(Mutation{Op: OpPut, Stamp: mustStampT(t, "2025-03-01T10:00:03.000Z-0000-cccccccccccccccc"), Author: "client-c", Fields: map[string]any{"value": "3"}}); err != nil {
		t.Fatal(err)
	}
	if after := stateJSON(st); after != before {
		t.Fatalf("changing the clone changed the original:\n%s\n%s", before, after)
	}
	if !c.Deleted() || len(c.Conflicts) != 1 {
		t.Fatalf("clone state %s", stateJSON(c))
	}
}
