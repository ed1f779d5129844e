package httpapi

// The /api/v1/admin endpoints. routes.go mounts them all under requireUser and requireAdmin, so
// no handler here checks the admin role again (and a test walks the route table to make sure
// every /api/v1/admin route refuses a signed-in non-admin).

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"patrimonio/server"
	"patrimonio/server/account"
	"patrimonio/server/admin"
)

// adminTexts are the texts of this file, {Spanish, English}.
var adminTexts = map[string][2]string{
	"admin.only":    {"Esta sección es solo para administradores.", "This area is for administrators only."},
	"admin.integer": {"El parámetro %s debe ser un número entero.", "The parameter %s must be a whole number."},
}

func adminError(r *http.Request, code, key string, args ...any) *server.Error {
	texts := adminTexts[key]
	text := texts[0]
	if server.LanguageFrom(r.Context()) == server.LangEN {
		text = texts[1]
	}
	if len(args) > 0 {
		text = fmt.Sprintf(text, args...)
	}
	return &server.Error{Code: code, Message: text}
}

// requireAdmin lets only app admins through: the signed-in user's IsAdmin (the stored flag or a
// configured admin address). It runs after requireUser; without a user it answers 401 as well.
func (a *api) requireAdmin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, _, ok := account.AuthFrom(r.Context())
		if !ok {
			a.writeError(w, r, server.Errorf(server.EUNAUTHORIZED, "%s", account.ErrorMessage(r.Context(), "session.required")))
			return
		}
		if !u.IsAdmin {
			a.writeError(w, r, adminError(r, server.EFORBIDDEN, "admin.only"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

type adminUserJSON struct {
	ID            string    `json:"id"`
	Email         string    `json:"email"`
	EmailVerified bool      `json:"emailVerified"`
	IsAdmin       bool      `json:"isAdmin"`
	FirstName     string    `json:"firstName"`
	LastName      string    `json:"lastName"`
	CreatedAt     time.Time `json:"createdAt"`
}

// GET /api/v1/admin/users?search=&limit=&offset= → [user], newest first. The page is described in
// headers: X-Total-Count (users matching the search), and a Link header with rel="next" when
// there are more.
func (a *api) adminListUsers(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var query admin.UserQuery
	query.Search = q.Get("search")
	for _, p := range []struct {
		name string
		dst  *int
	}{{"limit", &query.Limit}, {"offset", &query.Offset}} {
		if v := q.Get(p.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				a.writeError(w, r, adminError(r, server.EINVALID, "admin.integer", p.name))
				return
			}
			*p.dst = n
		}
	}
	page, err := a.admin.ListUsers(r.Context(), query)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	out := make([]adminUserJSON, 0, len(page.Users))
	for _, u := range page.Users {
		out = append(out, adminUserJSON{ID: u.ID, Email: u.Email, EmailVerified: u.EmailVerified, IsAdmin: u.IsAdmin,
			FirstName: u.FirstName, LastName: u.LastName, CreatedAt: u.CreatedAt})
	}
	w.Header().Set("X-Total-Count", strconv.Itoa(page.Total))
	if next := page.Offset + len(page.Users); len(page.Users) > 0 && next < page.Total {
		nq := url.Values{}
		if query.Search != "" {
			nq.Set("search", query.Search)
		}
		nq.Set("limit", strconv.Itoa(page.Limit))
		nq.Set("offset", strconv.Itoa(next))
		w.Header().Set("Link", "<"+r.URL.Path+"?"+nq.Encode()+`>; rel="next"`)
	}
	writeJSON(w, http.StatusOK, out)
}
