package httpapi

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"patrimonio/core"
	"patrimonio/server/config"
)

// Every path of the spec's route table (§2), with sample ids and search params and the trailing
// slashes as the spec writes them, reloads into the app: index.html, never a file lookup's 404.
func TestEveryRouteOfTheSpecDeepLinksToTheApp(t *testing.T) {
	f := newFixture(t)
	const assetID = "0193a5b2-7c1d-7e4f-8a9b-0c1d2e3f4a5b"
	for _, target := range []string{
		"/",
		"/map",
		"/profile/",
		"/profile/billing?tab=billing",
		"/assets/",
		"/assets/?tab=accounts&collIds=1&collIds=2",
		"/assets/?tab=legal-structures",
		"/assets/" + assetID + "/",
		"/assets/" + assetID + "/?tab=details",
		"/assets/" + assetID + "/?tab=settings",
		"/assets/classes/real_estate/",
		"/assets/classes/real_estate/?collIds=3",
		"/assets/classes/real_estate/category/7",
		"/admin",
		"/admin/users",
		"/admin/enums",
		"/admin/enums?type=country&parentId=4&levels=a",
		"/admin/enums?type=country&parentId=4&levels=a&levels=b",
		"/onboarding",
		"/onboarding/personal-info",
		"/onboarding/passkey",
		"/onboarding/2fa",
		"/onboarding/status",
		"/onboarding/suscription",
		"/signin",
		"/signup",
		"/tos/",
		"/privacy/",
	} {
		for _, method := range []string{"GET", "HEAD"} {
			t.Run(method+" "+target, func(t *testing.T) {
				rec := f.do(t, method, target, nil)
				if rec.Code != http.StatusOK {
					t.Fatalf("status = %d, want 200; body %q", rec.Code, rec.Body.String())
				}
				if ct := rec.Header().Get("Content-Type"); ct != "text/html; charset=utf-8" {
					t.Errorf("Content-Type = %q, want text/html", ct)
				}
				if cc := rec.Header().Get("Cache-Control"); cc != cacheRevalidate {
					t.Errorf("Cache-Control = %q, want %q", cc, cacheRevalidate)
				}
				if method == "GET" && !strings.Contains(rec.Body.String(), `<div id="root">`) {
					t.Errorf("body is not index.html: %q", rec.Body.String())
				}
			})
		}
	}

	// The hashed files' directory is no route: a missing file there is a real 404, not the app
	// (an old page asking for a script of the previous deployment must not get HTML).
	for _, target := range []string{"/_app/index-OLD123.js", "/_app/index-OLD123.css", "/_app/"} {
		rec := f.do(t, "GET", target, nil)
		if rec.Code != http.StatusNotFound || strings.Contains(rec.Body.String(), `<div id="root">`) {
			t.Errorf("GET %s = %d %q, want a 404 that is not the app", target, rec.Code, rec.Body.String())
		}
	}
	// Unknown API paths stay JSON 404s.
	for _, target := range []string{"/api", "/api/", "/api/v1/assets/", "/api/v2/me"} {
		rec := f.do(t, "GET", target, nil)
		if rec.Code != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", target, rec.Code)
			continue
		}
		if e := jsonError(t, rec); e.Code != core.ENOTFOUND {
			t.Errorf("GET %s: code %q, want %q", target, e.Code, core.ENOTFOUND)
		}
	}
}

// compressedBuild is a web dir with a script, its brotli and gzip variants as the build writes
// them, a stylesheet with only a gzip variant, and an index.html with both.
type compressedBuild struct {
	dir                          string
	script, scriptBr, scriptGz   []byte
	css, cssGz, index, indexBrot []byte
}

