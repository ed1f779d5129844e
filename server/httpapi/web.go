package httpapi

import (
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"strings"
)

// Cache policies of the built PWA.
const (
	// Vite names files under assets/ by their content hash: a changed file gets a new name.
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
	case base == "index.html", base == "manifest.webmanifest", base == "sw.js", base == "registerSW.js",
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
func (a *api) serveFile(w http.ResponseWriter, r *http.Request, root *os.Root, urlPath string) bool {
	f, err := root.Open(strings.TrimPrefix(urlPath, "/"))
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			a.logger.DebugContext(r.Context(), "web: cannot open file", "path", urlPath, "err", err)
		}
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	w.Header().Set("Content-Type", contentType(urlPath))
	w.Header().Set("Cache-Control", cachePolicy(urlPath))
	http.ServeContent(w, r, urlPath, st.ModTime(), f)
	return true
}

// isAsset says whether a clean URL path is in Vite's hashed assets directory.
func isAsset(urlPath string) bool {
	return urlPath == "/assets" || strings.HasPrefix(urlPath, "/assets/")
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
