package psync

import (
	"context"

	"patrimonio/server/enums"
	schema "patrimonio/shared-schema"
)

// checkEnumRefs checks the enumeration codes a merged record takes that only the server's data can
// judge (server/enums.CheckRecordRefs): an asset's admin-added category must be an active
// asset_category of the asset's class, a legal structure's admin-added type an active
// structure_type. prev is the record's fields before the mutation (empty for a new record), next
// the merged fields, which passed the shared schema. Only codes the record takes (new record, or
// the field changed) are checked, so a record keeps a value an admin deactivated later. It reads
// the enums table inside the push transaction; an error (the database) fails the push, which the
// client retries, instead of rejecting the mutation.
func (e *Engine) checkEnumRefs(ctx context.Context, tx txn, entity string, prev, next map[string]any) ([]schema.Issue, error) {
	return enums.CheckRecordRefs(ctx, func(ctx context.Context, query string, args ...any) enums.Row {
		return tx.queryRow(ctx, query, args...)
	}, entity, prev, next)
}
