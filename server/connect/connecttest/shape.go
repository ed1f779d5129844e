// Package connecttest holds what the provider tests share: a check that a fixture has the shape
// an OpenAPI 3.0 document gives it (every key declared, required keys present, JSON types as
// declared, enums respected), so that fakes serve what the real API would.
package connecttest

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Spec is a loaded OpenAPI document.
type Spec struct {
	schemas map[string]map[string]any
}

// Load reads an OpenAPI document (YAML or JSON).
func Load(path string) (*Spec, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Components struct {
			Schemas map[string]map[string]any `yaml:"schemas"`
		} `yaml:"components"`
	}
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &Spec{schemas: doc.Components.Schemas}, nil
}

// Check returns the ways fixture (JSON) departs from the named schema; none means it fits.
func (s *Spec) Check(schema string, fixture []byte) []string {
	var v any
	if err := json.Unmarshal(fixture, &v); err != nil {
		return []string{err.Error()}
	}
	sch, ok := s.schemas[schema]
	if !ok {
		return []string{"no schema " + schema}
	}
	return s.check("$", sch, v, 0)
}

func (s *Spec) resolve(sch map[string]any) map[string]any {
	for i := 0; i < 32; i++ {
		ref, ok := sch["$ref"].(string)
		if !ok {
			return sch
		}
		sch = s.schemas[strings.TrimPrefix(ref, "#/components/schemas/")]
	}
	return sch
}

// merged folds allOf into one schema (properties and required joined).
func (s *Spec) merged(sch map[string]any) map[string]any {
	sch = s.resolve(sch)
	all, ok := sch["allOf"].([]any)
	if !ok {
		return sch
	}
	out := map[string]any{}
	props := map[string]any{}
	var required []any
	for k, v := range sch {
		if k != "allOf" {
			out[k] = v
		}
	}
	if p, ok := sch["properties"].(map[string]any); ok {
		for k, v := range p {
			props[k] = v
		}
	}
	for _, part := range all {
		m := s.merged(part.(map[string]any))
		for k, v := range m {
			if k != "properties" && k != "required" {
				if _, set := out[k]; !set {
					out[k] = v
				}
			}
		}
		if p, ok := m["properties"].(map[string]any); ok {
			for k, v := range p {
				props[k] = v
			}
		}
		if r, ok := m["required"].([]any); ok {
			required = append(required, r...)
		}
	}
	if len(props) > 0 {
		out["properties"] = props
	}
	if r, ok := sch["required"].([]any); ok {
		required = append(required, r...)
	}
	if len(required) > 0 {
		out["required"] = required
	}
	return out
}

func (s *Spec) check(path string, sch map[string]any, v any, depth int) []string {
	if depth > 64 {
		return nil
	}
	sch = s.merged(sch)
	if v == nil {
		if sch["nullable"] == true || len(sch) == 0 {
			return nil
		}
		if _, typed := sch["type"]; !typed {
			return nil
		}
		return []string{path + ": null where the document does not allow it"}
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		if alts, ok := sch[key].([]any); ok {
			for _, alt := range alts {
				if len(s.check(path, alt.(map[string]any), v, depth+1)) == 0 {
					return nil
				}
			}
			return []string{path + ": fits none of " + key}
		}
	}
	if enum, ok := sch["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(v) }) {
		return []string{fmt.Sprintf("%s: %v is not one of %v", path, v, enum)}
	}
	typ, _ := sch["type"].(string)
	if typ == "" {
		if _, ok := sch["properties"]; ok {
			typ = "object"
		}
	}
	var problems []string
	switch typ {
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			return []string{path + ": not an object"}
		}
		props, _ := sch["properties"].(map[string]any)
		_, open := sch["additionalProperties"]
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p, declared := props[k]
			switch {
			case declared:
				problems = append(problems, s.check(path+"."+k, p.(map[string]any), obj[k], depth+1)...)
			case !open && len(props) > 0:
				problems = append(problems, path+"."+k+": not in the document")
			}
		}
		if req, ok := sch["required"].([]any); ok {
			for _, r := range req {
				if _, ok := obj[r.(string)]; !ok {
					problems = append(problems, path+"."+r.(string)+": required but missing")
				}
			}
		}
	case "array":
		arr, ok := v.([]any)
		if !ok {
			return []string{path + ": not an array"}
		}
		if items, ok := sch["items"].(map[string]any); ok {
			for i, it := range arr {
				problems = append(problems, s.check(fmt.Sprintf("%s[%d]", path, i), items, it, depth+1)...)
			}
		}
	case "string":
		if _, ok := v.(string); !ok {
			problems = append(problems, path+": not a string")
		}
	case "number", "integer":
		if _, ok := v.(float64); !ok {
			problems = append(problems, path+": not a number")
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			problems = append(problems, path+": not a boolean")
		}
	}
	return problems
}