func newCompressedBuild(t *testing.T) compressedBuild {
	t.Helper()
	b := compressedBuild{dir: fakeBuild(t)}
	b.script = bytes.Repeat([]byte(`console.log("patrimonio");`), 200)
	b.scriptGz = gzipBytes(t, b.script)
	// The server does not decode brotli: any distinct bytes prove which file was sent.
	b.scriptBr = []byte("BROTLI-OF-THE-SCRIPT")
	b.css = bytes.Repeat([]byte(`.a{margin:0}`), 200)
	b.cssGz = gzipBytes(t, b.css)
	b.index, _ = os.ReadFile(filepath.Join(b.dir, "index.html"))
	b.indexBrot = []byte("BROTLI-OF-INDEX")
	for name, body := range map[string][]byte{
		"_app/index-Zz9.js":     b.script,
		"_app/index-Zz9.js.br":  b.scriptBr,
		"_app/index-Zz9.js.gz":  b.scriptGz,
		"_app/index-Zz9.css":    b.css,
		"_app/index-Zz9.css.gz": b.cssGz,
		"index.html.br":         b.indexBrot,
		"index.html.gz":         gzipBytes(t, b.index),
		// An image is never looked up compressed, even if a variant lies beside it.
		"icons/icon.png.gz": []byte("not for images"),
	} {
		if err := os.WriteFile(filepath.Join(b.dir, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

func gzipBytes(t *testing.T, p []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(p); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestPrecompressedFilesAreChosenByAcceptEncoding(t *testing.T) {
	b := newCompressedBuild(t)
	if err := os.WriteFile(filepath.Join(b.dir, "icons", "icon.png"), []byte("\x89PNGicon"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, func(c *config.Config) { c.WebDir = b.dir })

	tests := []struct {
		name, target, acceptEncoding string
		wantEncoding                 string
		wantBody                     []byte
		wantType                     string
	}{
		{"brotli when the browser takes it", "/_app/index-Zz9.js", "gzip, deflate, br, zstd", "br", b.scriptBr, "text/javascript; charset=utf-8"},
		{"gzip when brotli is not offered", "/_app/index-Zz9.js", "gzip, deflate", "gzip", b.scriptGz, "text/javascript; charset=utf-8"},
		{"gzip when brotli is refused with q=0", "/_app/index-Zz9.js", "br;q=0, gzip;q=0.5", "gzip", b.scriptGz, "text/javascript; charset=utf-8"},
		{"the legacy x-gzip name", "/_app/index-Zz9.js", "x-gzip", "gzip", b.scriptGz, "text/javascript; charset=utf-8"},
		{"a wildcard accepts brotli", "/_app/index-Zz9.js", "*", "br", b.scriptBr, "text/javascript; charset=utf-8"},
		{"a wildcard does not override a named refusal", "/_app/index-Zz9.js", "br;q=0, *;q=0.1", "gzip", b.scriptGz, "text/javascript; charset=utf-8"},
		{"the plain file without Accept-Encoding", "/_app/index-Zz9.js", "", "", b.script, "text/javascript; charset=utf-8"},
		{"the plain file when only identity is accepted", "/_app/index-Zz9.js", "identity", "", b.script, "text/javascript; charset=utf-8"},
		{"the plain file when every encoding is refused", "/_app/index-Zz9.js", "gzip;q=0, br;q=0", "", b.script, "text/javascript; charset=utf-8"},
		{"gzip when the only variant is gzip", "/_app/index-Zz9.css", "br, gzip", "gzip", b.cssGz, "text/css; charset=utf-8"},
		{"the plain file when the only variant is refused", "/_app/index-Zz9.css", "br", "", b.css, "text/css; charset=utf-8"},
		{"a file without variants is sent plain", "/_app/index-B7xK2q.js", "br, gzip", "", []byte(`console.log("app")`), "text/javascript; charset=utf-8"},
		{"index.html compressed", "/index.html", "br", "br", b.indexBrot, "text/html; charset=utf-8"},
		{"a deep link gets index.html compressed", "/assets/classes/real_estate/?collIds=3", "gzip, br", "br", b.indexBrot, "text/html; charset=utf-8"},
		{"an image is never sent from a variant", "/icons/icon.png", "gzip", "", []byte("\x89PNGicon"), "image/png"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := f.do(t, "GET", tt.target, nil, "Accept-Encoding", tt.acceptEncoding)
			if rec.Code != http.StatusOK {
				t.Fatalf("status = %d, want 200", rec.Code)
			}
			h := rec.Header()
			if got := h.Get("Content-Encoding"); got != tt.wantEncoding {
				t.Errorf("Content-Encoding = %q, want %q", got, tt.wantEncoding)
			}
			if !bytes.Equal(rec.Body.Bytes(), tt.wantBody) {
				t.Errorf("body = %q, want %q", truncate(rec.Body.Bytes()), truncate(tt.wantBody))
			}
			if got := h.Get("Content-Type"); got != tt.wantType {
				t.Errorf("Content-Type = %q, want %q", got, tt.wantType)
			}
			if got := h.Get("Content-Length"); got != strconv.Itoa(len(tt.wantBody)) {
				t.Errorf("Content-Length = %q, want %d", got, len(tt.wantBody))
			}
			wantVary := "Accept-Encoding"
			if tt.wantType == "image/png" {
				wantVary = ""
			}
			if got := strings.Join(h.Values("Vary"), ", "); got != wantVary {
				t.Errorf("Vary = %q, want %q", got, wantVary)
			}
			if h.Get("Last-Modified") == "" || h.Get("ETag") == "" {
				t.Errorf("Last-Modified %q, ETag %q: want both", h.Get("Last-Modified"), h.Get("ETag"))
			}
			if tt.wantEncoding == "gzip" {
				zr, err := gzip.NewReader(bytes.NewReader(rec.Body.Bytes()))
				if err != nil {
					t.Fatal(err)
				}
				plain, err := io.ReadAll(zr)
				if err != nil {
					t.Fatal(err)
				}
				if want, _ := os.ReadFile(filepath.Join(b.dir, strings.TrimPrefix(tt.target, "/"))); !bytes.Equal(plain, want) {
					t.Errorf("the gzip body does not decode to the file")
				}
			}
		})
	}

	t.Run("the cache policy is the file's, compressed or not", func(t *testing.T) {
		for _, ae := range []string{"br", "gzip", ""} {
			rec := f.do(t, "GET", "/_app/index-Zz9.js", nil, "Accept-Encoding", ae)
			if cc := rec.Header().Get("Cache-Control"); cc != cacheImmutable {
				t.Errorf("%q: Cache-Control = %q, want %q", ae, cc, cacheImmutable)
			}
		}
	})

	t.Run("each representation has its own ETag, and a matching one answers 304", func(t *testing.T) {
		etags := map[string]string{}
		for _, ae := range []string{"br", "gzip", ""} {
			rec := f.do(t, "GET", "/_app/index-Zz9.js", nil, "Accept-Encoding", ae)
			etag := rec.Header().Get("ETag")
			if prev, seen := etags[etag]; seen {
				t.Errorf("ETag %s for both %q and %q", etag, prev, ae)
			}
			etags[etag] = ae
			again := f.do(t, "GET", "/_app/index-Zz9.js", nil, "Accept-Encoding", ae, "If-None-Match", etag)
			if again.Code != http.StatusNotModified || again.Body.Len() != 0 {
				t.Errorf("%q with If-None-Match: %d, %d body bytes, want 304 without body", ae, again.Code, again.Body.Len())
			}
			lm := rec.Header().Get("Last-Modified")
			since := f.do(t, "GET", "/_app/index-Zz9.js", nil, "Accept-Encoding", ae, "If-Modified-Since", lm)
			if since.Code != http.StatusNotModified {
				t.Errorf("%q with If-Modified-Since %s: %d, want 304", ae, lm, since.Code)
			}
		}
		// An ETag of the gzip body does not match the brotli one.
		var gzTag string
		for tag, ae := range etags {
			if ae == "gzip" {
				gzTag = tag
			}
		}
		if rec := f.do(t, "GET", "/_app/index-Zz9.js", nil, "Accept-Encoding", "br", "If-None-Match", gzTag); rec.Code != http.StatusOK {
			t.Errorf("brotli request with the gzip ETag: %d, want 200", rec.Code)
		}
	})

	t.Run("HEAD answers the headers of the compressed body without it", func(t *testing.T) {
		rec := f.do(t, "HEAD", "/_app/index-Zz9.js", nil, "Accept-Encoding", "gzip")
		if rec.Code != http.StatusOK || rec.Body.Len() != 0 {
			t.Fatalf("got %d with %d body bytes", rec.Code, rec.Body.Len())
		}
		if rec.Header().Get("Content-Encoding") != "gzip" || rec.Header().Get("Content-Length") != strconv.Itoa(len(b.scriptGz)) {
			t.Errorf("Content-Encoding %q, Content-Length %q; want gzip, %d", rec.Header().Get("Content-Encoding"), rec.Header().Get("Content-Length"), len(b.scriptGz))
		}
	})

	t.Run("a Range of a compressed answer is ignored: the whole body", func(t *testing.T) {
		rec := f.do(t, "GET", "/_app/index-Zz9.js", nil, "Accept-Encoding", "gzip", "Range", "bytes=0-9")
		if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), b.scriptGz) || rec.Header().Get("Content-Range") != "" {
			t.Errorf("got %d, %d bytes, Content-Range %q; want 200 with the whole gzip body", rec.Code, rec.Body.Len(), rec.Header().Get("Content-Range"))
		}
	})

	t.Run("a Range of a plain answer is served", func(t *testing.T) {
		rec := f.do(t, "GET", "/_app/index-Zz9.js", nil, "Range", "bytes=0-9")
		if rec.Code != http.StatusPartialContent || !bytes.Equal(rec.Body.Bytes(), b.script[:10]) {
			t.Errorf("got %d %q, want 206 with the first 10 bytes", rec.Code, rec.Body.String())
		}
		if got, want := rec.Header().Get("Content-Range"), "bytes 0-9/"+strconv.Itoa(len(b.script)); got != want {
			t.Errorf("Content-Range = %q, want %q", got, want)
		}
	})
}

func truncate(p []byte) []byte {
	if len(p) > 40 {
		return append(p[:40:40], "..."...)
	}
	return p
}

// The robots.txt the PWA ships (pwa/public/robots.txt) is served as text and says what we mean:
// the legal pages and the sign-in and sign-up pages may be crawled, the API and the screens
// behind sign-in may not.
func TestRobotsTxtIsServedAsTextAndKeepsTheAppPrivate(t *testing.T) {
	shipped, err := os.ReadFile(filepath.Join("..", "..", "pwa", "public", "robots.txt"))
	if err != nil {
		t.Fatal(err)
	}
	dir := fakeBuild(t)
	if err := os.WriteFile(filepath.Join(dir, "robots.txt"), shipped, 0o644); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, func(c *config.Config) { c.WebDir = dir })
	rec := f.do(t, "GET", "/robots.txt", nil)
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Fatalf("got %d %q, want 200 text/plain", rec.Code, rec.Header().Get("Content-Type"))
	}
	if !bytes.Equal(rec.Body.Bytes(), shipped) {
		t.Fatalf("body is not pwa/public/robots.txt: %q", rec.Body.String())
	}

	rules := parseRobots(t, rec.Body.String())
	for path, want := range map[string]bool{
		"/":                            true,
		"/tos/":                        true,
		"/privacy/":                    true,
		"/signin":                      true,
		"/signup":                      true,
		"/_app/index-B7xK2q.js":        true,
		"/theme-init.js":               true,
		"/api/v1/me":                   false,
		"/api/v1/health":               false,
		"/signup/verify":               false,
		"/map":                         false,
		"/profile/":                    false,
		"/profile/billing?tab=billing": false,
		"/assets/":                     false,
		"/assets/classes/real_estate/": false,
		"/admin/users":                 false,
		"/onboarding":                  false,
		"/onboarding/2fa":              false,
		"/workspaces":                  false,
	} {
		if got := rules.allowed(path); got != want {
			t.Errorf("robots.txt allows %s = %v, want %v", path, got, want)
		}
	}
}

type robotsRule struct {
	allow   bool
	pattern *regexp.Regexp
	length  int
}

type robotsRules []robotsRule

// parseRobots reads the group for every crawler (User-agent: *) with RFC 9309's * and $.
func parseRobots(t *testing.T, text string) robotsRules {
	t.Helper()
	var rules robotsRules
	inStar := false
	for _, line := range strings.Split(text, "\n") {
		line, _, _ = strings.Cut(line, "#")
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key, value = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(value)
		switch key {
		case "user-agent":
			inStar = value == "*"
		case "allow", "disallow":
			if !inStar || value == "" {
				continue
			}
			re := "^" + strings.ReplaceAll(regexp.QuoteMeta(strings.TrimSuffix(value, "$")), `\*`, ".*")
			if strings.HasSuffix(value, "$") {
				re += "$"
			}
			rules = append(rules, robotsRule{allow: key == "allow", pattern: regexp.MustCompile(re), length: len(value)})
		default:
			t.Fatalf("robots.txt has an unexpected line %q", line)
		}
	}
	if len(rules) == 0 {
		t.Fatal("robots.txt has no rules for User-agent: *")
	}
	return rules
}

// allowed applies the most specific (longest) matching rule; on a tie Allow wins; no rule allows.
func (rs robotsRules) allowed(path string) bool {
	best, allow := -1, true
	for _, r := range rs {
		if r.pattern.MatchString(path) && (r.length > best || (r.length == best && r.allow)) {
			best, allow = r.length, r.allow
		}
	}
	return allow
}
