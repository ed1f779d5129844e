package httpapi

import (
	"github.com/go-chi/chi/v5"
)

// routes is the one route table of the server. Every endpoint is listed here; its handler lives in
// the file of its resource (health.go, web.go, ...).
func (a *api) routes() *chi.Mux {
	r := chi.NewRouter()
	r.Use(a.middleware()...)
	// Set before the sub-routers are mounted so they inherit them: both answer JSON.
	r.NotFound(a.notFound)
	r.MethodNotAllowed(a.methodNotAllowed)

	r.Route("/api/v1", func(r chi.Router) {
		r.Use(noStore, limitBody(maxJSONBody))

		r.Get("/health", a.health)
	})
	// Any other /api path is an unknown API path: JSON 404, never the web app.
	r.With(noStore).HandleFunc("/api", a.notFound)
	r.With(noStore).HandleFunc("/api/*", a.notFound)

	// The PWA: built files from Config.WebDir, and index.html for every client route.
	r.Get("/*", a.web)
	r.Head("/*", a.web)
	return r
}
