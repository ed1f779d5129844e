package clerkauth

import (
	"os"
	"regexp"
	"testing"
)

func TestEveryClerkMessageHasBothLanguages(t *testing.T) {
	for key, texts := range catalogue {
		if texts[0] == "" || texts[1] == "" || texts[0] == texts[1] {
			t.Errorf("%s: a language is missing or untranslated: %q", key, texts)
		}
	}
}

func TestEveryClerkMessageKeyIsUsedAndExists(t *testing.T) {
	use := regexp.MustCompile(`Message\([^"]*?, "([a-zA-Z.]+)"\)`)
	used := map[string]bool{}
	for _, file := range []string{"verifier.go", "authenticator.go"} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range use.FindAllStringSubmatch(string(src), -1) {
			used[m[1]] = true
			if _, ok := catalogue[m[1]]; !ok {
				t.Errorf("%s uses the unknown message key %q", file, m[1])
			}
		}
	}
	for key := range catalogue {
		if !used[key] {
			t.Errorf("the message key %q is not used", key)
		}
	}
}
