package psync

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"unicode/utf8"
	"unsafe"

	schema "patrimonio/shared-schema"
)

// referenceDecode is what decodeDocument did before parseDocument: UTF-8 and depth checked on
// the bytes, then encoding/json's Decoder with UseNumber, one value, nothing after it but white
// space.
func referenceDecode(raw []byte) (any, error) {
	if !utf8.Valid(raw) {
		return nil, errMalformed
	}
	if depthOfJSON(raw) > schema.MaxDepth {
		return nil, errTooDeep
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, errMalformed
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errMalformed
	}
	return v, nil
}

// sameDecoding fails when decodeDocument and the reference disagree on raw: the same values, or
// the same error.
func sameDecoding(t testing.TB, raw []byte) bool {
	t.Helper()
	want, wantErr := referenceDecode(raw)
	got, gotErr := decodeDocument(raw)
	if wantErr != gotErr || !reflect.DeepEqual(want, got) {
		t.Fatalf("%q: encoding/json gives %#v (%v), decodeDocument %#v (%v)", raw, want, wantErr, got, gotErr)
	}
	return wantErr == nil
}

// jsonCorpus: the protocol's message vectors, every shared vector's input, and hand-picked edges.
func jsonCorpus(t testing.TB) [][]byte {
	vectors, err := schema.Vectors()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, v := range vectors {
		out = append(out, []byte(v.Input))
	}
	for _, s := range []string{
		``, ` `, `null`, `true`, `false`, `nul`, `tru`, `0`, `-0`, `01`, `-`, `1.`, `.5`, `1e`, `1e+`, `1E-7`, `12.50e3`,
		`123456789012345678901234567890`, `"a"`, `"\u00e9\u20AC"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ude00\ud83d"`,
		`"\ud83dx"`, `"\ud83d\u0041"`, `"\u12"`, `"\u12g4"`, `"\x"`, `"\/\b\f\n\r\t\\\""`, "\"tab\there\"", `"é€😀"`,
		`[]`, `[ ]`, `[1,]`, `[,1]`, `[1 2]`, `{}`, `{ }`, `{"a":1,}`, `{"a" 1}`, `{"a":1 "b":2}`, `{a:1}`,
		`{"a":1,"a":2}`, `{"a":{"b":[1,{"c":null}]}}`, " \t\r\n{\"a\" : [ true , false ] } \n", `{} {}`, `{}x`,
		`[1]]`, `"unterminated`, `{"a":"b\`, `[[[]]]`, `{"":""}`, `"\u0000"`, `1 2`, `[-]`, `[-1.5e-3]`, `[1e400]`,
		`[[[[[[[[[[1]]]]]]]]]]`, `[[[[[[[[[[[1]]]]]]]]]]]`, `[[[[[[[[[[{"a":1}]]]]]]]]]]`, `[1,x,[[[[[[[[[[[1]]]]]]]]]]]]`,
		`{"a":"[[[[[[[[[[[[","b":[[[[[[[[[[]]]]]]]]]]}`, "\"\xff\"", `[[[[[[[[[[["\"]]]]]]]]]]]`,
	} {
		out = append(out, []byte(s))
	}
	return out
}

// TestParseDocumentAgreesWithEncodingJSON: decodeDocument gives the same values, or the same
// error (malformed, too deep), as before on the corpus and on 40,000 documents mutated from it
// (bytes replaced, inserted, removed, documents cut).
func TestParseDocumentAgreesWithEncodingJSON(t *testing.T) {
	corpus := jsonCorpus(t)
	for _, raw := range corpus {
		sameDecoding(t, raw)
	}
	rng := rand.New(rand.NewPCG(5, 17))
	const alphabet = "{}[]:,\"\\/ \t\n01-+.eEabfnrtu\u00e9x[[[["
	valid, total := 0, 0
	for n := 0; n < 40000; n++ {
		raw := editBytes(rng, corpus[rng.IntN(len(corpus))], alphabet, 3, true)
		total++
		if sameDecoding(t, raw) {
			valid++
		}
	}
	if total < 30000 || valid < total/20 || valid > total*19/20 {
		t.Fatalf("%d mutated documents, %d valid: the mutations do not exercise both answers", total, valid)
	}
}

// editBytes returns a copy of raw with 1 to maxEdits edits at random places: a byte replaced by,
// or inserted from, alphabet, a byte removed, or (cut) the document cut short there.
func editBytes(rng *rand.Rand, raw []byte, alphabet string, maxEdits int, cut bool) []byte {
	raw = slices.Clone(raw)
	kinds := 3
	if cut {
		kinds = 4
	}
	for edits := 1 + rng.IntN(maxEdits); edits > 0 && len(raw) > 0; edits-- {
		i := rng.IntN(len(raw))
		c := alphabet[rng.IntN(len(alphabet))]
		switch rng.IntN(kinds) {
		case 0:
			raw[i] = c
		case 1:
			raw = slices.Insert(raw, i, c)
		case 2:
			raw = slices.Delete(raw, i, i+1)
		default:
			raw = raw[:i]
		}
	}
	return raw
}

// TestParseDocumentSharesRepeatedKeys: a push's 500 mutations carry the same keys; each key is
// one string, not one per mutation.
func TestParseDocumentSharesRepeatedKeys(t *testing.T) {
	raw := `{"type":"push","mutations":[` + wireMut(1, "") + `,` + wireMut(2, "") + `]}`
	v, ok, _ := parseDocument([]byte(raw), schema.MaxDepth)
	if !ok {
		t.Fatal("not parsed")
	}
	muts := v.(map[string]any)["mutations"].([]any)
	key := func(m any) string {
		for k := range m.(map[string]any) {
			if k == "recordId" {
				return k
			}
		}
		return ""
	}
	a, b := key(muts[0]), key(muts[1])
	if a != "recordId" || b != a {
		t.Fatal("keys differ")
	}
	if unsafeStringData(a) != unsafeStringData(b) {
		t.Fatal("the same key decoded twice is two strings")
	}
}

// FuzzParseDocument compares both decoders on any input.
func FuzzParseDocument(f *testing.F) {
	for _, raw := range jsonCorpus(f) {
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		sameDecoding(t, raw)
	})
}

func unsafeStringData(s string) *byte { return unsafe.StringData(s) }
