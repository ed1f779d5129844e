// Package enums is the service behind the enumerations: the reference lists people pick from
// (countries, their subdivisions, currencies, asset classes and categories, structure types,
// liability kinds, relationships, and the cities admins add), hierarchical through a parent, with
// Spanish and English labels. Every signed-in user reads them; app admins create, update,
// deactivate and reorder values, and every change is written to an audit log. Who may do what is
// asked of authz.AuthorizeAdmin; the service owns its transactions and holds all the SQL.
//
// Ids are numbers and stable (see data/README.md for the scheme): the seed gives fixed ids, the
// values admins add get ids from 1000000 up.
package enums

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"patrimonio/core"
	"patrimonio/server/authz"
	"patrimonio/server/store"
)

// The types (lists) of values.
const (
	TypeAssetClass    = "asset_class"
	TypeAssetCategory = "asset_category"
	TypeCountry       = "country"
	TypeState         = "state" // ISO 3166-2 subdivisions (provinces, regions, states, ...)
	TypeCity          = "city"  // none seeded; admins add them under a subdivision
	TypeCurrency      = "currency"
	TypeStructureType = "structure_type"
	TypeLiabilityKind = "liability_kind"
	TypeRelationship  = "relationship"
)

// Types lists every type, in the order the admin area offers them.
var Types = []string{TypeCountry, TypeState, TypeCity, TypeCurrency, TypeAssetClass, TypeAssetCategory,
	TypeStructureType, TypeLiabilityKind, TypeRelationship}

// ParentTypes says which types a value of each type may hang under; a type not listed here has
// no parent.
var ParentTypes = map[string][]string{
	TypeAssetCategory: {TypeAssetClass},
	TypeState:         {TypeCountry, TypeState},
	TypeCity:          {TypeState, TypeCountry},
}

// Limits of what admins type (the shared schema has the same: enumerationShape, enumRequests).
const (
	MaxLabel    = 200
	MaxCode     = 64
	MaxLevels   = 10
	MaxReorder  = 1000
	MaxAudit    = 200
	FirstUserID = 1_000_000
)

var codePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// Value is one value of an enumeration.
type Value struct {
	ID       int64
	Type     string
	Code     string
	ParentID int64 // 0: top level
	// Level is the kind of value within its type: for subdivisions ISO's category in snake case
	// (province, autonomous_community, state, region, ...), for other types the type itself.
	Level     string
	LabelES   string
	LabelEN   string
	Order     int
	Active    bool
	UpdatedAt time.Time
}

// Filter selects values. Type keeps one type; ParentID without Levels keeps the direct children
// of that value; ParentID with Levels keeps its descendants at any depth whose level is one of
// Levels; Levels alone keeps the values of those levels. Zero fields select everything.
type Filter struct {
	Type     string
	ParentID int64
	Levels   []string
}

// TypeInfo describes one type: how many values it has (active ones apart) and its levels.
type TypeInfo struct {
	Type   string
	Count  int
	Active int
	Levels []string
}

// Actor is who asks: the signed-in user (zero when nobody is signed in).
type Actor struct {
	UserID  string
	Email   string
	IsAdmin bool
}

// Service reads and changes the enumerations.
type Service struct {
	db *store.DB
	// Now tells the time; tests replace it.
	Now func() time.Time
}

// NewService returns the service over db.
func NewService(db *store.DB) *Service { return &Service{db: db, Now: time.Now} }

func allow(actor Actor, action authz.Action) error {
	return authz.AuthorizeAdmin(authz.AdminRequest{SignedIn: actor.UserID != "", IsAdmin: actor.IsAdmin, Action: action})
}

const columns = `id, type, code, parent_id, level, label_es, label_en, sort_order, active, updated_at`

