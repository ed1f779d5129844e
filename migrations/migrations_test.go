package migrations_test

// The runner is tested here on SQLite with hand-made migration sets. The same runner on Postgres
// (advisory lock, concurrent starts) and the equivalence of the two dialects' schemas are tested in
// server/store, which has the throwaway Postgres cluster.

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	_ "modernc.org/sqlite"

	"patrimonio/migrations"
)

func TestEmbeddedMigrationsMatchBetweenDialects(t *testing.T) {
	lite, err := migrations.Embedded(migrations.SQLite)
	if err != nil {
		t.Fatal(err)
	}
	pg, err := migrations.Embedded(migrations.Postgres)
	if err != nil {
		t.Fatal(err)
	}
	if len(lite) == 0 {
		t.Fatal("no embedded migrations")
	}
	names := func(ms []migrations.Migration) []string {
		var out []string
		for _, m := range ms {
			out = append(out, m.File)
		}
		return out
	}
	if !reflect.DeepEqual(names(lite), names(pg)) {
		t.Errorf("sqlite has %v, postgres has %v: every migration needs both dialects, with the same file name", names(lite), names(pg))
	}
}

func TestLoad(t *testing.T) {
	tests := []struct {
		name      string
		files     fstest.MapFS
		wantFiles []string
		wantErr   string
	}{
		{
			name: "files are sorted by version and other files are ignored",
			files: fstest.MapFS{
				"sqlite/0002_users.sql":    {Data: []byte("CREATE TABLE users (id TEXT);")},
				"sqlite/0001_app_meta.sql": {Data: []byte("CREATE TABLE m (k TEXT);")},
				"sqlite/README.md":         {Data: []byte("notes")},
			},
			wantFiles: []string{"0001_app_meta.sql", "0002_users.sql"},
		},
		{
			name:    "a badly named file is rejected",
			files:   fstest.MapFS{"sqlite/1-users.sql": {Data: []byte("SELECT 1;")}},
			wantErr: "name must be NNNN_lower_case_name.sql",
		},
		{
			name:    "an empty file is rejected",
			files:   fstest.MapFS{"sqlite/0001_nothing.sql": {Data: []byte("  \n")}},
			wantErr: "is empty",
		},
		{
			name: "a gap in versions is rejected",
			files: fstest.MapFS{
				"sqlite/0001_a.sql": {Data: []byte("SELECT 1;")},
				"sqlite/0003_c.sql": {Data: []byte("SELECT 1;")},
			},
			wantErr: "expected version 0002",
		},
		{
			name: "two files with the same version are rejected",
			files: fstest.MapFS{
				"sqlite/0001_a.sql": {Data: []byte("SELECT 1;")},
				"sqlite/0001_b.sql": {Data: []byte("SELECT 1;")},
			},
			wantErr: "expected version 0002",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms, err := migrations.Load(tt.files, migrations.SQLite)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range ms {
				got = append(got, m.File)
			}
			if !reflect.DeepEqual(got, tt.wantFiles) {
				t.Errorf("files = %v, want %v", got, tt.wantFiles)
			}
		})
	}
}

func TestLoadRejectsAnUnknownDialect(t *testing.T) {
	if _, err := migrations.Load(fstest.MapFS{}, "mysql"); err == nil {
		t.Fatal("Load accepted dialect mysql")
	}
}

