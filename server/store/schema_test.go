package store_test

// The guard that keeps the two dialects' migrations in step: after migrating a fresh SQLite file
// and a fresh Postgres database, both must have the same tables, the same columns (name,
// nullability, broad type), the same primary keys, unique constraints, foreign keys and indexes
// (by name and columns). A migration written for one dialect only, or written differently, fails
// here with the lines that differ.

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"patrimonio/internal/pgtest"
	"patrimonio/server/store"
)

func TestMigratedSchemasAreEquivalentInBothDialects(t *testing.T) {
	ctx := context.Background()
	lite := open(t, store.SQLite, filepath.Join(t.TempDir(), "schema.db"))
	pg := open(t, store.Postgres, pgtest.URL(t))

	liteSchema, err := describeSQLite(ctx, lite.SQL())
	if err != nil {
		t.Fatal(err)
	}
	pgSchema, err := describePostgres(ctx, pg.SQL())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(liteSchema, "table app_meta") || !slices.Contains(liteSchema, "table schema_migrations") {
		t.Fatalf("the SQLite description misses the known tables:\n%s", strings.Join(liteSchema, "\n"))
	}
	onlyLite, onlyPG := difference(liteSchema, pgSchema), difference(pgSchema, liteSchema)
	if len(onlyLite) > 0 || len(onlyPG) > 0 {
		t.Errorf("the migrated schemas differ.\nonly in SQLite:\n  %s\nonly in Postgres:\n  %s",
			strings.Join(onlyLite, "\n  "), strings.Join(onlyPG, "\n  "))
	}
}

