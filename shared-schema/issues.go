package schema

import (
	"encoding/json"
	"errors"
	"math/big"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// rawIssue is an issue before its message is resolved.
type rawIssue struct {
	path   []string
	key    string
	params map[string]any
}

// validate runs JSON Schema then, if that passed, the cross-field rules (the order src/ uses).
func (s *schemaSet) validate(entity string, value any, lang string) []Issue {
	return s.check(entity, value, lang, true)
}

// check is validate, with the cross-field rules only when rules is true.
func (s *schemaSet) check(entity string, value any, lang string, rules bool) []Issue {
	file := s.manifest.Entities[entity]
	rulesName := entity
	if s.isMessage(entity) {
		// Messages are a union discriminated by "type": pick the one schema, as zod does.
		obj, ok := value.(map[string]any)
		if !ok {
			return s.finish([]rawIssue{{key: "validation.type.object"}}, lang)
		}
		t, present := obj["type"]
		if !present {
			return s.finish([]rawIssue{{path: []string{"type"}, key: "validation.required"}}, lang)
		}
		name, _ := t.(string)
		f, ok := s.manifest.Messages[entity][name]
		if !ok {
			return s.finish([]rawIssue{{path: []string{"type"}, key: "validation.enum"}}, lang)
		}
		file, rulesName = f, "message."+name
	}
	if fast := s.fast[file]; fast != nil && fast.valid(value) {
		// Accepted by the fast check: the library would accept it too (fast.go).
	} else if err := s.compiled[file].Validate(value); err != nil {
		var verr *jsonschema.ValidationError
		if !errors.As(err, &verr) {
			return s.finish([]rawIssue{{key: "validation.invalid"}}, lang)
		}
		var out []rawIssue
		s.collect(verr, nil, &out)
		if len(out) == 0 {
			out = append(out, rawIssue{key: "validation.invalid"})
		}
		return s.finish(out, lang)
	}
	if !rules {
		return nil
	}
	return s.finish(s.runRules(rulesName, value), lang)
}

// collect flattens a JSON Schema error tree into issues. keyPath, when set, replaces the instance
// location (errors of a propertyNames check are about the key, not the value).
func (s *schemaSet) collect(e *jsonschema.ValidationError, keyPath []string, out *[]rawIssue) {
	at := func(extra ...string) []string {
		base := e.InstanceLocation
		if keyPath != nil {
			base = keyPath
		}
		return append(append([]string{}, base...), extra...)
	}
	add := func(path []string, key string, params map[string]any) {
		*out = append(*out, rawIssue{path: path, key: key, params: params})
	}
	node := s.node(e.SchemaURL)

	switch k := e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		for _, c := range e.Causes {
			s.collect(c, keyPath, out)
		}
	case *kind.AnyOf:
		// A nullable value is anyOf[T, null]: report why it is not a T, as zod does.
		var kept []*jsonschema.ValidationError
		for _, c := range e.Causes {
			if t, ok := c.ErrorKind.(*kind.Type); ok && len(t.Want) == 1 && t.Want[0] == "null" {
				continue
			}
			kept = append(kept, c)
		}
		if len(kept) == len(e.Causes) || len(kept) == 0 {
			add(at(), "validation.invalid", nil)
			return
		}
		for _, c := range kept {
			s.collect(c, keyPath, out)
		}
	case *kind.PropertyNames:
		path := append(append([]string{}, e.InstanceLocation...), k.Property)
		for _, c := range e.Causes {
			if _, ok := c.ErrorKind.(*kind.Enum); ok {
				add(path, "validation.unknownField", nil)
				continue
			}
			s.collect(c, path, out)
		}
	case *kind.Required:
		props, _ := node["properties"].(map[string]any)
		for _, name := range k.Missing {
			prop, _ := props[name].(map[string]any)
			add(at(name), requiredKey(prop, "validation.required"), nil)
		}
	case *kind.AdditionalProperties:
		for _, name := range k.Properties {
			add(at(name), "validation.unknownField", nil)
		}
	case *kind.Type:
		want := "invalid"
		for _, w := range k.Want {
			if w != "null" {
				want = w
				break
			}
		}
		add(at(), "validation.type."+want, nil)
	case *kind.MinLength:
		if k.Want <= 1 || (k.Got == 0 && requiredKey(node, "") != "") {
			add(at(), requiredKey(node, "validation.required"), nil)
		} else {
			add(at(), "validation.string.min", map[string]any{"min": k.Want})
		}
	case *kind.MaxLength:
		add(at(), "validation.string.max", map[string]any{"max": k.Want})
	case *kind.Pattern:
		if k.Got == "" && requiredKey(node, "") != "" {
			add(at(), requiredKey(node, ""), nil)
		} else if f, ok := node["format"].(string); ok {
			add(at(), "validation.format."+f, nil)
		} else {
			add(at(), "validation.invalid", nil)
		}
	case *kind.Format:
		add(at(), "validation.format."+k.Want, nil)
	case *kind.Enum:
		if k.Got == "" && requiredKey(node, "") != "" {
			add(at(), requiredKey(node, ""), nil)
		} else if custom, ok := node["x-key"].(string); ok {
			add(at(), custom, nil)
		} else {
			add(at(), "validation.enum", nil)
		}
	case *kind.Const:
		add(at(), "validation.enum", nil)
	case *kind.Minimum:
		add(at(), "validation.number.min", map[string]any{"min": ratParam(k.Want)})
	case *kind.Maximum:
		add(at(), "validation.number.max", map[string]any{"max": ratParam(k.Want)})
	case *kind.MinItems:
		add(at(), "validation.array.min", map[string]any{"min": k.Want})
	case *kind.MaxItems:
		add(at(), "validation.array.max", map[string]any{"max": k.Want})
	case *kind.MaxProperties:
		add(at(), "validation.object.max", map[string]any{"max": k.Want})
	default:
		add(at(), "validation.invalid", nil)
	}
}

// requiredKey is the node's x-required-key, or fallback.
func requiredKey(node map[string]any, fallback string) string {
	if k, ok := node["x-required-key"].(string); ok {
		return k
	}
	return fallback
}

func ratParam(r *big.Rat) any {
	if r.IsInt() && r.Num().IsInt64() {
		return r.Num().Int64()
	}
	f, _ := r.Float64()
	return f
}

// finish dedupes, sorts (path, then key; byte order = code point order, like the TS side) and
// resolves messages.
func (s *schemaSet) finish(raw []rawIssue, lang string) []Issue {
	if len(raw) == 0 {
		return nil
	}
	lang = normalizeLanguage(lang)
	seen := map[string]bool{}
	out := make([]Issue, 0, len(raw))
	for _, r := range raw {
		path := strings.Join(r.path, ".")
		id := path + "\x00" + r.key
		if seen[id] {
			continue
		}
		seen[id] = true
		params := r.params
		if params == nil {
			params = map[string]any{}
		}
		out = append(out, Issue{Path: path, Key: r.key, Params: params, Message: s.message(lang, r.key, params)})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Key < out[j].Key
	})
	return out
}

// asInt64 reads a JSON number decoded with UseNumber (or float64/int from a caller).
func asInt64(v any) (int64, bool) {
	switch n := v.(type) {
	case json.Number:
		if i, ok := plainInt(n); ok {
			return i, true
		}
		r, ok := new(big.Rat).SetString(n.String())
		if !ok || !r.IsInt() || !r.Num().IsInt64() {
			return 0, false
		}
		return r.Num().Int64(), true
	case float64:
		return int64(n), float64(int64(n)) == n
	case int:
		return int64(n), true
	case int64:
		return n, true
	}
	return 0, false
}
