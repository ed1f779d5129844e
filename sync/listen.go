package psync

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Fan-out between server instances sharing one Postgres database: every push transaction sends
// NOTIFY patrimonio_sync '<node> <workspace> <seq>' (delivered at commit, in commit order); every
// instance LISTENs on one connection of its own and tells its watchers (Watcher.Committed): its
// sockets of that workspace then read the new changes from the database. A lost listening
// connection is re-established with backoff, and then the watchers hear Watcher.Missed (every
// socket reads again), so a notification missed meanwhile delays a change but never loses it.

const notifyChannel = "patrimonio_sync"

func notifyPayload(node, workspace string, seq int64) string {
	return node + " " + workspace + " " + strconv.FormatInt(seq, 10)
}

func parsePayload(p string) (node, workspace string, seq int64, ok bool) {
	parts := strings.Fields(p)
	if len(parts) != 3 {
		return "", "", 0, false
	}
	seq, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil {
		return "", "", 0, false
	}
	return parts[0], parts[1], seq, true
}

// The same channel tells the other instances that a session or a user has ended (AnnounceEnd), so
// that they close those sockets at once instead of at their next session check: '<node>
// end-session <id>' and '<node> end-user <id>'.
const (
	EndSession = "end-session"
	EndUser    = "end-user"
)

func endPayload(node, kind, id string) string { return node + " " + kind + " " + id }

func parseEndPayload(p string) (node, kind, id string, ok bool) {
	parts := strings.Fields(p)
	if len(parts) != 3 || (parts[1] != EndSession && parts[1] != EndUser) {
		return "", "", "", false
	}
	return parts[0], parts[1], parts[2], true
}

// AnnounceEnd tells the other instances (Postgres only) that a session (kind EndSession) or a user
// (EndUser) has ended: their watchers hear Watcher.Ended and close its sockets. This instance's
// are the caller's to close; a failed notification is logged, and those instances still close the
// sockets at their next session check.
func (e *Engine) AnnounceEnd(kind, id string) {
	if e.db.Pool() == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := e.db.Pool().Exec(ctx, `SELECT pg_notify($1, $2)`, notifyChannel, endPayload(e.clock.Node(), kind, id)); err != nil {
		e.log.Warn("sync: could not tell the other instances to close sockets", "kind", kind, "err", err)
	}
}

// startListening takes a connection out of the pool for good and LISTENs on it.
func (e *Engine) startListening(ctx context.Context) (*pgx.Conn, error) {
	pc, err := e.db.Pool().Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("sync: listen: %w", err)
	}
	conn := pc.Hijack()
	if _, err := conn.Exec(ctx, "LISTEN "+notifyChannel); err != nil {
		conn.Close(context.Background())
		return nil, fmt.Errorf("sync: listen: %w", err)
	}
	return conn, nil
}

func (e *Engine) listen(conn *pgx.Conn) {
	defer e.bg.Done()
	backoff := 100 * time.Millisecond
	for {
		if conn != nil {
			err := e.receive(conn)
			conn.Close(context.Background())
			conn = nil
			if e.ctx.Err() != nil {
				return
			}
			e.log.Warn("sync: lost the notification connection; reconnecting", "err", err)
		}
		select {
		case <-e.ctx.Done():
			return
		case <-time.After(backoff):
		}
		c, err := e.startListening(e.ctx)
		if err != nil {
			backoff = min(2*backoff, 5*time.Second)
			continue
		}
		backoff = 100 * time.Millisecond
		conn = c
		e.watchers.missed() // commits made while nobody listened
	}
}

func (e *Engine) receive(conn *pgx.Conn) error {
	for {
		n, err := conn.WaitForNotification(e.ctx)
		if err != nil {
			return err
		}
		if node, kind, id, ok := parseEndPayload(n.Payload); ok {
			if node != e.clock.Node() {
				e.watchers.ended(kind, id)
			}
			continue
		}
		node, workspace, seq, ok := parsePayload(n.Payload)
		if !ok || node == e.clock.Node() {
			continue // our own commits were announced locally
		}
		e.watchers.committed(Commit{Workspace: workspace, Seq: seq})
	}
}