// TestSchemaGuardNoticesADifference makes sure the guard above can fail: a column that exists in
// one dialect only, a different nullability and an index on other columns all show up, while
// what is written alike (foreign keys, unique constraints, unique indexes) reads alike.
func TestSchemaGuardNoticesADifference(t *testing.T) {
	ctx := context.Background()
	lite := open(t, store.SQLite, filepath.Join(t.TempDir(), "schema.db"))
	pg := open(t, store.Postgres, pgtest.URL(t))
	for _, q := range []string{
		`CREATE TABLE owner (id TEXT NOT NULL PRIMARY KEY, email TEXT NOT NULL UNIQUE)`,
		`CREATE TABLE drift (id TEXT NOT NULL PRIMARY KEY, note TEXT, amount INTEGER NOT NULL,
			owner_id TEXT REFERENCES owner (id) ON DELETE CASCADE)`,
		`CREATE INDEX drift_amount ON drift (amount)`,
		`CREATE UNIQUE INDEX drift_owner_note ON drift (owner_id, note)`,
	} {
		if _, err := lite.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{
		`CREATE TABLE owner (id TEXT NOT NULL PRIMARY KEY, email TEXT NOT NULL UNIQUE)`,
		`CREATE TABLE drift (id TEXT NOT NULL PRIMARY KEY, note TEXT NOT NULL, extra BOOLEAN, amount BIGINT NOT NULL,
			owner_id TEXT REFERENCES owner (id) ON DELETE CASCADE)`,
		`CREATE INDEX drift_amount ON drift (amount, id)`,
		`CREATE UNIQUE INDEX drift_owner_note ON drift (owner_id, note)`,
	} {
		if _, err := pg.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	liteSchema, err := describeSQLite(ctx, lite.SQL())
	if err != nil {
		t.Fatal(err)
	}
	pgSchema, err := describePostgres(ctx, pg.SQL())
	if err != nil {
		t.Fatal(err)
	}
	// What is written the same way reads the same way in both.
	for _, line := range []string{
		"foreign key drift (owner_id) references owner (id) on delete cascade",
		"unique owner (email)",
		"index drift_owner_note on drift (owner_id,note) unique",
		"column drift.owner_id text null",
	} {
		if !slices.Contains(liteSchema, line) || !slices.Contains(pgSchema, line) {
			t.Errorf("%q is not in both descriptions", line)
		}
	}
	got := append(difference(liteSchema, pgSchema), difference(pgSchema, liteSchema)...)
	want := []string{
		"column drift.note text null",
		"index drift_amount on drift (amount)",
		"column drift.extra boolean null",
		"column drift.note text not null",
		"index drift_amount on drift (amount,id)",
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("differences found:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func difference(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

// typeClass maps a declared column type of either dialect to a broad class. An unknown type is an
// error, so that a new type is mapped on purpose.
func typeClass(declared string) (string, error) {
	t := strings.ToLower(strings.TrimSpace(declared))
	if i := strings.IndexByte(t, '('); i >= 0 {
		t = strings.TrimSpace(t[:i])
	}
	switch t {
	case "text", "character varying", "varchar", "character", "char", "uuid", "citext":
		return "text", nil
	case "integer", "int", "bigint", "smallint", "int2", "int4", "int8":
		return "integer", nil
	case "real", "double precision", "double", "float":
		return "real", nil
	case "numeric", "decimal":
		return "numeric", nil
	case "boolean", "bool":
		return "boolean", nil
	case "timestamp", "timestamptz", "datetime", "timestamp with time zone", "timestamp without time zone":
		return "timestamp", nil
	case "date":
		return "date", nil
	case "blob", "bytea":
		return "blob", nil
	case "json", "jsonb":
		return "json", nil
	}
	return "", fmt.Errorf("unknown column type %q: map it to a class in typeClass", declared)
}

func queryStrings(ctx context.Context, db *sql.DB, q string, args ...any) ([][]string, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", q, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = v.String
			if !v.Valid {
				row[i] = "<expr>"
			}
		}
		out = append(out, row)
	}
	return out, rows.Err()
}

func nullability(notNull bool) string {
	if notNull {
		return "not null"
	}
	return "null"
}

func describeSQLite(ctx context.Context, db *sql.DB) ([]string, error) {
	var out []string
	tables, err := queryStrings(ctx, db, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		return nil, err
	}
	for _, tr := range tables {
		table := tr[0]
		out = append(out, "table "+table)

		cols, err := queryStrings(ctx, db, `SELECT name, type, "notnull", pk FROM pragma_table_info(?) ORDER BY pk, cid`, table)
		if err != nil {
			return nil, err
		}
		var pk []string
		for _, c := range cols {
			class, err := typeClass(c[1])
			if err != nil {
				return nil, fmt.Errorf("sqlite %s.%s: %w", table, c[0], err)
			}
			out = append(out, fmt.Sprintf("column %s.%s %s %s", table, c[0], class, nullability(c[2] == "1")))
			if c[3] != "0" {
				pk = append(pk, c[0])
			}
		}
		if len(pk) > 0 {
			out = append(out, fmt.Sprintf("primary key %s (%s)", table, strings.Join(pk, ",")))
		}

		indexes, err := queryStrings(ctx, db, `SELECT name, "unique", origin, partial FROM pragma_index_list(?)`, table)
		if err != nil {
			return nil, err
		}
		for _, ix := range indexes {
			cols, err := queryStrings(ctx, db, `SELECT name FROM pragma_index_info(?) ORDER BY seqno`, ix[0])
			if err != nil {
				return nil, err
			}
			var names []string
			for _, c := range cols {
				names = append(names, c[0])
			}
			switch ix[2] {
			case "pk": // described as the primary key
			case "u":
				out = append(out, fmt.Sprintf("unique %s (%s)", table, strings.Join(names, ",")))
			default:
				out = append(out, indexLine(ix[0], table, names, ix[1] == "1", ix[3] == "1"))
			}
		}

		fks, err := queryStrings(ctx, db, `SELECT id, "table", "from", "to", on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq`, table)
		if err != nil {
			return nil, err
		}
		type fk struct {
			ref, onDelete string
			from, to      []string
		}
		var order []string
		byID := map[string]*fk{}
		for _, r := range fks {
			f, ok := byID[r[0]]
			if !ok {
				f = &fk{ref: r[1], onDelete: strings.ToLower(r[4])}
				byID[r[0]] = f
				order = append(order, r[0])
			}
			f.from = append(f.from, r[2])
			f.to = append(f.to, r[3])
		}
		for _, id := range order {
			f := byID[id]
			out = append(out, fmt.Sprintf("foreign key %s (%s) references %s (%s) on delete %s",
				table, strings.Join(f.from, ","), f.ref, strings.Join(f.to, ","), f.onDelete))
		}
	}
	slices.Sort(out)
	return out, nil
}

func indexLine(name, table string, cols []string, unique, partial bool) string {
	s := fmt.Sprintf("index %s on %s (%s)", name, table, strings.Join(cols, ","))
	if unique {
		s += " unique"
	}
	if partial {
		s += " partial"
	}
	return s
}

func describePostgres(ctx context.Context, db *sql.DB) ([]string, error) {
	var out []string
	tables, err := queryStrings(ctx, db, `SELECT table_name FROM information_schema.tables
		WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`)
	if err != nil {
		return nil, err
	}
	for _, tr := range tables {
		out = append(out, "table "+tr[0])
	}

	cols, err := queryStrings(ctx, db, `SELECT table_name, column_name, data_type, is_nullable
		FROM information_schema.columns WHERE table_schema = current_schema()`)
	if err != nil {
		return nil, err
	}
	for _, c := range cols {
		class, err := typeClass(c[2])
		if err != nil {
			return nil, fmt.Errorf("postgres %s.%s: %w", c[0], c[1], err)
		}
		out = append(out, fmt.Sprintf("column %s.%s %s %s", c[0], c[1], class, nullability(c[3] == "NO")))
	}

	// Primary keys, unique constraints and foreign keys, with their columns in key order.
	cons, err := queryStrings(ctx, db, `
		SELECT c.contype, t.relname,
		       array_to_string(array(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(n, i)
		           JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.i), ','),
		       coalesce(r.relname, ''),
		       array_to_string(array(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(n, i)
		           JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.i), ','),
		       c.confdeltype
		FROM pg_constraint c
		JOIN pg_class t ON t.oid = c.conrelid
		JOIN pg_namespace s ON s.oid = t.relnamespace
		LEFT JOIN pg_class r ON r.oid = c.confrelid
		WHERE s.nspname = current_schema() AND c.contype IN ('p', 'u', 'f')`)
	if err != nil {
		return nil, err
	}
	onDelete := map[string]string{"a": "no action", "r": "restrict", "c": "cascade", "n": "set null", "d": "set default"}
	for _, c := range cons {
		switch c[0] {
		case "p":
			out = append(out, fmt.Sprintf("primary key %s (%s)", c[1], c[2]))
		case "u":
			out = append(out, fmt.Sprintf("unique %s (%s)", c[1], c[2]))
		case "f":
			out = append(out, fmt.Sprintf("foreign key %s (%s) references %s (%s) on delete %s", c[1], c[2], c[3], c[4], onDelete[c[5]]))
		}
	}

	// Indexes that do not back a primary key or unique constraint.
	idx, err := queryStrings(ctx, db, `
		SELECT ic.relname, t.relname,
		       array_to_string(array(SELECT pg_get_indexdef(i.indexrelid, k, true)
		           FROM generate_series(1, i.indnkeyatts) k ORDER BY k), ','),
		       i.indisunique::text, (i.indpred IS NOT NULL)::text
		FROM pg_index i
		JOIN pg_class ic ON ic.oid = i.indexrelid
		JOIN pg_class t ON t.oid = i.indrelid
		JOIN pg_namespace s ON s.oid = t.relnamespace
		WHERE s.nspname = current_schema()
		  AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.contype IN ('p', 'u', 'x'))`)
	if err != nil {
		return nil, err
	}
	for _, ix := range idx {
		out = append(out, indexLine(ix[0], ix[1], strings.Split(ix[2], ","), ix[3] == "true", ix[4] == "true"))
	}
	slices.Sort(out)
	return out, nil
}
