package socket_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/gorilla/websocket"

	"patrimonio/server/store"
	schema "patrimonio/shared-schema"
	psync "patrimonio/sync"
	"patrimonio/sync/socket"
)

func TestTwoDevicesSyncThroughTheSocket(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		env := newSocketEnv(t, db, psync.Options{}, socket.Options{})
		ana, luis, w := addUser(t, db), addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, ana, "owner")
		addMember(t, db, w, luis, "editor")
		clock, _ := psync.NewClock(psync.ClockConfig{Node: psync.NewNodeID(), Now: time.Now})

		a, b := env.connect(ana), env.connect(luis)
		aID, bID := uuid.NewString(), uuid.NewString()
		a.hello(aID, map[string]any{w: nil}, nil)
		b.hello(bID, map[string]any{w: nil}, nil)
		ra, rb := newSocketReplica(), newSocketReplica()
		for _, pair := range []struct {
			c *wsClient
			r *socketReplica
		}{{a, ra}, {b, rb}} {
			snap := pair.c.expect("snapshot")
			if snap["hasMore"] != false || snap["cursor"] != float64(0) || len(snap["records"].([]any)) != 0 {
				t.Fatalf("first snapshot of an empty workspace: %v", snap)
			}
			pair.r.apply(t, snap)
		}

		rec1, rec2 := newRecordID(t), newRecordID(t)
		s1, s2 := clock.Now(), clock.Now()
		a.send(push(
			wireMutation(1, w, "tasks", rec1, "put", s1, task("Declaración de la renta"), nil),
			wireMutation(2, w, "tasks", rec2, "put", s2, task("Renovar DNI"), nil),
		))
		// a gets its ack and its own changes back, in either order; b gets the changes live.
		var ack message
		for range 2 {
			m := a.next()
			switch m["type"] {
			case "ack":
				ack = m
			case "changes":
				ra.apply(t, m)
			default:
				t.Fatalf("unexpected %v", m)
			}
		}
		acks := ack["acks"].([]any)
		if len(acks) != 2 || acks[0].(map[string]any)["status"] != "applied" || acks[1].(map[string]any)["seq"] != float64(2) ||
			acks[0].(map[string]any)["stamp"] != s1.String() {
			t.Fatalf("ack %v", ack)
		}
		rb.apply(t, b.expect("changes"))
		if rb.Cursor != 2 || ra.Cursor != 2 {
			t.Fatalf("cursors a %d b %d", ra.Cursor, rb.Cursor)
		}

		// b edits; a sees it live.
		s3 := clock.Now()
		b.send(push(wireMutation(1, w, "tasks", rec1, "put", s3, map[string]any{"status": "done"}, map[string]psync.Stamp{"status": s1})))
		for range 2 {
			if m := b.next(); m["type"] == "changes" {
				rb.apply(t, m)
			}
		}
		ra.apply(t, a.expect("changes"))
		want := serverState(t, env.engine, ana, w)
		sameStates(t, ra.Records, want)
		sameStates(t, rb.Records, want)
		if want["tasks/"+rec1].Fields["status"] != "done" || want["tasks/"+rec1].Authors["status"] != bID {
			t.Fatalf("server record %+v", want["tasks/"+rec1])
		}

		// a reconnects with its cursor: an empty page says it is up to date.
		a2 := env.connect(ana)
		a2.hello(aID, map[string]any{w: 3}, nil)
		page := a2.expect("changes")
		if page["cursor"] != float64(3) || page["hasMore"] != false || len(page["changes"].([]any)) != 0 {
			t.Fatalf("catch-up page %v", page)
		}
		// The older socket of the same client was replaced.
		a.expectClose(socket.CloseReplaced, "replaced")
	})
}

