package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
)

// The fast check (fast.go) must give the library's verdict: never accept what the library refuses
// (that would let an invalid document in), and accept what it accepts (else it is no faster). These
// tests compare both on every shared vector and on many documents mutated from them.

// fastFile is the schema file check() would use for a document of entity (messages by type).
func (s *schemaSet) fastFile(entity string, value any) (string, bool) {
	if !s.isMessage(entity) {
		return s.manifest.Entities[entity], true
	}
	obj, _ := value.(map[string]any)
	name, _ := obj["type"].(string)
	file, ok := s.manifest.Messages[entity][name]
	return file, ok
}

func decodeExact(t testing.TB, raw []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return v
}

// agree fails the test when the fast check and the library disagree on value against file.
func agree(t testing.TB, set *schemaSet, file string, value any, what string) (valid bool) {
	t.Helper()
	libValid := set.compiled[file].Validate(value) == nil
	fastValid := set.fast[file].valid(value)
	if libValid != fastValid {
		doc, _ := json.Marshal(value)
		t.Fatalf("%s: %s: library valid=%v, fast check valid=%v for %s", file, what, libValid, fastValid, doc)
	}
	return libValid
}

// TestFastCheckCompilesEverySchema: every generated schema gets a fast check. A keyword fast.go
// does not implement turns it off for that schema (correct, but slow): implement it instead.
func TestFastCheckCompilesEverySchema(t *testing.T) {
	set, err := load()
	if err != nil {
		t.Fatal(err)
	}
	if len(set.compiled) < 40 {
		t.Fatalf("only %d schemas", len(set.compiled))
	}
	for file := range set.compiled {
		if set.fast[file] == nil {
			t.Errorf("%s has no fast check", file)
		}
	}
}

// TestFastCheckAgreesOnVectors: the same verdict as the library on every shared vector whose
// schema step decides (a vector refused earlier, by size or depth, or later, by a rule, still
// reaches the schema step, and both must agree there too).
func TestFastCheckAgreesOnVectors(t *testing.T) {
	set, err := load()
	if err != nil {
		t.Fatal(err)
	}
	vectors, err := Vectors()
	if err != nil {
		t.Fatal(err)
	}
	checked, refused := 0, 0
	for _, v := range vectors {
		if !json.Valid(v.Input) {
			continue
		}
		value := decodeExact(t, v.Input)
		file, ok := set.fastFile(v.Entity, value)
		if !ok {
			continue
		}
		checked++
		if !agree(t, set, file, value, v.File+"/"+v.Name) {
			refused++
		}
	}
	if checked < 300 || refused < 100 {
		t.Fatalf("too few vectors compared: %d (%d refused by the schema)", checked, refused)
	}
}

// TestFastCheckAgreesOnMutatedDocuments: starting from every vector, thousands of seeded random
// edits (values replaced by others of every type and near-miss shapes, keys removed or added,
// strings cut, grown or with one character changed, lists grown or emptied) must get the same
// verdict from both.
func TestFastCheckAgreesOnMutatedDocuments(t *testing.T) {
	set, err := load()
	if err != nil {
		t.Fatal(err)
	}
	vectors, err := Vectors()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(17, 2026))
	perVector := 60
	if testing.Short() {
		perVector = 10
	}
	total, valid := 0, 0
	for _, v := range vectors {
		if !json.Valid(v.Input) {
			continue
		}
		for i := 0; i < perVector; i++ {
			value := decodeExact(t, v.Input)
			edits := 1 + rng.IntN(3)
			for e := 0; e < edits; e++ {
				value = mutate(rng, value, set.fieldNames(v.Entity), 0)
			}
			file, ok := set.fastFile(v.Entity, value)
			if !ok {
				continue
			}
			total++
			if agree(t, set, file, value, fmt.Sprintf("%s/%s edit %d", v.File, v.Name, i)) {
				valid++
			}
		}
	}
	t.Logf("%d mutated documents, %d valid", total, valid)
	if total < 10000 || valid < 1000 || total-valid < 1000 {
		t.Fatalf("the mutations did not reach both verdicts enough: %d documents, %d valid", total, valid)
	}
}

// FuzzFastCheck: any JSON document, against every schema.
func FuzzFastCheck(f *testing.F) {
	set, err := load()
	if err != nil {
		f.Fatal(err)
	}
	vectors, err := Vectors()
	if err != nil {
		f.Fatal(err)
	}
	for _, v := range vectors {
		f.Add([]byte(v.Input))
	}
	files := make([]string, 0, len(set.compiled))
	for file := range set.compiled {
		files = append(files, file)
	}
	sort.Strings(files)
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) || depthOfJSONBytes(raw) > MaxDepth {
			return
		}
		value := decodeExact(t, raw)
		for _, file := range files {
			agree(t, set, file, value, "fuzz")
		}
	})
}

func depthOfJSONBytes(raw []byte) int {
	depth, deepest := 0, 0
	for _, c := range raw {
		switch c {
		case '{', '[':
			depth++
			deepest = max(deepest, depth)
		case '}', ']':
			depth--
		}
	}
	return deepest
}

