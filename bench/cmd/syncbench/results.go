package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// figure is one measured number. Target is nil for a baseline or a figure given for context.
type figure struct {
	Name   string  `json:"name"`
	Value  float64 `json:"value"`
	Unit   string  `json:"unit"`
	Target *target `json:"target,omitempty"`
	// Met says whether the target was met (absent without a target).
	Met *bool `json:"met,omitempty"`
	// What the figure measures, in a sentence (bench/README.md says more).
	Measures string `json:"measures"`
	// Load is the machine's load average (1, 5, 15 min) when the figure was taken: the machine
	// may be shared.
	Load string `json:"load"`
}

// target is a bound on a figure: value < Below, or value >= AtLeast.
type target struct {
	Below   *float64 `json:"below,omitempty"`
	AtLeast *float64 `json:"atLeast,omitempty"`
	Text    string   `json:"text"`
}

func below(v float64, text string) *target   { return &target{Below: &v, Text: text} }
func atLeast(v float64, text string) *target { return &target{AtLeast: &v, Text: text} }

func (t *target) met(v float64) bool {
	if t.Below != nil && !(v < *t.Below) {
		return false
	}
	if t.AtLeast != nil && !(v >= *t.AtLeast) {
		return false
	}
	return true
}

// micro is one line of `go test -bench`.
type micro struct {
	Name       string             `json:"name"`
	Iterations int64              `json:"iterations"`
	Metrics    map[string]float64 `json:"metrics"` // unit → value (ns/op, B/op, mutations/s ...)
}

type results struct {
	Date     string            `json:"date"`
	Commit   string            `json:"commit"`
	Dirty    bool              `json:"dirty"` // the working tree had uncommitted changes
	Machine  map[string]any    `json:"machine"`
	Postgres map[string]string `json:"postgres,omitempty"`
	Config   map[string]any    `json:"config"`
	Figures  []figure          `json:"figures"`
	Micro    []micro           `json:"micro,omitempty"`
	// Details: what a figure summarises (e.g. the rounds of ingest).
	Details map[string][]map[string]float64 `json:"details,omitempty"`
	Errors  []string                        `json:"errors,omitempty"`
}

// add records a figure and prints it as `BENCH <name> <value> <unit>`.
func (r *results) add(name string, value float64, unit string, t *target, measures string) {
	f := figure{Name: name, Value: value, Unit: unit, Target: t, Measures: measures, Load: loadAverage()}
	line := fmt.Sprintf("BENCH %s %s %s", name, formatValue(value), unit)
	if t != nil {
		met := t.met(value)
		f.Met = &met
		verdict := "met"
		if !met {
			verdict = "NOT met"
		}
		line += fmt.Sprintf("   (target %s: %s)", t.Text, verdict)
	}
	r.Figures = append(r.Figures, f)
	fmt.Println(line)
}

// formatValue prints a figure with 3 significant decimals at most, and whole numbers whole.
func formatValue(v float64) string {
	switch {
	case v >= 1000:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case v >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	default:
		return strconv.FormatFloat(v, 'f', 3, 64)
	}
}

// detail records one entry of a figure's details.
func (r *results) detail(key string, entry map[string]float64) {
	if r.Details == nil {
		r.Details = map[string][]map[string]float64{}
	}
	r.Details[key] = append(r.Details[key], entry)
}

func (r *results) write(path string) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// loadAverage is the first three fields of /proc/loadavg.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// machineInfo describes where the figures were measured.
func machineInfo() map[string]any {
	m := map[string]any{"cpus": runtime.NumCPU(), "goos": runtime.GOOS, "goarch": runtime.GOARCH, "go": runtime.Version()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m["cpuModel"] = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				m["memTotal"] = strings.TrimSpace(rest)
			}
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m["kernel"] = strings.TrimSpace(string(b))
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		m["loadAverageAtStart"] = strings.TrimSpace(string(b))
	}
	if out, err := exec.Command("node", "--version").Output(); err == nil {
		m["node"] = strings.TrimSpace(string(out))
	}
	if h, err := os.Hostname(); err == nil {
		m["hostname"] = h
	}
	return m
}

// gitCommit is HEAD and whether the tree has changes.
func gitCommit(repo string) (string, bool) {
	out, err := exec.Command("git", "-C", repo, "rev-parse", "HEAD").Output()
	if err != nil {
		return "unknown", false
	}
	status, _ := exec.Command("git", "-C", repo, "status", "--porcelain").Output()
	return strings.TrimSpace(string(out)), len(strings.TrimSpace(string(status))) > 0
}

// parseGoBench reads `go test -bench` output (passing it through to w) and returns its results.
func parseGoBench(r io.Reader, w io.Writer) []micro {
	var out []micro
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		fmt.Fprintln(w, line)
		if m, ok := parseBenchLine(line); ok {
			out = append(out, m)
		}
	}
	return out
}

// parseBenchLine reads "BenchmarkName-2  123  45.6 ns/op  7 B/op ...".
func parseBenchLine(line string) (micro, bool) {
	f := strings.Fields(line)
	if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") || len(f)%2 != 0 {
		return micro{}, false
	}
	n, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return micro{}, false
	}
	m := micro{Name: f[0], Iterations: n, Metrics: map[string]float64{}}
	for i := 2; i+1 < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return micro{}, false
		}
		m.Metrics[f[i+1]] = v
	}
	return m, true
}

func nowUTC() string { return time.Now().UTC().Format(time.RFC3339) }
