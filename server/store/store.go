// Package store opens Patrimonio's database, SQLite (modernc.org/sqlite, the embedded default) or
// Postgres (pgx), applies the migrations, and gives the rest of the server one *sql.DB to share
// query code between both. Queries are written once with ? placeholders; the Exec/Query/QueryRow
// methods of DB and Tx rebind them for Postgres.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"modernc.org/sqlite"

	"patrimonio/migrations"
)

// Dialect names a database engine. Its values are also the folder names of the migrations.
type Dialect string

// The two database dialects Patrimonio runs on.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// DB is an open database with its migrations applied.
type DB struct {
	db      *sql.DB
	pool    *pgxpool.Pool // nil on SQLite
	dialect Dialect

	// Applied lists the migration files this Open applied (empty when the schema was current).
	Applied []string

	// Now tells the time; tests replace it.
	Now func() time.Time
}

// sqlitePragmas are applied to every SQLite connection:
//   - busy_timeout: wait up to 10 s for another connection's write lock instead of failing;
//   - journal_mode WAL: readers never block the writer and the writer never blocks readers;
//   - synchronous NORMAL: durable across application crashes (the WAL is synced at checkpoints);
//   - foreign_keys: enforce FOREIGN KEY constraints (SQLite leaves them off by default).
//
// _txlock=immediate makes every transaction take the write lock at BEGIN, so two transactions that
// read and then write cannot deadlock into SQLITE_BUSY; writers queue on busy_timeout instead.
// _time_format=sqlite stores times as "2006-01-02 15:04:05.999999999-07:00" (always UTC here),
// which sorts correctly as text and reads back as time.Time from TIMESTAMP columns.
const sqlitePragmas = "_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)" +
	"&_pragma=foreign_keys(1)&_txlock=immediate&_time_format=sqlite"

// Open opens the database of the dialect at url, checks that it answers, and applies the pending
// migrations. url is the Postgres connection URL (postgres://…) for Postgres and the file path for
// SQLite, whose directory is created when missing.
func Open(ctx context.Context, dialect Dialect, url string) (*DB, error) {
	var d *DB
	var err error
	switch dialect {
	case SQLite:
		d, err = openSQLite(ctx, url)
	case Postgres:
		d, err = openPostgres(ctx, url)
	default:
		return nil, fmt.Errorf("open database: unknown dialect %q", dialect)
	}
	if err != nil {
		return nil, err
	}
	if err := d.migrate(ctx); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

func openSQLite(ctx context.Context, path string) (*DB, error) {
	if path == "" {
		return nil, errors.New("open sqlite: no file path")
	}
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("open sqlite %s: the path must not contain ? or #", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, fmt.Errorf("open sqlite: create directory for %s: %w", path, err)
	}
	// Wealth records are personal: create the file readable by its owner only. SQLite gives the
	// -wal and -shm files the same permissions.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	f.Close()
	base, err := sqlite.NewConnector(path + "?" + sqlitePragmas)
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	db := sql.OpenDB(busyRetry{base})
	// WAL allows many readers beside the one writer; a few connections are enough for a personal
	// server, and writers queue on the write lock anyway.
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(8)
	db.SetConnMaxIdleTime(5 * time.Minute)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	return &DB{db: db, dialect: SQLite, Now: time.Now}, nil
}

func openPostgres(ctx context.Context, url string) (*DB, error) {
	pcfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx errors may repeat the URL with its password; do not pass them on.
		return nil, errors.New("open postgres: DATABASE_URL cannot be parsed as a Postgres connection string")
	}
	where := fmt.Sprintf("%s:%d/%s", pcfg.ConnConfig.Host, pcfg.ConnConfig.Port, pcfg.ConnConfig.Database)
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		return nil, fmt.Errorf("open postgres %s: %w", where, err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open postgres %s: %w", where, err)
	}
	return &DB{db: stdlib.OpenDBFromPool(pool), pool: pool, dialect: Postgres, Now: time.Now}, nil
}

func (d *DB) migrate(ctx context.Context) error {
	ms, err := migrations.Embedded(string(d.dialect))
	if err != nil {
		return err
	}
	applied, err := migrations.Up(ctx, d.db, string(d.dialect), ms)
	for _, m := range applied {
		d.Applied = append(d.Applied, m.File)
	}
	return err
}

