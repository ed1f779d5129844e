package schema

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// Every pattern of the schemas has a fast matcher (fastPattern, or formatPattern for the formats
// with groups), but for the e-mail address, which records rarely carry. A new pattern that has
// none fails here: give it one, or add it to this list if it is as rare.
func TestEveryCommonPatternHasAFastMatcher(t *testing.T) {
	rare := map[string]bool{
		"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$": true,
	}
	formats := 0
	for _, p := range schemaPatterns(t) {
		if _, simple := parseSimplePattern(p); !simple && formatPattern(p) != nil {
			formats++
		}
		if fastPattern(p) == nil && !rare[p] {
			t.Errorf("pattern %s has no fast matcher", p)
		}
	}
	if formats < 7 {
		t.Errorf("only %d of the schemas' patterns are read by formatPattern, want the 7 decimal, share and date formats", formats)
	}
}

// The format matchers answer as Go's regexp: for each format pattern of the schemas, on every
// string of the shapes near it (signs, digits, points, leading zeros, lengths around the limits),
// every date of the years 999 to 3000 and invalid ones, and random strings.
func TestFormatPatternsAgreeWithRegexp(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 29))
	checked := 0
	for _, p := range append(schemaPatterns(t), `^(?:0|[1-9][0-9]{0,0})(?:\.[0-9]{1,1})?$`) {
		fast := formatPattern(p)
		if fast == nil {
			continue
		}
		re := regexp.MustCompile(p)
		check := func(s string) {
			checked++
			if got, want := fast.MatchString(s), re.MatchString(s); got != want {
				t.Fatalf("%s on %q: %v, regexp says %v", p, s, got, want)
			}
		}
		var candidates []string
		switch fast.(type) {
		case decimalPattern, sharePattern:
			candidates = numberShapes(rng)
		case datePattern:
			candidates = dateShapes()
		default:
			t.Fatalf("pattern %s: a matcher of type %T has no test shapes", p, fast)
		}
		for _, s := range candidates {
			check(s)
		}
		alphabet := []string{"0", "1", "2", "5", "9", "-", ".", "+", "e", "a", " ", "\n", "٣", "\xff", "0.", "-0"}
		for range 20000 {
			var b strings.Builder
			for n := rng.IntN(24); n > 0; n-- {
				b.WriteString(alphabet[rng.IntN(len(alphabet))])
			}
			check(b.String())
		}
	}
	if checked < 1_000_000 {
		t.Errorf("only %d strings checked", checked)
	}
}

// numberShapes: a sign or none, an integer part of 0 to 20 digits (with a leading zero or not),
// then nothing, a point alone, or a point and 1 to 20 digits; every short one, and random longer
// ones.
func numberShapes(rng *rand.Rand) []string {
	var out []string
	wholes := []string{""}
	for n := range 1000 {
		wholes = append(wholes, fmt.Sprint(n))
	}
	wholes = append(wholes, "00", "000", "01", "010", "0100", "1000", "10000")
	fractions := []string{"", "."}
	for n := range 1000 {
		fractions = append(fractions, "."+fmt.Sprint(n), fmt.Sprintf(".%02d", n%100), fmt.Sprintf(".%03d", n))
	}
	for _, sign := range []string{"", "-", "+", "--"} {
		for _, w := range wholes {
			for i, f := range fractions {
				if i%7 == 0 || len(w) < 3 || w == "100" || w == "1000" {
					out = append(out, sign+w+f)
				}
			}
		}
	}
	digitRun := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + rng.IntN(10))
		}
		return string(b)
	}
	for range 100000 {
		s := digitRun(rng.IntN(21))
		if rng.IntN(2) == 0 {
			s += "." + digitRun(rng.IntN(21))
		}
		if rng.IntN(3) == 0 {
			s = "-" + s
		}
		out = append(out, s)
	}
	return out
}

// dateShapes: every day of the years 999 to 3000 written YYYY-MM-DD with months 00 to 13 and days
// 00 to 32, and a few other shapes.
func dateShapes() []string {
	out := []string{"", "2024-2-29", "2024-02-9", "02024-02-29", "2024-02-290", "2024/02/29", "2024-02-29 ", " 2024-02-29", "+024-02-29"}
	for year := 999; year <= 3000; year++ {
		for month := 0; month <= 13; month++ {
			for day := 0; day <= 32; day++ {
				out = append(out, fmt.Sprintf("%04d-%02d-%02d", year, month, day))
			}
		}
	}
	return out
}
