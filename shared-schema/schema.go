// Package schema validates Patrimonio's records and sync messages on the server with the very
// definitions the PWA uses: the JSON Schema files generated from the zod schemas
// (shared-schema/src, see scripts/generate.ts), the cross-field rules JSON Schema cannot express
// (rules.go, mirroring src/*.ts rule functions), and the same message files (messages/es.json,
// messages/en.json). The shared vectors in testdata/ pin both languages to the same verdicts.
//
// Every document is checked in this order, stopping at the first step that fails:
//
//  1. raw bounds: size (MaxRecordBytes or MaxMessageBytes), valid UTF-8 JSON, nesting (MaxDepth);
//  2. JSON Schema (unknown fields, types, lengths, formats, enums, number bounds);
//  3. cross-field rules (ownership shares sum to 100, dates in order, ISIN check digit...).
//
// Issues carry a message key and params (resolved in the request's language) and a dotted path.
package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"unicode/utf8"
)

// Protocol and schema versions and limits. They mirror src/protocol.ts; a test checks them
// against the generated jsonschema/index.json.
const (
	ProtocolVersion = 3
	SchemaVersion   = 7

	MaxMessageBytes      = 1_048_576
	MaxRecordBytes       = 65_536
	MaxDepth             = 10
	MaxMutationsPerPush  = 500
	MaxChangesPerPage    = 500
	MaxFieldsPerMutation = 100
	MaxWorkspaces        = 100
	MaxIssues            = 100
)

// Issue is one validation failure.
type Issue struct {
	// Path is the dotted path of the failing value ("otherOwners.1.percentage"); "" is the document.
	Path string `json:"path"`
	// Key is the message key in messages/<lang>.json, e.g. "validation.string.max".
	Key string `json:"key"`
	// Params fill the message's {{placeholders}}. Never holds the submitted value.
	Params map[string]any `json:"params"`
	// Message is Key resolved in the requested language.
	Message string `json:"message"`
}

// ErrUnknownEntity is returned for an entity name that has no schema.
var ErrUnknownEntity = errors.New("schema: unknown entity")

// Validate checks one JSON document of the named entity ("asset", "personalIdentity",
// "clientMessage"...). It returns nil issues when the document is valid. lang is "es" or "en"
// (see Language); messages default to Spanish. The error is non-nil only for an unknown entity
// or a broken embedded schema, never for bad input.
func Validate(entity string, raw []byte, lang string) ([]Issue, error) {
	set, err := load()
	if err != nil {
		return nil, err
	}
	if !set.known(entity) {
		return nil, fmt.Errorf("%w: %q", ErrUnknownEntity, entity)
	}
	limit := MaxRecordBytes
	if set.isMessage(entity) {
		limit = MaxMessageBytes
	}
	if len(raw) > limit {
		return set.finish([]rawIssue{{key: "validation.document.tooLarge", params: map[string]any{"max": limit}}}, lang), nil
	}
	value, issue := decode(raw)
	if issue != nil {
		return set.finish([]rawIssue{*issue}, lang), nil
	}
	return set.validate(entity, value, lang), nil
}

// ValidateValue checks an already decoded document (decode numbers with json.Decoder.UseNumber
// so they stay exact; float64 and int values are accepted too). Used by the sync engine on the
// merged record. Size is not checked (there are no bytes); depth is.
func ValidateValue(entity string, value any, lang string) ([]Issue, error) {
	set, err := load()
	if err != nil {
		return nil, err
	}
	if !set.known(entity) {
		return nil, fmt.Errorf("%w: %q", ErrUnknownEntity, entity)
	}
	if depthOf(value, MaxDepth) > MaxDepth {
		return set.finish([]rawIssue{tooDeep()}, lang), nil
	}
	return set.validate(entity, value, lang), nil
}

// ValidateShape is ValidateValue without the cross-field rules: each field against its own schema.
// The sync engine checks with it the values a mutation wrote that lost the merge: every value a
// mutation writes must be valid on its own, whatever the rules make of the record it lost in.
func ValidateShape(entity string, value any, lang string) ([]Issue, error) {
	set, err := load()
	if err != nil {
		return nil, err
	}
	if !set.known(entity) {
		return nil, fmt.Errorf("%w: %q", ErrUnknownEntity, entity)
	}
	if depthOf(value, MaxDepth) > MaxDepth {
		return set.finish([]rawIssue{tooDeep()}, lang), nil
	}
	return set.check(entity, value, lang, false), nil
}

func tooDeep() rawIssue {
	return rawIssue{key: "validation.document.tooDeep", params: map[string]any{"max": MaxDepth}}
}

// decode checks raw bytes are valid UTF-8 JSON no deeper than MaxDepth, then decodes them with
// exact numbers. The depth walk reads tokens, so a hostile document is refused before it is built.
func decode(raw []byte) (any, *rawIssue) {
	invalid := &rawIssue{key: "validation.document.invalidJson"}
	if !utf8.Valid(raw) {
		return nil, invalid
	}
	tokens := json.NewDecoder(bytes.NewReader(raw))
	depth := 0
	for {
		tok, err := tokens.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, invalid
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				depth++
				if depth > MaxDepth {
					issue := tooDeep()
					return nil, &issue
				}
			default:
				depth--
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var value any
	if err := dec.Decode(&value); err != nil {
		return nil, invalid
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, invalid
	}
	return value, nil
}

// depthOf is the nesting of objects/arrays (root container = 1), stopping once past limit.
func depthOf(value any, limit int) int {
	deepest := 0
	switch v := value.(type) {
	case map[string]any:
		if limit < 0 {
			return 1
		}
		for _, c := range v {
			if deepest = max(deepest, depthOf(c, limit-1)); deepest > limit {
				break
			}
		}
	case []any:
		if limit < 0 {
			return 1
		}
		for _, c := range v {
			if deepest = max(deepest, depthOf(c, limit-1)); deepest > limit {
				break
			}
		}
	default:
		return 0
	}
	return deepest + 1
}

// Entities lists every entity name Validate accepts, sorted.
func Entities() ([]string, error) {
	set, err := load()
	if err != nil {
		return nil, err
	}
	var names []string
	for name := range set.manifest.Entities {
		names = append(names, name)
	}
	for name := range set.manifest.Messages {
		names = append(names, name)
	}
	sort.Strings(names)
	return names, nil
}

// Collections maps each synced collection ("assets") to its entity ("asset").
func Collections() (map[string]string, error) {
	set, err := load()
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(set.manifest.Collections))
	for c, e := range set.manifest.Collections {
		out[c] = e
	}
	return out, nil
}

// Fields lists the top-level field names of a record entity, sorted (the keys a mutation's
// fields and clocks may use).
func Fields(entity string) ([]string, error) {
	set, err := load()
	if err != nil {
		return nil, err
	}
	props, ok := set.properties(entity)
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownEntity, entity)
	}
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	sort.Strings(names)
	return names, nil
}

// SecretFields lists the top-level fields of an entity marked x-secret (never log their values).
func SecretFields(entity string) ([]string, error) {
	set, err := load()
	if err != nil {
		return nil, err
	}
	props, ok := set.properties(entity)
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownEntity, entity)
	}
	var names []string
	for name, node := range props {
		if n, ok := node.(map[string]any); ok && n["x-secret"] == true {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names, nil
}
