// Package migrations holds Patrimonio's database schema as SQL files, one folder per dialect
// (sqlite/, postgres/), embedded into the binary, and the small runner that applies them.
//
// Adding a migration: write the next number in BOTH folders, with the same name, e.g.
// sqlite/0002_users.sql and postgres/0002_users.sql. Versions start at 1 and have no gaps. Each
// file runs once, in its own transaction, in version order; the version, name and time are
// recorded in schema_migrations. A test in server/store checks that both dialects end up with the
// same tables, columns and indexes, so write the same schema twice, in each dialect's words
// (TEXT/TIMESTAMP/INTEGER in SQLite, TEXT/TIMESTAMPTZ/BIGINT in Postgres; write NOT NULL on primary
// key columns in SQLite too, since SQLite does not imply it).
//
// A migration runs inside a transaction, so it must not contain statements that cannot run in
// one (VACUUM, CREATE INDEX CONCURRENTLY, PRAGMA foreign_keys).
package migrations

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

//go:embed sqlite/*.sql postgres/*.sql
var embedded embed.FS

// The dialects, equal to the folder names.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// Migration is one SQL file.
type Migration struct {
	Version int64
	Name    string // the part of the file name after the number, without .sql
	File    string // the file name, e.g. 0001_app_meta.sql
	SQL     string
}

var fileName = regexp.MustCompile(`^([0-9]{4,})_([a-z0-9_]+)\.sql$`)

// Embedded returns the migrations of a dialect that are built into the binary.
func Embedded(dialect string) ([]Migration, error) {
	return Load(embedded, dialect)
}

// Load reads the migrations of a dialect from the folder of that name in fsys, sorted by version.
// It fails on a .sql file whose name is not NNNN_name.sql, on an empty file, and when the versions
// do not run 1, 2, 3, ... without gaps or repeats.
func Load(fsys fs.FS, dialect string) ([]Migration, error) {
	if dialect != SQLite && dialect != Postgres {
		return nil, fmt.Errorf("migrations: unknown dialect %q", dialect)
	}
	entries, err := fs.ReadDir(fsys, dialect)
	if err != nil {
		return nil, fmt.Errorf("migrations: read %s: %w", dialect, err)
	}
	var ms []Migration
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		m := fileName.FindStringSubmatch(e.Name())
		if m == nil {
			return nil, fmt.Errorf("migrations: %s/%s: name must be NNNN_lower_case_name.sql", dialect, e.Name())
		}
		version, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("migrations: %s/%s: %w", dialect, e.Name(), err)
		}
		body, err := fs.ReadFile(fsys, path.Join(dialect, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("migrations: read %s/%s: %w", dialect, e.Name(), err)
		}
		if strings.TrimSpace(string(body)) == "" {
			return nil, fmt.Errorf("migrations: %s/%s is empty", dialect, e.Name())
		}
		ms = append(ms, Migration{Version: version, Name: m[2], File: e.Name(), SQL: string(body)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Version < ms[j].Version })
	for i, m := range ms {
		if m.Version != int64(i+1) {
			return nil, fmt.Errorf("migrations: %s/%s: expected version %04d here (versions start at 1, without gaps or repeats)", dialect, m.File, i+1)
		}
	}
	return ms, nil
}

// lockKey is the Postgres advisory lock that serialises runners of every process sharing the
// database. ("patrimon" in ASCII.)
const lockKey int64 = 0x7061747269_6d6f6e

type dialectSQL struct {
	createTable, isApplied, record, latest string
}

