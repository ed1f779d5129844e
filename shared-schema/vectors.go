package schema

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// Vector is one shared test case from testdata/<entity>.json. Both the Vitest suite and the Go
// tests run every vector; other Go packages (the sync engine) may reuse them through Vectors.
type Vector struct {
	Name   string          `json:"name"`
	Entity string          `json:"entity"`
	Input  json.RawMessage `json:"input"`
	Valid  bool            `json:"valid"`
	// Path and Key of the single expected issue when Valid is false; Params when given.
	Path   string         `json:"path,omitempty"`
	Key    string         `json:"key,omitempty"`
	Params map[string]any `json:"params,omitempty"`
	// File the vector came from (relative to testdata/).
	File string `json:"-"`
}

// Vectors returns every shared validation vector, in file then list order.
func Vectors() ([]Vector, error) {
	names, err := fs.Glob(files, "testdata/*.json")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []Vector
	for _, name := range names {
		data, err := files.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
		var cases []Vector
		if err := json.Unmarshal(data, &cases); err != nil {
			return nil, fmt.Errorf("decode %s: %w", name, err)
		}
		for i := range cases {
			cases[i].File = strings.TrimPrefix(name, "testdata/")
			if want := strings.TrimSuffix(path.Base(name), ".json"); cases[i].Entity != want {
				return nil, fmt.Errorf("%s: case %q has entity %q", name, cases[i].Name, cases[i].Entity)
			}
		}
		out = append(out, cases...)
	}
	return out, nil
}

// TestdataFile reads one embedded file under testdata/ (e.g. "derived/participationValue.json").
func TestdataFile(name string) ([]byte, error) {
	return files.ReadFile(path.Join("testdata", name))
}
