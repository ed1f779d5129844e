package psync

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"patrimonio/server/store"
	"patrimonio/sync/internal/freelist"
)

// txn is the push transaction. Its SQL is written once, with ? placeholders, for both databases;
// the differences are in how it reaches the database. On Postgres (the pgx pool the store
// exposes) many new rows are written with COPY, which writes a row for a fraction of what an
// INSERT with bound parameters costs (the change log and new records are most of a large push's
// rows), and the statements are pipelined (pgTxn). On SQLite, multi-row INSERTs, one statement at
// a time.
type txn interface {
	exec(ctx context.Context, query string, args ...any) error
	queryRow(ctx context.Context, query string, args ...any) rowScanner
	query(ctx context.Context, query string, args ...any) (rowsIter, error)
	// reads runs the reads in order, each scanning its own rows (pipelined on Postgres, with
	// whatever exec queued before them). The first error stops them.
	reads(ctx context.Context, rs []read) error
	// insert writes rows (each one value per column) into table.
	insert(ctx context.Context, table string, columns []string, rows rowSet) error
	commit(ctx context.Context) error
	rollback(ctx context.Context)
}

type rowScanner interface{ Scan(dest ...any) error }

// read is a statement whose rows scan reads (scan is called once, with all of them; it may stop
// early).
type read struct {
	query string
	args  []any
	scan  func(rowsIter) error
}

type rowsIter interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close()
}

func (e *Engine) beginTxn(ctx context.Context) (txn, error) {
	if pool := e.db.Pool(); pool != nil {
		conn, err := pool.Acquire(ctx)
		if err != nil {
			return nil, fmt.Errorf("begin transaction: %w", err)
		}
		t := &pgTxn{conn: conn, pending: &pgx.Batch{}}
		t.pending.Queue("begin")
		// The push's statements are prepared (pgx's statement cache), and Postgres plans a
		// prepared statement anew at every execution while it prefers a custom plan: it kept doing
		// so for the read of a push's records (an array of ids), 49 µs of the 160 µs that all the
		// statements of a one-mutation push took (log_min_duration_statement). Every statement
		// here looks rows up by key, where the generic plan is the plan: a one-mutation push
		// commits in ~350 µs instead of ~400 (BenchmarkApplyOne/postgres, alternated).
		t.pending.Queue("set local plan_cache_mode = force_generic_plan")
		return t, nil
	}
	tx, err := e.db.BeginTx(ctx)
	if err != nil {
		return nil, err
	}
	return sqlTxn{tx}, nil
}

// ---------------------------------------------------------------- Postgres (pgx)

// pgTxn is the push transaction on one connection of the pool, pipelined: statements whose result
// is only "it worked" (exec: every write, NOTIFY) are queued, not sent; the queue goes with the next
// statement whose rows are needed, or with the commit. "begin" is the first queued statement. So
// a push costs one round trip per read phase plus one for all its writes and the commit, and the
// commit is still acknowledged by the database before anyone hears of it. A queued statement that
// fails fails the next read or the commit (the transaction is aborted either way). A transaction
// not committed is rolled back; a connection left in a transaction is closed by the pool.
type pgTxn struct {
	conn    *pgxpool.Conn
	pending *pgx.Batch // queued, not yet sent
	sent    bool       // something was sent: the transaction is open on the server
	done    bool       // committed or rolled back: the connection is back in the pool
}

// copyMinRows: fewer rows than this are written with an INSERT, queued with the other writes,
// rather than with COPY (two round trips of its own, and a costlier start): a small push, the
// common case of a device editing live, commits sooner, and so reaches the other devices sooner.
const copyMinRows = 32

func (t *pgTxn) exec(_ context.Context, query string, args ...any) error {
	t.pending.Queue(store.Rebind(store.Postgres, query), args...)
	return nil
}

// send sends the queued statements and q (when not ""): the results of the queued ones are read
// and checked; the returned batch's next result is q's, and the caller closes the batch.
func (t *pgTxn) send(ctx context.Context, q string, args ...any) (pgx.BatchResults, error) {
	return t.sendWith(ctx, func(b *pgx.Batch) {
		if q != "" {
			b.Queue(q, args...)
		}
	})
}

// sendWith sends the queued statements and those that queue adds: the results of the queued ones
// are read and checked; the returned batch's next results are the added ones', and the caller
// closes the batch.
func (t *pgTxn) sendWith(ctx context.Context, queue func(b *pgx.Batch)) (pgx.BatchResults, error) {
	b := t.pending
	queued := b.Len()
	queue(b)
	t.pending, t.sent = &pgx.Batch{}, true
	results := t.conn.SendBatch(ctx, b)
	for range queued {
		if _, err := results.Exec(); err != nil {
			results.Close()
			return nil, err
		}
	}
	return results, nil
}

// flush sends the queued statements, if any.
func (t *pgTxn) flush(ctx context.Context) error {
	if t.pending.Len() == 0 {
		return nil
	}
	results, err := t.send(ctx, "")
	if err != nil {
		return err
	}
	return results.Close()
}

func (t *pgTxn) queryRow(ctx context.Context, query string, args ...any) rowScanner {
	results, err := t.send(ctx, store.Rebind(store.Postgres, query), args...)
	if err != nil {
		return errRow{err}
	}
	return batchRow{results.QueryRow(), results}
}

