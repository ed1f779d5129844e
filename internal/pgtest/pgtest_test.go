package pgtest_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"patrimonio/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestURLGivesAFreshDatabaseThatIsDroppedAfterTheTest(t *testing.T) {
	ctx := context.Background()
	var first, second string
	t.Run("a test gets two distinct, empty, writable databases", func(t *testing.T) {
		first, second = pgtest.URL(t), pgtest.URL(t)
		if first == second {
			t.Fatalf("both calls returned %s", first)
		}
		conn, err := pgx.Connect(ctx, first)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		var tables int
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'`).Scan(&tables); err != nil {
			t.Fatal(err)
		}
		if tables != 0 {
			t.Errorf("fresh database has %d tables", tables)
		}
		if _, err := conn.Exec(ctx, `CREATE TABLE t (id int)`); err != nil {
			t.Fatal(err)
		}
	})

	cfg, err := pgx.ParseConfig(first)
	if err != nil {
		t.Fatal(err)
	}
	name := cfg.Database
	cfg.Database = "postgres"
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_database WHERE datname = $1`, name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("database %s still exists after its test ended", name)
	}
}

func TestRestartKeepsTheDataAndTheURLAndEndsOpenConnections(t *testing.T) {
	ctx := context.Background()
	c, err := pgtest.StartCluster()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Stop(); err != nil {
			t.Error(err)
		}
	})
	before, err := pgx.Connect(ctx, c.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer before.Close(ctx)
	if _, err := before.Exec(ctx, `CREATE TABLE kept (v text); INSERT INTO kept VALUES ('committed before the restart')`); err != nil {
		t.Fatal(err)
	}

	if err := c.Restart(); err != nil {
		t.Fatal(err)
	}

	if _, err := before.Exec(ctx, `SELECT 1`); err == nil {
		t.Error("a connection opened before the restart still works after it")
	}
	after, err := pgx.Connect(ctx, c.URL())
	if err != nil {
		t.Fatalf("connect to the same URL after the restart: %v", err)
	}
	defer after.Close(ctx)
	var v string
	if err := after.QueryRow(ctx, `SELECT v FROM kept`).Scan(&v); err != nil || v != "committed before the restart" {
		t.Errorf("after the restart: %q, %v", v, err)
	}
}
