package main

import (
	"strings"
	"testing"
	"time"
)

func TestPercentilesAreNearestRankInMilliseconds(t *testing.T) {
	var d []time.Duration
	for i := 100; i >= 1; i-- { // 1..100 ms, unsorted
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	tests := []struct {
		p    float64
		want float64
	}{{50, 50}, {99, 99}, {100, 100}, {1, 1}, {0, 1}}
	for _, tt := range tests {
		if got := percentileMS(d, tt.p); got != tt.want {
			t.Errorf("p%.0f = %v, want %v", tt.p, got, tt.want)
		}
	}
	if got := percentileMS(nil, 50); got != 0 {
		t.Errorf("p50 of nothing = %v", got)
	}
	if d[0] != 100*time.Millisecond {
		t.Error("percentileMS sorted its input in place")
	}
}

func TestATargetIsMetOnlyWithinItsBound(t *testing.T) {
	tests := []struct {
		name  string
		t     *target
		value float64
		met   bool
	}{
		{"below the bound", below(150, ""), 149.9, true},
		{"at an upper bound", below(150, ""), 150, false},
		{"above an upper bound", below(5, ""), 5.1, false},
		{"at a lower bound", atLeast(20000, ""), 20000, true},
		{"under a lower bound", atLeast(0.5, ""), 0.49, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.t.met(tt.value); got != tt.met {
				t.Fatalf("met(%v) = %v", tt.value, got)
			}
		})
	}
}

func TestAFigureIsPrintedAsABenchLineAndRecordedWithItsVerdict(t *testing.T) {
	r := &results{}
	r.add("ingest", 12345.678, "mutations/s", atLeast(20000, ">= 20000"), "what")
	r.add("idle_rss", 20.25, "MB", nil, "baseline")
	if len(r.Figures) != 2 || r.Figures[0].Met == nil || *r.Figures[0].Met || r.Figures[1].Met != nil {
		t.Fatalf("figures: %+v", r.Figures)
	}
	for v, want := range map[float64]string{12345.678: "12346", 150.04: "150.0", 3.14159: "3.14", 0.1234: "0.123"} {
		if got := formatValue(v); got != want {
			t.Errorf("formatValue(%v) = %s, want %s", v, got, want)
		}
	}
}

func TestGoBenchmarkLinesAreParsedWithEveryMetric(t *testing.T) {
	out := `goos: linux
BenchmarkClockNow-2             	19135497	        66.02 ns/op	       0 B/op	       0 allocs/op
BenchmarkApply/postgres-2       	       6	 168726807 ns/op	     11854 mutations/s	25831364 B/op	  213678 allocs/op
PASS
ok  	patrimonio/sync	19.181s
`
	var passed strings.Builder
	got := parseGoBench(strings.NewReader(out), &passed)
	if passed.String() != out {
		t.Errorf("the output was not passed through:\n%s", passed.String())
	}
	if len(got) != 2 || got[1].Name != "BenchmarkApply/postgres-2" || got[1].Iterations != 6 ||
		got[1].Metrics["mutations/s"] != 11854 || got[0].Metrics["ns/op"] != 66.02 {
		t.Fatalf("parsed %+v", got)
	}
}

func TestPlainURLDropsThePoolParameters(t *testing.T) {
	got := plainURL("postgres://u@h:5/db?sslmode=disable&pool_max_conns=16")
	if got != "postgres://u@h:5/db?sslmode=disable" {
		t.Fatalf("plainURL = %s", got)
	}
}

func TestMicroNsPerOpFindsABenchmarkWhateverItsProcs(t *testing.T) {
	var ms []micro
	for _, line := range []string{
		"BenchmarkReadPush/general-2   \t 866\t 1223447 ns/op\t 151.47 MB/s\t 832469 B/op\t 15237 allocs/op",
		"BenchmarkReadPush/fast-8   \t 1983\t 570553 ns/op\t 324.80 MB/s\t 539219 B/op\t 10019 allocs/op",
	} {
		m, ok := parseBenchLine(line)
		if !ok {
			t.Fatalf("not read: %q", line)
		}
		ms = append(ms, m)
	}
	if got := microNsPerOp(ms, "BenchmarkReadPush/general"); got != 1223447 {
		t.Fatalf("general: %v", got)
	}
	if got := microNsPerOp(ms, "BenchmarkReadPush/fast"); got != 570553 {
		t.Fatalf("fast: %v", got)
	}
	if got := microNsPerOp(ms, "BenchmarkReadPush"); got != 0 {
		t.Fatalf("a name that did not run: %v", got)
	}
}