func TestTheSocketRefusesBadInputWithAClearCloseCode(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		env := newSocketEnv(t, db, psync.Options{}, socket.Options{})
		user := addUser(t, db)
		helloFor := func(c *wsClient) { c.hello(uuid.NewString(), map[string]any{}, nil) }

		t.Run("malformed JSON closes with 4400", func(t *testing.T) {
			c := env.connect(user)
			helloFor(c)
			c.sendRaw(websocket.TextMessage, []byte(`{"type":"ping"`))
			c.expectClose(socket.CloseInvalidMessage, "invalid_message")
		})
		t.Run("a frame over the limit closes with 1009", func(t *testing.T) {
			c := env.connect(user)
			helloFor(c)
			big := `{"type":"ping","x":"` + strings.Repeat("a", 1<<20) + `"}`
			c.sendRaw(websocket.TextMessage, []byte(big))
			c.expectClose(socket.CloseTooLarge, "")
		})
		t.Run("a push over the mutation limit closes with 1009", func(t *testing.T) {
			c := env.connect(user)
			helloFor(c)
			var muts []map[string]any
			stamp := psync.Stamp{Millis: time.Now().UnixMilli(), Node: psync.NewNodeID()}
			for i := range 501 {
				muts = append(muts, wireMutation(int64(i+1), uuid.NewString(), "tasks", newRecordID(t), "delete", stamp, nil, nil))
			}
			c.send(push(muts...))
			c.expectClose(socket.CloseTooLarge, "too_large")
		})
		t.Run("a message before hello closes with 4400", func(t *testing.T) {
			c := env.connect(user)
			c.send(map[string]any{"type": "ping"})
			c.expectClose(socket.CloseInvalidMessage, "invalid_message")
		})
		t.Run("a second hello closes with 4400", func(t *testing.T) {
			c := env.connect(user)
			helloFor(c)
			c.send(map[string]any{"type": "hello", "protocolVersion": schema.ProtocolVersion, "schemaVersion": schema.SchemaVersion, "clientId": uuid.NewString(), "cursors": map[string]any{}})
			c.expectClose(socket.CloseInvalidMessage, "invalid_message")
		})
		t.Run("a binary frame closes with 4400", func(t *testing.T) {
			c := env.connect(user)
			helloFor(c)
			c.sendRaw(websocket.BinaryMessage, []byte(`{"type":"ping"}`))
			c.expectClose(socket.CloseInvalidMessage, "invalid_message")
		})
		t.Run("an unknown message type closes with 4400", func(t *testing.T) {
			c := env.connect(user)
			helloFor(c)
			c.send(map[string]any{"type": "subscribe"})
			c.expectClose(socket.CloseInvalidMessage, "invalid_message")
		})
		t.Run("a wrong protocol version closes with 4426 and says which versions", func(t *testing.T) {
			// Protocol 2 (cursor 0 meant "nothing yet" too) and 1 are refused, saying both versions.
			for _, v := range []int{1, 2} {
				c := env.connect(user)
				c.send(map[string]any{"type": "hello", "protocolVersion": v, "schemaVersion": schema.SchemaVersion, "clientId": uuid.NewString(),
					"cursors": map[string]any{"3f2b8c1e-9d4a-4b6f-a2c7-5e8d9f0a1b2c": 0}})
				m := c.expectClose(socket.CloseVersion, "protocol_version")
				if text := m["message"].(string); !strings.Contains(text, fmt.Sprintf("protocolo de sincronización %d", v)) || !strings.Contains(text, "el 3") {
					t.Fatalf("message %q", text)
				}
			}
		})
		t.Run("a wrong schema version closes with 4426, in English when asked", func(t *testing.T) {
			c, _, err := env.dial(env.signIn(user), http.Header{"Accept-Language": {"en-GB,en;q=0.9"}})
			if err != nil {
				t.Fatal(err)
			}
			c.send(map[string]any{"type": "hello", "protocolVersion": schema.ProtocolVersion, "schemaVersion": 8, "clientId": uuid.NewString(), "cursors": map[string]any{}})
			m := c.expectClose(socket.CloseVersion, "schema_version")
			if text := m["message"].(string); !strings.Contains(text, "format 8") || !strings.Contains(text, "Update the app") {
				t.Fatalf("message %q", text)
			}
		})
		t.Run("no session closes with 4401", func(t *testing.T) {
			c, _, err := env.dial("", nil)
			if err != nil {
				t.Fatal(err)
			}
			c.expectClose(socket.CloseUnauthorized, "unauthorized")
		})
		t.Run("an unknown session closes with 4401", func(t *testing.T) {
			c, _, err := env.dial(strings.Repeat("A", 43), nil)
			if err != nil {
				t.Fatal(err)
			}
			c.expectClose(socket.CloseUnauthorized, "unauthorized")
		})
		t.Run("another site's origin gets 403 before any socket", func(t *testing.T) {
			for _, origin := range []string{"https://evil.example", ""} {
				_, resp, err := env.dial(env.signIn(user), http.Header{"Origin": {origin}})
				if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
					t.Fatalf("origin %q: %v, %v", origin, resp, err)
				}
			}
		})
		t.Run("a client id of another user closes with 4403", func(t *testing.T) {
			id := uuid.NewString()
			first := env.connect(user)
			first.hello(id, map[string]any{}, nil)
			other := env.connect(addUser(t, db))
			other.send(map[string]any{"type": "hello", "protocolVersion": schema.ProtocolVersion, "schemaVersion": schema.SchemaVersion, "clientId": id, "cursors": map[string]any{}})
			other.expectClose(socket.CloseForbidden, "forbidden")
		})
		t.Run("ping is answered with pong", func(t *testing.T) {
			c := env.connect(user)
			helloFor(c)
			c.send(map[string]any{"type": "ping"})
			c.expect("pong")
		})
	})
}

