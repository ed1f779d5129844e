package httpapi

import (
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
)

// assetsDir is where Vite puts the content-hashed files (build.assetsDir in pwa/vite.config.ts).
// It is not /assets/: the spec's asset screens (/assets/, /assets/{assetId}/, ...) live there and
// must deep-link to the app.
const assetsDir = "/_app"

// Cache policies of the built PWA.
const (
	// Vite names files under assetsDir by their content hash: a changed file gets a new name.
	cacheImmutable = "public, max-age=31536000, immutable"
	// The entry points name the current hashed files and the service worker; the browser must
	// revalidate them on every load so that a deployment is seen at once.
	cacheRevalidate = "no-cache"
	// Other files (icons, robots.txt) keep their names across deployments.
	cacheModest = "public, max-age=3600"
)

// contentTypes fixes the types of the files a Vite build produces; with nosniff the browser relies
// on them, so they must not depend on the machine's mime tables.
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".json":        "application/json",
	".map":         "application/json",
	".webmanifest": "application/manifest+json",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".jpg":         "image/jpeg",
	".jpeg":        "image/jpeg",
	".webp":        "image/webp",
	".avif":        "image/avif",
	".gif":         "image/gif",
	".ico":         "image/x-icon",
	".woff2":       "font/woff2",
	".woff":        "font/woff",
	".ttf":         "font/ttf",
	".txt":         "text/plain; charset=utf-8",
	".xml":         "application/xml",
	".wasm":        "application/wasm",
}

func contentType(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if t, ok := contentTypes[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}

// cachePolicy chooses the Cache-Control of a file that exists, by its clean URL path.
func cachePolicy(urlPath string) string {
	if isAsset(urlPath) {
		return cacheImmutable
	}
	base := path.Base(urlPath)
	switch {
	case base == "index.html", base == "manifest.webmanifest", base == "sw.js", base == "registerSW.js", base == "theme-init.js",
		strings.HasPrefix(base, "workbox-") && strings.HasSuffix(base, ".js"):
		return cacheRevalidate
	}
	return cacheModest
}

// web serves the built PWA from Config.WebDir: existing files with their cache policy, a plain
// 404 for a missing hashed asset, and index.html for every other path so that client routes
// deep-link. Without a build it answers 503 and says how to build one.
func (a *api) web(w http.ResponseWriter, r *http.Request) {
	urlPath := path.Clean("/" + r.URL.Path)

	// os.Root keeps every lookup inside the directory, symlinks included.
	root, err := os.OpenRoot(a.cfg.WebDir)
	if err != nil {
		a.notBuilt(w, r)
		return
	}
	defer root.Close()

	if urlPath != "/" && !hasHiddenSegment(urlPath) {
		if a.serveFile(w, r, root, urlPath) {
			return
		}
	}
	if isAsset(urlPath) {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	if !a.serveFile(w, r, root, "/index.html") {
		a.notBuilt(w, r)
	}
}

// serveFile serves the regular file at urlPath inside root and reports whether there was one.
// When the build wrote a precompressed variant beside it (NAME.br, NAME.gz; pwa/vite.config.ts)
// and the request accepts that encoding, the variant is the body, with the file's type.
func (a *api) serveFile(w http.ResponseWriter, r *http.Request, root *os.Root, urlPath string) bool {
	f, st := a.openRegular(r, root, urlPath)
	if f == nil {
		return false
	}
	defer f.Close()
	h := w.Header()
	h.Set("Content-Type", contentType(urlPath))
	h.Set("Cache-Control", cachePolicy(urlPath))

	body, size, coding := f, st.Size(), ""
	if compressible(urlPath) {
		// The answer depends on Accept-Encoding whichever variant is sent.
		h.Add("Vary", "Accept-Encoding")
		for _, c := range precompressed {
			if !acceptsEncoding(r.Header.Values("Accept-Encoding"), c.coding) {
				continue
			}
			if cf, cst := a.openRegular(r, root, urlPath+c.suffix); cf != nil {
				defer cf.Close()
				body, size, coding = cf, cst.Size(), c.coding
				break
			}
		}
	}
	// The ETag names the representation: the file's version and, when compressed, the encoding.
	etag := strconv.FormatInt(st.ModTime().UnixNano(), 36) + "-" + strconv.FormatInt(st.Size(), 36)
	if coding != "" {
		etag += "-" + coding
		h.Set("Content-Encoding", coding)
		// ServeContent leaves Content-Length out when Content-Encoding is set; it is known here.
		h.Set("Content-Length", strconv.FormatInt(size, 10))
		// A byte range of a compressed body is rarely what a client wants: the whole body is sent.
		r = r.Clone(r.Context())
		r.Header.Del("Range")
		r.Header.Del("If-Range")
	}
	h.Set("ETag", `"`+etag+`"`)
	http.ServeContent(w, r, urlPath, st.ModTime(), body)
	return true
}

// openRegular opens the regular file at urlPath inside root, or returns nil.
func (a *api) openRegular(r *http.Request, root *os.Root, urlPath string) (*os.File, fs.FileInfo) {
	f, err := root.Open(strings.TrimPrefix(urlPath, "/"))
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			a.logger.DebugContext(r.Context(), "web: cannot open file", "path", urlPath, "err", err)
		}
		return nil, nil
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, nil
	}
	return f, st
}

// precompressed lists the variants the build writes beside a compressible file, best first.
var precompressed = []struct{ coding, suffix string }{
	{"br", ".br"},
	{"gzip", ".gz"},
}

// compressible says whether the build may have precompressed the file at urlPath (text types;
// images and fonts are compressed already).
func compressible(urlPath string) bool {
	switch strings.ToLower(path.Ext(urlPath)) {
	case ".html", ".js", ".mjs", ".css", ".json", ".map", ".webmanifest", ".svg", ".txt", ".xml", ".wasm":
		return true
	}
	return false
}

// acceptsEncoding reports whether Accept-Encoding header values accept coding (RFC 9110 §12.5.3):
// named with a non-zero quality, or not named and covered by a "*" of non-zero quality.
func acceptsEncoding(header []string, coding string) bool {
	named, star := -1.0, -1.0
	for _, value := range header {
		for _, item := range strings.Split(value, ",") {
			name, params, _ := strings.Cut(item, ";")
			name = strings.ToLower(strings.TrimSpace(name))
			q := 1.0
			for _, p := range strings.Split(params, ";") {
				k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
				if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
					if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
						q = f
					} else {
						q = 0
					}
				}
			}
			switch {
			case name == coding || (coding == "gzip" && name == "x-gzip"):
				named = max(named, q)
			case name == "*":
				star = max(star, q)
			}
		}
	}
	if named >= 0 {
		return named > 0
	}
	return star > 0
}

// isAsset says whether a clean URL path is in Vite's hashed assets directory.
func isAsset(urlPath string) bool {
	return urlPath == assetsDir || strings.HasPrefix(urlPath, assetsDir+"/")
}

func hasHiddenSegment(urlPath string) bool {
	for _, seg := range strings.Split(urlPath, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}

func (a *api) notBuilt(w http.ResponseWriter, r *http.Request) {
	a.logger.WarnContext(r.Context(), "web: the PWA is not built", "web_dir", a.cfg.WebDir)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusServiceUnavailable)
	fmt.Fprintf(w, "Patrimonio's web app is not built: there is no index.html in %s.\n\n"+
		"Run `make run`, which builds the PWA and starts the server, or build it with `npm run build -w pwa`,\n"+
		"or point PATRIMONIO_WEB_DIR at a built PWA. The API answers under /api/v1 meanwhile.\n", a.cfg.WebDir)
}
