package fx

// The base currency of a workspace: the currency its dashboard and wealth map show every figure
// in, shared by the workspace's members and devices (table workspace_fx_settings, migration 0013).
// A workspace that never chose one is in EUR. Who may read or change it is the caller's business
// (the HTTP layer: members read, owners and editors change).

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	schema "patrimonio/shared-schema"
)

// DefaultBaseCurrency is the base currency of a workspace that never chose one.
const DefaultBaseCurrency = "EUR"

// BaseCurrency is a workspace's base currency; UpdatedAt is zero while it is the default.
type BaseCurrency struct {
	Code      string
	UpdatedAt time.Time
}

// ErrInvalidCurrency is returned for a code that is not one of the ISO 4217 currencies the app
// offers (shared-schema's list, data/iso4217.json: the PWA's pickers and every record's currency).
var ErrInvalidCurrency = errors.New("fx: not an ISO 4217 currency code")

// BaseCurrencyOf returns a workspace's base currency (EUR when never chosen).
func (s *Service) BaseCurrencyOf(ctx context.Context, workspaceID string) (BaseCurrency, error) {
	var out BaseCurrency
	err := s.db.QueryRow(ctx, `SELECT base_currency, updated_at FROM workspace_fx_settings WHERE workspace_id = ?`, workspaceID).Scan(&out.Code, &out.UpdatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return BaseCurrency{Code: DefaultBaseCurrency}, nil
	}
	if err != nil {
		return BaseCurrency{}, fmt.Errorf("fx: base currency: %w", err)
	}
	out.UpdatedAt = out.UpdatedAt.UTC()
	return out, nil
}

// SetBaseCurrency records a workspace's base currency, chosen by userID.
func (s *Service) SetBaseCurrency(ctx context.Context, workspaceID, userID, code string) (BaseCurrency, error) {
	if !schema.IsCurrencyCode(code) {
		return BaseCurrency{}, ErrInvalidCurrency
	}
	now := s.Now().UTC().Truncate(time.Microsecond)
	if _, err := s.db.Exec(ctx, `INSERT INTO workspace_fx_settings (workspace_id, base_currency, updated_at, updated_by) VALUES (?, ?, ?, ?)
		ON CONFLICT (workspace_id) DO UPDATE SET base_currency = excluded.base_currency, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
		workspaceID, code, now, userID); err != nil {
		return BaseCurrency{}, fmt.Errorf("fx: set base currency: %w", err)
	}
	return BaseCurrency{Code: code, UpdatedAt: now}, nil
}
