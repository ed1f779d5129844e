package sim

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"patrimonio/server/config"
	"patrimonio/server/store"
)

// Deployment is a running server on a fresh database of a World, with a handle on that database
// for checks.
type Deployment struct {
	World    *World
	Server   *Server
	Database string    // its DATABASE_URL
	DB       *store.DB // the checks' own handle on it
	drop     func() error
}

// PostgresBase is the Postgres server scenarios create their databases on: TEST_DATABASE_URL, or
// a private cluster (not the one that is restarted).
func (e *Env) PostgresBase() (string, error) {
	if e.PostgresURL != "" {
		return e.PostgresURL, nil
	}
	c, err := e.sharedCluster.get(e.startCluster)
	if err != nil {
		return "", err
	}
	return c.URL(), nil
}

// Deploy starts a server (in this process, or the binary) on a new database made from the world
// of base ("sqlite" or a Postgres server URL); dir holds its files. On an error, the returned
// deployment (when not nil) holds what was made: Close it.
func (e *Env) Deploy(base string, binary bool, dir string) (*Deployment, error) {
	w, err := e.World(base)
	if err != nil {
		return nil, err
	}
	d := &Deployment{World: w}
	if d.Database, d.drop, err = w.newDatabase(dir); err != nil {
		return nil, err
	}
	webDir := filepath.Join(dir, "web")
	if err := os.MkdirAll(webDir, 0o755); err != nil {
		return d, err
	}
	d.Server = newServer(e, binary, d.Database, webDir)
	if err := d.Server.Start(); err != nil {
		return d, fmt.Errorf("start the server: %w", err)
	}
	cfg, err := config.Load(func(k string) string {
		return map[string]string{config.EnvDatabaseURL: d.Database, config.EnvWebDir: webDir}[k]
	}, nil)
	if err != nil {
		return d, err
	}
	if d.DB, err = store.Open(context.Background(), cfg.Dialect(), cfg.DatabaseSource()); err != nil {
		return d, fmt.Errorf("open the database for the checks: %w", err)
	}
	return d, nil
}

// Close stops the server and drops the database.
func (d *Deployment) Close() error {
	var err error
	if d.Server != nil {
		err = d.Server.Stop()
	}
	if d.DB != nil {
		d.DB.Close()
	}
	if d.drop != nil {
		if derr := d.drop(); err == nil {
			err = derr
		}
	}
	return err
}