// fieldNames lists property names an entity's schema knows (a mutation may add one).
func (s *schemaSet) fieldNames(entity string) []string {
	names := []string{"type", "mutations", "fields", "base", "op", "stamp", "title", "unknownField"}
	if props, ok := s.properties(entity); ok {
		for name := range props {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// replacement values: every JSON type, and strings and numbers near the schemas' edges.
func randomValue(rng *rand.Rand) any {
	strs := []string{
		"", "a", "x", " ", "es", "EUR", "eur", "ES", "put", "delete", "restore", "resolve", "push", "pull", "hello",
		"assets", "tasks", "todo", "done", "custom", "realEstate", "cash", "0", "1", "100", "100.00", "100.001",
		"12.5", "-1", "0.00", "01", "1e3", "9999999999999999", "2025-02-29", "2024-02-29", "2025-13-01", "2025-01-31",
		"2025-03-01T10:15:30.123Z-0001-0123456789abcdef", "2025-03-01T10:15:30.123Z-000a-0123456789abcdef",
		"2025-03-01T10:15:30.123Z-0001-0123456789ABCDEF", "2025-03-01T10:15:30.123Z-0001-0123456789abcde",
		"0190a5f0-5c3b-7d4e-8f60-123456789abc", "0190a5f0-5c3b-4d4e-8f60-123456789abc", "0190a5f0-5c3b-7d4e-cf60-123456789abc",
		"0190A5F0-5C3B-7D4E-8F60-123456789ABC", "6a1f0e2d-3c4b-4a59-8e7d-6c5b4a392817", "a@b.co", "a@b", "https://x.es/a",
		"http://", "ES0000000000", "US0378331005", "US0378331006", "123456", "12345", "+34 600 000 000",
		"tab\there", "nul\x00", "line\nbreak", "ñandú", "€", "\u2028", "\xff", strings.Repeat("a", 64),
		strings.Repeat("a", 65), strings.Repeat("é", 140), strings.Repeat("é", 141), strings.Repeat("x", 2001),
		"v1.abcdefghijk.abcdefghijklmnop.abcdefghijklmnopqrstuv", "_field", "9field", "field-name",
	}
	nums := []string{"0", "1", "-1", "2", "3", "4", "5", "100", "500", "501", "1.5", "1.0", "1e3", "1E+2", "-0",
		"9007199254740991", "9007199254740992", "123456789012345678901234567890", "0.1", "1e-7"}
	switch rng.IntN(9) {
	case 0:
		return nil
	case 1:
		return rng.IntN(2) == 0
	case 2, 3:
		return json.Number(nums[rng.IntN(len(nums))])
	case 4:
		return map[string]any{}
	case 5:
		return []any{}
	case 6:
		return []any{strs[rng.IntN(len(strs))]}
	default:
		return strs[rng.IntN(len(strs))]
	}
}

// mutate returns doc with one random edit somewhere inside it.
func mutate(rng *rand.Rand, doc any, names []string, depth int) any {
	switch x := doc.(type) {
	case map[string]any:
		keys := sortedKeysOf(x)
		if len(keys) > 0 && rng.IntN(4) != 0 && depth < MaxDepth-1 {
			k := keys[rng.IntN(len(keys))]
			x[k] = mutate(rng, x[k], names, depth+1)
			return x
		}
		switch rng.IntN(3) {
		case 0:
			if len(keys) > 0 {
				delete(x, keys[rng.IntN(len(keys))])
				return x
			}
			fallthrough
		case 1:
			x[names[rng.IntN(len(names))]] = randomValue(rng)
			return x
		}
		return randomValue(rng)
	case []any:
		if len(x) > 0 && rng.IntN(4) != 0 && depth < MaxDepth-1 {
			i := rng.IntN(len(x))
			x[i] = mutate(rng, x[i], names, depth+1)
			return x
		}
		switch rng.IntN(4) {
		case 0:
			return []any{}
		case 1:
			if len(x) > 0 {
				return append(x, x[rng.IntN(len(x))])
			}
		case 2:
			if len(x) > 0 {
				return x[:len(x)-1]
			}
		}
		return randomValue(rng)
	case string:
		if x == "" || rng.IntN(3) == 0 {
			return randomValue(rng)
		}
		b := []byte(x)
		switch rng.IntN(4) {
		case 0:
			return string(b[:rng.IntN(len(b))])
		case 1:
			extra := []string{"a", "Z", "9", "_", "-", ".", "é", "\x01", " "}
			return x + extra[rng.IntN(len(extra))]
		case 2:
			return strings.Repeat(x, 2+rng.IntN(60))
		}
		i := rng.IntN(len(b))
		const swaps = "0123456789abcdefABCDEFxyz-_.:TZ \x7f"
		b[i] = swaps[rng.IntN(len(swaps))]
		return string(b)
	}
	return randomValue(rng)
}

func sortedKeysOf(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
