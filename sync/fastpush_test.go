package psync

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	schema "patrimonio/shared-schema"
)

// fastAgrees fails when FastPush accepts a document that the general way (DecodeMessage, then
// ParsePush) does not accept whole, or reads it differently. It returns whether each way accepted
// it whole.
func fastAgrees(t testing.TB, raw []byte, limit int) (fast, whole bool) {
	t.Helper()
	got, ok := FastPush(raw, limit)
	var want []ClientMutation
	if m, err := DecodeMessage(raw); err == nil {
		if typ, _ := m["type"].(string); typ == msgPush {
			muts, rejected, err := ParsePush(m, limit)
			whole = err == nil && len(rejected) == 0
			want = muts
		}
	}
	if ok && !whole {
		t.Fatalf("FastPush accepts a push the general way does not accept whole:\n%s", raw)
	}
	if ok && !reflect.DeepEqual(got, want) {
		t.Fatalf("FastPush reads\n%#v\nthe general way\n%#v\nfrom\n%s", got, want, raw)
	}
	return ok, whole
}

// TestFastPushChecksWhatTheSchemaSays: the rules FastPush checks by hand are the push schema's
// (shared-schema/jsonschema/message.push.json): if the schema changes, this fails until FastPush
// follows.
func TestFastPushChecksWhatTheSchemaSays(t *testing.T) {
	raw, err := os.ReadFile("../shared-schema/jsonschema/message.push.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	at := func(path ...string) any {
		var cur any = doc
		for _, p := range path {
			cur = cur.(map[string]any)[p]
		}
		return cur
	}
	same := func(what string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the schema says %v, FastPush %v", what, got, want)
		}
	}
	props := func(path ...string) []string {
		var names []string
		for k := range at(path...).(map[string]any) {
			names = append(names, k)
		}
		sort.Strings(names)
		return names
	}
	same("message members", props("properties"), []string{"mutations", "type"})
	same("message required", at("required"), []any{"type", "mutations"})
	same("message additionalProperties", at("additionalProperties"), false)
	same("type", at("properties", "type", "const"), msgPush)
	same("mutations maxItems", at("properties", "mutations", "maxItems"), float64(schema.MaxMutationsPerPush))
	same("mutations minItems", at("properties", "mutations", "minItems"), float64(1))
	m := []string{"properties", "mutations", "items"}
	p := func(rest ...string) []string { return append(slices.Clone(m), rest...) }
	same("mutation members", props(p("properties")...),
		[]string{"base", "collection", "fields", "mutationId", "op", "recordId", "resolves", "stamp", "workspaceId"})
	same("mutation required", at(p("required")...), []any{"mutationId", "workspaceId", "collection", "recordId", "op", "stamp", "base"})
	same("mutation additionalProperties", at(p("additionalProperties")...), false)
	same("mutationId", at(p("properties", "mutationId")...), map[string]any{"type": "integer", "minimum": float64(1),
		"maximum": float64(maxSafeInteger), "description": at(p("properties", "mutationId", "description")...)})
	same("workspaceId pattern", at(p("properties", "workspaceId", "pattern")...), pushUUIDPattern)
	same("recordId pattern", at(p("properties", "recordId", "pattern")...), pushUUIDv7Pattern)
	same("stamp pattern", at(p("properties", "stamp", "pattern")...), pushHLCPattern)
	var collections []any
	for c := range pushFieldsByCollection() {
		collections = append(collections, c)
	}
	enum := at(p("properties", "collection", "enum")...).([]any)
	sortAny := func(v []any) { sort.Slice(v, func(i, j int) bool { return fmt.Sprint(v[i]) < fmt.Sprint(v[j]) }) }
	sortAny(collections)
	sortAny(enum)
	same("collections", enum, collections)
	same("ops", at(p("properties", "op", "enum")...), []any{string(OpPut), string(OpDelete), string(OpRestore), string(OpResolve)})
	for _, obj := range []string{"base", "fields"} {
		same(obj+" maxProperties", at(p("properties", obj, "maxProperties")...), float64(schema.MaxFieldsPerMutation))
		same(obj+" additionalProperties", at(p("properties", obj, "additionalProperties")...), false)
		same(obj+" key pattern", props(p("properties", obj, "patternProperties")...), []string{pushFieldNamePattern})
	}
	same("base value pattern", at(p("properties", "base", "patternProperties", pushFieldNamePattern, "pattern")...), pushHLCPattern)
	same("fields value", at(p("properties", "fields", "patternProperties", pushFieldNamePattern)...), map[string]any{})
	r := p("properties", "resolves")
	same("resolves maxItems", at(append(r, "maxItems")...), float64(schema.MaxFieldsPerMutation))
	same("resolves members", props(append(r, "items", "properties")...), []string{"field", "stamp"})
	same("resolves required", at(append(r, "items", "required")...), []any{"field", "stamp"})
	same("resolves additionalProperties", at(append(r, "items", "additionalProperties")...), false)
	same("resolves field pattern", at(append(r, "items", "properties", "field", "pattern")...), pushFieldNamePattern)
	same("resolves stamp pattern", at(append(r, "items", "properties", "stamp", "pattern")...), pushHLCPattern)
}

