package socket_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"patrimonio/server/store"
	psync "patrimonio/sync"
	"patrimonio/sync/socket"
)

// Two server instances (two engines, each with its own connection pool, as two processes would
// have) on one Postgres database: changes pushed through either reach the sockets of both, in
// order, with no gap in any cursor.
func TestTwoServersOnOnePostgresDeliverEveryChangeInOrder(t *testing.T) {
	url := postgresURL(t)
	dbA := openStore(t, store.Postgres, url)
	dbB := openStore(t, store.Postgres, url)
	a, b := newSocketEnv(t, dbA, psync.Options{}, socket.Options{}), newSocketEnv(t, dbB, psync.Options{}, socket.Options{})
	if a.engine.Node() == b.engine.Node() {
		t.Fatal("two instances share a clock node id")
	}
	user, w := addUser(t, dbA), addWorkspace(t, dbA)
	addMember(t, dbA, w, user, "owner")

	// A reader on each instance, following the workspace live.
	readers := []*wsClient{a.connect(user), b.connect(user)}
	replicas := []*socketReplica{newSocketReplica(), newSocketReplica()}
	for i, c := range readers {
		c.hello(uuid.NewString(), map[string]any{w: nil}, nil)
		replicas[i].apply(t, c.expect("snapshot"))
	}

	// Writers on both instances push at the same time.
	const batches, perBatch = 8, 25
	writers := []*wsClient{a.connect(user), b.connect(user)}
	done := make(chan error, len(writers))
	for i, c := range writers {
		c.hello(uuid.NewString(), map[string]any{}, nil)
		go func() {
			clock, _ := psync.NewClock(psync.ClockConfig{Node: psync.NewNodeID(), Now: time.Now})
			id := int64(0)
			for batch := range batches {
				var muts []map[string]any
				for k := range perBatch {
					id++
					muts = append(muts, wireMutation(id, w, "tasks", newRecordID(t), "put", clock.Now(),
						task(fmt.Sprintf("instancia %d lote %d n %d", i, batch, k)), nil))
				}
				if err := c.ws.WriteJSON(push(muts...)); err != nil {
					done <- err
					return
				}
				for {
					var m map[string]any
					_ = c.ws.SetReadDeadline(time.Now().Add(hangGuard))
					if err := c.ws.ReadJSON(&m); err != nil {
						done <- err
						return
					}
					if m["type"] == "ack" {
						if n := len(m["acks"].([]any)); n != perBatch {
							done <- fmt.Errorf("ack of %d mutations", n)
							return
						}
						break
					}
					if m["type"] != "changes" {
						done <- fmt.Errorf("writer got %v", m)
						return
					}
				}
			}
			done <- nil
		}()
	}
	for range writers {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}

	// Each reader receives every change, each page continuing the previous one (socketReplica
	// fails on a gap or a repeat), until the workspace's head.
	const total = 2 * batches * perBatch
	for i, c := range readers {
		for replicas[i].Cursor < total {
			page := c.expect("changes")
			replicas[i].apply(t, page)
			if page["hasMore"] == true {
				c.send(map[string]any{"type": "pull", "workspaceId": w, "after": replicas[i].Cursor})
			}
		}
	}
	want := serverState(t, a.engine, user, w)
	if len(want) != total {
		t.Fatalf("%d records on the server", len(want))
	}
	for _, r := range replicas {
		sameStates(t, r.Records, want)
	}
}

// When the connection an instance listens on dies (a database restart, a network cut), the
// instance listens again and its sockets read what was committed meanwhile: late, never lost.
func TestAnInstanceThatLosesItsNotificationConnectionCatchesUp(t *testing.T) {
	url := postgresURL(t)
	dbA := openStore(t, store.Postgres, url)
	dbB := openStore(t, store.Postgres, url)
	a, b := newSocketEnv(t, dbA, psync.Options{}, socket.Options{}), newSocketEnv(t, dbB, psync.Options{}, socket.Options{})
	user, w := addUser(t, dbA), addWorkspace(t, dbA)
	addMember(t, dbA, w, user, "owner")
	reader := b.connect(user)
	reader.hello(uuid.NewString(), map[string]any{w: nil}, nil)
	r := newSocketReplica()
	r.apply(t, reader.expect("snapshot"))

	// Cut every LISTEN connection (B's, and A's own).
	ctx := context.Background()
	var cut int
	if err := dbA.QueryRow(ctx, `SELECT COUNT(*) FROM (SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
		WHERE datname = current_database() AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()) x WHERE done`).Scan(&cut); err != nil {
		t.Fatal(err)
	}
	if cut != 2 {
		t.Fatalf("%d listening connections cut, want 2", cut)
	}
	d := newDevice(t, a.engine, user, time.Now)
	for i := range 3 {
		apply(t, a.engine, d, d.Put(w, newRecordID(t), task(fmt.Sprintf("durante el corte %d", i)), nil))
	}
	for r.Cursor < 3 {
		r.apply(t, reader.expect("changes"))
	}
	sameStates(t, r.Records, serverState(t, a.engine, user, w))
}

// Ending a session or a user on one instance closes its sockets on the other instances at once
// (a notification), not at their next periodic session check: the sessions here stay valid in the
// database, so no session check would ever close these sockets.
func TestEndingASessionOrAUserClosesItsSocketsOnEveryInstance(t *testing.T) {
	url := postgresURL(t)
	dbA := openStore(t, store.Postgres, url)
	dbB := openStore(t, store.Postgres, url)
	a, b := newSocketEnv(t, dbA, psync.Options{}, socket.Options{}), newSocketEnv(t, dbB, psync.Options{}, socket.Options{})
	user, w := addUser(t, dbA), addWorkspace(t, dbA)
	addMember(t, dbA, w, user, "owner")

	token := b.signIn(user)
	session, _, err := a.accounts.Sessions.Authenticate(context.Background(), token)
	if err != nil {
		t.Fatal(err)
	}
	ended, _, err := b.dial(token, nil)
	if err != nil {
		t.Fatal(err)
	}
	other := b.connect(user) // another session of the same user, on the same instance
	for _, c := range []*wsClient{ended, other} {
		c.hello(uuid.NewString(), map[string]any{w: nil}, nil)
		c.expect("snapshot")
	}

	a.sockets.EndSession(session.ID) // instance A ends a session whose socket is on B
	ended.expectClose(socket.CloseUnauthorized, "")

	a.sockets.EndUser(user)
	other.expectClose(socket.CloseUnauthorized, "")
}
