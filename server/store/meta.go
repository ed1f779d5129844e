package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"patrimonio/core"
)

// Meta is one fact about this installation, kept in app_meta.
type Meta struct {
	Key       string
	Value     string
	UpdatedAt time.Time
}

// MetaInstallationID is the app_meta key of the installation id.
const MetaInstallationID = "installation_id"

// Meta returns the app_meta entry of key, or an ENOTFOUND error.
func (d *DB) Meta(ctx context.Context, key string) (Meta, error) {
	return getMeta(ctx, d.QueryRow, key)
}

// SetMeta stores value under key, replacing what was there, stamped with d.Now().
func (d *DB) SetMeta(ctx context.Context, key, value string) error {
	if key == "" {
		return core.Errorf(core.EINVALID, "The setting key must not be empty.")
	}
	_, err := d.Exec(ctx, `INSERT INTO app_meta (key, value, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
		key, value, d.Now().UTC())
	if err != nil {
		return fmt.Errorf("set app_meta %s: %w", key, err)
	}
	return nil
}

// InstallationID returns the id of this installation, creating it on first use. It stays the same
// across restarts and is shared by every server process using the same database.
func (d *DB) InstallationID(ctx context.Context) (string, error) {
	tx, err := d.BeginTx(ctx)
	if err != nil {
		return "", err
	}
	defer tx.Rollback()

	// Two processes starting at once both try to insert; the first wins, the other does nothing,
	// and both read the winner's id.
	if _, err := tx.Exec(ctx, `INSERT INTO app_meta (key, value, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (key) DO NOTHING`, MetaInstallationID, uuid.NewString(), d.Now().UTC()); err != nil {
		return "", fmt.Errorf("create installation id: %w", err)
	}
	m, err := getMeta(ctx, tx.QueryRow, MetaInstallationID)
	if err != nil {
		return "", err
	}
	if err := tx.Commit(); err != nil {
		return "", fmt.Errorf("create installation id: commit: %w", err)
	}
	return m.Value, nil
}

type queryRowFunc func(ctx context.Context, query string, args ...any) *sql.Row

func getMeta(ctx context.Context, queryRow queryRowFunc, key string) (Meta, error) {
	m := Meta{Key: key}
	err := queryRow(ctx, `SELECT value, updated_at FROM app_meta WHERE key = ?`, key).Scan(&m.Value, &m.UpdatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return Meta{}, core.Errorf(core.ENOTFOUND, "Setting %q not found.", key)
	}
	if err != nil {
		return Meta{}, fmt.Errorf("get app_meta %s: %w", key, err)
	}
	m.UpdatedAt = m.UpdatedAt.UTC()
	return m, nil
}