func TestTheSocketEnforcesItsLimits(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		env := newSocketEnv(t, db, psync.Options{}, socket.Options{
			HelloTimeout:         300 * time.Millisecond,
			MaxMessagesPerSecond: 5, MessageBurst: 5, MaxConnectionsPerUser: 2,
		})
		user := addUser(t, db)
		t.Run("no hello in time closes with 4408", func(t *testing.T) {
			c := env.connect(user)
			c.expectClose(socket.CloseTimeout, "timeout")
		})
		t.Run("too many messages per second close with 4429", func(t *testing.T) {
			c := env.connect(user)
			c.hello(uuid.NewString(), map[string]any{}, nil)
			for range 20 {
				if err := c.ws.WriteJSON(map[string]any{"type": "ping"}); err != nil {
					break
				}
			}
			got, _, before := c.closed()
			if got != socket.CloseRateLimited || before[len(before)-1]["code"] != "rate_limited" {
				t.Fatalf("closed with %d after %v", got, before)
			}
		})
		t.Run("more sockets than a user may open close with 4430", func(t *testing.T) {
			other := addUser(t, db)
			c1, c2 := env.connect(other), env.connect(other)
			c1.hello(uuid.NewString(), map[string]any{}, nil)
			c2.hello(uuid.NewString(), map[string]any{}, nil)
			c3 := env.connect(other)
			c3.expectClose(socket.CloseTooManyConnections, "too_many_connections")
			// Another user is not affected.
			env.connect(addUser(t, db)).hello(uuid.NewString(), map[string]any{}, nil)
		})
	})
}

