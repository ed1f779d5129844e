package psync_test

import (
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// The sync engine sits below the HTTP app (README: server → sync → (store, schema)): it may not
// depend, directly or through another package, on the HTTP app, an auth provider or billing.
// sync/sim is the exception: it is the simulation harness that runs the whole server (server/app)
// in its process, and nothing but its tests imports it. Test files are not checked.
var forbiddenForSync = []struct{ prefix, why string }{
	{"patrimonio/server/httpapi", "the HTTP app"},
	{"patrimonio/server/app", "the HTTP app"},
	{"patrimonio/server/account", "an auth provider (accounts, sessions, passkeys)"},
	{"github.com/clerk/", "an auth provider (Clerk)"},
	{"github.com/go-webauthn/", "an auth provider (passkeys)"},
	{"github.com/stripe/", "billing (Stripe)"},
}

var allowedToImportTheServer = map[string]bool{"patrimonio/sync/sim": true}

type listedPackage struct {
	ImportPath string
	Imports    []string
	Error      *struct{ Err string }
}

// importGraph runs `go list -deps` over the patterns and returns every package's direct imports.
func importGraph(t *testing.T, patterns ...string) (graph map[string][]string, roots []string) {
	t.Helper()
	list := func(args ...string) []listedPackage {
		cmd := exec.Command("go", append([]string{"list", "-e", "-json=ImportPath,Imports,Error"}, args...)...)
		out, err := cmd.Output()
		if err != nil {
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				t.Fatalf("go list %v: %v\n%s", args, err, exit.Stderr)
			}
			t.Fatalf("go list %v: %v", args, err)
		}
		var pkgs []listedPackage
		dec := json.NewDecoder(strings.NewReader(string(out)))
		for {
			var p listedPackage
			if err := dec.Decode(&p); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Fatal(err)
			}
			if p.Error != nil {
				t.Fatalf("go list: %s: %s", p.ImportPath, p.Error.Err)
			}
			pkgs = append(pkgs, p)
		}
		return pkgs
	}
	graph = map[string][]string{}
	for _, p := range list(append([]string{"-deps"}, patterns...)...) {
		graph[p.ImportPath] = p.Imports
	}
	for _, p := range list(patterns...) {
		roots = append(roots, p.ImportPath)
	}
	return graph, roots
}

// forbiddenChains returns, for each forbidden package reachable from root, one import chain to it.
func forbiddenChains(graph map[string][]string, root string) []string {
	parent := map[string]string{root: ""}
	queue := []string{root}
	var found []string
	for len(queue) > 0 {
		pkg := queue[0]
		queue = queue[1:]
		for _, f := range forbiddenForSync {
			if pkg == f.prefix || strings.HasPrefix(pkg, strings.TrimSuffix(f.prefix, "/")+"/") {
				chain := []string{pkg}
				for p := parent[pkg]; p != ""; p = parent[p] {
					chain = append([]string{p}, chain...)
				}
				found = append(found, f.why+": "+strings.Join(chain, " → "))
			}
		}
		for _, imp := range graph[pkg] {
			if _, seen := parent[imp]; !seen {
				parent[imp] = pkg
				queue = append(queue, imp)
			}
		}
	}
	return found
}

func TestSyncDoesNotImportTheHTTPAppAuthProvidersOrBilling(t *testing.T) {
	graph, roots := importGraph(t, "patrimonio/sync/...")
	checked := 0
	for _, root := range roots {
		if allowedToImportTheServer[root] {
			continue
		}
		checked++
		for _, chain := range forbiddenChains(graph, root) {
			t.Errorf("%s imports %s", root, chain)
		}
	}
	if checked == 0 {
		t.Fatal("no package of sync/ was checked")
	}

	// The check can fail: sync/sim, which runs the server in its process, is caught by it.
	if chains := forbiddenChains(graph, "patrimonio/sync/sim"); len(chains) == 0 {
		t.Error("the check finds nothing in sync/sim, which imports server/app: it cannot fail")
	}
}

// The engine knows nothing of sockets (issue 17): the WebSocket transport is sync/socket, and no
// package the engine imports reaches a WebSocket library.
func TestTheEngineImportsNoWebSocketLibrary(t *testing.T) {
	graph, _ := importGraph(t, "patrimonio/sync", "patrimonio/sync/socket")
	reaches := func(root string) []string {
		seen, queue := map[string]bool{root: true}, []string{root}
		var found []string
		for len(queue) > 0 {
			pkg := queue[0]
			queue = queue[1:]
			if strings.HasPrefix(pkg, "github.com/gorilla/websocket") || strings.Contains(pkg, "websocket") {
				found = append(found, pkg)
			}
			for _, imp := range graph[pkg] {
				if !seen[imp] {
					seen[imp] = true
					queue = append(queue, imp)
				}
			}
		}
		return found
	}
	if found := reaches("patrimonio/sync"); len(found) > 0 {
		t.Errorf("the engine reaches %v", found)
	}
	// The check can fail: the transport reaches gorilla/websocket.
	if found := reaches("patrimonio/sync/socket"); len(found) == 0 {
		t.Error("the check finds no WebSocket library in sync/socket, which imports one: it cannot fail")
	}
}
