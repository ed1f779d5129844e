package psync

import (
	"encoding/json"
	"errors"
	"os"
	"testing"
	"time"

	"patrimonio/core"
)

// clockVectors is testdata/clock_vectors.json, shared with clientdb/src/hlc.test.ts.
type clockVectors struct {
	Compare []struct {
		Name string `json:"name"`
		A    string `json:"a"`
		B    string `json:"b"`
		Want int    `json:"want"`
	} `json:"compare"`
	Parse []struct {
		Name    string `json:"name"`
		Input   string `json:"input"`
		Millis  int64  `json:"millis"`
		Counter uint16 `json:"counter"`
		Node    string `json:"node"`
	} `json:"parse"`
	Invalid []struct {
		Name  string `json:"name"`
		Input string `json:"input"`
	} `json:"invalid"`
	Format []struct {
		Name    string `json:"name"`
		Millis  int64  `json:"millis"`
		Counter uint16 `json:"counter"`
		Node    string `json:"node"`
		Want    string `json:"want"`
	} `json:"format"`
	Sequences []struct {
		Name       string `json:"name"`
		Node       string `json:"node"`
		MaxDriftMs int64  `json:"maxDriftMs"`
		Last       string `json:"last"`
		Steps      []struct {
			Wall      string `json:"wall"`
			Op        string `json:"op"`
			Remote    string `json:"remote"`
			Want      string `json:"want"`
			Restamped bool   `json:"restamped"`
		} `json:"steps"`
	} `json:"sequences"`
}

func loadJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func mustStamp(t *testing.T, s string) Stamp {
	t.Helper()
	st, err := ParseStamp(s)
	if err != nil {
		t.Fatalf("vector stamp %q: %v", s, err)
	}
	return st
}

func TestClockVectors(t *testing.T) {
	var v clockVectors
	loadJSON(t, "testdata/clock_vectors.json", &v)
	if len(v.Compare) == 0 || len(v.Parse) == 0 || len(v.Invalid) == 0 || len(v.Format) == 0 || len(v.Sequences) == 0 {
		t.Fatal("a section of clock_vectors.json is empty")
	}

	for _, c := range v.Compare {
		t.Run("compare: "+c.Name, func(t *testing.T) {
			a, b := mustStamp(t, c.A), mustStamp(t, c.B)
			if got := Compare(a, b); got != c.Want {
				t.Errorf("Compare(%s, %s) = %d, want %d", c.A, c.B, got, c.Want)
			}
			if got := Compare(b, a); got != -c.Want {
				t.Errorf("Compare(%s, %s) = %d, want %d", c.B, c.A, got, -c.Want)
			}
			if got := strCmp(c.A, c.B); got != c.Want {
				t.Errorf("the text forms compare as %d, want %d", got, c.Want)
			}
		})
	}

	for _, c := range v.Parse {
		t.Run("parse: "+c.Name, func(t *testing.T) {
			st, err := ParseStamp(c.Input)
			if err != nil {
				t.Fatalf("ParseStamp(%q): %v", c.Input, err)
			}
			want := Stamp{Millis: c.Millis, Counter: c.Counter, Node: c.Node}
			if st != want {
				t.Fatalf("ParseStamp(%q) = %+v, want %+v", c.Input, st, want)
			}
			if st.String() != c.Input {
				t.Errorf("String() = %q, want the input back", st.String())
			}
		})
	}

	for _, c := range v.Invalid {
		t.Run("reject: "+c.Name, func(t *testing.T) {
			st, err := ParseStamp(c.Input)
			if err == nil {
				t.Fatalf("ParseStamp(%q) = %+v, want an error", c.Input, st)
			}
			var e *core.Error
			if !errors.As(err, &e) || e.Code != core.EINVALID {
				t.Errorf("error %v is not an EINVALID *core.Error", err)
			}
		})
	}

	for _, c := range v.Format {
		t.Run("format: "+c.Name, func(t *testing.T) {
			st := Stamp{Millis: c.Millis, Counter: c.Counter, Node: c.Node}
			if got := st.String(); got != c.Want {
				t.Errorf("String() = %q, want %q", got, c.Want)
			}
			back, err := ParseStamp(c.Want)
			if err != nil || back != st {
				t.Errorf("ParseStamp(%q) = %+v, %v; want %+v", c.Want, back, err, st)
			}
		})
	}

	for _, seq := range v.Sequences {
		t.Run("clock: "+seq.Name, func(t *testing.T) {
			var wall time.Time
			cfg := ClockConfig{
				Node:     seq.Node,
				Now:      func() time.Time { return wall },
				MaxDrift: time.Duration(seq.MaxDriftMs) * time.Millisecond,
			}
			if seq.Last != "" {
				cfg.Last = mustStamp(t, seq.Last)
			}
			c, err := NewClock(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for i, step := range seq.Steps {
				wall, err = time.Parse(time.RFC3339Nano, step.Wall)
				if err != nil {
					t.Fatalf("step %d: wall %q: %v", i, step.Wall, err)
				}
				var got Stamp
				restamped := false
				switch step.Op {
				case "now":
					got = c.Now()
				case "observe":
					got = c.Observe(mustStamp(t, step.Remote))
				case "bound":
					got, restamped = c.Bound(mustStamp(t, step.Remote))
				default:
					t.Fatalf("step %d: unknown op %q", i, step.Op)
				}
				if got.String() != step.Want || restamped != step.Restamped {
					t.Fatalf("step %d (%s at %s): got %s restamped=%v, want %s restamped=%v",
						i, step.Op, step.Wall, got, restamped, step.Want, step.Restamped)
				}
			}
		})
	}
}

func strCmp(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
