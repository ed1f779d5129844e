package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// Unavailable says whether err means the database could not be reached or dropped the connection
// (Postgres restarting or down, a pooled connection found dead, the network): a moment later the
// same request may well succeed. The HTTP layer answers such errors 503 "unavailable" instead of
// 500, and the server waits for the database at start instead of exiting.
func Unavailable(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		// Class 08: connection exception; 57P01–57P03: the server is shutting down or starting.
		switch {
		case len(pgErr.Code) == 5 && pgErr.Code[:2] == "08":
			return true
		case pgErr.Code == "57P01", pgErr.Code == "57P02", pgErr.Code == "57P03":
			return true
		}
		return false
	}
	var connectErr *pgconn.ConnectError
	if errors.As(err, &connectErr) {
		return true
	}
	var netErr net.Error
	if errors.As(err, &netErr) {
		return true
	}
	return errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) ||
		pgconn.SafeToRetry(err) || pgconn.Timeout(err)
}

// OpenWaiting is Open, waiting for a database that cannot be reached yet (Postgres still starting,
// or restarting): it tries again with a growing pause (1 s doubling to 30 s) until ctx ends,
// calling onWait with each failure and the pause before the next try. Any other error (a bad
// URL, a SQLite path that cannot be created, a failed migration) is returned at once.
func OpenWaiting(ctx context.Context, open func(context.Context) (*DB, error), onWait func(err error, next time.Duration)) (*DB, error) {
	pause := time.Second
	for {
		db, err := open(ctx)
		if err == nil || !Unavailable(err) {
			return db, err
		}
		if onWait != nil {
			onWait(err, pause)
		}
		select {
		case <-ctx.Done():
			return nil, errors.Join(err, ctx.Err())
		case <-time.After(pause):
		}
		pause = min(2*pause, 30*time.Second)
	}
}
