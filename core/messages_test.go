package core_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"patrimonio/core"
)

func readCatalogue(t *testing.T, lang string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("messages", lang+".json"))
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{}
	if err := json.Unmarshal(b, &texts); err != nil {
		t.Fatalf("messages/%s.json: %v", lang, err)
	}
	return texts
}

// verbs lists the fmt verbs of a text, in order.
var verbs = regexp.MustCompile(`%[a-z]`)

// Like the PWA's locales test: both files have the same keys, no text is empty, and a key's texts
// take the same arguments in the same order.
func TestTheCataloguesHaveTheSameKeysAndArguments(t *testing.T) {
	es, en := readCatalogue(t, core.LangES), readCatalogue(t, core.LangEN)
	if len(es) < 100 {
		t.Fatalf("messages/es.json has only %d texts", len(es))
	}
	for key, text := range es {
		other, ok := en[key]
		if !ok {
			t.Errorf("%s is in es.json but not in en.json", key)
			continue
		}
		if strings.TrimSpace(text) == "" || strings.TrimSpace(other) == "" {
			t.Errorf("%s: a text is empty: %q / %q", key, text, other)
		}
		if a, b := verbs.FindAllString(text, -1), verbs.FindAllString(other, -1); !slices.Equal(a, b) {
			t.Errorf("%s: Spanish takes %v, English %v", key, a, b)
		}
	}
	for key := range en {
		if _, ok := es[key]; !ok {
			t.Errorf("%s is in en.json but not in es.json", key)
		}
	}
}

func TestTextPicksTheLanguageWithSpanishAsTheDefault(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		ctx  context.Context
		want string
	}{
		{ctx, "Espera 40 segundos antes de pedir otro código."},
		{core.WithLanguage(ctx, "es"), "Espera 40 segundos antes de pedir otro código."},
		{core.WithLanguage(ctx, "en"), "Wait 40 seconds before asking for another code."},
		{core.WithLanguage(ctx, "fr"), "Espera 40 segundos antes de pedir otro código."},
	} {
		if got := core.Text(tt.ctx, "account.code.resendTooSoon", 40); got != tt.want {
			t.Errorf("Text(%s) = %q, want %q", core.LanguageFrom(tt.ctx), got, tt.want)
		}
	}
	e := core.Refuse(core.WithLanguage(ctx, "en"), core.ENOTFOUND, "passkey.notFound")
	if e.Code != core.ENOTFOUND || e.Message != "The passkey was not found." {
		t.Errorf("Refuse = %+v", e)
	}
	if got := core.TextIn("en", "no.such.key"); got != "no.such.key" {
		t.Errorf("an unknown key gives %q, want the key", got)
	}
}

// sources returns the module's Go files that are not tests, by path, with their text.
func sources(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != ".." && (name == "node_modules" || name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		out[filepath.ToSlash(path)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// keyUse finds the key a call of Refuse, Text or TextIn names: its first string literal.
var keyUse = regexp.MustCompile(`core\.(?:Refuse|Text|TextIn)\([^"\n]*?"([^"]+)"`)

// Every key the code names exists, and every key is used: named as a literal somewhere, or, for
// authz's refusals and role names (built as "authz."+rule), its rule or role is a literal in authz.
func TestEveryKeyUsedExistsAndEveryKeyIsUsed(t *testing.T) {
	es := readCatalogue(t, core.LangES)
	srcs := sources(t)
	if len(srcs) < 50 {
		t.Fatalf("found only %d Go files", len(srcs))
	}
	for path, src := range srcs {
		for _, m := range keyUse.FindAllStringSubmatch(src, -1) {
			if prefix, ok := strings.CutSuffix(m[1], "."); ok {
				// A key built at run time ("authz."+rule): some key must start with the prefix.
				if !slices.ContainsFunc(slices.Collect(maps.Keys(es)), func(k string) bool { return strings.HasPrefix(k, prefix+".") }) {
					t.Errorf("%s builds message keys from %q, which no key starts with", path, m[1])
				}
				continue
			}
			if _, ok := es[m[1]]; !ok {
				t.Errorf("%s names the message key %q, which the catalogue lacks", path, m[1])
			}
		}
	}
	var all, authz strings.Builder
	for path, src := range srcs {
		if path == "../core/messages.go" {
			continue
		}
		all.WriteString(src)
		if strings.HasPrefix(path, "../server/authz/") {
			authz.WriteString(src)
		}
	}
	for key := range es {
		if strings.Contains(all.String(), `"`+key+`"`) {
			continue
		}
		rest, isAuthz := strings.CutPrefix(key, "authz.")
		rest = strings.TrimPrefix(rest, "role.")
		if isAuthz && strings.Contains(authz.String(), `"`+rest+`"`) {
			continue
		}
		t.Errorf("the message key %q is used nowhere", key)
	}
}
