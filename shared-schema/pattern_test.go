package schema

import (
	"math/rand/v2"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// schemaPatterns lists every pattern of the generated schemas (pattern and patternProperties).
func schemaPatterns(t *testing.T) []string {
	t.Helper()
	set, err := load()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var walk func(any)
	walk = func(n any) {
		switch x := n.(type) {
		case map[string]any:
			for k, v := range x {
				if p, ok := v.(string); ok && k == "pattern" {
					seen[p] = true
				}
				if k == "patternProperties" {
					if props, ok := v.(map[string]any); ok {
						for p := range props {
							seen[p] = true
						}
					}
				}
				walk(v)
			}
		case []any:
			for _, v := range x {
				walk(v)
			}
		}
	}
	for _, doc := range set.docs {
		walk(doc)
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// TestFastPatternCoversTheCommonPatterns: the patterns every push and record meets take the fast
// path (ids, stamps, field names, free text).
func TestFastPatternCoversTheCommonPatterns(t *testing.T) {
	patterns := schemaPatterns(t)
	for _, p := range []string{
		`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z-[0-9A-F]{4}-[0-9a-f]{16}$`,
		`^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`,
		`^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`,
		`^[A-Za-z_][A-Za-z0-9_]{0,63}$`,
		`^[^\x00-\x08\x0B\x0C\x0E-\x1F\x7F]*$`,
	} {
		found := false
		for _, q := range patterns {
			found = found || q == p
		}
		if !found {
			t.Errorf("pattern %s is no longer in the schemas: update this list", p)
		}
		if fastPattern(p) == nil {
			t.Errorf("pattern %s has no fast matcher", p)
		}
	}
}

// TestFastPatternAgreesWithRegexp: on every pattern of the schemas (and a few harder ones) the
// fast matcher, where it applies, answers as Go's regexp on generated near-miss strings.
func TestFastPatternAgreesWithRegexp(t *testing.T) {
	patterns := append(schemaPatterns(t),
		`^a*a$`, `^[a-c]?[a-c]{2,4}c$`, `^x+y?x$`, `^[^a]*$`, `^\.[.]\-[-a]$`, `^[\x41-\x43]{1,}$`, `^é$`, `^a{2,}b{0,3}$`)
	rng := rand.New(rand.NewPCG(3, 17))
	alphabet := []string{"0", "1", "7", "9", "a", "b", "f", "g", "z", "A", "F", "Z", "T", "-", "_", ".", ":", "/", "@",
		"+", "(", ")", " ", "#", "?", "x", "c", "y", "é", "€", "😀", "\x00", "\x07", "\x0b", "\x1f", "\x7f", "\t", "\n", "\xff", "\xe2\x82"}
	compiled, total, matched := 0, 0, 0
	for _, p := range patterns {
		fast := fastPattern(p)
		if fast == nil {
			continue
		}
		compiled++
		re := regexp.MustCompile(p)
		atoms, _ := parseSimplePattern(p)
		for i := 0; i < 3000; i++ {
			var s string
			if i%2 == 0 {
				s = generateFrom(rng, atoms) // a match, or near one after the edit below
				if i%4 == 0 && s != "" {
					b := []byte(s)
					b[rng.IntN(len(b))] = alphabet[rng.IntN(len(alphabet))][0]
					s = string(b)
				}
			} else {
				var b strings.Builder
				for n := rng.IntN(40); n > 0; n-- {
					b.WriteString(alphabet[rng.IntN(len(alphabet))])
				}
				s = b.String()
			}
			total++
			want := re.MatchString(s)
			if want {
				matched++
			}
			if got := fast.MatchString(s); got != want {
				t.Fatalf("pattern %s on %q: fast %v, regexp %v", p, s, got, want)
			}
		}
	}
	if compiled < 15 || matched < total/10 || matched > total*9/10 {
		t.Fatalf("%d patterns compiled, %d of %d strings matched: the test does not exercise both answers", compiled, matched, total)
	}
}

// generateFrom builds a string the atoms should match (a random count of each within its bounds).
func generateFrom(rng *rand.Rand, atoms []patternAtom) string {
	var b strings.Builder
	for _, a := range atoms {
		hi := a.max
		if hi < 0 {
			hi = a.min + 8
		}
		for n := a.min + rng.IntN(hi-a.min+1); n > 0; n-- {
			b.WriteRune(randomRuneOf(rng, a))
		}
	}
	return b.String()
}

func randomRuneOf(rng *rand.Rand, a patternAtom) rune {
	for tries := 0; tries < 50; tries++ {
		var r rune
		if a.negated || rng.IntN(8) == 0 {
			r = []rune{'a', 'Z', '5', ' ', 'é', '€', '😀', 0x7f, 0x01, utf8.RuneError}[rng.IntN(10)]
		} else {
			rg := a.ranges[rng.IntN(len(a.ranges))]
			r = rg.lo + rune(rng.IntN(int(rg.hi-rg.lo)+1))
		}
		if a.matches(r) {
			return r
		}
	}
	return 'a'
}
