package layers_test

import (
	"errors"
	"fmt"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "patrimonio/"

// Groups of packages that the map below names together.
var (
	kernel   = []string{"core"}
	rules    = []string{"server/authz", "server/members"}
	services = []string{"server/account", "server/admin", "server/billing", "server/enums", "server/fx",
		"server/passkey", "server/workspace", "server/clerkauth", "server/connect"}
	// The bank and broker providers of server/connect (issue 15): only the app picks them.
	providers = []string{"server/connect/enablebanking", "server/connect/snaptrade"}
)

func join(groups ...[]string) []string { return slices.Concat(groups...) }

// mayImport lists, for every package of the module, the packages of ours its non-test files may
// import. Test files may import more (test helpers, the app they drive).
var mayImport = map[string][]string{
	"core":          nil,
	"migrations":    nil,
	"shared-schema": nil,

	"server/store":   join(kernel, []string{"migrations"}),
	"server/authz":   kernel,
	"server/members": join(kernel, []string{"server/authz", "server/store"}),
	"server/config":  join(kernel, []string{"server/store"}),

	"server/account":   join(kernel, rules, []string{"server/store", "shared-schema"}),
	"server/admin":     join(kernel, rules, []string{"server/store"}),
	"server/billing":   join(kernel, []string{"server/store"}),
	"server/enums":     join(kernel, rules, []string{"server/store", "shared-schema"}),
	"server/fx":        join(kernel, []string{"server/store", "shared-schema"}), // the ISO currency list
	"server/passkey":   join(kernel, []string{"server/store"}),
	"server/workspace": join(kernel, rules, []string{"server/store"}),
	// Clerk is an auth provider built on the local accounts' users and sessions.
	"server/clerkauth": join(kernel, []string{"server/account"}),
	// Connections write what banks and brokers report as the server's own sync client
	// (sync.Engine.WriteAsServer); a provider implements connect's Provider interface and knows
	// nothing else of ours.
	"server/connect":               join(kernel, rules, []string{"server/store", "sync", "shared-schema"}),
	"server/connect/enablebanking": {"server/connect"},
	"server/connect/snaptrade":     {"server/connect"},

	// The sync engine sits below the HTTP app: no HTTP app, auth provider, billing or configuration.
	"sync": join(kernel, rules, []string{"server/store", "server/enums", "shared-schema", "sync/internal/freelist", "sync/internal/arena"}),
	// The engine's WebSocket transport: it reaches the engine through its Engine interface and
	// hears commits as the engine's Watcher; the engine knows nothing of it.
	"sync/socket": join(kernel, []string{"server/authz", "shared-schema", "sync", "sync/internal/freelist"}),
	// Large buffers kept between uses (the engine's COPY data, the socket's messages).
	"sync/internal/freelist": nil,
	"sync/internal/arena":    nil,

	"server/httpapi": join(kernel, rules, services, []string{"server/store", "server/config", "shared-schema"}),
	"server/app": join(kernel, rules, services, providers, []string{"server/store", "server/config", "server/httpapi",
		"sync", "sync/socket", "shared-schema"}),

	"server/cmd/patrimonio": join(kernel, []string{"server/app", "server/config", "server/store", "server/account"}),
	"server/cmd/pgtmp":      {"internal/pgtest"},
	// The fake Enable Banking and SnapTrade APIs on one port (end-to-end tests, trying the flow).
	"server/cmd/fakeproviders": {"server/connect/enablebanking/ebfake", "server/connect/snaptrade/stfake"},
	"bench/cmd/profserver":     join(kernel, []string{"server/app", "server/config"}),
	"bench/cmd/syncbench":      {"sync", "sync/device", "shared-schema"},
	// The device side of the protocol in Go (the simulation's and the benchmark's devices).
	"sync/device": {"sync", "shared-schema"},
	"sync/sim":    {"internal/pgtest", "server/app", "server/config", "server/store", "shared-schema", "sync", "sync/device", "sync/socket", "core"},

	// Test helpers, imported only by test files.
	"internal/layers":  nil,
	"internal/pgtest":  nil,
	"internal/testkit": {"internal/pgtest", "server/store"},
	// The engine's fixtures, shared by the tests of sync and sync/socket.
	"sync/internal/enginetest":   {"internal/pgtest", "internal/testkit", "server/store", "sync"},
	"server/billing/stripemock":  nil,
	"server/clerkauth/clerktest": nil,
	"server/passkey/passkeytest": nil,
	// The providers' fake APIs (their tests and server/cmd/fakeproviders) and the shape checker
	// of their fixtures against the providers' OpenAPI documents.
	"server/connect/enablebanking/ebfake": nil,
	"server/connect/snaptrade/stfake":     {"server/connect/snaptrade"},
	"server/connect/connecttest":          nil,
}

// testHelpers may be imported by test files only (and where the map says so: pgtmp and sync/sim
// start throwaway Postgres clusters).
var testHelpers = []string{"internal/pgtest", "internal/testkit", "internal/layers",
	"server/billing/stripemock", "server/clerkauth/clerktest", "server/passkey/passkeytest",
	"server/connect/connecttest", "sync/internal/enginetest"}

// ourImports lists every package of the module with the packages of ours its non-test files import
// (build constraints applied). It reads the files itself, so go test's cache sees them change.
func ourImports(t *testing.T) map[string][]string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the module root is not two folders up: %v", err)
	}
	graph := map[string][]string{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := d.Name()
		if path != root && (name == "node_modules" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		pkg, err := build.Default.ImportDir(path, 0)
		var none *build.NoGoError
		if errors.As(err, &none) {
			return nil
		} else if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		graph[rel] = []string{}
		for _, imp := range pkg.Imports {
			if rest, ok := strings.CutPrefix(imp, module); ok {
				graph[rel] = append(graph[rel], rest)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return graph
}

// violations returns one line per package missing from the map and per import the map does not allow.
func violations(graph map[string][]string, allowed map[string][]string) []string {
	var found []string
	for pkg, imports := range graph {
		may, known := allowed[pkg]
		if !known {
			found = append(found, pkg+" is not in the map: add it to mayImport (and to the README's architecture map)")
			continue
		}
		for _, imp := range imports {
			switch {
			case slices.Contains(may, imp):
			case slices.Contains(testHelpers, imp):
				found = append(found, pkg+" imports "+imp+", a test helper, outside its tests")
			default:
				found = append(found, pkg+" imports "+imp+", against the direction of the map")
			}
		}
	}
	slices.Sort(found)
	return found
}

func TestEveryPackageImportsOnlyAlongTheMap(t *testing.T) {
	graph := ourImports(t)
	if len(graph) < len(mayImport)/2 {
		t.Fatalf("go list found only %d packages", len(graph))
	}
	for _, v := range violations(graph, mayImport) {
		t.Error(v)
	}
	for pkg := range mayImport {
		if _, ok := graph[pkg]; !ok {
			t.Errorf("the map names %s, which is not a package of the module", pkg)
		}
	}
}

// The check can fail: an import against the direction, an unmapped package and a test helper in
// production code are each reported.
func TestTheCheckFindsImportsAgainstTheMap(t *testing.T) {
	graph := map[string][]string{
		"core":            {},
		"server/store":    {"core", "server/config"},
		"server/newthing": {"core"},
		"server/account":  {"internal/testkit"},
	}
	got := violations(graph, mayImport)
	want := []string{
		"server/account imports internal/testkit, a test helper, outside its tests",
		"server/newthing is not in the map: add it to mayImport (and to the README's architecture map)",
		"server/store imports server/config, against the direction of the map",
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
