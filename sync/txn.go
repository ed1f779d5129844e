package sync

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"patrimonio/server/store"
)

// txn is the push transaction. Its SQL is written once, with ? placeholders, for both databases;
// the one difference is how many new rows are written: on Postgres with COPY (the pgx pool the
// store exposes for it), on SQLite with multi-row INSERTs. COPY writes a row for a fraction of
// what an INSERT with bound parameters costs, and the change log and new records are most of a
// push's rows.
type txn interface {
	exec(ctx context.Context, query string, args ...any) error
	queryRow(ctx context.Context, query string, args ...any) rowScanner
	query(ctx context.Context, query string, args ...any) (rowsIter, error)
	// queryEach runs a query that returns at most one row once per argument list and calls scan
	// for each row found. On Postgres the queries go in one pipelined batch: each one an equality
	// on a whole key, which no planner estimate (a table growing fast since its last ANALYZE) can
	// turn into a scan of a workspace, as an IN list can.
	queryEach(ctx context.Context, query string, argsList [][]any, scan func(rowScanner) error) error
	// insert writes rows (each one value per column) into table.
	insert(ctx context.Context, table string, columns []string, rows [][]any) error
	commit(ctx context.Context) error
	rollback(ctx context.Context)
}

type rowScanner interface{ Scan(dest ...any) error }

type rowsIter interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close()
}

func (e *Engine) beginTxn(ctx context.Context) (txn, error) {
	if pool := e.db.Pool(); pool != nil {
		tx, err := pool.Begin(ctx)
		if err != nil {
			return nil, fmt.Errorf("begin transaction: %w", err)
		}
		return pgTxn{tx}, nil
	}
	tx, err := e.db.BeginTx(ctx)
	if err != nil {
		return nil, err
	}
	return sqlTxn{tx}, nil
}

// ---------------------------------------------------------------- Postgres (pgx)

type pgTxn struct{ tx pgx.Tx }

// copyMinRows: fewer rows than this are written with an INSERT queued in the write phase's batch
// (writeBatch) rather than with COPY (two round trips of its own, and a costlier start): a small
// push, the common case of a device editing live, commits sooner, and so reaches the other
// devices sooner.
const copyMinRows = 32

func (t pgTxn) exec(ctx context.Context, query string, args ...any) error {
	_, err := t.tx.Exec(ctx, store.Rebind(store.Postgres, query), args...)
	return err
}

func (t pgTxn) queryRow(ctx context.Context, query string, args ...any) rowScanner {
	return t.tx.QueryRow(ctx, store.Rebind(store.Postgres, query), args...)
}

func (t pgTxn) query(ctx context.Context, query string, args ...any) (rowsIter, error) {
	rows, err := t.tx.Query(ctx, store.Rebind(store.Postgres, query), args...)
	if err != nil {
		return nil, err
	}
	return rows, nil
}

func (t pgTxn) queryEach(ctx context.Context, query string, argsList [][]any, scan func(rowScanner) error) error {
	if len(argsList) == 0 {
		return nil
	}
	q := store.Rebind(store.Postgres, query)
	b := &pgx.Batch{}
	for _, args := range argsList {
		b.Queue(q, args...)
	}
	results := t.tx.SendBatch(ctx, b)
	for range argsList {
		err := scan(results.QueryRow())
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			results.Close()
			return err
		}
	}
	return results.Close()
}

func (t pgTxn) insert(ctx context.Context, table string, columns []string, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	_, err := t.tx.CopyFrom(ctx, pgx.Identifier{table}, columns, pgx.CopyFromRows(rows))
	return err
}

func (t pgTxn) commit(ctx context.Context) error { return t.tx.Commit(ctx) }

func (t pgTxn) rollback(ctx context.Context) { _ = t.tx.Rollback(context.WithoutCancel(ctx)) }

// ---------------------------------------------------------------- SQLite (database/sql)

