package schema_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	schema "patrimonio/shared-schema"
)

// TestVectors runs every shared vector (testdata/*.json) through the Go validator. The Vitest suite
// (test/vectors.test.ts) runs the same files; both must agree on verdict, path, key and params.
func TestVectors(t *testing.T) {
	vectors, err := schema.Vectors()
	if err != nil {
		t.Fatal(err)
	}
	if len(vectors) < 100 {
		t.Fatalf("only %d vectors loaded", len(vectors))
	}
	for _, v := range vectors {
		t.Run(strings.TrimSuffix(v.File, ".json")+"/"+v.Name, func(t *testing.T) {
			issues, err := schema.Validate(v.Entity, v.Input, "es")
			if err != nil {
				t.Fatal(err)
			}
			if v.Valid {
				if len(issues) != 0 {
					t.Fatalf("want valid, got %+v", issues)
				}
				assertRoundTrip(t, v)
				return
			}
			if len(issues) != 1 {
				t.Fatalf("want exactly one issue {%q %q}, got %+v", v.Path, v.Key, issues)
			}
			got := issues[0]
			if got.Path != v.Path || got.Key != v.Key {
				t.Fatalf("want {%q %q}, got {%q %q}", v.Path, v.Key, got.Path, got.Key)
			}
			if !reflect.DeepEqual(normalize(t, got.Params), normalize(t, v.Params)) {
				t.Fatalf("want params %v, got %v", v.Params, got.Params)
			}
			if got.Message == "" || got.Message == got.Key {
				t.Fatalf("message for %q not resolved: %q", got.Key, got.Message)
			}
		})
	}
}

// assertRoundTrip checks validation leaves the decoded document untouched and that encoding it
// back (without HTML escaping, as the server must) gives the same values, text byte for byte.
func assertRoundTrip(t *testing.T, v schema.Vector) {
	t.Helper()
	decode := func(raw []byte) any {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var out any
		if err := dec.Decode(&out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	value, before := decode(v.Input), decode(v.Input)
	if issues, err := schema.ValidateValue(v.Entity, value, "en"); err != nil || len(issues) != 0 {
		t.Fatalf("ValidateValue: %v %+v", err, issues)
	}
	if !reflect.DeepEqual(value, before) {
		t.Fatal("validation changed the document")
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(value); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(decode(buf.Bytes()), before) {
		t.Fatal("re-encoded document differs")
	}
	for _, s := range stringsIn(before) {
		quoted, _ := json.Marshal(s)
		if strings.Contains(s, "<") && !bytes.Contains(buf.Bytes(), []byte("<")) {
			t.Fatalf("text %s was escaped", quoted)
		}
	}
}

func stringsIn(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, c := range x {
			out = append(out, stringsIn(c)...)
		}
		return out
	case map[string]any:
		var out []string
		for _, c := range x {
			out = append(out, stringsIn(c)...)
		}
		return out
	}
	return nil
}

// normalize turns params into plain JSON values (numbers as float64) so ints and floats compare.
func normalize(t *testing.T, params map[string]any) map[string]any {
	t.Helper()
	if params == nil {
		params = map[string]any{}
	}
	raw, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestParticipationValueMatchesTheSharedVectors(t *testing.T) {
	raw, err := schema.TestdataFile("derived/participationValue.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ Name, CurrentValue, Participation, Want string }
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			got, err := schema.ParticipationValue(c.CurrentValue, c.Participation)
			if err != nil || got != c.Want {
				t.Fatalf("ParticipationValue(%s, %s) = %q, %v; want %q", c.CurrentValue, c.Participation, got, err, c.Want)
			}
		})
	}
}