// TestFastPushMatchersAgreeWithThePatterns: the hand-written checks accept exactly what the
// patterns accept, on valid strings and near misses (characters replaced, added, removed).
func TestFastPushMatchersAgreeWithThePatterns(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 3))
	for _, c := range []struct {
		pattern string
		check   func(string) bool
		valid   []string
	}{
		{pushUUIDPattern, func(s string) bool { return isUUIDBytes(s, false) }, []string{pw, "00000000-0000-1000-8000-000000000000", "ffffffff-ffff-8fff-bfff-ffffffffffff"}},
		{pushUUIDv7Pattern, func(s string) bool { return isUUIDBytes(s, true) }, []string{pr, "00000000-0000-7000-8000-000000000000", "ffffffff-ffff-7fff-bfff-ffffffffffff"}},
		{pushHLCPattern, func(s string) bool { return isHLCBytes(s) }, []string{pst, "9999-99-99T99:99:99.999Z-FFFF-ffffffffffffffff", "0000-00-00T00:00:00.000Z-0000-0000000000000000"}},
		{pushFieldNamePattern, func(s string) bool { return isFieldNameBytes(s) }, []string{"a", "_", "Z9", "title", strings.Repeat("a", 64), "_0_a_Z"}},
	} {
		re := regexp.MustCompile(c.pattern)
		const alphabet = "0123456789abcdefABCDEFgxyzGZ_-:.TZ7 é\x00"
		agree := func(s string) {
			if re.MatchString(s) != c.check(s) {
				t.Fatalf("%s: the pattern says %v for %q, the check %v", c.pattern, re.MatchString(s), s, c.check(s))
			}
		}
		matched := 0
		for _, v := range c.valid {
			agree(v)
			agree("")
			for n := 0; n < 20000; n++ {
				b := []byte(v)
				for edits := 1 + rng.IntN(2); edits > 0; edits-- {
					i := rng.IntN(len(b) + 1)
					ch := alphabet[rng.IntN(len(alphabet))]
					switch k := rng.IntN(4); {
					case k == 0 && i < len(b):
						b[i] = ch
					case k == 1:
						b = append(b[:i], append([]byte{ch}, b[i:]...)...)
					case k == 2 && i < len(b):
						b = append(b[:i], b[i+1:]...)
					default:
						if i < len(b) {
							b[i] = v[rng.IntN(len(v))]
						}
					}
				}
				agree(string(b))
				if re.Match(b) {
					matched++
				}
			}
		}
		if matched == 0 {
			t.Fatalf("%s: no generated string matched: the test checks only refusals", c.pattern)
		}
	}
}

// pushGen writes push messages member by member, each member valid or (now and then) broken in a
// way the schema or the push rules refuse, in any order. plain: no escaped keys, repeated members
// or numbers in unusual notation, which FastPush leaves to the general way even when valid.
type pushGen struct {
	rng   *rand.Rand
	plain bool
}

func (g *pushGen) maybe(oneIn int) bool { return g.rng.IntN(oneIn) == 0 }

func (g *pushGen) pick(options ...string) string { return options[g.rng.IntN(len(options))] }

func (g *pushGen) str(s string) string { b, _ := json.Marshal(s); return string(b) }