func openSQLite(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "m.db")+"?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func load(t *testing.T, files fstest.MapFS) []migrations.Migration {
	t.Helper()
	ms, err := migrations.Load(files, migrations.SQLite)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func recorded(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query(`SELECT version, name FROM schema_migrations ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v int
		var n string
		if err := rows.Scan(&v, &n); err != nil {
			t.Fatal(err)
		}
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func tableExists(t *testing.T, db *sql.DB, name string) bool {
	t.Helper()
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?`, name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}

func TestUpAppliesEachMigrationOnceInOrder(t *testing.T) {
	ctx := context.Background()
	db := openSQLite(t)
	ms := load(t, fstest.MapFS{
		"sqlite/0001_people.sql": {Data: []byte("CREATE TABLE people (id TEXT NOT NULL PRIMARY KEY);\nCREATE TABLE pets (id TEXT NOT NULL PRIMARY KEY);")},
		"sqlite/0002_names.sql":  {Data: []byte("ALTER TABLE people ADD COLUMN name TEXT NOT NULL DEFAULT '';")},
	})

	applied, err := migrations.Up(ctx, db, migrations.SQLite, ms)
	if err != nil {
		t.Fatal(err)
	}
	if len(applied) != 2 {
		t.Errorf("first run applied %d migrations, want 2", len(applied))
	}
	if !tableExists(t, db, "pets") {
		t.Error("the second statement of a migration did not run")
	}
	if _, err := db.Exec(`INSERT INTO people (id, name) VALUES ('p1', 'Ana')`); err != nil {
		t.Errorf("the second migration did not run after the first: %v", err)
	}

	applied, err = migrations.Up(ctx, db, migrations.SQLite, ms)
	if err != nil {
		t.Fatalf("second run: %v", err)
	}
	if len(applied) != 0 {
		t.Errorf("second run applied %d migrations, want 0", len(applied))
	}
	if got := recorded(t, db); !reflect.DeepEqual(got, []string{"people", "names"}) {
		t.Errorf("schema_migrations = %v", got)
	}
}

func TestUpRollsBackAFailingMigrationAndKeepsTheEarlierOnes(t *testing.T) {
	ctx := context.Background()
	db := openSQLite(t)
	good := fstest.MapFS{"sqlite/0001_people.sql": {Data: []byte("CREATE TABLE people (id TEXT NOT NULL PRIMARY KEY);")}}
	broken := fstest.MapFS{
		"sqlite/0001_people.sql": good["sqlite/0001_people.sql"],
		"sqlite/0002_pets.sql":   {Data: []byte("CREATE TABLE pets (id TEXT);\nINSERT INTO nowhere VALUES (1);")},
	}

	_, err := migrations.Up(ctx, db, migrations.SQLite, load(t, broken))
	if err == nil || !strings.Contains(err.Error(), "0002_pets.sql") {
		t.Fatalf("err = %v, want an error naming 0002_pets.sql", err)
	}
	if tableExists(t, db, "pets") {
		t.Error("the failing migration's first statement was not rolled back")
	}
	if got := recorded(t, db); !reflect.DeepEqual(got, []string{"people"}) {
		t.Errorf("schema_migrations = %v, want only people", got)
	}

	fixed := fstest.MapFS{
		"sqlite/0001_people.sql": good["sqlite/0001_people.sql"],
		"sqlite/0002_pets.sql":   {Data: []byte("CREATE TABLE pets (id TEXT);")},
	}
	applied, err := migrations.Up(ctx, db, migrations.SQLite, load(t, fixed))
	if err != nil {
		t.Fatal(err)
	}
	if len(applied) != 1 || applied[0].Name != "pets" {
		t.Errorf("applied %v, want only pets", applied)
	}
}

func TestUpRefusesADatabaseMigratedByANewerBuild(t *testing.T) {
	ctx := context.Background()
	db := openSQLite(t)
	newer := load(t, fstest.MapFS{
		"sqlite/0001_a.sql": {Data: []byte("CREATE TABLE a (id TEXT);")},
		"sqlite/0002_b.sql": {Data: []byte("CREATE TABLE b (id TEXT);")},
	})
	if _, err := migrations.Up(ctx, db, migrations.SQLite, newer); err != nil {
		t.Fatal(err)
	}
	_, err := migrations.Up(ctx, db, migrations.SQLite, newer[:1])
	if err == nil || !strings.Contains(err.Error(), "newer Patrimonio") {
		t.Fatalf("err = %v, want a refusal naming a newer build", err)
	}
}

func TestUpAppliesTheEmbeddedMigrations(t *testing.T) {
	ctx := context.Background()
	db := openSQLite(t)
	ms, err := migrations.Embedded(migrations.SQLite)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := migrations.Up(ctx, db, migrations.SQLite, ms); err != nil {
		t.Fatal(err)
	}
	if !tableExists(t, db, "app_meta") {
		t.Error("app_meta was not created")
	}
}

// Migration 0016 rebuilds sync_records and sync_changes on SQLite (to drop their foreign key to
// workspaces) with foreign keys enforced, as the store opens SQLite: every row is kept, conflicts
// included (they reference sync_records), and conflicts still go with their record.
func TestSQLiteMigration16KeepsTheSyncRowsAndTheConflictsForeignKey(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "m.db")+"?_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	ms, err := migrations.Embedded(migrations.SQLite)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) < 16 || ms[15].File != "0016_sync_no_workspace_fk.sql" {
		t.Fatalf("migration 16 is not where this test expects it")
	}
	if _, err := migrations.Up(ctx, db, migrations.SQLite, ms[:15]); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO users (id, email, onboarding_step, created_at, updated_at) VALUES ('u1', 'u1@example.com', 'done', '2030-01-01', '2030-01-01')`,
		`INSERT INTO workspaces (id, name, kind, created_at) VALUES ('w1', 'W', 'team', '2030-01-01')`,
		`INSERT INTO sync_records (workspace_id, collection, record_id, seq, deleted, conflicts, state, updated_at) VALUES
			('w1', 'tasks', 'r1', 2, 0, 1, '{"a":1}', '2030-01-01'), ('w1', 'tasks', 'r2', 3, 1, 0, '{"b":2}', '2030-01-02')`,
		`INSERT INTO sync_changes (workspace_id, seq, collection, record_id, client_id, mutation_id, mutation, created_at) VALUES
			('w1', 1, 'tasks', 'r1', 'c1', 1, '{}', '2030-01-01'), ('w1', 2, 'tasks', 'r1', 'c1', 2, '{}', '2030-01-01'),
			('w1', 3, 'tasks', 'r2', 'c1', 3, '{}', '2030-01-02')`,
		`INSERT INTO sync_conflicts (workspace_id, collection, record_id, field, stamp, value, author, seq, created_at) VALUES
			('w1', 'tasks', 'r1', 'title', 's1', '"x"', 'c2', 2, '2030-01-01')`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	dump := func(table string) string {
		t.Helper()
		rows, err := db.Query(`SELECT * FROM ` + table + ` ORDER BY 1, 2, 3`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		var b strings.Builder
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for _, v := range vals {
				b.WriteString(strings.TrimSpace(strings.ReplaceAll(fmt.Sprint(v), "\n", " ")) + "|")
			}
			b.WriteString("\n")
		}
		return b.String()
	}
	tables := []string{"sync_records", "sync_changes", "sync_conflicts"}
	before := map[string]string{}
	for _, table := range tables {
		before[table] = dump(table)
	}

	if _, err := migrations.Up(ctx, db, migrations.SQLite, ms[:16]); err != nil {
		t.Fatal(err)
	}
	for _, table := range tables {
		if got := dump(table); got != before[table] {
			t.Errorf("%s after the migration:\n%s\nbefore:\n%s", table, got, before[table])
		}
	}
	fks := func(table string) string {
		t.Helper()
		var out string
		if err := db.QueryRow(`SELECT COALESCE(group_concat("table" || ':' || "from" || '->' || "to" || ':' || on_delete, ','), '') FROM pragma_foreign_key_list(?)`, table).Scan(&out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	for table, want := range map[string]string{
		"sync_records":    "",
		"sync_changes":    "",
		"sync_workspaces": "workspaces:workspace_id->id:CASCADE",
		"sync_conflicts":  "sync_records:workspace_id->workspace_id:CASCADE,sync_records:collection->collection:CASCADE,sync_records:record_id->record_id:CASCADE",
	} {
		if got := fks(table); got != want {
			t.Errorf("foreign keys of %s = %q, want %q", table, got, want)
		}
	}
	var violations int
	if err := db.QueryRow(`SELECT COUNT(*) FROM pragma_foreign_key_check`).Scan(&violations); err != nil || violations != 0 {
		t.Errorf("foreign key check: %d violations, %v", violations, err)
	}
	// A conflict still goes with its record.
	if _, err := db.ExecContext(ctx, `DELETE FROM sync_records WHERE record_id = 'r1'`); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := db.QueryRow(`SELECT COUNT(*) FROM sync_conflicts`).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d conflicts left after their record was deleted (%v)", left, err)
	}
}
