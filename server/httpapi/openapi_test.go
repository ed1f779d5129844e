package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"patrimonio/core"
	"patrimonio/server/config"
)

// openAPIDoc is the served document, decoded.
func openAPIDoc(t *testing.T) map[string]any {
	t.Helper()
	b, err := openAPIJSON()
	if err != nil {
		t.Fatalf("the OpenAPI document does not convert: %v", err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("the OpenAPI document is not JSON: %v", err)
	}
	return doc
}

var operationMethods = []string{"get", "put", "post", "patch", "delete", "head", "options", "trace"}

// chiParam matches a chi path parameter, with or without a regular expression.
var chiParam = regexp.MustCompile(`\{([^}:]+)(:[^}]*)?\}`)

// apiRoutes walks the router and returns "METHOD /path" of every route under /api/v1, with chi's
// {name:regexp} parameters written as OpenAPI's {name}.
func apiRoutes(t *testing.T, mux *chi.Mux) []string {
	t.Helper()
	var out []string
	err := chi.Walk(mux, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if !strings.HasPrefix(route, "/api/v1/") {
			return nil
		}
		route = chiParam.ReplaceAllString(strings.ReplaceAll(route, "/*/", "/"), "{$1}")
		out = append(out, method+" "+route)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// documentedRoutes returns "METHOD /path" of every operation of the document.
func documentedRoutes(doc map[string]any) []string {
	var out []string
	paths, _ := doc["paths"].(map[string]any)
	for path, item := range paths {
		ops, _ := item.(map[string]any)
		for _, m := range operationMethods {
			if _, ok := ops[m]; ok {
				out = append(out, strings.ToUpper(m)+" "+path)
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestOpenAPIDescribesEveryRoute: the document and the route table list the same routes, both
// ways. A new route fails here until it is described in openapi.yaml.
func TestOpenAPIDescribesEveryRoute(t *testing.T) {
	// Routes that exist only when configured are turned on here.
	f := newFixture(t, func(c *config.Config) { c.DevOutbox = t.TempDir() })
	routes := apiRoutes(t, f.api.mux)
	documented := documentedRoutes(openAPIDoc(t))
	if len(routes) == 0 || !slices.Contains(routes, "GET /api/v1/health") {
		t.Fatalf("the walk found no /api/v1 routes: %v", routes)
	}
	var missing, extra []string
	for _, r := range routes {
		if !slices.Contains(documented, r) {
			missing = append(missing, r)
		}
	}
	for _, d := range documented {
		if !slices.Contains(routes, d) {
			extra = append(extra, d)
		}
	}
	if len(missing) > 0 {
		t.Errorf("routes missing from openapi.yaml:\n  %s", strings.Join(missing, "\n  "))
	}
	if len(extra) > 0 {
		t.Errorf("openapi.yaml describes routes that do not exist:\n  %s", strings.Join(extra, "\n  "))
	}
}

// TestRouteComparisonNoticesADifference makes sure the comparison above can fail: a route added
// to a router shows up in the walk, in OpenAPI's parameter syntax.
func TestRouteComparisonNoticesADifference(t *testing.T) {
	mux := chi.NewRouter()
	mux.Route("/api/v1", func(r chi.Router) {
		r.Get("/health", func(http.ResponseWriter, *http.Request) {})
		r.Route("/things/{id:[0-9]+}", func(r chi.Router) {
			r.Delete("/", func(http.ResponseWriter, *http.Request) {})
			r.Post("/parts/{partId}", func(http.ResponseWriter, *http.Request) {})
		})
	})
	mux.Get("/*", func(http.ResponseWriter, *http.Request) {})
	got := apiRoutes(t, mux)
	want := []string{"DELETE /api/v1/things/{id}/", "GET /api/v1/health", "POST /api/v1/things/{id}/parts/{partId}"}
	if !slices.Equal(got, want) {
		t.Errorf("walk = %v, want %v", got, want)
	}
	doc := map[string]any{"paths": map[string]any{"/api/v1/health": map[string]any{"get": map[string]any{}, "parameters": []any{}}}}
	if d := documentedRoutes(doc); !slices.Equal(d, []string{"GET /api/v1/health"}) {
		t.Errorf("documented = %v", d)
	}
}

// TestOpenAPIDocumentIsWellFormed checks what a reader of the document relies on: OpenAPI 3.1,
// every $ref resolves, every path parameter is declared, every operation has a unique
// operationId, a success answer and a JSON error answer, and every schema compiles.
func TestOpenAPIDocumentIsWellFormed(t *testing.T) {
	doc := openAPIDoc(t)
	if v, _ := doc["openapi"].(string); !strings.HasPrefix(v, "3.1.") {
		t.Errorf("openapi = %q, want 3.1.x", v)
	}
	if info, _ := doc["info"].(map[string]any); info["version"] != core.Version {
		t.Errorf("info.version = %v, want the build's %q", info["version"], core.Version)
	}

	// Every $ref points at something.
	var refs []string
	collectRefs(doc, &refs)
	if len(refs) == 0 {
		t.Fatal("no $ref found")
	}
	for _, ref := range refs {
		if _, err := resolvePointer(doc, ref); err != nil {
			t.Errorf("$ref %s: %v", ref, err)
		}
	}

	seenIDs := map[string]string{}
	paths, _ := doc["paths"].(map[string]any)
	for path, rawItem := range paths {
		item := rawItem.(map[string]any)
		want := chiParam.FindAllStringSubmatch(path, -1)
		for _, m := range operationMethods {
			rawOp, ok := item[m]
			if !ok {
				continue
			}
			op := rawOp.(map[string]any)
			where := strings.ToUpper(m) + " " + path
			id, _ := op["operationId"].(string)
			if id == "" {
				t.Errorf("%s has no operationId", where)
			} else if other, dup := seenIDs[id]; dup {
				t.Errorf("%s repeats the operationId %q of %s", where, id, other)
			}
			seenIDs[id] = where

			declared := map[string]bool{}
			for _, list := range []any{item["parameters"], op["parameters"]} {
				params, _ := list.([]any)
				for _, p := range params {
					pm := deref(t, doc, p)
					if pm["in"] == "path" {
						declared[pm["name"].(string)] = true
						if pm["required"] != true {
							t.Errorf("%s: path parameter %v must be required", where, pm["name"])
						}
					}
				}
			}
			for _, w := range want {
				if !declared[w[1]] {
					t.Errorf("%s: path parameter {%s} is not declared", where, w[1])
				}
				delete(declared, w[1])
			}
			for name := range declared {
				t.Errorf("%s declares path parameter %s that is not in the path", where, name)
			}

			responses, _ := op["responses"].(map[string]any)
			success := false
			for status := range responses {
				// 101: the sync WebSocket's handshake (Switching Protocols) is its success.
				if n, err := strconv.Atoi(status); err == nil && (n >= 200 && n < 400 || n == 101) {
					success = true
				}
			}
			if !success {
				t.Errorf("%s has no success answer", where)
			}
			if op["security"] == nil && responses["401"] == nil {
				t.Errorf("%s needs a session but does not describe the 401 answer", where)
			}
			for status, raw := range responses {
				resp := deref(t, doc, raw)
				if where+" "+status == "GET /api/v1/health 503" {
					continue // the health check answers its own body when degraded
				}
				if n, _ := strconv.Atoi(status); n >= 400 || status == "default" {
					content, _ := resp["content"].(map[string]any)
					js, _ := content["application/json"].(map[string]any)
					if js["schema"] == nil || fmt.Sprint(deref(t, doc, js["schema"])["required"]) != "[error]" {
						t.Errorf("%s %s: an error answer must have the Error schema", where, status)
					}
				}
			}
		}
	}

	// Every schema of components compiles as JSON Schema 2020-12.
	schemas, _ := doc["components"].(map[string]any)["schemas"].(map[string]any)
	for name := range schemas {
		if _, err := compileSchema(t, "#/components/schemas/"+jsonPointerEscape(name)); err != nil {
			t.Errorf("schema %s: %v", name, err)
		}
	}
}

func TestOpenAPIIsServedAsJSON(t *testing.T) {
	f := newFixture(t)
	rec := f.do(t, http.MethodGet, "/api/v1/openapi.json", nil)
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		t.Fatalf("status %d, Content-Type %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	var doc map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if _, ok := doc["paths"].(map[string]any)["/api/v1/workspaces"]; !ok {
		t.Errorf("the served document lacks /api/v1/workspaces")
	}
	if rec.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("Cache-Control = %q", rec.Header().Get("Cache-Control"))
	}
}

func TestYAMLToJSONKeepsOrderAndTypes(t *testing.T) {
	src := "b: 1\na: [true, null, 2.5, \"007\", x]\nc: {d: e}\nversion: 1\n"
	got, err := yamlToJSON([]byte(src), "9.9")
	if err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	_ = json.Compact(&compact, got)
	if want := `{"b":1,"a":[true,null,2.5,"007","x"],"c":{"d":"e"},"version":1}`; compact.String() != want {
		t.Errorf("got %s, want %s", compact.String(), want)
	}
	withInfo, err := yamlToJSON([]byte("info:\n  version: 0.0.0\n"), "1.2.3")
	if err != nil || !bytes.Contains(withInfo, []byte(`"version": "1.2.3"`)) {
		t.Errorf("info.version not set: %s, %v", withInfo, err)
	}
	if _, err := yamlToJSON([]byte("a: 1\na: 2\n"), ""); err == nil {
		t.Error("a repeated key was accepted")
	}
}

func collectRefs(v any, out *[]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if s, ok := val.(string); k == "$ref" && ok {
				*out = append(*out, s)
			} else {
				collectRefs(val, out)
			}
		}
	case []any:
		for _, val := range x {
			collectRefs(val, out)
		}
	}
}

func jsonPointerEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func resolvePointer(doc any, ref string) (any, error) {
	ptr, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil, fmt.Errorf("only local references are used here")
	}
	cur := doc
	for _, tok := range strings.Split(ptr, "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%q is not an object", tok)
		}
		if cur, ok = m[tok]; !ok {
			return nil, fmt.Errorf("no %q", tok)
		}
	}
	return cur, nil
}

// deref follows a {"$ref": ...} object to what it points at.
func deref(t *testing.T, doc map[string]any, v any) map[string]any {
	t.Helper()
	m, _ := v.(map[string]any)
	for m != nil && m["$ref"] != nil {
		target, err := resolvePointer(doc, m["$ref"].(string))
		if err != nil {
			t.Fatalf("%v: %v", m["$ref"], err)
		}
		m, _ = target.(map[string]any)
	}
	return m
}

var (
	schemaCompilerOnce sync.Once
	schemaCompiler     *jsonschema.Compiler
	schemaCompilerErr  error
	schemaCache        sync.Map // pointer → *jsonschema.Schema
)

const openAPIResource = "https://patrimonio.invalid/openapi.json"

// compileSchema compiles the schema at a JSON pointer of the served document.
func compileSchema(t *testing.T, pointer string) (*jsonschema.Schema, error) {
	t.Helper()
	if s, ok := schemaCache.Load(pointer); ok {
		return s.(*jsonschema.Schema), nil
	}
	schemaCompilerOnce.Do(func() {
		b, err := openAPIJSON()
		if err != nil {
			schemaCompilerErr = err
			return
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			schemaCompilerErr = err
			return
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		schemaCompilerErr = c.AddResource(openAPIResource, doc)
		schemaCompiler = c
	})
	if schemaCompilerErr != nil {
		return nil, schemaCompilerErr
	}
	s, err := schemaCompiler.Compile(openAPIResource + pointer)
	if err != nil {
		return nil, err
	}
	schemaCache.Store(pointer, s)
	return s, nil
}

// conformsToOpenAPI checks an answer against the document: the operation of method and route
// (a path of the document, e.g. /api/v1/workspaces/{id}) must describe the status (or have a
// default), and the body must match its JSON schema. It returns the decoded body.
func conformsToOpenAPI(t *testing.T, method, route string, rec *httptest.ResponseRecorder) any {
	t.Helper()
	doc := openAPIDoc(t)
	item, _ := doc["paths"].(map[string]any)[route].(map[string]any)
	op, _ := item[strings.ToLower(method)].(map[string]any)
	if op == nil {
		t.Fatalf("the document has no %s %s", method, route)
	}
	responses := op["responses"].(map[string]any)
	status := strconv.Itoa(rec.Code)
	key := status
	if responses[key] == nil {
		key = "default"
		if responses[key] == nil || rec.Code < 400 {
			t.Fatalf("%s %s answered %d, which the document does not describe; body %s", method, route, rec.Code, rec.Body)
		}
	}
	resp := deref(t, doc, responses[key])
	content, _ := resp["content"].(map[string]any)
	if content == nil {
		if rec.Body.Len() != 0 {
			t.Fatalf("%s %s %d: the document describes no body, got %s", method, route, rec.Code, rec.Body)
		}
		return nil
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("%s %s %d: Content-Type %q", method, route, rec.Code, ct)
	}
	pointer := "#/paths/" + jsonPointerEscape(route) + "/" + strings.ToLower(method) + "/responses/" + key + "/content/application~1json/schema"
	if ref, ok := responses[key].(map[string]any)["$ref"].(string); ok {
		pointer = ref + "/content/application~1json/schema"
	}
	schema, err := compileSchema(t, pointer)
	if err != nil {
		t.Fatalf("compile %s: %v", pointer, err)
	}
	body, err := jsonschema.UnmarshalJSON(bytes.NewReader(rec.Body.Bytes()))
	if err != nil {
		t.Fatalf("%s %s %d: body is not JSON: %v", method, route, rec.Code, err)
	}
	if err := schema.Validate(body); err != nil {
		t.Fatalf("%s %s %d: the body does not match the document:\n%v\nbody: %s", method, route, rec.Code, err, rec.Body)
	}
	return body
}

// TestOpenAPIMatchesTheAccountAnswers sends a few requests to the accounts endpoints and checks
// their answers against the document, so that the description of routes written elsewhere stays
// true to what they answer.
func TestOpenAPIMatchesTheAccountAnswers(t *testing.T) {
	f := newTeamFixture(t, config.Config{SQLitePath: filepath.Join(t.TempDir(), "patrimonio.db"), AccountsConfig: config.AccountsConfig{DevOutbox: t.TempDir()}})
	anonymous := person{}
	f.expect(f.call(anonymous, "GET", "/api/v1/health", nil), "GET", "/api/v1/health", 200, nil)
	f.expect(f.call(anonymous, "GET", "/api/v1/auth/config", nil), "GET", "/api/v1/auth/config", 200, nil)

	f.expect(f.call(anonymous, "POST", "/api/v1/auth/signup", map[string]string{"email": "new@example.com", "password": "lentejas con chorizo 42"}),
		"POST", "/api/v1/auth/signup", 202, nil)
	f.expect(f.call(anonymous, "POST", "/api/v1/auth/signup", map[string]string{"email": "new@example.com", "password": "lentejas con chorizo 42"}),
		"POST", "/api/v1/auth/signup", 202, nil) // the same for a taken address
	f.expect(f.call(anonymous, "POST", "/api/v1/auth/signup", map[string]string{"email": "x@example.com", "password": "short"}),
		"POST", "/api/v1/auth/signup", 400, nil)
	f.expect(f.call(anonymous, "POST", "/api/v1/auth/signup/resend", map[string]string{"email": "new@example.com"}),
		"POST", "/api/v1/auth/signup/resend", 202, nil)

	var mails []map[string]any
	f.expect(f.call(anonymous, "GET", "/api/v1/dev/outbox?to=new@example.com", nil), "GET", "/api/v1/dev/outbox", 200, &mails)
	if len(mails) != 1 {
		t.Fatalf("outbox %v", mails)
	}
	f.expect(f.call(anonymous, "POST", "/api/v1/auth/signup/verify", map[string]string{"email": "new@example.com", "code": "12345"}),
		"POST", "/api/v1/auth/signup/verify", 400, nil)
	rec := f.call(anonymous, "POST", "/api/v1/auth/signup/verify", map[string]string{"email": "new@example.com", "code": mails[0]["code"].(string)})
	f.expect(rec, "POST", "/api/v1/auth/signup/verify", 200, nil)
	cookie := strings.Split(rec.Header().Get("Set-Cookie"), ";")[0]
	newcomer := person{cookie: cookie}
	f.expect(f.call(newcomer, "GET", "/api/v1/me", nil), "GET", "/api/v1/me", 200, nil)
	f.expect(f.call(newcomer, "GET", "/api/v1/auth/sessions", nil), "GET", "/api/v1/auth/sessions", 200, nil)
	f.expect(f.call(newcomer, "POST", "/api/v1/auth/sessions/signout-others", nil), "POST", "/api/v1/auth/sessions/signout-others", 200, nil)
	f.expect(f.call(anonymous, "POST", "/api/v1/auth/password/forgot", map[string]string{"email": "nobody@example.com"}),
		"POST", "/api/v1/auth/password/forgot", 202, nil)
	f.expect(f.call(anonymous, "POST", "/api/v1/auth/password/reset", map[string]string{"email": "nobody@example.com", "code": "123456", "password": "x"}),
		"POST", "/api/v1/auth/password/reset", 400, nil)
	f.expect(f.call(newcomer, "POST", "/api/v1/onboarding/advance", map[string]string{"step": "personal_info", "action": "complete"}),
		"POST", "/api/v1/onboarding/advance", 409, nil)
	f.expect(f.call(newcomer, "POST", "/api/v1/onboarding/advance", map[string]string{"step": "security_totp", "action": "skip"}),
		"POST", "/api/v1/onboarding/advance", 200, nil)
	f.expect(f.call(newcomer, "PATCH", "/api/v1/users/", map[string]string{}), "PATCH", "/api/v1/users/", 400, nil)
	f.expect(f.call(newcomer, "POST", "/api/v1/auth/reverify", map[string]string{"method": "password", "password": "lentejas con chorizo 42"}),
		"POST", "/api/v1/auth/reverify", 200, nil)
	f.expect(f.call(newcomer, "POST", "/api/v1/auth/totp/setup", nil), "POST", "/api/v1/auth/totp/setup", 200, nil)
	f.expect(f.call(newcomer, "GET", "/api/v1/auth/passkeys", nil), "GET", "/api/v1/auth/passkeys", 404, nil) // no passkey service here

	rec = f.call(newcomer, "POST", "/api/v1/auth/signout", nil)
	f.expect(rec, "POST", "/api/v1/auth/signout", 204, nil)
	f.expect(f.call(newcomer, "GET", "/api/v1/me", nil), "GET", "/api/v1/me", 204, nil)

	rec = f.call(anonymous, "POST", "/api/v1/auth/signin", map[string]string{"email": "new@example.com", "password": "lentejas con chorizo 42"})
	f.expect(rec, "POST", "/api/v1/auth/signin", 200, nil)
	f.expect(f.call(anonymous, "POST", "/api/v1/auth/signin", map[string]string{"email": "new@example.com", "password": "wrong password here"}),
		"POST", "/api/v1/auth/signin", 401, nil)
}