func TestAPushIsAnsweredPerMutationOverTheSocket(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		env := newSocketEnv(t, db, psync.Options{}, socket.Options{})
		user := addUser(t, db)
		mine, readOnly, foreign := addWorkspace(t, db), addWorkspace(t, db), addWorkspace(t, db)
		addMember(t, db, mine, user, "editor")
		addMember(t, db, readOnly, user, "viewer")
		addMember(t, db, foreign, addUser(t, db), "owner")
		clock, _ := psync.NewClock(psync.ClockConfig{Node: psync.NewNodeID(), Now: time.Now})

		c := env.connect(user)
		c.hello(uuid.NewString(), map[string]any{}, map[string]any{"language": "en"})
		stamp := func() psync.Stamp { return clock.Now() }
		badDay := wireMutation(6, mine, "tasks", newRecordID(t), "put", stamp(), task("x"), nil)
		badDay["stamp"] = "2025-02-30T10:00:00.000Z-0000-0123456789abcdef"
		unknown := wireMutation(5, mine, "accounts", newRecordID(t), "put", stamp(), task("x"), nil)
		c.send(push(
			wireMutation(1, mine, "tasks", newRecordID(t), "put", stamp(), task("válida"), nil),
			wireMutation(2, readOnly, "tasks", newRecordID(t), "put", stamp(), task("de un lector"), nil),
			wireMutation(3, foreign, "tasks", newRecordID(t), "put", stamp(), task("ajena"), nil),
			wireMutation(4, mine, "tasks", newRecordID(t), "put", stamp(), task(strings.Repeat("x", 141)), nil),
			unknown,
			badDay,
			wireMutation(7, mine, "tasks", newRecordID(t), "put", stamp(), task("también válida"), nil),
		))
		type want struct {
			code, path, key, message string
		}
		wants := map[float64]want{
			2: {"forbidden", "", "sync.reject.readOnly", "Your role in this workspace (viewer) does not allow changing records"},
			3: {"not_found", "", "sync.reject.notMember", "You are not a member of this workspace"},
			4: {"invalid", "title", "validation.string.max", "Must have at most 140 characters"},
			5: {"invalid", "collection", "validation.enum", "Choose a valid option"},
			6: {"invalid", "stamp", "validation.format.hlc", "Invalid clock stamp"},
		}
		got := map[float64]bool{}
		for range wants {
			m := c.expect("reject")
			id := m["mutationId"].(float64)
			w, ok := wants[id]
			issues := m["issues"].([]any)
			if !ok || m["code"] != w.code || len(issues) != 1 {
				t.Fatalf("reject %v", m)
			}
			is := issues[0].(map[string]any)
			if is["path"] != w.path || is["key"] != w.key || is["message"] != w.message {
				t.Fatalf("mutation %v: issue %v, want %+v", id, is, w)
			}
			got[id] = true
		}
		ack := c.expect("ack")
		acks := ack["acks"].([]any)
		if len(got) != len(wants) || len(acks) != 2 || acks[0].(map[string]any)["mutationId"] != float64(1) ||
			acks[1].(map[string]any)["mutationId"] != float64(7) || acks[1].(map[string]any)["seq"] != float64(2) {
			t.Fatalf("ack %v", ack)
		}
		// Resending the whole push: the same verdicts, nothing applied twice.
		c.send(push(
			wireMutation(1, mine, "tasks", newRecordID(t), "put", stamp(), task("válida"), nil),
			wireMutation(4, mine, "tasks", newRecordID(t), "put", stamp(), task(strings.Repeat("x", 141)), nil),
			wireMutation(8, mine, "tasks", newRecordID(t), "put", stamp(), task("nueva"), nil),
		))
		if m := c.expect("reject"); m["mutationId"] != float64(4) || m["code"] != "invalid" {
			t.Fatalf("resent rejection %v", m)
		}
		acks = c.expect("ack")["acks"].([]any)
		if acks[0].(map[string]any)["status"] != "duplicate" || acks[0].(map[string]any)["seq"] != float64(1) ||
			acks[1].(map[string]any)["status"] != "applied" || acks[1].(map[string]any)["seq"] != float64(3) {
			t.Fatalf("acks of the resend %v", acks)
		}
		// A push whose mutation ids do not increase cannot be answered per mutation.
		c.send(push(
			wireMutation(9, mine, "tasks", newRecordID(t), "put", stamp(), task("a"), nil),
			wireMutation(9, mine, "tasks", newRecordID(t), "put", stamp(), task("b"), nil),
		))
		c.expectClose(socket.CloseInvalidMessage, "invalid_message")
	})
}

func TestASnapshotIsPulledPageByPageAndResumesAfterAReconnect(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		env := newSocketEnv(t, db, psync.Options{Limits: psync.Limits{MaxChangesPerPage: 10}}, socket.Options{})
		user, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, user, "owner")
		d := newDevice(t, env.engine, user, time.Now)
		var muts []psync.ClientMutation
		for i := range 25 {
			muts = append(muts, d.Put(w, newRecordID(t), task(fmt.Sprintf("tarea %02d", i)), nil))
		}
		apply(t, env.engine, d, muts...)

		id := uuid.NewString()
		r := newSocketReplica()
		c := env.connect(user)
		c.hello(id, map[string]any{w: nil}, nil)
		first := c.expect("snapshot")
		if first["hasMore"] != true || len(first["records"].([]any)) != 10 || first["cursor"] != float64(25) {
			t.Fatalf("first page %v", first)
		}
		r.apply(t, first)
		// Nothing more comes until the client pulls: the next message answers this ping.
		c.send(map[string]any{"type": "ping"})
		c.expect("pong")
		c.send(map[string]any{"type": "pull", "workspaceId": w, "pageToken": first["pageToken"]})
		second := c.expect("snapshot")
		r.apply(t, second)

		// The connection drops; meanwhile a record changes. The device resumes with its token.
		c.ws.Close()
		apply(t, env.engine, d, d.Put(w, newRecordID(t), task("durante"), nil))
		c2 := env.connect(user)
		c2.hello(id, map[string]any{w: nil}, map[string]any{"resume": map[string]any{w: second["pageToken"]}})
		third := c2.expect("snapshot")
		if third["hasMore"] != false || third["pageToken"] != nil || third["cursor"] != float64(25) {
			t.Fatalf("last page %v", third)
		}
		r.apply(t, third)
		// Live from the snapshot's cursor: the change made meanwhile follows on its own.
		r.apply(t, c2.expect("changes"))
		if r.Cursor != 26 {
			t.Fatalf("cursor %d", r.Cursor)
		}
		sameStates(t, r.Records, serverState(t, env.engine, user, w))

		// A client behind by more than a page pulls the rest.
		c3 := env.connect(user)
		c3.hello(uuid.NewString(), map[string]any{w: 3}, nil)
		lag := newSocketReplica()
		lag.Cursor = 3
		p := c3.expect("changes")
		if p["hasMore"] != true || p["cursor"] != float64(13) {
			t.Fatalf("catch-up page %v", p)
		}
		c3.send(map[string]any{"type": "pull", "workspaceId": w, "after": 13})
		if p = c3.expect("changes"); p["cursor"] != float64(23) {
			t.Fatalf("second catch-up page %v", p)
		}
	})
}

