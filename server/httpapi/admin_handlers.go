package httpapi

// The /api/v1/admin endpoints. routes.go mounts them all under requireUser and requireAdmin, so
// no handler here checks the admin role again (and a test walks the route table to make sure
// every /api/v1/admin route refuses a signed-in non-admin).

import (
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"patrimonio/core"
	"patrimonio/server/account"
	"patrimonio/server/admin"
)

// requireAdmin lets only app admins through: the signed-in user's IsAdmin (the stored flag or a
// configured admin address). It runs after requireUser; without a user it answers 401 as well.
func (a *api) requireAdmin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, _, ok := account.AuthFrom(r.Context())
		if !ok {
			a.writeError(w, r, core.Refuse(r.Context(), core.EUNAUTHORIZED, "account.session.required"))
			return
		}
		if !u.IsAdmin {
			a.writeError(w, r, core.Refuse(r.Context(), core.EFORBIDDEN, "authz.adminOnly"))
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
	AdminByConfig bool      `json:"adminByConfig"`
	FirstName     string    `json:"firstName"`
	LastName      string    `json:"lastName"`
	CreatedAt     time.Time `json:"createdAt"`
	Disabled      bool      `json:"disabled"`
	// null when enabled / never signed in / no subscription.
	DisabledAt         *time.Time `json:"disabledAt"`
	LastSignInAt       *time.Time `json:"lastSignInAt"`
	SubscriptionStatus *string    `json:"subscriptionStatus"`
}

func timeOrNull(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

func toAdminUserJSON(u admin.User) adminUserJSON {
	out := adminUserJSON{ID: u.ID, Email: u.Email, EmailVerified: u.EmailVerified, IsAdmin: u.IsAdmin, AdminByConfig: u.AdminByConfig,
		FirstName: u.FirstName, LastName: u.LastName, CreatedAt: u.CreatedAt, Disabled: !u.DisabledAt.IsZero(),
		DisabledAt: timeOrNull(u.DisabledAt), LastSignInAt: timeOrNull(u.LastSignInAt)}
	if u.SubscriptionStatus != "" {
		status := u.SubscriptionStatus
		out.SubscriptionStatus = &status
	}
	return out
}

// adminActor is the signed-in admin, as the admin service takes them.
func adminActor(r *http.Request) admin.Actor {
	u, _, ok := account.AuthFrom(r.Context())
	if !ok {
		return admin.Actor{}
	}
	return admin.Actor{UserID: u.ID, Email: u.Email, IsAdmin: u.IsAdmin}
}

// GET /api/v1/admin/users?search=&limit=&offset= → [user], newest first. The page is described in
// headers: X-Total-Count (users matching the search), and a Link header with rel="next" when
// there are more.
func (a *api) adminListUsers(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var query admin.UserQuery
	query.Search = q.Get("search")
	if !a.readPage(w, r, &query.Limit, &query.Offset) {
		return
	}
	page, err := a.admin.ListUsers(r.Context(), adminActor(r), query)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	out := make([]adminUserJSON, 0, len(page.Users))
	for _, u := range page.Users {
		out = append(out, toAdminUserJSON(u))
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

type adminUserActionRequest struct {
	Action string `json:"action"`
}

// POST /api/v1/admin/users/{id}/action {action: disable|enable|grant_admin|revoke_admin} → 200
// {user} as it is now. Granting and revoking the admin role, and disabling or enabling an admin,
// need the acting admin's recent re-verification (403 reverification_required otherwise); nobody
// acts on themself (403); an admin by configuration can be neither revoked nor disabled (409). Disabling ends every session and sync socket of
// the user at once. Each change is written to the audit log (GET /admin/users/audit).
func (a *api) adminUserAction(w http.ResponseWriter, r *http.Request) {
	var req adminUserActionRequest
	if err := decodeValid(w, r, "adminUserActionRequest", &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	ctx, id, actor := r.Context(), chi.URLParam(r, "id"), adminActor(r)
	// The service decides whether the action needs the proof (it depends on the user acted on).
	_, sess, _ := account.AuthFrom(ctx)
	actor.Reverified = a.accounts.Reverify.RequireRecentProof(ctx, sess) == nil
	u, err := a.admin.Act(ctx, actor, id, req.Action)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toAdminUserJSON(u))
}

type adminUserStateJSON struct {
	Disabled bool `json:"disabled"`
	IsAdmin  bool `json:"isAdmin"`
}

type adminUserAuditJSON struct {
	ID         string             `json:"id"`
	UserID     *string            `json:"userId"` // null once the account was deleted
	UserEmail  string             `json:"userEmail"`
	Action     string             `json:"action"`
	ActorID    *string            `json:"actorId"`
	ActorEmail string             `json:"actorEmail"`
	At         time.Time          `json:"at"`
	Before     adminUserStateJSON `json:"before"`
	After      adminUserStateJSON `json:"after"`
}

func stringOrNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// GET /api/v1/admin/users/audit?userId=&limit=&offset= → [entry], newest first; X-Total-Count is
// how many entries match in all.
func (a *api) adminUserAudit(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	query := admin.AuditQuery{UserID: q.Get("userId")}
	if !a.readPage(w, r, &query.Limit, &query.Offset) {
		return
	}
	entries, total, err := a.admin.Audit(r.Context(), adminActor(r), query)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	out := make([]adminUserAuditJSON, 0, len(entries))
	for _, e := range entries {
		out = append(out, adminUserAuditJSON{ID: e.ID, UserID: stringOrNull(e.UserID), UserEmail: e.UserEmail, Action: e.Action,
			ActorID: stringOrNull(e.ActorID), ActorEmail: e.ActorEmail, At: e.At,
			Before: adminUserStateJSON{e.BeforeDisabled, e.BeforeAdmin}, After: adminUserStateJSON{e.AfterDisabled, e.AfterAdmin}})
	}
	w.Header().Set("X-Total-Count", strconv.Itoa(total))
	writeJSON(w, http.StatusOK, out)
}
