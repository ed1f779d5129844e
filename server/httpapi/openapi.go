package httpapi

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"

	"go.yaml.in/yaml/v3"

	"patrimonio/core"
)

// openAPIYAML is the OpenAPI 3.1 description of /api/v1, written by hand in YAML because YAML is
// the readable form. Every route of routes.go under /api/v1 is in it, and nothing else: the test
// TestOpenAPIDescribesEveryRoute walks the router and fails on a difference.
//
//go:embed openapi.yaml
var openAPIYAML []byte

// openAPIJSON is the document as JSON, converted once, with info.version set to this build's.
var openAPIJSON = sync.OnceValues(func() ([]byte, error) {
	return yamlToJSON(openAPIYAML, core.Version)
})

// openAPI answers GET /api/v1/openapi.json.
func (a *api) openAPI(w http.ResponseWriter, r *http.Request) {
	b, err := openAPIJSON()
	if err != nil {
		a.writeError(w, r, fmt.Errorf("openapi document: %w", err))
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, _ = w.Write(b)
}

// yamlToJSON converts a YAML document to JSON, keeping the order of keys and setting
// info.version.
func yamlToJSON(src []byte, version string) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, fmt.Errorf("expected one YAML document")
	}
	root := doc.Content[0]
	if info := mappingValue(root, "info"); info != nil {
		if v := mappingValue(info, "version"); v != nil {
			v.Value, v.Tag, v.Style = version, "!!str", 0
		}
	}
	var buf bytes.Buffer
	if err := writeJSONNode(&buf, root); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, buf.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

func mappingValue(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func writeJSONNode(buf *bytes.Buffer, n *yaml.Node) error {
	switch n.Kind {
	case yaml.AliasNode:
		return writeJSONNode(buf, n.Alias)
	case yaml.MappingNode:
		buf.WriteByte('{')
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: a mapping key must be a scalar", k.Line)
			}
			if seen[k.Value] {
				return fmt.Errorf("line %d: key %q repeated", k.Line, k.Value)
			}
			seen[k.Value] = true
			if i > 0 {
				buf.WriteByte(',')
			}
			kb, _ := json.Marshal(k.Value)
			buf.Write(kb)
			buf.WriteByte(':')
			if err := writeJSONNode(buf, n.Content[i+1]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	case yaml.SequenceNode:
		buf.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeJSONNode(buf, c); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			buf.WriteString("null")
		case "!!bool":
			var b bool
			if err := n.Decode(&b); err != nil {
				return err
			}
			buf.WriteString(strconv.FormatBool(b))
		case "!!int", "!!float":
			var v any
			if err := n.Decode(&v); err != nil {
				return err
			}
			b, err := json.Marshal(v)
			if err != nil {
				return fmt.Errorf("line %d: %w", n.Line, err)
			}
			buf.Write(b)
		default:
			b, _ := json.Marshal(n.Value)
			buf.Write(b)
		}
	default:
		return fmt.Errorf("line %d: unsupported YAML node", n.Line)
	}
	return nil
}
