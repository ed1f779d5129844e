package schema

import (
	"embed"
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The generated JSON Schemas, the message files and the shared test vectors.
//
//go:embed jsonschema/*.json messages/*.json testdata
var files embed.FS

// schemaBase prefixes every embedded schema's URL. Nothing is ever fetched from it.
const schemaBase = "https://schema.patrimonio.invalid/"

type manifest struct {
	ProtocolVersion        int                          `json:"protocolVersion"`
	SchemaVersion          int                          `json:"schemaVersion"`
	Limits                 map[string]int               `json:"limits"`
	Entities               map[string]string            `json:"entities"`
	Messages               map[string]map[string]string `json:"messages"`
	Collections            map[string]string            `json:"collections"`
	OnlineEntities         []string                     `json:"onlineEntities"`
	AssetCategoriesByClass map[string][]string          `json:"assetCategoriesByClass"`
	AssetGroups            map[string][]string          `json:"assetGroups"`
}

// schemaSet is everything compiled once: schemas by file, their raw documents (to read the
// x-required-key / x-key annotations and formats behind an error), and the messages.
type schemaSet struct {
	manifest manifest
	compiled map[string]*jsonschema.Schema // file -> schema
	fast     map[string]*fastNode          // file -> its fast check (fast.go), nil when it has none
	docs     map[string]any                // file -> raw JSON Schema document
	messages map[string]map[string]any     // lang -> message tree

	builtinCategories map[string]struct{} // every class's built-in asset categories
	assetGroups       []string            // the asset field groups, sorted
}

var (
	loadOnce sync.Once
	loaded   *schemaSet
	loadErr  error
)

// load compiles the embedded schemas the first time it is called; safe for concurrent use.
func load() (*schemaSet, error) {
	loadOnce.Do(func() { loaded, loadErr = compile() })
	return loaded, loadErr
}

func compile() (*schemaSet, error) {
	set := &schemaSet{
		compiled: map[string]*jsonschema.Schema{},
		fast:     map[string]*fastNode{},
		docs:     map[string]any{},
		messages: map[string]map[string]any{},
	}
	raw, err := files.ReadFile("jsonschema/index.json")
	if err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	if err := json.Unmarshal(raw, &set.manifest); err != nil {
		return nil, fmt.Errorf("decode manifest: %w", err)
	}

	set.builtinCategories = map[string]struct{}{}
	for _, codes := range set.manifest.AssetCategoriesByClass {
		for _, code := range codes {
			set.builtinCategories[code] = struct{}{}
		}
	}
	for g := range set.manifest.AssetGroups {
		set.assetGroups = append(set.assetGroups, g)
	}
	sort.Strings(set.assetGroups)

	c := jsonschema.NewCompiler()
	c.AssertFormat()
	for _, f := range registeredFormats() {
		c.RegisterFormat(f)
	}
	var names []string
	for _, file := range set.manifest.Entities {
		names = append(names, file)
	}
	for _, types := range set.manifest.Messages {
		for _, file := range types {
			names = append(names, file)
		}
	}
	for _, file := range names {
		data, err := files.ReadFile(path.Join("jsonschema", file))
		if err != nil {
			return nil, fmt.Errorf("read schema %s: %w", file, err)
		}
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(data)))
		if err != nil {
			return nil, fmt.Errorf("decode schema %s: %w", file, err)
		}
		if err := c.AddResource(schemaBase+file, doc); err != nil {
			return nil, fmt.Errorf("add schema %s: %w", file, err)
		}
		set.docs[file] = doc
	}
	for _, file := range names {
		sch, err := c.Compile(schemaBase + file)
		if err != nil {
			return nil, fmt.Errorf("compile schema %s: %w", file, err)
		}
		set.compiled[file] = sch
		set.fast[file] = compileFast(sch, fastPattern)
	}

	for _, lang := range []string{"es", "en"} {
		data, err := files.ReadFile("messages/" + lang + ".json")
		if err != nil {
			return nil, fmt.Errorf("read messages %s: %w", lang, err)
		}
		var tree map[string]any
		if err := json.Unmarshal(data, &tree); err != nil {
			return nil, fmt.Errorf("decode messages %s: %w", lang, err)
		}
		set.messages[lang] = tree
	}
	return set, nil
}

func (s *schemaSet) known(entity string) bool {
	_, record := s.manifest.Entities[entity]
	return record || s.isMessage(entity)
}

func (s *schemaSet) isMessage(entity string) bool {
	_, ok := s.manifest.Messages[entity]
	return ok
}

// properties returns the top-level "properties" of a record entity's schema.
func (s *schemaSet) properties(entity string) (map[string]any, bool) {
	file, ok := s.manifest.Entities[entity]
	if !ok {
		return nil, false
	}
	root, _ := s.docs[file].(map[string]any)
	props, ok := root["properties"].(map[string]any)
	return props, ok
}

// node resolves a schema URL ("https://.../asset.json#/properties/name") to its raw JSON node.
func (s *schemaSet) node(schemaURL string) map[string]any {
	file, pointer, _ := strings.Cut(strings.TrimPrefix(schemaURL, schemaBase), "#")
	var cur any = s.docs[file]
	for _, tok := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		if tok == "" {
			continue
		}
		if unescaped, err := url.PathUnescape(tok); err == nil {
			tok = unescaped // schema URLs percent-encode their fragment (patternProperties regexes)
		}
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch v := cur.(type) {
		case map[string]any:
			cur = v[tok]
		case []any:
			var i int
			if _, err := fmt.Sscanf(tok, "%d", &i); err != nil || i < 0 || i >= len(v) {
				return nil
			}
			cur = v[i]
		default:
			return nil
		}
	}
	n, _ := cur.(map[string]any)
	return n
}