func (g *pushGen) stamp() string {
	if g.maybe(12) {
		return g.pick(`"2025-02-30T10:15:30.123Z-0001-0123456789abcdef"`, `"2025-03-01T10:15:30.123Z-000a-0123456789abcdef"`,
			`"2025-03-01T10:15:30.123Z-0001-0123456789ABCDEF"`, `"2025-03-01T10:15:30.12Z-0001-0123456789abcdef"`, `7`, `null`)
	}
	return fmt.Sprintf(`"2025-03-%02dT10:%02d:30.%03dZ-%04X-%016x"`, 1+g.rng.IntN(28), g.rng.IntN(60), g.rng.IntN(1000), g.rng.IntN(65536), g.rng.Uint64())
}

func (g *pushGen) fieldName(known []string) string {
	if g.maybe(15) {
		return g.pick("colour", "1abc", "", "a-b", strings.Repeat("x", 65), "author")
	}
	return known[g.rng.IntN(len(known))]
}

func (g *pushGen) value(depth int) string {
	switch g.rng.IntN(9) {
	case 0:
		return "null"
	case 1:
		return g.pick("true", "false", "0", "-12.5", "1e400", "12345678901234567890", "0.10")
	case 2:
		if depth < 12 {
			return `{"a":` + g.value(depth+1) + `}`
		}
	case 3:
		if depth < 12 {
			return `[` + g.value(depth+1) + `,1]`
		}
	case 4:
		return g.str(g.pick("é€😀", "tab\there", `quote"back\slash`, "\u2028"))
	}
	return g.str(fmt.Sprintf("Valor %d", g.rng.IntN(1000)))
}

// mutation writes one mutation's members; id is the id a valid one has.
func (g *pushGen) mutation(id int64, ws, record string) string {
	collections := make([]string, 0, 16)
	for c := range pushFieldsByCollection() {
		collections = append(collections, c)
	}
	sort.Strings(collections)
	collection := collections[g.rng.IntN(len(collections))]
	fieldsOf := pushFieldsByCollection()[collection]
	known := make([]string, 0, len(fieldsOf))
	for f := range fieldsOf {
		known = append(known, f)
	}
	sort.Strings(known)
	op := g.pick("put", "put", "put", "delete", "restore", "resolve")
	var members []string
	add := func(key, value string) { members = append(members, g.str(key)+":"+value) }

	switch {
	case g.maybe(20):
		add("mutationId", g.pick("0", "-1", `"1"`, "9007199254740992", "1.5"))
	case !g.maybe(40):
		add("mutationId", fmt.Sprint(id))
	}
	if !g.maybe(40) {
		if g.maybe(20) {
			add("workspaceId", g.pick(strings.ToUpper(ws), strings.Replace(ws, "-4", "-9", 1), ws[1:], "1"))
		} else {
			add("workspaceId", g.str(ws))
		}
	}
	if !g.maybe(40) {
		if g.maybe(20) {
			add("collection", g.pick(`"accounts"`, `"Tasks"`, `5`))
		} else {
			add("collection", g.str(collection))
		}
	}
	if !g.maybe(40) {
		if g.maybe(20) {
			add("recordId", g.pick(g.str(ws), g.str(strings.ToUpper(record)), `"01936f6e-7b3a-7c4d-ce5f-0a1b2c3d4e5f"`))
		} else {
			add("recordId", g.str(record))
		}
	}
	if !g.maybe(40) {
		if g.maybe(25) {
			add("op", g.pick(`"update"`, `"PUT"`, `null`))
		} else {
			add("op", g.str(op))
		}
	}
	if !g.maybe(40) {
		add("stamp", g.stamp())
	}
	if !g.maybe(40) {
		var base []string
		for n := g.rng.IntN(3); n > 0; n-- {
			base = append(base, g.str(g.fieldName(known))+":"+g.stamp())
		}
		if g.maybe(60) {
			for i := 0; i <= schema.MaxFieldsPerMutation; i++ {
				base = append(base, g.str(fmt.Sprintf("f%d", i))+":"+g.stamp())
			}
		}
		add("base", "{"+strings.Join(dedupeMembers(base, g.plain))+"}")
	}
	wantFields := op == "put" || op == "restore" && g.maybe(2)
	if wantFields != g.maybe(15) {
		var fields []string
		for n := g.rng.IntN(4); n > 0 || (op == "put" && len(fields) == 0 && !g.maybe(10)); n-- {
			fields = append(fields, g.str(g.fieldName(known))+":"+g.value(4))
		}
		add("fields", "{"+strings.Join(dedupeMembers(fields, g.plain))+"}")
	}
	if op == "resolve" && !g.maybe(10) || g.maybe(8) {
		var items []string
		for n := g.rng.IntN(3); n > 0 || (op == "resolve" && len(items) == 0 && !g.maybe(10)); n-- {
			item := []string{`"field":` + g.str(g.fieldName(known)), `"stamp":` + g.stamp()}
			if g.maybe(20) {
				item = item[:1]
			}
			if g.maybe(20) {
				item = append(item, `"value":1`)
			}
			items = append(items, "{"+strings.Join(item, ",")+"}")
		}
		add("resolves", "["+strings.Join(items, ",")+"]")
	}
	if g.maybe(30) {
		add("author", g.str(ws))
	}
	g.rng.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
	if !g.plain {
		members = g.unusual(members)
	}
	return "{" + strings.Join(members, ",") + "}"
}

