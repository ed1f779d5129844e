package billing

import (
	"regexp"
	"slices"
	"testing"
)

var verb = regexp.MustCompile(`%[a-z]`)

// Every text exists in both languages, with the same verbs in the same order.
func TestEveryTextHasBothLanguagesWithTheSameArguments(t *testing.T) {
	for key, texts := range catalogue {
		if texts[0] == "" || texts[1] == "" || texts[0] == texts[1] {
			t.Errorf("%s: %q / %q", key, texts[0], texts[1])
		}
		if es, en := verb.FindAllString(texts[0], -1), verb.FindAllString(texts[1], -1); !slices.Equal(es, en) {
			t.Errorf("%s: verbs %v in Spanish, %v in English", key, es, en)
		}
	}
}
