package migrations_test

// The runner is tested here on SQLite with hand-made migration sets. The same runner on Postgres
// (advisory lock, concurrent starts) and the equivalence of the two dialects' schemas are tested in
// server/store, which has the throwaway Postgres cluster.

import (
	"context"
	"database/sql"
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