// unusual writes members in ways FastPush leaves to the general way: an escaped key, a member
// twice, a number as 1.0, white space.
func (g *pushGen) unusual(members []string) []string {
	if len(members) == 0 {
		return members
	}
	i := g.rng.IntN(len(members))
	switch g.rng.IntN(5) {
	case 0:
		members[i] = `"\u00` + fmt.Sprintf("%x", members[i][1]) + members[i][2:]
	case 1:
		members = append(members, members[i])
	case 2:
		if key, value, ok := strings.Cut(members[i], ":"); ok && key == `"mutationId"` {
			members[i] = key + ":" + value + ".0"
		}
	case 3:
		members[i] = " \n" + strings.Replace(members[i], ":", " : ", 1) + "\t"
	}
	return members
}

// dedupeMembers drops repeated keys (plain pushes have none); it returns the members and the
// separator.
func dedupeMembers(members []string, plain bool) ([]string, string) {
	if !plain {
		return members, ","
	}
	seen := map[string]bool{}
	var out []string
	for _, m := range members {
		key, _, _ := strings.Cut(m, ":")
		if !seen[key] {
			seen[key] = true
			out = append(out, m)
		}
	}
	return out, ","
}

func (g *pushGen) push() string {
	var muts []string
	id := int64(g.rng.IntN(1000))
	for n := 1 + g.rng.IntN(6); n > 0; n-- {
		id += 1 + int64(g.rng.IntN(3))
		if g.maybe(30) {
			id -= 2 // out of order, or the same id again
		}
		muts = append(muts, g.mutation(id, pw, fmt.Sprintf("01936f6e-7b3a-7c4d-8e5f-%012x", g.rng.Uint64()>>16)))
	}
	if g.maybe(40) {
		muts = nil
	}
	members := []string{`"type":` + g.pick(`"push"`, `"push"`, `"push"`, `"push"`, `"pull"`), `"mutations":[` + strings.Join(muts, ",") + `]`}
	if g.maybe(30) {
		members = append(members, `"extra":1`)
	}
	g.rng.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
	if !g.plain && g.maybe(3) {
		members = g.unusual(members)
	}
	return "{" + strings.Join(members, ",") + "}"
}

