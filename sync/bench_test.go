package psync

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Benchmarks for `make bench` (go test -run '^$' -bench . ./sync). They measure the deterministic
// core only; the engine's end-to-end figures are measured elsewhere.

func BenchmarkClockNow(b *testing.B) {
	c, err := NewClock(ClockConfig{Node: "0123456789abcdef", Now: time.Now})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		c.Now()
	}
}

func BenchmarkClockBound(b *testing.B) {
	c, err := NewClock(ClockConfig{Node: "0123456789abcdef", Now: time.Now, MaxDrift: DefaultMaxDrift})
	if err != nil {
		b.Fatal(err)
	}
	remote := Stamp{Millis: time.Now().UnixMilli(), Node: "fedcba9876543210"}
	for b.Loop() {
		remote.Counter++
		c.Bound(remote)
	}
}

func BenchmarkParseStamp(b *testing.B) {
	s := "2025-03-01T10:00:00.000Z-00FF-0123456789abcdef"
	for b.Loop() {
		if _, err := ParseStamp(s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStampString(b *testing.B) {
	st := Stamp{Millis: 1_740_823_200_000, Counter: 255, Node: "0123456789abcdef"}
	for b.Loop() {
		_ = st.String()
	}
}

var benchFields = func() []string {
	out := make([]string, 20)
	for i := range out {
		out[i] = fmt.Sprintf("field%02d", i)
	}
	return out
}()

// benchRecord is a record of 20 fields, created by one device.
func benchRecord(b *testing.B) (*RecordState, map[string]Stamp) {
	st := NewRecordState()
	fields := map[string]any{}
	for i, f := range benchFields {
		fields[f] = fmt.Sprintf("value %d", i)
	}
	create := Mutation{Op: OpPut, Stamp: Stamp{Millis: 1_740_823_200_000, Node: "aaaaaaaaaaaaaaaa"}, Author: "client-a", Fields: fields}
	if _, err := st.Apply(create); err != nil {
		b.Fatal(err)
	}
	return st, copyStamps(st.Clocks)
}

// BenchmarkMergeSequentialPut applies edits of 3 fields, each made on top of the current value
// (the common case: no conflict).
func BenchmarkMergeSequentialPut(b *testing.B) {
	st, _ := benchRecord(b)
	ms := int64(1_740_823_200_001)
	i := 0
	for b.Loop() {
		f1, f2, f3 := benchFields[i%20], benchFields[(i+7)%20], benchFields[(i+13)%20]
		m := Mutation{
			Op: OpPut, Stamp: Stamp{Millis: ms, Node: "bbbbbbbbbbbbbbbb"}, Author: "client-b",
			Fields: map[string]any{f1: i, f2: "x", f3: true},
			Base:   map[string]Stamp{f1: st.Clocks[f1], f2: st.Clocks[f2], f3: st.Clocks[f3]},
		}
		if _, err := st.Apply(m); err != nil {
			b.Fatal(err)
		}
		ms++
		i++
	}
}

// BenchmarkMergeConcurrentPut applies edits from four offline devices that never saw each other's
// values, so every write opens a conflict and closes its device's previous one.
func BenchmarkMergeConcurrentPut(b *testing.B) {
	st, base := benchRecord(b)
	nodes := []string{"1111111111111111", "2222222222222222", "3333333333333333", "4444444444444444"}
	ms := int64(1_740_823_200_001)
	i := 0
	for b.Loop() {
		d := i % len(nodes)
		f := benchFields[i%5]
		m := Mutation{
			Op: OpPut, Stamp: Stamp{Millis: ms, Node: nodes[d]}, Author: "client-" + nodes[d][:1],
			Fields: map[string]any{f: i}, Base: base,
		}
		if _, err := st.Apply(m); err != nil {
			b.Fatal(err)
		}
		ms++
		i++
	}
	if len(st.Conflicts) == 0 {
		b.Fatal("the benchmark made no conflicts")
	}
}

// BenchmarkMergeDuplicate re-applies an already applied mutation (a resend).
func BenchmarkMergeDuplicate(b *testing.B) {
	st, base := benchRecord(b)
	m := Mutation{Op: OpPut, Stamp: Stamp{Millis: 1_740_823_200_001, Node: "bbbbbbbbbbbbbbbb"}, Author: "client-b",
		Fields: map[string]any{"field01": "x"}, Base: base}
	if _, err := st.Apply(m); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := st.Apply(m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadPush reads a push of 500 asset creations into its mutations: the general way
// (DecodeMessage, then ParsePush: the generic document, the schema, the push rules) and FastPush.
func BenchmarkReadPush(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"type":"push","mutations":[`)
	for i := 1; i <= 500; i++ {
		if i > 1 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"mutationId":%d,"workspaceId":"%s","collection":"assets","recordId":"%s","op":"put","stamp":"%s","base":{},"fields":{"name":"Activo %d","assetClass":"real_estate","category":"residential","currency":"EUR","participation":"100","currentValue":"250000.50"}}`, i, pw, pr, pst, i)
	}
	sb.WriteString(`]}`)
	raw := []byte(sb.String())
	b.Run("general", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			m, err := DecodeMessage(raw)
			if err != nil {
				b.Fatal(err)
			}
			if muts, rejected, err := ParsePush(m, 500); err != nil || len(rejected) > 0 || len(muts) != 500 {
				b.Fatal(err, rejected)
			}
		}
	})
	b.Run("fast", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			if muts, ok := FastPush(raw, 500); !ok || len(muts) != 500 {
				b.Fatal("FastPush declined a valid push")
			}
		}
	})
}
