package schema

import (
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"testing"
)

func TestConstantsMatchTheGeneratedManifest(t *testing.T) {
	set, err := load()
	if err != nil {
		t.Fatal(err)
	}
	m := set.manifest
	if m.ProtocolVersion != ProtocolVersion || m.SchemaVersion != SchemaVersion {
		t.Fatalf("versions: manifest %d/%d, Go %d/%d", m.ProtocolVersion, m.SchemaVersion, ProtocolVersion, SchemaVersion)
	}
	want := map[string]int{
		"maxMessageBytes": MaxMessageBytes, "maxRecordBytes": MaxRecordBytes, "maxDepth": MaxDepth,
		"maxMutationsPerPush": MaxMutationsPerPush, "maxChangesPerPage": MaxChangesPerPage,
		"maxFieldsPerMutation": MaxFieldsPerMutation, "maxWorkspaces": MaxWorkspaces, "maxIssues": MaxIssues,
	}
	if !reflect.DeepEqual(m.Limits, want) {
		t.Fatalf("limits: manifest %v, Go %v", m.Limits, want)
	}
}

func TestEveryFormatInTheSchemasIsRegistered(t *testing.T) {
	set, err := load()
	if err != nil {
		t.Fatal(err)
	}
	registered := map[string]bool{}
	for _, f := range registeredFormats() {
		registered[f.Name] = true
	}
	used := map[string]bool{}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if f, ok := x["format"].(string); ok {
				used[f] = true
				if _, hasPattern := x["pattern"]; !hasPattern && f != "isin" {
					t.Errorf("format %s has no pattern: its check would only be the Go no-op", f)
				}
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	for _, doc := range set.docs {
		walk(doc)
	}
	for f := range used {
		if !registered[f] {
			t.Errorf("format %q is used but not registered", f)
		}
	}
	if len(used) < 10 {
		t.Fatalf("only %d formats found", len(used))
	}
}

func TestPatternsCompileTheSameInGo(t *testing.T) {
	// Every pattern was written for JavaScript; Go must accept its syntax (compile already
	// proves it) and both must treat the samples below the same way.
	set, err := load()
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if p, ok := x["pattern"].(string); ok && !slices.Contains(patterns, p) {
				patterns = append(patterns, p)
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	for _, doc := range set.docs {
		walk(doc)
	}
	for _, p := range patterns {
		if _, err := regexp.Compile(p); err != nil {
			t.Errorf("pattern %q: %v", p, err)
		}
	}
	text := regexp.MustCompile(`^[^\x00-\x08\x0B\x0C\x0E-\x1F\x7F]*$`)
	for s, want := range map[string]bool{"a\tb\nc\r": true, "ñ😀<>'\"": true, "a\x00": false, "\x7f": false, "\x1b[31m": false} {
		if text.MatchString(s) != want {
			t.Errorf("text pattern on %q: want %v", s, want)
		}
	}
}

func TestMessageFilesHaveTheSameKeysAndPlaceholders(t *testing.T) {
	set, err := load()
	if err != nil {
		t.Fatal(err)
	}
	es, en := messageKeys(set.messages["es"], ""), messageKeys(set.messages["en"], "")
	if !reflect.DeepEqual(es, en) {
		t.Fatalf("keys differ:\nes %v\nen %v", es, en)
	}
	for _, key := range es {
		a, _ := lookup(set.messages["es"], key)
		b, _ := lookup(set.messages["en"], key)
		pa, pb := placeholder.FindAllString(a, -1), placeholder.FindAllString(b, -1)
		slices.Sort(pa)
		slices.Sort(pb)
		if !reflect.DeepEqual(pa, pb) {
			t.Errorf("%s: placeholders %v vs %v", key, pa, pb)
		}
	}
}

func TestHundredths(t *testing.T) {
	for s, want := range map[string]int64{"12.5": 1250, "0.01": 1, "100": 10000, "-0.25": -25, "7.05": 705, "100.00": 10000} {
		if got := hundredths(s); got != want {
			t.Errorf("hundredths(%s) = %d, want %d", s, got, want)
		}
	}
}

func TestVectorsDecodeNumbersExactly(t *testing.T) {
	vectors, err := Vectors()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vectors {
		if !json.Valid(v.Input) {
			t.Fatalf("%s/%s: input is not JSON", v.File, v.Name)
		}
	}
}
