package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// openBusyWait is how long opening one SQLite connection keeps trying while the file answers
// SQLITE_BUSY; it matches the busy_timeout of sqlitePragmas.
const openBusyWait = 10 * time.Second

// busyRetry opens SQLite connections again while the database answers SQLITE_BUSY.
//
// A new connection runs sqlitePragmas, and PRAGMA journal_mode=WAL needs a lock that SQLite may
// refuse at once, without calling the busy handler, while another connection (of this process or
// another) turns a fresh file to WAL or recovers its WAL index. busy_timeout covers every later
// statement, not that moment; without this, two servers (or two Opens) starting at once on a new
// file fail now and then with "database is locked".
type busyRetry struct{ driver.Connector }

func (c busyRetry) Connect(ctx context.Context) (driver.Conn, error) {
	deadline := time.Now().Add(openBusyWait)
	wait := 5 * time.Millisecond
	for {
		conn, err := c.Connector.Connect(ctx)
		if err == nil || !isBusy(err) || time.Now().Add(wait).After(deadline) {
			return conn, err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, err
		case <-t.C:
		}
		wait = min(2*wait, 200*time.Millisecond)
	}
}

// isBusy reports whether err is SQLite's SQLITE_BUSY, with or without an extended code.
func isBusy(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_BUSY
}
