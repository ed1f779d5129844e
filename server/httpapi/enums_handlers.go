package httpapi

// The enumerations (server/enums): GET /enums/, /enums/id/{number} and /enums/types for every
// signed-in user, answered with an ETag (If-None-Match → 304); and under /admin/enums the admin
// calls (create, update, deactivate, activate, reorder, the audit log). Who may do what is asked
// of authz by the service; the admin routes also sit behind requireAdmin like all of /admin.
//
// The route parameter is {number}, not {id}: validInput checks every parameter named id or
// ending in Id as a UUID, and enumeration ids are numbers.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"patrimonio/core"
	"patrimonio/server/account"
	"patrimonio/server/enums"
)

// Request bodies of the admin calls (shared-schema/src/enumRequests.ts).
const (
	bodyEnumCreate  = "enumCreateRequest"
	bodyEnumUpdate  = "enumUpdateRequest"
	bodyEnumReorder = "enumReorderRequest"
)

// labelsJSON are a value's labels in both languages.
type labelsJSON struct {
	ES string `json:"es"`
	EN string `json:"en"`
}

// enumJSON is a value as the API answers it (shared-schema enumeration).
type enumJSON struct {
	ID       int64      `json:"id"`
	Type     string     `json:"type"`
	Code     string     `json:"code"`
	ParentID int64      `json:"parentId,omitempty"`
	Level    string     `json:"level"`
	Labels   labelsJSON `json:"labels"`
	Order    int        `json:"order"`
	Active   bool       `json:"active"`
}

func toEnumJSON(v enums.Value) enumJSON {
	return enumJSON{ID: v.ID, Type: v.Type, Code: v.Code, ParentID: v.ParentID, Level: v.Level,
		Labels: labelsJSON{ES: v.LabelES, EN: v.LabelEN}, Order: v.Order, Active: v.Active}
}

func enumsJSON(vs []enums.Value) []enumJSON {
	out := make([]enumJSON, 0, len(vs))
	for _, v := range vs {
		out = append(out, toEnumJSON(v))
	}
	return out
}

// enumActor is who calls: the signed-in user (requireUser ran).
func enumActor(r *http.Request) enums.Actor {
	u, _, ok := account.AuthFrom(r.Context())
	if !ok {
		return enums.Actor{}
	}
	return enums.Actor{UserID: u.ID, Email: u.Email, IsAdmin: u.IsAdmin}
}

