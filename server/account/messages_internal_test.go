package account

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestEveryMessageHasSpanishAndEnglishWithTheSameArguments(t *testing.T) {
	verbs := regexp.MustCompile(`%[dsvq]`)
	for key, texts := range catalogue {
		es, en := texts[0], texts[1]
		if strings.TrimSpace(es) == "" || strings.TrimSpace(en) == "" {
			t.Errorf("%s: a translation is empty: %q", key, texts)
		}
		if got, want := verbs.FindAllString(es, -1), verbs.FindAllString(en, -1); strings.Join(got, "") != strings.Join(want, "") {
			t.Errorf("%s: Spanish takes %v, English %v", key, got, want)
		}
	}
	if Message("es", "code.wrong") != "El código no es correcto." || Message("en", "code.wrong") != "The code is wrong." ||
		Message("fr", "code.wrong") != "El código no es correcto." {
		t.Error("Message does not pick the language, with Spanish as the default")
	}
}

// TestEveryMessageKeyInTheCodeExistsAndEveryKeyIsUsed reads the sources that name message keys
// (this package and the accounts' HTTP handlers) and compares their key-shaped strings with the
// catalogue.
func TestEveryMessageKeyInTheCodeExistsAndEveryKeyIsUsed(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	files = append(files, "../httpapi/session.go", "../httpapi/auth_handlers.go", "../httpapi/users_handlers.go")
	prefixes := map[string]bool{}
	for key := range catalogue {
		prefixes[key[:strings.Index(key, ".")]] = true
	}
	literal := regexp.MustCompile(`"([a-z][a-zA-Z]*\.[a-zA-Z.]+)"`)
	used := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || strings.HasSuffix(f, "_gen.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range literal.FindAllStringSubmatch(string(src), -1) {
			key := m[1]
			if !prefixes[key[:strings.Index(key, ".")]] {
				continue
			}
			used[key] = true
			if _, ok := catalogue[key]; !ok && key != "mail.verify" && key != "mail.reverify" {
				t.Errorf("%s uses the message key %q, which the catalogue lacks", f, key)
			}
		}
	}
	for _, stem := range []string{"mail.verify", "mail.reverify"} {
		if used[stem] {
			used[stem+".subject"], used[stem+".text"] = true, true
		}
	}
	for key := range catalogue {
		if !used[key] {
			t.Errorf("the catalogue key %q is used nowhere", key)
		}
	}
}
