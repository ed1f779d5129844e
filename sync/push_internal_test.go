package psync

import (
	"encoding/json"
	"strings"
	"testing"

	"patrimonio/core"
)

func decodePush(t *testing.T, raw string) map[string]any {
	t.Helper()
	v, err := decodeDocument([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	return v.(map[string]any)
}

const (
	pw  = "3f2b8c1e-9d4a-4b6f-a2c7-5e8d9f0a1b2c"
	pr  = "01936f6e-7b3a-7c4d-8e5f-0a1b2c3d4e5f"
	pst = "2025-03-01T10:15:30.123Z-0001-0123456789abcdef"
)

func wireMut(id int, extra string) string {
	return `{"mutationId":` + itoa(id) + `,"workspaceId":"` + pw + `","collection":"tasks","recordId":"` + pr +
		`","op":"put","stamp":"` + pst + `","fields":{"title":"x","status":"todo"},"base":{}` + extra + `}`
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestParsePushRejectsInvalidMutationsAloneAndKeepsTheRest(t *testing.T) {
	raw := `{"type":"push","mutations":[` +
		wireMut(1, "") + `,` +
		strings.Replace(wireMut(2, ""), `"tasks"`, `"accounts"`, 1) + `,` +
		strings.Replace(wireMut(3, ""), `"status":"todo"`, `"colour":"red"`, 1) + `,` +
		strings.Replace(wireMut(4, ""), pst, "2025-02-30T10:15:30.123Z-0001-0123456789abcdef", 1) + `,` +
		strings.Replace(wireMut(5, ""), `"base":{}`, `"base":{"title":"2025-13-01T10:15:30.123Z-0001-0123456789abcdef"}`, 1) + `,` +
		wireMut(6, `,"author":"6a1f0e2d-3c4b-4a59-8e7d-6c5b4a392817"`) + `,` +
		wireMut(7, "") + `,` +
		wireMut(8, `,"late":true`) + `]}` // the server's mark (MERGE.md, rule 7), never a device's
	if _, ok := FastPush([]byte(raw), 500); ok {
		t.Fatal("FastPush accepts a push with invalid mutations")
	}
	muts, rejected, err := ParsePush(decodePush(t, raw), 500)
	if err != nil {
		t.Fatal(err)
	}
	if len(muts) != 2 || muts[0].MutationID != 1 || muts[1].MutationID != 7 {
		t.Fatalf("kept %+v", muts)
	}
	want := map[int64][2]string{
		2: {"collection", "validation.enum"},
		3: {"fields.colour", "validation.unknownField"},
		4: {"stamp", "validation.format.hlc"},
		5: {"base.title", "validation.format.hlc"},
		6: {"author", "validation.unknownField"},
		8: {"late", "validation.unknownField"},
	}
	if len(rejected) != len(want) {
		t.Fatalf("rejected %+v", rejected)
	}
	for _, o := range rejected {
		w := want[o.MutationID]
		if o.Status != StatusRejected || o.Code != RejectInvalid || len(o.Issues) != 1 || o.Issues[0].Path != w[0] || o.Issues[0].Key != w[1] {
			t.Fatalf("mutation %d: %+v, want %v", o.MutationID, o, w)
		}
	}
	m := muts[0].Mutation
	if m.Op != OpPut || m.Stamp.String() != pst || m.Fields["title"] != "x" || m.Author != "" {
		t.Fatalf("decoded %+v", m)
	}
}

func TestParsePushRefusesWhatCannotBeAnsweredPerMutation(t *testing.T) {
	two := `{"type":"push","mutations":[` + wireMut(1, "") + `,` + wireMut(2, "") + `]}`
	for _, tc := range []struct {
		name, raw string
		limit     int
		code      string
	}{
		{"a push without mutations", `{"type":"push"}`, 500, core.EINVALID},
		{"an empty push", `{"type":"push","mutations":[]}`, 500, core.EINVALID},
		{"a mutation without an id", `{"type":"push","mutations":[{"op":"put"}]}`, 500, core.EINVALID},
		{"ids that do not increase", `{"type":"push","mutations":[` + wireMut(2, "") + `,` + wireMut(2, "") + `]}`, 500, core.EINVALID},
		{"an unknown member of the push", `{"type":"push","extra":1,"mutations":[` + wireMut(1, "") + `]}`, 500, core.EINVALID},
		{"more mutations than the limit", two, 1, core.ETOOLARGE},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ParsePush(decodePush(t, tc.raw), tc.limit)
			if core.ErrorCode(err) != tc.code {
				t.Fatalf("err %v, want %s", err, tc.code)
			}
		})
	}
}

func TestDecodingRefusesMalformedAndTooDeepDocuments(t *testing.T) {
	for _, raw := range []string{`{"type":"ping"`, `{"type":"ping"} {}`, "\xff", ``} {
		if _, err := decodeDocument([]byte(raw)); err != errMalformed {
			t.Errorf("%q: %v", raw, err)
		}
	}
	deep := strings.Repeat("[", 11) + strings.Repeat("]", 11)
	if _, err := decodeDocument([]byte(deep)); err != errTooDeep {
		t.Errorf("11 levels: %v", err)
	}
	if _, err := decodeDocument([]byte(`{"a":"[[[[[[[[[[[["}`)); err != nil {
		t.Errorf("brackets inside a string count as nesting: %v", err)
	}
}

func TestSnapshotTokensRoundTripAndForeignOnesAreRefused(t *testing.T) {
	tok := snapshotToken{Cursor: 42, Collection: "assets", RecordID: pr}
	got, ok := decodeSnapshotToken(tok.encode())
	if !ok || got != tok {
		t.Fatalf("%+v %v", got, ok)
	}
	for _, bad := range []string{"", "not base64!", "e30", "eyJjIjotMSwiayI6ImEiLCJyIjoiYiJ9"} {
		if _, ok := decodeSnapshotToken(bad); ok {
			t.Errorf("%q accepted", bad)
		}
	}
}