type queryer interface {
	Query(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func scanValues(ctx context.Context, q queryer, query string, args ...any) ([]Value, error) {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Value{}
	for rows.Next() {
		var v Value
		var parent sql.NullInt64
		if err := rows.Scan(&v.ID, &v.Type, &v.Code, &parent, &v.Level, &v.LabelES, &v.LabelEN, &v.Order, &v.Active, &v.UpdatedAt); err != nil {
			return nil, err
		}
		v.ParentID = parent.Int64
		v.UpdatedAt = v.UpdatedAt.UTC()
		out = append(out, v)
	}
	return out, rows.Err()
}

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// List returns the values f selects, ordered by parent, position and id.
func (s *Service) List(ctx context.Context, actor Actor, f Filter) ([]Value, error) {
	if err := allow(actor, authz.EnumRead); err != nil {
		return nil, err
	}
	if f.Type != "" && !validCode(f.Type) {
		return nil, core.Refuse(ctx, core.EINVALID, "enums.type")
	}
	if len(f.Levels) > MaxLevels {
		return nil, core.Refuse(ctx, core.EINVALID, "enums.levels", MaxLevels)
	}
	for _, l := range f.Levels {
		if !validCode(l) {
			return nil, core.Refuse(ctx, core.EINVALID, "enums.level")
		}
	}
	if f.ParentID < 0 {
		return nil, core.Refuse(ctx, core.EINVALID, "enums.parentId")
	}
	var where []string
	var args []any
	from := "enums"
	if f.ParentID > 0 && len(f.Levels) > 0 {
		// Descendants at any depth.
		from = `(WITH RECURSIVE sub(id) AS (SELECT id FROM enums WHERE parent_id = ?
			UNION ALL SELECT e.id FROM enums e JOIN sub ON e.parent_id = sub.id)
			SELECT enums.* FROM enums JOIN sub ON enums.id = sub.id) d`
		args = append(args, f.ParentID)
	} else if f.ParentID > 0 {
		where, args = append(where, "parent_id = ?"), append(args, f.ParentID)
	}
	if f.Type != "" {
		where, args = append(where, "type = ?"), append(args, f.Type)
	}
	if len(f.Levels) > 0 {
		where = append(where, "level IN (?"+strings.Repeat(", ?", len(f.Levels)-1)+")")
		for _, l := range f.Levels {
			args = append(args, l)
		}
	}
	q := `SELECT ` + columns + ` FROM ` + from
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY parent_id IS NOT NULL, parent_id, sort_order, id"
	values, err := scanValues(ctx, s.db, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list enums: %w", err)
	}
	return values, nil
}

// Get returns one value; ENOTFOUND when there is none with that id.
func (s *Service) Get(ctx context.Context, actor Actor, id int64) (Value, error) {
	if err := allow(actor, authz.EnumRead); err != nil {
		return Value{}, err
	}
	return get(ctx, s.db, id)
}

func get(ctx context.Context, q queryer, id int64) (Value, error) {
	values, err := scanValues(ctx, q, `SELECT `+columns+` FROM enums WHERE id = ?`, id)
	if err != nil {
		return Value{}, fmt.Errorf("get enum %d: %w", id, err)
	}
	if len(values) == 0 {
		return Value{}, core.Refuse(ctx, core.ENOTFOUND, "enums.notFound")
	}
	return values[0], nil
}

// TypeList describes every type of Types (also those without values yet), in that order.
func (s *Service) TypeList(ctx context.Context, actor Actor) ([]TypeInfo, error) {
	if err := allow(actor, authz.EnumRead); err != nil {
		return nil, err
	}
	rows, err := s.db.Query(ctx, `SELECT type, level, COUNT(*), SUM(CASE WHEN active THEN 1 ELSE 0 END) FROM enums GROUP BY type, level ORDER BY type, level`)
	if err != nil {
		return nil, fmt.Errorf("enum types: %w", err)
	}
	defer rows.Close()
	byType := map[string]*TypeInfo{}
	for rows.Next() {
		var t, level string
		var n, active int
		if err := rows.Scan(&t, &level, &n, &active); err != nil {
			return nil, fmt.Errorf("enum types: %w", err)
		}
		ti := byType[t]
		if ti == nil {
			ti = &TypeInfo{Type: t, Levels: []string{}}
			byType[t] = ti
		}
		ti.Count += n
		ti.Active += active
		ti.Levels = append(ti.Levels, level)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("enum types: %w", err)
	}
	out := make([]TypeInfo, 0, len(Types))
	for _, t := range Types {
		if ti := byType[t]; ti != nil {
			out = append(out, *ti)
		} else {
			out = append(out, TypeInfo{Type: t, Levels: []string{}})
		}
	}
	return out, nil
}

// Input is what an admin types for a new value or a change: Type and ParentID only count for a
// new value (a value keeps its type and parent); Level is optional (default: the parent's
// children's usual level for subdivisions, else the type).
type Input struct {
	Type     string
	Code     string
	ParentID int64
	Level    string
	LabelES  string
	LabelEN  string
}

func validCode(s string) bool { return len(s) <= MaxCode && codePattern.MatchString(s) }

func validLabel(s string) bool {
	n := utf8.RuneCountInString(s)
	return n >= 1 && n <= MaxLabel && strings.TrimSpace(s) != "" && utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

func checkInput(ctx context.Context, in Input) error {
	if !validCode(in.Code) {
		return core.Refuse(ctx, core.EINVALID, "enums.code", MaxCode)
	}
	if in.Level != "" && !validCode(in.Level) {
		return core.Refuse(ctx, core.EINVALID, "enums.level")
	}
	if !validLabel(in.LabelES) || !validLabel(in.LabelEN) {
		return core.Refuse(ctx, core.EINVALID, "enums.label", MaxLabel)
	}
	return nil
}

// Create adds a value at the end of its parent's list and writes the audit row.
func (s *Service) Create(ctx context.Context, actor Actor, in Input) (Value, error) {
	if err := allow(actor, authz.EnumCreate); err != nil {
		return Value{}, err
	}
	if !slices.Contains(Types, in.Type) {
		return Value{}, core.Refuse(ctx, core.EINVALID, "enums.type")
	}
	if err := checkInput(ctx, in); err != nil {
		return Value{}, err
	}
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return Value{}, err
	}
	defer tx.Rollback()

	allowed := ParentTypes[in.Type]
	switch {
	case in.ParentID == 0 && in.Type == TypeAssetCategory, in.ParentID == 0 && in.Type == TypeState, in.ParentID == 0 && in.Type == TypeCity:
		return Value{}, core.Refuse(ctx, core.EINVALID, "enums.parentRequired")
	case in.ParentID != 0 && len(allowed) == 0:
		return Value{}, core.Refuse(ctx, core.EINVALID, "enums.noParent")
	case in.ParentID != 0:
		parent, err := get(ctx, tx, in.ParentID)
		if core.ErrorCode(err) == core.ENOTFOUND {
			return Value{}, core.Refuse(ctx, core.EINVALID, "enums.parentMissing")
		}
		if err != nil {
			return Value{}, err
		}
		if !slices.Contains(allowed, parent.Type) {
			return Value{}, core.Refuse(ctx, core.EINVALID, "enums.parentType")
		}
	}
	if in.Level == "" {
		in.Level = in.Type
		if in.Type == TypeState {
			// The level its siblings have most often (e.g. province), else "state".
			var level sql.NullString
			if err := tx.QueryRow(ctx, `SELECT level FROM enums WHERE parent_id = ? AND type = ? GROUP BY level ORDER BY COUNT(*) DESC, level LIMIT 1`, in.ParentID, in.Type).Scan(&level); err != nil && !errors.Is(err, sql.ErrNoRows) {
				return Value{}, fmt.Errorf("create enum: level: %w", err)
			}
			if level.Valid {
				in.Level = level.String
			}
		}
	}
	var id int64
	if err := tx.QueryRow(ctx, `UPDATE enum_meta SET next_id = next_id + 1 WHERE id = 1 RETURNING next_id - 1`).Scan(&id); err != nil {
		return Value{}, fmt.Errorf("create enum: id: %w", err)
	}
	// After taking the id: on Postgres the counter's row lock makes creations wait for each other,
	// and this check (a new snapshot under READ COMMITTED) sees a value another admin just created
	// with the same code, so the second answers 409 codeTaken rather than meeting the unique index
	// (enums_type_code) with a 500. SQLite takes the write lock at BEGIN.
	if err := codeFree(ctx, tx, in.Type, in.Code, 0); err != nil {
		return Value{}, err
	}
	var order int
	if err := tx.QueryRow(ctx, `SELECT COALESCE(MAX(sort_order), 0) + 1 FROM enums WHERE type = ? AND `+parentIs(in.ParentID), parentArgs(in.Type, in.ParentID)...).Scan(&order); err != nil {
		return Value{}, fmt.Errorf("create enum: order: %w", err)
	}
	v := Value{ID: id, Type: in.Type, Code: in.Code, ParentID: in.ParentID, Level: in.Level, LabelES: in.LabelES,
		LabelEN: in.LabelEN, Order: order, Active: true, UpdatedAt: s.Now().UTC()}
	if _, err := tx.Exec(ctx, `INSERT INTO enums (`+columns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		v.ID, v.Type, v.Code, nullID(v.ParentID), v.Level, v.LabelES, v.LabelEN, v.Order, v.Active, v.UpdatedAt); err != nil {
		return Value{}, fmt.Errorf("create enum: %w", err)
	}
	if err := s.audit(ctx, tx, actor, "create", nil, &v); err != nil {
		return Value{}, err
	}
	if err := tx.Commit(); err != nil {
		return Value{}, fmt.Errorf("create enum: commit: %w", err)
	}
	return v, nil
}

func parentIs(parentID int64) string {
	if parentID == 0 {
		return "parent_id IS NULL"
	}
	return "parent_id = ?"
}

func parentArgs(typ string, parentID int64) []any {
	if parentID == 0 {
		return []any{typ}
	}
	return []any{typ, parentID}
}

func codeFree(ctx context.Context, tx *store.Tx, typ, code string, except int64) error {
	var n int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM enums WHERE type = ? AND code = ? AND id <> ?`, typ, code, except).Scan(&n); err != nil {
		return fmt.Errorf("enum code check: %w", err)
	}
	if n > 0 {
		return &core.Error{Code: core.ECONFLICT, Message: core.Text(ctx, "enums.codeTaken", code)}
	}
	return nil
}

// Update changes a value's level and labels (its type, parent and code stay) and writes the audit
// row. An unchanged value is not written and not audited. The code is fixed at creation: records
// on every device keep enumerations by code (an asset's class and category, a structure type, a
// country), so a new code would orphan them; in.Code must be the value's code (ECONFLICT
// enums.codeImmutable otherwise). A value with the wrong code is deactivated and a new one added.
func (s *Service) Update(ctx context.Context, actor Actor, id int64, in Input) (Value, error) {
	if err := allow(actor, authz.EnumUpdate); err != nil {
		return Value{}, err
	}
	if err := checkInput(ctx, in); err != nil {
		return Value{}, err
	}
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return Value{}, err
	}
	defer tx.Rollback()
	before, err := get(ctx, tx, id)
	if err != nil {
		return Value{}, err
	}
	if in.Code != before.Code {
		return Value{}, &core.Error{Code: core.ECONFLICT, Message: core.Text(ctx, "enums.codeImmutable", before.Code)}
	}
	after := before
	after.LabelES, after.LabelEN = in.LabelES, in.LabelEN
	if in.Level != "" {
		after.Level = in.Level
	}
	if after == before {
		return before, nil
	}
	after.UpdatedAt = s.Now().UTC()
	if _, err := tx.Exec(ctx, `UPDATE enums SET level = ?, label_es = ?, label_en = ?, updated_at = ? WHERE id = ?`,
		after.Level, after.LabelES, after.LabelEN, after.UpdatedAt, id); err != nil {
		return Value{}, fmt.Errorf("update enum %d: %w", id, err)
	}
	if err := s.audit(ctx, tx, actor, "update", &before, &after); err != nil {
		return Value{}, err
	}
	if err := tx.Commit(); err != nil {
		return Value{}, fmt.Errorf("update enum %d: commit: %w", id, err)
	}
	return after, nil
}

// SetActive deactivates (active false) or activates a value and writes the audit row. A value
// deactivated stays readable (old records keep showing it) and is not offered for new ones; its
// children keep their own flag.
func (s *Service) SetActive(ctx context.Context, actor Actor, id int64, active bool) (Value, error) {
	if err := allow(actor, authz.EnumDeactivate); err != nil {
		return Value{}, err
	}
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return Value{}, err
	}
	defer tx.Rollback()
	before, err := get(ctx, tx, id)
	if err != nil {
		return Value{}, err
	}
	if before.Active == active {
		return before, nil
	}
	after := before
	after.Active, after.UpdatedAt = active, s.Now().UTC()
	if _, err := tx.Exec(ctx, `UPDATE enums SET active = ?, updated_at = ? WHERE id = ?`, active, after.UpdatedAt, id); err != nil {
		return Value{}, fmt.Errorf("set enum %d active: %w", id, err)
	}
	action := "deactivate"
	if active {
		action = "activate"
	}
	if err := s.audit(ctx, tx, actor, action, &before, &after); err != nil {
		return Value{}, err
	}
	if err := tx.Commit(); err != nil {
		return Value{}, fmt.Errorf("set enum %d active: commit: %w", id, err)
	}
	return after, nil
}

// Reorder puts the values ids in that order. They must be all the values of type typ under
// parentID (0: the top level), every one exactly once. Each value whose position changes gets an audit row.
func (s *Service) Reorder(ctx context.Context, actor Actor, typ string, parentID int64, ids []int64) ([]Value, error) {
	if err := allow(actor, authz.EnumReorder); err != nil {
		return nil, err
	}
	if len(ids) == 0 || len(ids) > MaxReorder {
		return nil, core.Refuse(ctx, core.EINVALID, "enums.reorderCount", MaxReorder)
	}
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	siblings, err := scanValues(ctx, tx, `SELECT `+columns+` FROM enums WHERE type = ? AND `+parentIs(parentID)+` ORDER BY sort_order, id`,
		parentArgs(typ, parentID)...)
	if err != nil {
		return nil, fmt.Errorf("reorder enums: %w", err)
	}
	byID := map[int64]Value{}
	for _, v := range siblings {
		byID[v.ID] = v
	}
	seen := map[int64]bool{}
	for _, id := range ids {
		if _, ok := byID[id]; !ok || seen[id] {
			return nil, core.Refuse(ctx, core.EINVALID, "enums.reorderSiblings")
		}
		seen[id] = true
	}
	if len(ids) != len(siblings) {
		return nil, core.Refuse(ctx, core.EINVALID, "enums.reorderSiblings")
	}
	now := s.Now().UTC()
	out := make([]Value, 0, len(ids))
	for i, id := range ids {
		before := byID[id]
		after := before
		after.Order = i + 1
		if after.Order != before.Order {
			after.UpdatedAt = now
			if _, err := tx.Exec(ctx, `UPDATE enums SET sort_order = ?, updated_at = ? WHERE id = ?`, after.Order, now, id); err != nil {
				return nil, fmt.Errorf("reorder enums: %w", err)
			}
			if err := s.audit(ctx, tx, actor, "reorder", &before, &after); err != nil {
				return nil, err
			}
		}
		out = append(out, after)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("reorder enums: commit: %w", err)
	}
	return out, nil
}

// AuditEntry is one change of the audit log.
type AuditEntry struct {
	ID         int64
	EnumID     int64
	Action     string
	ActorID    string // "" once the account is deleted
	ActorEmail string
	At         time.Time
	Before     *Value // nil for a create
	After      Value
}

// AuditQuery selects a page of the audit log, newest first; EnumID keeps one value's changes.
type AuditQuery struct {
	EnumID int64
	Limit  int // 0: 50; at most MaxAudit
	Offset int
}

// valueJSON is how a value is kept in the audit log.
type valueJSON struct {
	ID       int64  `json:"id"`
	Type     string `json:"type"`
	Code     string `json:"code"`
	ParentID int64  `json:"parentId,omitempty"`
	Level    string `json:"level"`
	LabelES  string `json:"labelEs"`
	LabelEN  string `json:"labelEn"`
	Order    int    `json:"order"`
	Active   bool   `json:"active"`
}

func toJSON(v Value) valueJSON {
	return valueJSON{v.ID, v.Type, v.Code, v.ParentID, v.Level, v.LabelES, v.LabelEN, v.Order, v.Active}
}

func fromJSON(j valueJSON) Value {
	return Value{ID: j.ID, Type: j.Type, Code: j.Code, ParentID: j.ParentID, Level: j.Level, LabelES: j.LabelES, LabelEN: j.LabelEN, Order: j.Order, Active: j.Active}
}

func (s *Service) audit(ctx context.Context, tx *store.Tx, actor Actor, action string, before, after *Value) error {
	var id int64
	if err := tx.QueryRow(ctx, `UPDATE enum_meta SET next_audit_id = next_audit_id + 1 WHERE id = 1 RETURNING next_audit_id - 1`).Scan(&id); err != nil {
		return fmt.Errorf("enum audit: id: %w", err)
	}
	var b any
	if before != nil {
		raw, err := json.Marshal(toJSON(*before))
		if err != nil {
			return err
		}
		b = string(raw)
	}
	a, err := json.Marshal(toJSON(*after))
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO enum_audit (id, enum_id, action, actor_id, actor_email, at, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		id, after.ID, action, actor.UserID, actor.Email, s.Now().UTC(), b, string(a)); err != nil {
		return fmt.Errorf("enum audit: %w", err)
	}
	return nil
}

// Audit returns a page of the audit log, newest first, and how many entries match in all.
func (s *Service) Audit(ctx context.Context, actor Actor, q AuditQuery) ([]AuditEntry, int, error) {
	if err := allow(actor, authz.EnumAuditRead); err != nil {
		return nil, 0, err
	}
	if q.Limit == 0 {
		q.Limit = 50
	}
	if q.Limit < 1 || q.Limit > MaxAudit {
		return nil, 0, core.Refuse(ctx, core.EINVALID, "enums.limit", MaxAudit)
	}
	if q.Offset < 0 {
		return nil, 0, core.Refuse(ctx, core.EINVALID, "enums.offset")
	}
	where, args := "", []any{}
	if q.EnumID != 0 {
		where, args = " WHERE enum_id = ?", append(args, q.EnumID)
	}
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return nil, 0, err
	}
	defer tx.Rollback()
	var total int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM enum_audit`+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("enum audit: count: %w", err)
	}
	rows, err := tx.Query(ctx, `SELECT id, enum_id, action, COALESCE(actor_id, ''), actor_email, at, before, after FROM enum_audit`+where+
		` ORDER BY at DESC, id DESC LIMIT ? OFFSET ?`, append(args, q.Limit, q.Offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("enum audit: %w", err)
	}
	defer rows.Close()
	out := []AuditEntry{}
	for rows.Next() {
		var e AuditEntry
		var before sql.NullString
		var after string
		if err := rows.Scan(&e.ID, &e.EnumID, &e.Action, &e.ActorID, &e.ActorEmail, &e.At, &before, &after); err != nil {
			return nil, 0, fmt.Errorf("enum audit: %w", err)
		}
		e.At = e.At.UTC()
		if before.Valid {
			var j valueJSON
			if err := json.Unmarshal([]byte(before.String), &j); err != nil {
				return nil, 0, fmt.Errorf("enum audit %d: before: %w", e.ID, err)
			}
			v := fromJSON(j)
			e.Before = &v
		}
		var j valueJSON
		if err := json.Unmarshal([]byte(after), &j); err != nil {
			return nil, 0, fmt.Errorf("enum audit %d: after: %w", e.ID, err)
		}
		e.After = fromJSON(j)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("enum audit: %w", err)
	}
	return out, total, tx.Commit()
}
