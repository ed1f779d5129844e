package psync

import (
	"encoding/json"
	"errors"
	"testing"

	"patrimonio/core"
)

// mergeVectors is testdata/merge_vectors.json, shared with clientdb/src/merge.test.ts.
type mergeVectors struct {
	Cases []struct {
		Name  string `json:"name"`
		Steps []struct {
			Apply  Mutation        `json:"apply"`
			Effect json.RawMessage `json:"effect"`
		} `json:"steps"`
		Want           RecordState     `json:"want"`
		Shown          json.RawMessage `json:"shown"`
		UnseenByDelete json.RawMessage `json:"unseenByDelete"`
	} `json:"cases"`
	Invalid []struct {
		Name     string          `json:"name"`
		Mutation json.RawMessage `json:"mutation"`
	} `json:"invalid"`
	Values []struct {
		A    any `json:"a"`
		B    any `json:"b"`
		Want int `json:"want"`
	} `json:"values"`
}

// sameJSON reports whether two JSON texts hold the same value (key order aside).
func sameJSON(t *testing.T, got any, want json.RawMessage) (bool, string) {
	t.Helper()
	g, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	var gv, wv any
	if err := json.Unmarshal(g, &gv); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want, &wv); err != nil {
		t.Fatal(err)
	}
	ng, _ := json.Marshal(gv)
	nw, _ := json.Marshal(wv)
	return string(ng) == string(nw), string(ng)
}

func TestMergeVectors(t *testing.T) {
	var v mergeVectors
	loadJSON(t, "testdata/merge_vectors.json", &v)
	if len(v.Cases) == 0 || len(v.Invalid) == 0 || len(v.Values) == 0 {
		t.Fatal("a section of merge_vectors.json is empty")
	}
	for _, c := range v.Cases {
		t.Run(c.Name, func(t *testing.T) {
			st := NewRecordState()
			for i, step := range c.Steps {
				eff, err := st.Apply(step.Apply)
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				if step.Effect != nil {
					if eff.Changed == nil {
						eff.Changed = []string{}
					}
					if eff.Opened == nil {
						eff.Opened = []Conflict{}
					}
					if eff.Closed == nil {
						eff.Closed = []Conflict{}
					}
					if ok, got := sameJSON(t, eff, step.Effect); !ok {
						t.Fatalf("step %d effect:\n got %s\nwant %s", i, got, step.Effect)
					}
				}
			}
			if got, want := stateJSON(st), stateJSON(&c.Want); got != want {
				t.Fatalf("final state:\n got %s\nwant %s", got, want)
			}
			if c.Shown != nil {
				if ok, got := sameJSON(t, st.ShownConflicts(), c.Shown); !ok {
					t.Errorf("shown conflicts %s, want %s", got, c.Shown)
				}
			}
			if c.UnseenByDelete != nil {
				unseen := st.UnseenByDelete()
				if unseen == nil {
					unseen = []string{}
				}
				if ok, got := sameJSON(t, unseen, c.UnseenByDelete); !ok {
					t.Errorf("unseen by delete %s, want %s", got, c.UnseenByDelete)
				}
			}
		})
	}
	for _, c := range v.Invalid {
		t.Run("reject: "+c.Name, func(t *testing.T) {
			st := NewRecordState()
			create := Mutation{Op: OpPut, Stamp: mustStamp(t, "2025-03-01T10:00:01.000Z-0000-aaaaaaaaaaaaaaaa"), Author: "client-a", Fields: map[string]any{"value": "100.00"}}
			if _, err := st.Apply(create); err != nil {
				t.Fatal(err)
			}
			before := stateJSON(st)
			var m Mutation
			if err := json.Unmarshal(c.Mutation, &m); err != nil {
				return // rejected while decoding
			}
			_, err := st.Apply(m)
			if err == nil {
				t.Fatalf("Apply accepted %s", c.Mutation)
			}
			var e *core.Error
			if !errors.As(err, &e) || e.Code != core.EINVALID {
				t.Errorf("error %v is not an EINVALID *core.Error", err)
			}
			if after := stateJSON(st); after != before {
				t.Errorf("a rejected mutation changed the state:\n%s\n%s", before, after)
			}
		})
	}
	for _, c := range v.Values {
		a, _ := json.Marshal(c.A)
		b, _ := json.Marshal(c.B)
		t.Run("values: "+string(a)+" vs "+string(b), func(t *testing.T) {
			if got := CompareValues(c.A, c.B); got != c.Want {
				t.Errorf("CompareValues = %d, want %d", got, c.Want)
			}
			if got := CompareValues(c.B, c.A); got != -c.Want {
				t.Errorf("reversed CompareValues = %d, want %d", got, -c.Want)
			}
		})
	}
}