func TestCursorsTheServerCannotServeAskForAResync(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		clock := newFakeClock()
		env := newSocketEnv(t, db, psync.Options{Now: clock.Now, Retention: time.Hour, GCInterval: -1}, socket.Options{})
		user, w, stranger := addUser(t, db), addWorkspace(t, db), addWorkspace(t, db)
		addMember(t, db, w, user, "owner")
		d := newDevice(t, env.engine, user, clock.Now)
		apply(t, env.engine, d, d.Put(w, newRecordID(t), task("vieja"), nil), d.Put(w, newRecordID(t), task("vieja 2"), nil))
		clock.Advance(2 * time.Hour)
		apply(t, env.engine, d, d.Put(w, newRecordID(t), task("nueva"), nil))
		if _, err := env.engine.CollectGarbage(context.Background()); err != nil {
			t.Fatal(err)
		}

		c := env.connect(user)
		c.hello(uuid.NewString(), map[string]any{w: 9}, nil) // the head is 3
		if m := c.expect("resyncRequired"); m["workspaceId"] != w || m["reason"] != "cursor_in_future" {
			t.Fatalf("%v", m)
		}
		c.send(map[string]any{"type": "pull", "workspaceId": w})
		c.send(map[string]any{"type": "pull", "workspaceId": stranger})
		c.expect("snapshot")
		if m := c.expect("accessDenied"); m["workspaceId"] != stranger || m["reason"] != "not_a_member" {
			t.Fatalf("%v", m)
		}
		c2 := env.connect(user)
		c2.hello(uuid.NewString(), map[string]any{w: nil, stranger: 4}, nil)
		// Pages come in workspace id order.
		for _, ws := range sortedPair(w, stranger) {
			m := c2.next()
			if m["workspaceId"] != ws {
				t.Fatalf("%v", m)
			}
		}
		// A cursor older than the oldest change kept.
		if _, gc, _ := env.engine.Head(context.Background(), w); gc != 2 {
			t.Fatalf("gc point %d", gc)
		}
		c3 := env.connect(user)
		c3.hello(uuid.NewString(), map[string]any{w: 1}, nil)
		if m := c3.expect("resyncRequired"); m["reason"] != "cursor_too_old" {
			t.Fatalf("%v", m)
		}
		// A cursor at the collection point is still served.
		c3.send(map[string]any{"type": "pull", "workspaceId": w, "after": 2})
		if m := c3.expect("changes"); m["cursor"] != float64(3) || len(m["changes"].([]any)) != 1 {
			t.Fatalf("%v", m)
		}
	})
}

func sortedPair(a, b string) []string {
	if a < b {
		return []string{a, b}
	}
	return []string{b, a}
}

func TestTheSocketClosesWhenTheSessionEndsAndDeniesAWorkspaceWhenTheMemberLeaves(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		env := newSocketEnv(t, db, psync.Options{}, socket.Options{SessionCheckInterval: 50 * time.Millisecond})
		user, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, user, "editor")

		token := env.signIn(user)
		c, _, err := env.dial(token, nil)
		if err != nil {
			t.Fatal(err)
		}
		c.hello(uuid.NewString(), map[string]any{w: nil}, nil)
		c.expect("snapshot")
		removeMember(t, db, w, user)
		if m := c.expect("accessDenied"); m["workspaceId"] != w {
			t.Fatalf("%v", m)
		}
		if err := env.accounts.Sessions.SignOut(context.Background(), token); err != nil {
			t.Fatal(err)
		}
		c.expectClose(socket.CloseUnauthorized, "unauthorized")

		// EndSession closes at once (what a sign-out on this instance can call).
		token2 := env.signIn(user)
		c2, _, err := env.dial(token2, nil)
		if err != nil {
			t.Fatal(err)
		}
		c2.hello(uuid.NewString(), map[string]any{}, nil)
		sess, _, err := env.accounts.Sessions.Authenticate(context.Background(), token2)
		if err != nil {
			t.Fatal(err)
		}
		env.sockets.EndSession(sess.ID)
		c2.expectClose(socket.CloseUnauthorized, "unauthorized")
	})
}