// Dialect says which database this is.
func (d *DB) Dialect() Dialect { return d.dialect }

// SQL is the shared *sql.DB, for query code written once for both dialects (see Rebind).
func (d *DB) SQL() *sql.DB { return d.db }

// Pool is the pgx pool on Postgres (for LISTEN/NOTIFY and COPY), nil on SQLite.
func (d *DB) Pool() *pgxpool.Pool { return d.pool }

// Ping checks that the database answers.
func (d *DB) Ping(ctx context.Context) error {
	if err := d.db.PingContext(ctx); err != nil {
		return fmt.Errorf("ping %s: %w", d.dialect, err)
	}
	return nil
}

// Close closes the database. Calls after the first do nothing.
func (d *DB) Close() error {
	err := d.db.Close()
	if d.pool != nil {
		d.pool.Close()
	}
	return err
}

// Rebind turns the ? placeholders of query into the dialect's own: $1, $2, ... on Postgres, and
// leaves SQLite's as they are. Question marks inside string literals, quoted identifiers and
// comments are left alone.
func (d *DB) Rebind(query string) string { return Rebind(d.dialect, query) }

// Rebind is DB.Rebind for a given dialect.
func Rebind(dialect Dialect, query string) string {
	if dialect != Postgres || !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 8)
	n := 0
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case c == '\'' || c == '"':
			// Copy the quoted text up to its closing quote; a doubled quote is an escaped quote and
			// simply closes and reopens the quoted text.
			end := strings.IndexByte(query[i+1:], c)
			if end < 0 {
				b.WriteString(query[i:])
				return b.String()
			}
			b.WriteString(query[i : i+end+2])
			i += end + 1
		case c == '-' && i+1 < len(query) && query[i+1] == '-':
			end := strings.IndexByte(query[i:], '\n')
			if end < 0 {
				b.WriteString(query[i:])
				return b.String()
			}
			b.WriteString(query[i : i+end+1])
			i += end
		case c == '/' && i+1 < len(query) && query[i+1] == '*':
			end := strings.Index(query[i+2:], "*/")
			if end < 0 {
				b.WriteString(query[i:])
				return b.String()
			}
			b.WriteString(query[i : i+2+end+2])
			i += 2 + end + 1
		case c == '?':
			n++
			fmt.Fprintf(&b, "$%d", n)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// Exec runs a statement written with ? placeholders.
func (d *DB) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return d.db.ExecContext(ctx, d.Rebind(query), args...)
}

// Query runs a query written with ? placeholders.
func (d *DB) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return d.db.QueryContext(ctx, d.Rebind(query), args...)
}

// QueryRow runs a query written with ? placeholders that returns at most one row.
func (d *DB) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return d.db.QueryRowContext(ctx, d.Rebind(query), args...)
}

// Tx is a transaction whose query methods take ? placeholders. Services own their transactions:
// a public method calls BeginTx, defers Rollback, passes the Tx to small helpers, then Commits.
type Tx struct {
	tx      *sql.Tx
	dialect Dialect
}

// BeginTx starts a transaction. On SQLite it takes the write lock at once (see sqlitePragmas).
func (d *DB) BeginTx(ctx context.Context) (*Tx, error) {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("begin transaction: %w", err)
	}
	return &Tx{tx: tx, dialect: d.dialect}, nil
}

// Exec runs a statement written with ? placeholders.
func (tx *Tx) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return tx.tx.ExecContext(ctx, Rebind(tx.dialect, query), args...)
}

// Query runs a query written with ? placeholders.
func (tx *Tx) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return tx.tx.QueryContext(ctx, Rebind(tx.dialect, query), args...)
}

// QueryRow runs a query written with ? placeholders that returns at most one row.
func (tx *Tx) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return tx.tx.QueryRowContext(ctx, Rebind(tx.dialect, query), args...)
}

// Dialect is the database's dialect.
func (tx *Tx) Dialect() Dialect { return tx.dialect }

// Commit commits the transaction.
func (tx *Tx) Commit() error { return tx.tx.Commit() }

// Rollback rolls the transaction back; after Commit it does nothing (and returns sql.ErrTxDone),
// so it is safe to defer.
func (tx *Tx) Rollback() error { return tx.tx.Rollback() }
