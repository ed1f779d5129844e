package schema

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// DefaultLanguage is Spanish: the app's locale is es-ES.
const DefaultLanguage = "es"

// Language picks "es" or "en" from an Accept-Language header value: the supported language with
// the highest quality wins (earlier wins a tie); anything else falls back to Spanish.
func Language(acceptLanguage string) string {
	best, bestQ := "", 0.0
	for _, part := range strings.Split(acceptLanguage, ",") {
		tag, q := part, 1.0
		if i := strings.Index(part, ";"); i >= 0 {
			tag = part[:i]
			for _, p := range strings.Split(part[i+1:], ";") {
				name, value, ok := strings.Cut(strings.TrimSpace(p), "=")
				if ok && strings.EqualFold(strings.TrimSpace(name), "q") {
					parsed, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
					if err != nil {
						parsed = 0
					}
					q = parsed
				}
			}
		}
		primary, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
		if primary != "es" && primary != "en" {
			continue
		}
		if q > bestQ {
			best, bestQ = primary, q
		}
	}
	if best == "" {
		return DefaultLanguage
	}
	return best
}

func normalizeLanguage(lang string) string {
	if lang == "en" || lang == "es" {
		return lang
	}
	return Language(lang)
}

// Message resolves a message key ("validation.string.max") in a language and fills its
// {{placeholders}} from params. An unknown key comes back as the key itself.
func Message(lang, key string, params map[string]any) string {
	set, err := load()
	if err != nil {
		return key
	}
	return set.message(normalizeLanguage(lang), key, params)
}

var placeholder = regexp.MustCompile(`\{\{\s*([A-Za-z0-9_]+)\s*\}\}`)

func (s *schemaSet) message(lang, key string, params map[string]any) string {
	template, ok := lookup(s.messages[lang], key)
	if !ok {
		return key
	}
	return placeholder.ReplaceAllStringFunc(template, func(whole string) string {
		name := placeholder.FindStringSubmatch(whole)[1]
		v, ok := params[name]
		if !ok {
			return whole
		}
		return formatParam(v)
	})
}

// formatParam prints a param the way JavaScript's String() does for the values we use.
func formatParam(v any) string {
	switch n := v.(type) {
	case float64:
		return strconv.FormatFloat(n, 'f', -1, 64)
	case string:
		return n
	default:
		return fmt.Sprint(n)
	}
}

func lookup(tree map[string]any, key string) (string, bool) {
	var cur any = tree
	for _, part := range strings.Split(key, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return "", false
		}
		cur = m[part]
	}
	s, ok := cur.(string)
	return s, ok
}

// messageKeys lists every leaf key of a message tree, sorted.
func messageKeys(tree map[string]any, prefix string) []string {
	var keys []string
	for k, v := range tree {
		if sub, ok := v.(map[string]any); ok {
			keys = append(keys, messageKeys(sub, prefix+k+".")...)
		} else {
			keys = append(keys, prefix+k)
		}
	}
	sort.Strings(keys)
	return keys
}