func TestShuttingDownClosesSocketsWithGoingAway(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		env := newSocketEnv(t, db, psync.Options{}, socket.Options{})
		user := addUser(t, db)
		c := env.connect(user)
		c.hello(uuid.NewString(), map[string]any{}, nil)
		done := make(chan error, 1)
		go func() { done <- env.sockets.Close() }()
		c.expectClose(socket.CloseGoingAway, "going_away")
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if n := env.sockets.OpenSockets(); n != 0 {
			t.Fatalf("%d sockets open after Close", n)
		}
		_, resp, err := env.dial(env.signIn(user), nil)
		if err == nil || resp.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("a handshake after Close: %v %v", resp, err)
		}
	})
}

func TestASocketThatStopsAnsweringPingsIsDropped(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		env := newSocketEnv(t, db, psync.Options{}, socket.Options{PingInterval: 50 * time.Millisecond, PongWait: 200 * time.Millisecond})
		user := addUser(t, db)
		c := env.connect(user)
		c.hello(uuid.NewString(), map[string]any{}, nil)
		// The client reads nothing (so answers no ping) for well over PongWait.
		time.Sleep(time.Second)
		_ = c.ws.SetReadDeadline(time.Now().Add(hangGuard))
		if _, _, err := c.ws.ReadMessage(); err == nil {
			t.Fatal("the dead socket is still open")
		}
		// The server forgets it once its goroutines are done (right after closing the connection).
		for deadline := time.Now().Add(hangGuard); env.sockets.OpenSockets() != 0; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d sockets still counted", env.sockets.OpenSockets())
			}
		}
	})
}

// Cursor 0 is "the last seq applied is 0" (an empty snapshot applied), not "nothing yet" (a null
// cursor): a device that applied the empty snapshot of a new workspace and then missed change 1
// (it was offline) gets change 1 as a change when it comes back, and a pull after 0 reads
// changes too; only a null cursor, or a pull without after, gets a snapshot.
func TestAnEmptySnapshotAppliedAtCursorZeroStillGetsChangeOne(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		env := newSocketEnv(t, db, psync.Options{}, socket.Options{})
		user, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, user, "owner")
		id := uuid.NewString()
		r := newSocketReplica()

		c := env.connect(user)
		c.hello(id, map[string]any{w: nil}, nil)
		snap := c.expect("snapshot")
		if snap["cursor"] != float64(0) || snap["hasMore"] != false || len(snap["records"].([]any)) != 0 {
			t.Fatalf("snapshot of an empty workspace: %v", snap)
		}
		r.apply(t, snap)
		c.ws.Close() // offline

		// Change 1 commits while the device is away.
		other := newDevice(t, env.engine, user, time.Now)
		rec := newRecordID(t)
		apply(t, env.engine, other, other.Put(w, rec, task("Pagar el IBI"), nil))

		c2 := env.connect(user)
		c2.hello(id, map[string]any{w: 0}, nil)
		page := c2.expect("changes")
		changes := page["changes"].([]any)
		if page["cursor"] != float64(1) || len(changes) != 1 || changes[0].(map[string]any)["seq"] != float64(1) {
			t.Fatalf("the page after cursor 0: %v", page)
		}
		r.apply(t, page)
		sameStates(t, r.Records, serverState(t, env.engine, user, w))

		// A pull after 0 reads the changes as well; a pull without after is a snapshot.
		c2.send(map[string]any{"type": "pull", "workspaceId": w, "after": 0})
		if m := c2.expect("changes"); m["cursor"] != float64(1) || len(m["changes"].([]any)) != 1 {
			t.Fatalf("pull after 0: %v", m)
		}
		c2.send(map[string]any{"type": "pull", "workspaceId": w})
		if m := c2.expect("snapshot"); m["cursor"] != float64(1) || len(m["records"].([]any)) != 1 {
			t.Fatalf("pull without after: %v", m)
		}
		// A pull with both after and a page token is refused: it says two things.
		c2.send(map[string]any{"type": "pull", "workspaceId": w, "after": 0, "pageToken": "eyJjIjoxfQ"})
		c2.expectClose(socket.CloseInvalidMessage, "invalid_message")
	})
}