var queries = map[string]dialectSQL{
	SQLite: {
		createTable: `CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER   NOT NULL PRIMARY KEY,
    name       TEXT      NOT NULL,
    applied_at TIMESTAMP NOT NULL
)`,
		isApplied: `SELECT COUNT(*) FROM schema_migrations WHERE version = ?`,
		record:    `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
		latest:    `SELECT version, name FROM schema_migrations ORDER BY version DESC LIMIT 1`,
	},
	Postgres: {
		createTable: `CREATE TABLE IF NOT EXISTS schema_migrations (
    version    BIGINT      NOT NULL PRIMARY KEY,
    name       TEXT        NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL
)`,
		isApplied: `SELECT COUNT(*) FROM schema_migrations WHERE version = $1`,
		record:    `INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`,
		latest:    `SELECT version, name FROM schema_migrations ORDER BY version DESC LIMIT 1`,
	},
}

// Up applies the migrations of ms that the database has not recorded yet, in order, each in its own
// transaction, and returns the ones this call applied. Running it again applies nothing. Several
// processes may run it at once on the same database: on Postgres an advisory lock serialises them;
// on SQLite each migration takes the write lock (BEGIN IMMEDIATE) and checks again whether it is
// still pending. Up refuses a database that has a migration newer than the newest of ms: it was
// upgraded by a newer Patrimonio, and this build does not know its schema.
func Up(ctx context.Context, db *sql.DB, dialect string, ms []Migration) (applied []Migration, err error) {
	q, ok := queries[dialect]
	if !ok {
		return nil, fmt.Errorf("migrations: unknown dialect %q", dialect)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("migrations: get a connection: %w", err)
	}
	defer conn.Close()

	if dialect == Postgres {
		if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, lockKey); err != nil {
			return nil, fmt.Errorf("migrations: take the advisory lock: %w", err)
		}
		defer func() {
			if _, uerr := conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, lockKey); uerr != nil {
				// The session may still hold the lock; make database/sql discard the connection so
				// the session ends and the lock goes with it.
				_ = conn.Raw(func(any) error { return driver.ErrBadConn })
				if err == nil {
					err = fmt.Errorf("migrations: release the advisory lock: %w", uerr)
				}
			}
		}()
	}

	if _, err := conn.ExecContext(ctx, q.createTable); err != nil {
		return nil, fmt.Errorf("migrations: create schema_migrations: %w", err)
	}
	if err := checkNotNewer(ctx, conn, q, ms); err != nil {
		return nil, err
	}
	for _, m := range ms {
		done, err := apply(ctx, conn, dialect, q, m)
		if err != nil {
			return applied, fmt.Errorf("migrations: %s/%s: %w", dialect, m.File, err)
		}
		if done {
			applied = append(applied, m)
		}
	}
	return applied, nil
}

func checkNotNewer(ctx context.Context, conn *sql.Conn, q dialectSQL, ms []Migration) error {
	var version int64
	var name string
	err := conn.QueryRowContext(ctx, q.latest).Scan(&version, &name)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("migrations: read schema_migrations: %w", err)
	}
	var newest int64
	if len(ms) > 0 {
		newest = ms[len(ms)-1].Version
	}
	if version > newest {
		return fmt.Errorf("migrations: the database has migration %04d_%s but this build knows migrations up to %04d only; it was upgraded by a newer Patrimonio", version, name, newest)
	}
	return nil
}

// apply runs one migration in its own transaction unless it is already recorded; it reports
// whether it ran it.
func apply(ctx context.Context, conn *sql.Conn, dialect string, q dialectSQL, m Migration) (ran bool, err error) {
	begin, commit, rollback := "BEGIN", "COMMIT", "ROLLBACK"
	if dialect == SQLite {
		// Take the write lock at once: a deferred transaction that reads and then writes can fail
		// with SQLITE_BUSY when another process does the same.
		begin = "BEGIN IMMEDIATE"
	}
	if _, err := conn.ExecContext(ctx, begin); err != nil {
		return false, fmt.Errorf("begin: %w", err)
	}
	defer func() {
		if err != nil || !ran {
			_, _ = conn.ExecContext(context.WithoutCancel(ctx), rollback)
		}
	}()
	var n int
	if err := conn.QueryRowContext(ctx, q.isApplied, m.Version).Scan(&n); err != nil {
		return false, fmt.Errorf("check: %w", err)
	}
	if n > 0 {
		return false, nil
	}
	if _, err := conn.ExecContext(ctx, m.SQL); err != nil {
		return false, err
	}
	if _, err := conn.ExecContext(ctx, q.record, m.Version, m.Name, time.Now().UTC()); err != nil {
		return false, fmt.Errorf("record: %w", err)
	}
	if _, err := conn.ExecContext(ctx, commit); err != nil {
		return false, fmt.Errorf("commit: %w", err)
	}
	return true, nil
}
