package enums

// Record fields that name an enumeration by code, and the check the sync engine runs on them.
//
// The shared schema (shared-schema/src/asset.ts, legalStructure.ts) accepts an asset category or a
// structure type that is a built-in code (checked there: a built-in category must be of the asset's
// class) or any other well-formed code: a value an admin added, which the device may have cached
// before the server's list changed. Only the server knows its list, so a synced record that TAKES
// such a code (it is new, or the code, or for a category the asset class, changed in the merged
// record) must name an ACTIVE value of the type, under the asset's class for a category. A record
// that keeps a code an admin deactivated later stays valid: editing its other fields passes.

import (
	"context"
	"fmt"
	"slices"

	schema "patrimonio/shared-schema"
)

// Row is one result row (*sql.Row, pgx.Row).
type Row interface{ Scan(dest ...any) error }

// QueryRowFunc runs a query that returns at most one row (in the caller's transaction).
type QueryRowFunc func(ctx context.Context, query string, args ...any) Row

// Issue keys of CheckRecordRefs (shared-schema messages, es/en).
const (
	KeyAssetCategoryUnknown = "validation.asset.categoryUnknown"
	KeyStructureTypeUnknown = "validation.legalStructure.structureTypeUnknown"
)

// builtinStructureTypes are shared-schema's STRUCTURE_TYPES (seeded as structure_type 1001+).
var builtinStructureTypes = []string{"company", "holding_company", "partnership", "trust", "foundation",
	"investment_fund", "family_office", "other"}

// CheckRecordRefs checks the enumeration codes a record of entity takes: prev is the record before
// the change (nil or empty when new), next the merged record, which already passed the shared
// schema. It returns one issue per code that names no active value (path and key as the schema's
// issues; no message), or an error when the database does not answer.
func CheckRecordRefs(ctx context.Context, q QueryRowFunc, entity string, prev, next map[string]any) ([]schema.Issue, error) {
	switch entity {
	case "asset":
		category, _ := next["category"].(string)
		class, _ := next["assetClass"].(string)
		if category == "" || schema.IsBuiltinAssetCategory(category) || !changed(prev, next, "category", "assetClass") {
			return nil, nil
		}
		ok, err := activeCode(ctx, q, TypeAssetCategory, category, class)
		if err != nil || ok {
			return nil, err
		}
		return []schema.Issue{{Path: "category", Key: KeyAssetCategoryUnknown, Params: map[string]any{}}}, nil
	case "legalStructure":
		typ, _ := next["structureType"].(string)
		if typ == "" || slices.Contains(builtinStructureTypes, typ) || !changed(prev, next, "structureType") {
			return nil, nil
		}
		ok, err := activeCode(ctx, q, TypeStructureType, typ, "")
		if err != nil || ok {
			return nil, err
		}
		return []schema.Issue{{Path: "structureType", Key: KeyStructureTypeUnknown, Params: map[string]any{}}}, nil
	}
	return nil, nil
}

// changed says whether one of the fields differs between prev and next (all of them when prev is
// empty: a new record). The fields compared are strings.
func changed(prev, next map[string]any, fields ...string) bool {
	if len(prev) == 0 {
		return true
	}
	for _, f := range fields {
		a, _ := prev[f].(string)
		b, _ := next[f].(string)
		if a != b {
			return true
		}
	}
	return false
}

// activeCode says whether an active value of typ has code, under the value of the parent type
// (asset_class for a category) with parentCode when parentCode is not "".
func activeCode(ctx context.Context, q QueryRowFunc, typ, code, parentCode string) (bool, error) {
	query := `SELECT COUNT(*) FROM enums WHERE type = ? AND code = ? AND active = ?`
	args := []any{typ, code, true}
	if parentCode != "" {
		query += ` AND parent_id = (SELECT id FROM enums WHERE type = ? AND code = ?)`
		args = append(args, TypeAssetClass, parentCode)
	}
	var n int
	if err := q(ctx, query, args...).Scan(&n); err != nil {
		return false, fmt.Errorf("enumeration check %s %q: %w", typ, code, err)
	}
	return n > 0, nil
}

// BuiltinStructureTypes returns the structure types the shared schema has built in.
func BuiltinStructureTypes() []string { return slices.Clone(builtinStructureTypes) }
