package passkey

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// verbs lists the formatting verbs of a text, in order.
var verbs = regexp.MustCompile(`%[a-z]`)

func TestEveryMessageHasBothLanguagesWithTheSameArguments(t *testing.T) {
	for key, texts := range catalogue {
		if texts[0] == "" || texts[1] == "" {
			t.Errorf("%s: a language is missing", key)
		}
		if es, en := strings.Join(verbs.FindAllString(texts[0], -1), ""), strings.Join(verbs.FindAllString(texts[1], -1), ""); es != en {
			t.Errorf("%s: Spanish takes %q, English %q", key, es, en)
		}
	}
}

// keyUse finds message keys where they are used: errorf(ctx, code, "key" and Message(lang, "key".
var keyUse = regexp.MustCompile(`(?:errorf\(ctx, core\.\w+, |Message\([^"]*?, )"([a-zA-Z.]+)"`)

func TestEveryMessageKeyUsedExists(t *testing.T) {
	used := map[string]bool{}
	for _, file := range []string{"passkey.go", "../httpapi/passkey_handlers.go"} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range keyUse.FindAllStringSubmatch(string(src), -1) {
			used[m[1]] = true
			if _, ok := catalogue[m[1]]; !ok {
				t.Errorf("%s uses the unknown message key %q", file, m[1])
			}
		}
	}
	for key := range catalogue {
		if !used[key] {
			t.Errorf("the message key %q is not used (or used in a way this test does not see)", key)
		}
	}
}