// TestFastPushAgreesWithTheGeneralWay: on generated pushes, FastPush accepts a plain push exactly
// when the general way accepts it whole, and then reads the same mutations; on pushes written in
// unusual ways, and on documents mutated byte by byte, it never accepts what the general way does
// not accept whole.
func TestFastPushAgreesWithTheGeneralWay(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 23))
	plain := &pushGen{rng: rng, plain: true}
	unusual := &pushGen{rng: rng}
	var accepted, whole, wholeUnusual, fastUnusual int
	var corpus [][]byte
	for n := 0; n < 6000; n++ {
		raw := []byte(plain.push())
		limit := schema.MaxMutationsPerPush
		if plain.maybe(10) {
			limit = 1 + rng.IntN(4)
		}
		fast, w := fastAgrees(t, raw, limit)
		if fast != w {
			t.Fatalf("a plain push accepted whole by the general way (%v) and by FastPush (%v):\n%s", w, fast, raw)
		}
		if fast {
			accepted++
			corpus = append(corpus, raw)
		}
		if w {
			whole++
		}
		f, w2 := fastAgrees(t, []byte(unusual.push()), schema.MaxMutationsPerPush)
		if f {
			fastUnusual++
		}
		if w2 {
			wholeUnusual++
		}
	}
	if accepted < 300 || accepted > 5700 {
		t.Fatalf("%d of 6,000 plain pushes valid: the generator does not exercise both answers", accepted)
	}
	if fastUnusual == 0 || fastUnusual == wholeUnusual {
		t.Fatalf("pushes written unusually: %d accepted whole, %d by FastPush: the generator does not exercise what FastPush declines", wholeUnusual, fastUnusual)
	}

	// Byte edits of valid pushes and of the shared vectors.
	vectors, err := schema.Vectors()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vectors {
		fastAgrees(t, []byte(v.Input), schema.MaxMutationsPerPush)
		if strings.Contains(string(v.Input), `"push"`) {
			corpus = append(corpus, []byte(v.Input))
		}
	}
	const alphabet = "{}[]:,\"\\ 0123456789-.eEabfnrtuTZxA"
	mutated, stillFast := 0, 0
	for n := 0; n < 30000; n++ {
		raw := editBytes(rng, corpus[rng.IntN(len(corpus))], alphabet, 2, false)
		mutated++
		if fast, _ := fastAgrees(t, raw, schema.MaxMutationsPerPush); fast {
			stillFast++
		}
	}
	if stillFast == 0 || stillFast == mutated {
		t.Fatalf("%d of %d mutated pushes accepted by FastPush: the edits do not exercise both answers", stillFast, mutated)
	}
}

// TestFastPushDeclinesPastTheLimits: the server's per-push limit, the schema's 500, and a
// mutation nesting past the depth limit go the general way (which answers too large, too deep).
func TestFastPushDeclinesPastTheLimits(t *testing.T) {
	push := func(n int, fields string) []byte {
		var muts []string
		for i := 1; i <= n; i++ {
			muts = append(muts, fmt.Sprintf(`{"mutationId":%d,"workspaceId":%q,"collection":"tasks","recordId":%q,"op":"put","stamp":%q,"base":{},"fields":%s}`, i, pw, pr, pst, fields))
		}
		return []byte(`{"type":"push","mutations":[` + strings.Join(muts, ",") + `]}`)
	}
	title := `{"title":"x"}`
	for _, c := range []struct {
		raw   []byte
		limit int
		ok    bool
	}{
		{push(3, title), 3, true},
		{push(4, title), 3, false},
		{push(500, title), 1000, true},
		{push(501, title), 1000, false},
		{push(1, `{"title":[[[[[[1]]]]]]}`), 10, true},
		{push(1, `{"title":[[[[[[[1]]]]]]]}`), 10, false},
		{push(1, manyFields(schema.MaxFieldsPerMutation+1)), 10, false},
	} {
		fast, whole := fastAgrees(t, c.raw, c.limit)
		if fast != c.ok {
			t.Errorf("%d bytes, limit %d: FastPush %v (the general way accepts it whole: %v), want %v", len(c.raw), c.limit, fast, whole, c.ok)
		}
	}
}

// manyFields is a fields object of n members, the first the task's title.
func manyFields(n int) string {
	members := []string{`"title":"x"`}
	for i := 1; i < n; i++ {
		members = append(members, fmt.Sprintf(`"f%d":1`, i))
	}
	return "{" + strings.Join(members, ",") + "}"
}

// FuzzFastPush: FastPush never accepts what the general way does not accept whole.
func FuzzFastPush(f *testing.F) {
	g := &pushGen{rng: rand.New(rand.NewPCG(1, 2)), plain: true}
	for range 20 {
		f.Add([]byte(g.push()))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		fastAgrees(t, raw, schema.MaxMutationsPerPush)
	})
}
