package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"patrimonio/server/store"
)

func TestUnavailableTellsAnOutageFromAFailure(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"a query that found nothing", sql.ErrNoRows, false},
		{"a cancelled request", fmt.Errorf("read: %w", context.Canceled), false},
		{"a constraint violation", &pgconn.PgError{Code: "23505"}, false},
		{"a wrong password", &pgconn.PgError{Code: "28P01"}, false},
		{"a database that does not exist", &pgconn.PgError{Code: "3D000"}, false},
		{"Postgres shutting down", fmt.Errorf("query: %w", &pgconn.PgError{Code: "57P01"}), true},
		{"Postgres starting", &pgconn.PgError{Code: "57P03"}, true},
		{"a connection exception", &pgconn.PgError{Code: "08006"}, true},
		{"a connection the server dropped", fmt.Errorf("query: %w", io.ErrUnexpectedEOF), true},
		{"a broken pipe", fmt.Errorf("write: %w", syscall.EPIPE), true},
		{"a refused connection", fmt.Errorf("dial: %w", syscall.ECONNREFUSED), true},
		{"anything else", errors.New("boom"), false},
	}
	for _, c := range cases {
		if got := store.Unavailable(c.err); got != c.want {
			t.Errorf("%s: Unavailable = %v, want %v", c.name, got, c.want)
		}
	}
}