// writeCached answers v as JSON with a strong ETag of its bytes; a request whose If-None-Match
// names it gets 304 without a body. The answer may be kept by the browser, revalidated each time.
func writeCached(w http.ResponseWriter, r *http.Request, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		writeJSON(w, http.StatusOK, v) // answers the encoding error
		return
	}
	b = append(b, '\n')
	sum := sha256.Sum256(b)
	etag := `"` + hex.EncodeToString(sum[:16]) + `"`
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "private, no-cache")
	w.Header().Set("Vary", "Cookie")
	for _, tag := range strings.Split(r.Header.Get("If-None-Match"), ",") {
		if tag = strings.TrimSpace(tag); tag == etag || tag == "W/"+etag || tag == "*" {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// noEnums answers 404 when the server was built without the enumerations service (test
// fixtures of other resources); it reports whether it answered.
func (a *api) noEnums(w http.ResponseWriter, r *http.Request) bool {
	if a.enums == nil {
		a.notFound(w, r)
		return true
	}
	return false
}

// positive reads a positive whole number; "" gives 0.
func positive(s string) (int64, bool) {
	if s == "" {
		return 0, true
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n > 0 && n <= 2_147_483_647
}

// GET /api/v1/enums/?type=&parentId=&levels= → [enumeration]. levels is a list: repeated
// (levels=a&levels=b) or comma-separated (levels=a,b).
func (a *api) listEnums(w http.ResponseWriter, r *http.Request) {
	if a.noEnums(w, r) {
		return
	}
	q := r.URL.Query()
	f := enums.Filter{Type: q.Get("type")}
	var ok bool
	if f.ParentID, ok = positive(q.Get("parentId")); !ok {
		a.writeError(w, r, core.Refuse(r.Context(), core.EINVALID, "http.enum.integer", "parentId"))
		return
	}
	for _, l := range q["levels"] {
		for _, part := range strings.Split(l, ",") {
			if part = strings.TrimSpace(part); part != "" {
				f.Levels = append(f.Levels, part)
			}
		}
	}
	values, err := a.enums.List(r.Context(), enumActor(r), f)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeCached(w, r, enumsJSON(values))
}

// enumNumber reads the {number} route parameter.
func (a *api) enumNumber(w http.ResponseWriter, r *http.Request) (int64, bool) {
	raw := chi.URLParam(r, "number")
	n, ok := positive(raw)
	if !ok || n == 0 {
		a.writeError(w, r, core.Refuse(r.Context(), core.EINVALID, "http.enum.number", strconv.Quote(raw)))
		return 0, false
	}
	return n, true
}

// GET /api/v1/enums/id/{number} → enumeration.
func (a *api) getEnum(w http.ResponseWriter, r *http.Request) {
	if a.noEnums(w, r) {
		return
	}
	id, ok := a.enumNumber(w, r)
	if !ok {
		return
	}
	v, err := a.enums.Get(r.Context(), enumActor(r), id)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeCached(w, r, toEnumJSON(v))
}

type enumTypeJSON struct {
	Type   string   `json:"type"`
	Count  int      `json:"count"`
	Active int      `json:"active"`
	Levels []string `json:"levels"`
}

// GET /api/v1/enums/types → [{type, count, active, levels}].
func (a *api) enumTypes(w http.ResponseWriter, r *http.Request) {
	if a.noEnums(w, r) {
		return
	}
	types, err := a.enums.TypeList(r.Context(), enumActor(r))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	out := make([]enumTypeJSON, 0, len(types))
	for _, t := range types {
		out = append(out, enumTypeJSON{Type: t.Type, Count: t.Count, Active: t.Active, Levels: t.Levels})
	}
	writeCached(w, r, out)
}

type enumInputJSON struct {
	Type     string     `json:"type"`
	Code     string     `json:"code"`
	ParentID int64      `json:"parentId"`
	Level    string     `json:"level"`
	Labels   labelsJSON `json:"labels"`
}

// POST /api/v1/admin/enums {type, code, parentId?, level?, labels} → 201 enumeration.
func (a *api) adminCreateEnum(w http.ResponseWriter, r *http.Request) {
	if a.noEnums(w, r) {
		return
	}
	var in enumInputJSON
	if err := decodeValid(w, r, bodyEnumCreate, &in); err != nil {
		a.writeError(w, r, err)
		return
	}
	v, err := a.enums.Create(r.Context(), enumActor(r), enums.Input{Type: in.Type, Code: in.Code, ParentID: in.ParentID,
		Level: in.Level, LabelES: in.Labels.ES, LabelEN: in.Labels.EN})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, toEnumJSON(v))
}

// PUT /api/v1/admin/enums/{number} {code, level?, labels} → enumeration.
func (a *api) adminUpdateEnum(w http.ResponseWriter, r *http.Request) {
	if a.noEnums(w, r) {
		return
	}
	id, ok := a.enumNumber(w, r)
	if !ok {
		return
	}
	var in enumInputJSON
	if err := decodeValid(w, r, bodyEnumUpdate, &in); err != nil {
		a.writeError(w, r, err)
		return
	}
	v, err := a.enums.Update(r.Context(), enumActor(r), id, enums.Input{Code: in.Code, Level: in.Level, LabelES: in.Labels.ES, LabelEN: in.Labels.EN})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toEnumJSON(v))
}

// POST /api/v1/admin/enums/{number}/deactivate and /activate → enumeration.
func (a *api) adminDeactivateEnum(w http.ResponseWriter, r *http.Request) {
	a.setEnumActive(w, r, false)
}

func (a *api) adminActivateEnum(w http.ResponseWriter, r *http.Request) {
	a.setEnumActive(w, r, true)
}

func (a *api) setEnumActive(w http.ResponseWriter, r *http.Request, active bool) {
	if a.noEnums(w, r) {
		return
	}
	id, ok := a.enumNumber(w, r)
	if !ok {
		return
	}
	v, err := a.enums.SetActive(r.Context(), enumActor(r), id, active)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toEnumJSON(v))
}

// POST /api/v1/admin/enums/reorder {type, parentId?, ids} → [enumeration] in the new order.
func (a *api) adminReorderEnums(w http.ResponseWriter, r *http.Request) {
	if a.noEnums(w, r) {
		return
	}
	var in struct {
		Type     string  `json:"type"`
		ParentID int64   `json:"parentId"`
		IDs      []int64 `json:"ids"`
	}
	if err := decodeValid(w, r, bodyEnumReorder, &in); err != nil {
		a.writeError(w, r, err)
		return
	}
	values, err := a.enums.Reorder(r.Context(), enumActor(r), in.Type, in.ParentID, in.IDs)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, enumsJSON(values))
}

type enumAuditJSON struct {
	ID         int64     `json:"id"`
	EnumID     int64     `json:"enumId"`
	Action     string    `json:"action"`
	ActorID    string    `json:"actorId,omitempty"`
	ActorEmail string    `json:"actorEmail"`
	At         time.Time `json:"at"`
	Before     *enumJSON `json:"before"`
	After      enumJSON  `json:"after"`
}

// GET /api/v1/admin/enums/audit?enumId=&limit=&offset= → [entry], newest first; X-Total-Count.
func (a *api) adminEnumAudit(w http.ResponseWriter, r *http.Request) {
	if a.noEnums(w, r) {
		return
	}
	q := r.URL.Query()
	var query enums.AuditQuery
	var ok bool
	if query.EnumID, ok = positive(q.Get("enumId")); !ok {
		a.writeError(w, r, core.Refuse(r.Context(), core.EINVALID, "http.enum.integer", "enumId"))
		return
	}
	if !a.readPage(w, r, &query.Limit, &query.Offset) {
		return
	}
	entries, total, err := a.enums.Audit(r.Context(), enumActor(r), query)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	out := make([]enumAuditJSON, 0, len(entries))
	for _, e := range entries {
		j := enumAuditJSON{ID: e.ID, EnumID: e.EnumID, Action: e.Action, ActorID: e.ActorID, ActorEmail: e.ActorEmail, At: e.At, After: toEnumJSON(e.After)}
		if e.Before != nil {
			b := toEnumJSON(*e.Before)
			j.Before = &b
		}
		out = append(out, j)
	}
	w.Header().Set("X-Total-Count", strconv.Itoa(total))
	writeJSON(w, http.StatusOK, out)
}
