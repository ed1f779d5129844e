package psync

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// GCStats says what one garbage collection removed.
type GCStats struct {
	Changes    int64 // change log entries
	Records    int64 // tombstones
	Rejections int64
}

// CollectGarbage removes what is older than the retention period: change log entries (raising
// each workspace's gc_seq to the newest one removed, so that a client whose cursor is older gets
// resyncRequired), tombstoned records whose last change is that old (every change of theirs is
// gone too), and stored rejections. Each workspace is collected in its own transaction, under
// the same lock as pushes. Running it on several instances at once is harmless.
func (e *Engine) CollectGarbage(ctx context.Context) (GCStats, error) {
	var stats GCStats
	cutoff := e.now().Add(-e.opts.Retention)
	// Per workspace, the newest change older than the cutoff (changes are in seq order and their
	// times only grow, so every older change has a smaller seq).
	rows, err := e.db.Query(ctx, `SELECT w.workspace_id, (SELECT MAX(c.seq) FROM sync_changes c
			WHERE c.workspace_id = w.workspace_id AND c.seq > w.gc_seq AND c.created_at < ?)
		FROM sync_workspaces w WHERE w.seq > w.gc_seq ORDER BY w.workspace_id`, cutoff)
	if err != nil {
		return stats, fmt.Errorf("find old changes: %w", err)
	}
	type point struct {
		workspace string
		seq       int64
	}
	var points []point
	for rows.Next() {
		var p point
		var seq sql.NullInt64
		if err := rows.Scan(&p.workspace, &seq); err != nil {
			rows.Close()
			return stats, fmt.Errorf("find old changes: %w", err)
		}
		if seq.Valid {
			p.seq = seq.Int64
			points = append(points, p)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return stats, fmt.Errorf("find old changes: %w", err)
	}
	for _, p := range points {
		if err := e.collectWorkspace(ctx, p.workspace, p.seq, &stats); err != nil {
			return stats, err
		}
	}
	n, err := e.collectRejections(ctx, cutoff)
	if err != nil {
		return stats, err
	}
	stats.Rejections = n
	if stats != (GCStats{}) {
		e.log.Info("sync: garbage collected", "changes", stats.Changes, "tombstones", stats.Records, "rejections", stats.Rejections)
	}
	return stats, nil
}

func (e *Engine) collectWorkspace(ctx context.Context, workspace string, upTo int64, stats *GCStats) error {
	cutoff := e.now().Add(-e.opts.Retention)
	tx, err := e.db.BeginTx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// The lock pushes take; gc_seq only grows.
	if _, err := tx.Exec(ctx, `UPDATE sync_workspaces SET gc_seq = CASE WHEN gc_seq < ? THEN ? ELSE gc_seq END WHERE workspace_id = ?`,
		upTo, upTo, workspace); err != nil {
		return fmt.Errorf("collect workspace %s: %w", workspace, err)
	}
	// Remember, per client, the highest mutation id whose change goes: below it a resend without a
	// change is a collected one, above it one never decided (see previousVerdict). A run whose
	// first change goes counts as gone whole: its changes that stay can no longer be found (their
	// run's start is how they are found), and were applied.
	if _, err := tx.Exec(ctx, `UPDATE sync_client_workspaces AS w SET collected_mutation_id = c.m
		FROM (SELECT client_id, MAX(mutation_id + CASE WHEN run_length > 1 THEN run_length - 1 ELSE 0 END) AS m
			FROM sync_changes WHERE workspace_id = ? AND seq <= ? GROUP BY client_id) AS c
		WHERE w.client_id = c.client_id AND w.workspace_id = ? AND c.m > w.collected_mutation_id`, workspace, upTo, workspace); err != nil {
		return fmt.Errorf("note collected mutation ids of %s: %w", workspace, err)
	}
	res, err := tx.Exec(ctx, `DELETE FROM sync_changes WHERE workspace_id = ? AND seq <= ?`, workspace, upTo)
	if err != nil {
		return fmt.Errorf("collect changes of %s: %w", workspace, err)
	}
	n, _ := res.RowsAffected()
	stats.Changes += n
	res, err = tx.Exec(ctx, `DELETE FROM sync_records WHERE workspace_id = ? AND deleted AND updated_at < ? AND seq <= ?`,
		workspace, cutoff, upTo)
	if err != nil {
		return fmt.Errorf("collect tombstones of %s: %w", workspace, err)
	}
	n, _ = res.RowsAffected()
	stats.Records += n
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("collect workspace %s: %w", workspace, err)
	}
	return nil
}

// collectRejections removes stored rejections older than cutoff, noting per client and workspace
// the highest mutation id removed (as collectWorkspace does for changes).
func (e *Engine) collectRejections(ctx context.Context, cutoff time.Time) (int64, error) {
	tx, err := e.db.BeginTx(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(ctx, `UPDATE sync_client_workspaces AS w SET collected_mutation_id = r.m
		FROM (SELECT client_id, workspace_id, MAX(mutation_id) AS m FROM sync_rejections WHERE created_at < ?
			GROUP BY client_id, workspace_id) AS r
		WHERE w.client_id = r.client_id AND w.workspace_id = r.workspace_id AND r.m > w.collected_mutation_id`, cutoff); err != nil {
		return 0, fmt.Errorf("note collected rejections: %w", err)
	}
	res, err := tx.Exec(ctx, `DELETE FROM sync_rejections WHERE created_at < ?`, cutoff)
	if err != nil {
		return 0, fmt.Errorf("collect rejections: %w", err)
	}
	n, _ := res.RowsAffected()
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("collect rejections: %w", err)
	}
	return n, nil
}