type sqlTxn struct{ tx *store.Tx }

func (t sqlTxn) exec(ctx context.Context, query string, args ...any) error {
	_, err := t.tx.Exec(ctx, query, args...)
	return err
}

func (t sqlTxn) queryRow(ctx context.Context, query string, args ...any) rowScanner {
	return t.tx.QueryRow(ctx, query, args...)
}

func (t sqlTxn) query(ctx context.Context, query string, args ...any) (rowsIter, error) {
	rows, err := t.tx.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return sqlRows{rows}, nil
}

func (t sqlTxn) queryEach(ctx context.Context, query string, argsList [][]any, scan func(rowScanner) error) error {
	for _, args := range argsList {
		if err := scan(t.tx.QueryRow(ctx, query, args...)); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
	}
	return nil
}

func (t sqlTxn) insert(ctx context.Context, table string, columns []string, rows [][]any) error {
	return insertRows(ctx, t, `INSERT INTO `+table+` (`+strings.Join(columns, ", ")+`) VALUES `, ``, len(columns), rows)
}

func (t sqlTxn) commit(context.Context) error { return t.tx.Commit() }

func (t sqlTxn) rollback(context.Context) { _ = t.tx.Rollback() }

type sqlRows struct{ *sql.Rows }

func (r sqlRows) Close() { _ = r.Rows.Close() }

// writeBatch holds the write phase's statements until flush: on Postgres they go in one pipelined
// batch (one round trip instead of one per statement), on SQLite they run as they come. A COPY
// (insert of copyMinRows rows or more) flushes what is queued first, so statements keep their
// order. An error of a queued statement is returned by flush.
type writeBatch struct {
	tx    txn
	batch *pgx.Batch // Postgres; nil on SQLite
}

func newWriteBatch(tx txn) *writeBatch {
	b := &writeBatch{tx: tx}
	if _, ok := tx.(pgTxn); ok {
		b.batch = &pgx.Batch{}
	}
	return b
}

func (b *writeBatch) exec(ctx context.Context, query string, args ...any) error {
	if b.batch == nil {
		return b.tx.exec(ctx, query, args...)
	}
	b.batch.Queue(store.Rebind(store.Postgres, query), args...)
	return nil
}

func (b *writeBatch) insert(ctx context.Context, table string, columns []string, rows [][]any) error {
	if b.batch == nil || len(rows) < copyMinRows {
		return insertRows(ctx, b, `INSERT INTO `+table+` (`+strings.Join(columns, ", ")+`) VALUES `, ``, len(columns), rows)
	}
	if err := b.flush(ctx); err != nil {
		return err
	}
	return b.tx.insert(ctx, table, columns, rows)
}

func (b *writeBatch) flush(ctx context.Context) error {
	if b.batch == nil || b.batch.Len() == 0 {
		return nil
	}
	batch := b.batch
	b.batch = &pgx.Batch{}
	return b.tx.(pgTxn).tx.SendBatch(ctx, batch).Close()
}

// insertRows runs "prefix (...), (...) suffix" in chunks that stay under both databases' limits
// on bound parameters.
func insertRows(ctx context.Context, tx interface {
	exec(ctx context.Context, query string, args ...any) error
}, prefix, suffix string, width int, rows [][]any) error {
	const maxParams = 30000
	per := max(1, maxParams/width)
	row := "(" + placeholders(width) + ")"
	for start := 0; start < len(rows); start += per {
		part := rows[start:min(start+per, len(rows))]
		var b strings.Builder
		b.Grow(len(prefix) + len(suffix) + len(part)*(len(row)+1))
		b.WriteString(prefix)
		args := make([]any, 0, len(part)*width)
		for i, r := range part {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(row)
			args = append(args, r...)
		}
		b.WriteString(suffix)
		if err := tx.exec(ctx, b.String(), args...); err != nil {
			return err
		}
	}
	return nil
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}