// batchRow is a row of a batch's last query; Scan reads it and ends the batch.
type batchRow struct {
	row     pgx.Row
	results pgx.BatchResults
}

func (r batchRow) Scan(dest ...any) error {
	err := r.row.Scan(dest...)
	if cerr := r.results.Close(); err == nil && cerr != nil {
		err = cerr
	}
	return err
}

type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }

func (t *pgTxn) query(ctx context.Context, query string, args ...any) (rowsIter, error) {
	results, err := t.send(ctx, store.Rebind(store.Postgres, query), args...)
	if err != nil {
		return nil, err
	}
	rows, err := results.Query()
	if err != nil {
		results.Close()
		return nil, err
	}
	return &batchRows{Rows: rows, results: results}, nil
}

func (t *pgTxn) reads(ctx context.Context, rs []read) error {
	if len(rs) == 0 {
		return nil
	}
	results, err := t.sendWith(ctx, func(b *pgx.Batch) {
		for _, r := range rs {
			b.Queue(store.Rebind(store.Postgres, r.query), r.args...)
		}
	})
	if err != nil {
		return err
	}
	for _, r := range rs {
		rows, err := results.Query()
		if err == nil {
			err = r.scan(rows)
			rows.Close()
			if err == nil {
				err = rows.Err()
			}
		}
		if err != nil {
			results.Close()
			return err
		}
	}
	return results.Close()
}

// batchRows are the rows of a batch's last query; Close ends the batch.
type batchRows struct {
	pgx.Rows
	results pgx.BatchResults
	err     error
}

func (r *batchRows) Close() {
	r.Rows.Close()
	if err := r.results.Close(); err != nil && r.Rows.Err() == nil {
		r.err = err
	}
}

func (r *batchRows) Err() error {
	if err := r.Rows.Err(); err != nil {
		return err
	}
	return r.err
}

func (t *pgTxn) insert(ctx context.Context, table string, columns []string, rows rowSet) error {
	if rows.count() == 0 {
		return nil
	}
	if rows.count() < copyMinRows {
		return insertRows(ctx, t, `INSERT INTO `+table+` (`+strings.Join(columns, ", ")+`) VALUES `, ``, len(columns), allValues(rows))
	}
	if err := t.flush(ctx); err != nil {
		return err
	}
	data := appendCopyData(takeCopyBuffer(), rows)
	defer returnCopyBuffer(data)
	quoted := make([]string, len(columns))
	for i, c := range columns {
		quoted[i] = pgx.Identifier{c}.Sanitize()
	}
	_, err := t.conn.Conn().PgConn().CopyFrom(ctx, bytes.NewReader(data),
		"COPY "+pgx.Identifier{table}.Sanitize()+" ("+strings.Join(quoted, ", ")+") FROM STDIN BINARY")
	return err
}

// allValues are the values of every row of rows.
func allValues(rows rowSet) [][]any {
	out := make([][]any, rows.count())
	for i := range out {
		out[i] = rows.values(i)
	}
	return out
}

// copyBuffers keep the data buffers of binary COPYs between group commits (a group's COPY is up
// to a few MB): at most one per committer and table, of at most maxKeptCopyBuffer bytes each.
var copyBuffers = freelist.New(4, func(b []byte) bool { return cap(b) <= maxKeptCopyBuffer })

const maxKeptCopyBuffer = 8 << 20

func takeCopyBuffer() []byte {
	b, _ := copyBuffers.Get()
	return b[:0]
}

func returnCopyBuffer(b []byte) { copyBuffers.Put(b) }

// commit sends what is queued and the commit, and returns once the database has committed (an
// aborted transaction answers the commit with a rollback: an error).
func (t *pgTxn) commit(ctx context.Context) error {
	results, err := t.send(ctx, "commit")
	if err == nil {
		var tag pgconn.CommandTag
		tag, err = results.Exec()
		if cerr := results.Close(); err == nil {
			err = cerr
		}
		if err == nil && tag.String() != "COMMIT" {
			err = pgx.ErrTxCommitRollback
		}
	}
	if err != nil {
		t.rollback(ctx)
		return err
	}
	t.done = true
	t.conn.Release()
	return nil
}

func (t *pgTxn) rollback(ctx context.Context) {
	if t.done {
		return
	}
	t.done = true
	if t.sent {
		_, _ = t.conn.Exec(context.WithoutCancel(ctx), "rollback")
	}
	t.conn.Release() // the pool closes a connection still in a transaction
}

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

func (t sqlTxn) reads(ctx context.Context, rs []read) error {
	for _, r := range rs {
		rows, err := t.tx.Query(ctx, r.query, r.args...)
		if err != nil {
			return err
		}
		err = r.scan(sqlRows{rows})
		_ = rows.Close()
		if err == nil {
			err = rows.Err()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (t sqlTxn) insert(ctx context.Context, table string, columns []string, rows rowSet) error {
	return insertRows(ctx, t, `INSERT INTO `+table+` (`+strings.Join(columns, ", ")+`) VALUES `, ``, len(columns), allValues(rows))
}

func (t sqlTxn) commit(context.Context) error { return t.tx.Commit() }

func (t sqlTxn) rollback(context.Context) { _ = t.tx.Rollback() }

type sqlRows struct{ *sql.Rows }

func (r sqlRows) Close() { _ = r.Rows.Close() }

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
