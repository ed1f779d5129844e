package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5"
)

// cluster is the Postgres server the bench runs against (TEST_DATABASE_URL: the throwaway cluster
// that pgtmp started, or a server of yours). Every phase gets a fresh database on it.
type cluster struct {
	adminURL string
}

// newDatabase creates an empty database and returns its URL. Commits in it wait for their WAL
// (synchronous_commit on, set on the database: the throwaway cluster runs with it off), so an
// ack, which comes after the commit, means the commit is in the WAL.
func (c cluster) newDatabase(ctx context.Context, prefix string) (string, error) {
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := prefix + "_" + hex.EncodeToString(b[:])
	conn, err := pgx.Connect(ctx, c.adminURL)
	if err != nil {
		return "", fmt.Errorf("connect to postgres: %w", err)
	}
	defer conn.Close(ctx)
	ident := pgx.Identifier{name}.Sanitize()
	if _, err := conn.Exec(ctx, `CREATE DATABASE `+ident); err != nil {
		return "", fmt.Errorf("create database: %w", err)
	}
	if _, err := conn.Exec(ctx, `ALTER DATABASE `+ident+` SET synchronous_commit = on`); err != nil {
		return "", fmt.Errorf("set synchronous_commit: %w", err)
	}
	u, err := url.Parse(c.adminURL)
	if err != nil {
		return "", err
	}
	u.Path = "/" + name
	return u.String(), nil
}

func (c cluster) dropDatabase(ctx context.Context, dbURL string) error {
	u, err := url.Parse(dbURL)
	if err != nil {
		return err
	}
	conn, err := pgx.Connect(ctx, c.adminURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, `DROP DATABASE IF EXISTS `+pgx.Identifier{u.Path[1:]}.Sanitize()+` WITH (FORCE)`)
	return err
}

// settings describes the server for results.json: its version and the settings that decide what
// a commit costs.
func (c cluster) settings(ctx context.Context, dbURL string) (map[string]string, error) {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx)
	out := map[string]string{}
	var v string
	if err := conn.QueryRow(ctx, `SELECT version()`).Scan(&v); err != nil {
		return nil, err
	}
	out["version"] = v
	for _, name := range []string{"fsync", "synchronous_commit", "full_page_writes", "wal_sync_method", "shared_buffers", "max_connections"} {
		if err := conn.QueryRow(ctx, `SELECT current_setting($1)`, name).Scan(&v); err != nil {
			return nil, err
		}
		out[name] = v
	}
	return out, nil
}

// plainURL is a server's DATABASE_URL without the pgx pool's own parameters, for a plain
// connection.
func plainURL(dbURL string) string {
	u, err := url.Parse(dbURL)
	if err != nil {
		return dbURL
	}
	q := u.Query()
	for k := range q {
		if strings.HasPrefix(k, "pool_") {
			q.Del(k)
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}
