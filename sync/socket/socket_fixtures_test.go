package socket_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"patrimonio/server/account"
	"patrimonio/server/app"
	"patrimonio/server/httpapi"
	"patrimonio/server/store"
	schema "patrimonio/shared-schema"
	psync "patrimonio/sync"
	"patrimonio/sync/socket"
)

// Socket tests run the engine and its socket server behind a real HTTP server (httptest) on a
// real store, with the real session stack: sessions of the account service, authenticated by the
// HTTP layer's CookieAuthenticator, adapted by app.SyncAuthenticator as the app does.

type socketEnv struct {
	t        testing.TB
	db       *store.DB
	engine   *psync.Engine
	sockets  *socket.Server
	server   *httptest.Server
	accounts *account.Services
	url      string
}

// newSocketEnv starts an engine (opts) and its socket server (sopts; its PublicURL is the test
// server's).
func newSocketEnv(t testing.TB, db *store.DB, opts psync.Options, sopts socket.Options) *socketEnv {
	t.Helper()
	return newSocketEnvOver(t, db, opts, sopts, nil)
}

// newSocketEnvOver is newSocketEnv with the socket server reaching the engine through
// wrap(engine) (nil: the engine itself).
func newSocketEnvOver(t testing.TB, db *store.DB, opts psync.Options, sopts socket.Options, wrap func(*psync.Engine) socket.Engine) *socketEnv {
	t.Helper()
	acfg := account.DefaultConfig()
	acfg.Password = account.PasswordParams{Memory: 1024, Time: 1, Threads: 1}
	mailer, err := account.NewMailer("", "", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	accounts, err := account.New(db, acfg, account.Options{Mailer: mailer})
	if err != nil {
		t.Fatal(err)
	}
	env := &socketEnv{t: t, db: db, accounts: accounts}
	var sockets *socket.Server
	env.server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { sockets.ServeHTTP(w, r) }))
	t.Cleanup(env.server.Close)
	env.url = "ws" + strings.TrimPrefix(env.server.URL, "http") + "/api/v1/sync"
	engine, err := psync.New(db, opts)
	if err != nil {
		t.Fatal(err)
	}
	sopts.PublicURL = env.server.URL
	var over socket.Engine = engine
	if wrap != nil {
		over = wrap(engine)
	}
	if sockets, err = socket.New(over, sessionAuth(accounts), sopts); err != nil {
		engine.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		sockets.Close()
		engine.Close()
	})
	env.engine, env.sockets = engine, sockets
	return env
}

// sessionAuth is the socket's authenticator as the app wires it for local accounts.
func sessionAuth(accounts *account.Services) socket.Authenticator {
	return app.SyncAuthenticator(httpapi.CookieAuthenticator{Sessions: accounts.Sessions}, true)
}

// signIn starts a session of user and returns its cookie token.
func (env *socketEnv) signIn(user string) string {
	env.t.Helper()
	token, err := env.accounts.Sessions.StartSession(context.Background(), user, account.SessionMeta{UserAgent: "test"})
	if err != nil {
		env.t.Fatal(err)
	}
	return token
}

// dial opens a socket with the session token (none when ""), from the server's own origin unless
// header says otherwise.
func (env *socketEnv) dial(token string, header http.Header) (*wsClient, *http.Response, error) {
	env.t.Helper()
	h := http.Header{"Origin": {env.server.URL}}
	for k, v := range header {
		h[k] = v
	}
	if token != "" {
		h.Add("Cookie", httpapi.SessionCookie+"="+token)
	}
	ws, resp, err := websocket.DefaultDialer.Dial(env.url, h)
	if err != nil {
		return nil, resp, err
	}
	c := &wsClient{t: env.t, ws: ws}
	env.t.Cleanup(func() { ws.Close() })
	return c, resp, nil
}

func (env *socketEnv) connect(user string) *wsClient {
	env.t.Helper()
	c, _, err := env.dial(env.signIn(user), nil)
	if err != nil {
		env.t.Fatal(err)
	}
	return c
}

// wsClient speaks the protocol from a test. Reads have a generous deadline only so that a broken
// server fails the test instead of hanging it.
type wsClient struct {
	t  testing.TB
	ws *websocket.Conn
}

const hangGuard = 60 * time.Second

type message map[string]any

func (c *wsClient) send(v any) {
	c.t.Helper()
	if err := c.ws.WriteJSON(v); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

func (c *wsClient) sendRaw(typ int, data []byte) {
	c.t.Helper()
	if err := c.ws.WriteMessage(typ, data); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

// next reads the next message.
func (c *wsClient) next() message {
	c.t.Helper()
	_ = c.ws.SetReadDeadline(time.Now().Add(hangGuard))
	_, data, err := c.ws.ReadMessage()
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	return c.decode(data)
}

// decode checks that a server message is valid by the shared schema (what every client's
// validator accepts) and decodes it.
func (c *wsClient) decode(data []byte) message {
	c.t.Helper()
	issues, err := schema.Validate("serverMessage", data, "en")
	if err != nil || len(issues) > 0 {
		c.t.Fatalf("the server sent a message the protocol does not allow: %v %+v\n%.2000s", err, issues, data)
	}
	var m message
	if err := json.Unmarshal(data, &m); err != nil {
		c.t.Fatalf("the server sent something that is not JSON: %q", data)
	}
	return m
}

// expect reads the next message and checks its type.
func (c *wsClient) expect(typ string) message {
	c.t.Helper()
	m := c.next()
	if m["type"] != typ {
		c.t.Fatalf("got %v, want a %s message", m, typ)
	}
	return m
}

// closed reads until the server closes the socket and returns the close code, the reason and
// the messages that came before.
func (c *wsClient) closed() (int, string, []message) {
	c.t.Helper()
	var before []message
	for {
		_ = c.ws.SetReadDeadline(time.Now().Add(hangGuard))
		_, data, err := c.ws.ReadMessage()
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				return ce.Code, ce.Text, before
			}
			c.t.Fatalf("the socket ended without a close frame: %v", err)
		}
		before = append(before, c.decode(data))
	}
}

// expectClose checks that the server closes with code after an error message with errCode
// (none when "").
func (c *wsClient) expectClose(code int, errCode string) message {
	c.t.Helper()
	got, _, before := c.closed()
	if got != code {
		c.t.Fatalf("closed with %d, want %d (messages before: %v)", got, code, before)
	}
	if errCode == "" {
		return nil
	}
	if len(before) == 0 {
		c.t.Fatalf("closed with %d without an error message", code)
	}
	last := before[len(before)-1]
	if last["type"] != "error" || last["code"] != errCode || last["message"] == "" {
		c.t.Fatalf("message before the close: %v, want error %s", last, errCode)
	}
	return last
}

func (c *wsClient) hello(clientID string, cursors map[string]any, extra map[string]any) message {
	c.t.Helper()
	h := map[string]any{"type": "hello", "protocolVersion": schema.ProtocolVersion, "schemaVersion": schema.SchemaVersion, "clientId": clientID, "cursors": cursors}
	for k, v := range extra {
		h[k] = v
	}
	c.send(h)
	return c.expect("welcome")
}

// wireMutation is a mutation as a client sends it.
func wireMutation(id int64, workspace, collection, record, op string, stamp psync.Stamp, fields map[string]any, base map[string]psync.Stamp) map[string]any {
	m := map[string]any{"mutationId": id, "workspaceId": workspace, "collection": collection, "recordId": record,
		"op": op, "stamp": stamp.String(), "base": stampStrings(base)}
	if fields != nil {
		m["fields"] = fields
	}
	return m
}

func stampStrings(base map[string]psync.Stamp) map[string]any {
	out := map[string]any{}
	for f, s := range base {
		out[f] = s.String()
	}
	return out
}

func push(muts ...map[string]any) map[string]any {
	list := make([]any, len(muts))
	for i, m := range muts {
		list[i] = m
	}
	return map[string]any{"type": "push", "mutations": list}
}

// socketReplica applies pages received on a socket the way a device does.
type socketReplica struct {
	*replica
}

func newSocketReplica() *socketReplica { return &socketReplica{newReplica()} }

// apply takes a snapshot or changes message.
func (r *socketReplica) apply(t *testing.T, m message) {
	t.Helper()
	raw, _ := json.Marshal(m)
	switch m["type"] {
	case "snapshot":
		var page struct {
			Records []struct {
				Collection string          `json:"collection"`
				RecordID   string          `json:"recordId"`
				Seq        int64           `json:"seq"`
				State      json.RawMessage `json:"state"`
			} `json:"records"`
			Cursor  int64 `json:"cursor"`
			HasMore bool  `json:"hasMore"`
		}
		if err := json.Unmarshal(raw, &page); err != nil {
			t.Fatal(err)
		}
		var p psync.SnapshotPage
		for _, rec := range page.Records {
			p.Records = append(p.Records, psync.SnapshotRecord{Collection: rec.Collection, RecordID: rec.RecordID, Seq: rec.Seq, State: rec.State})
		}
		r.ApplySnapshot(t, p)
		if !page.HasMore {
			r.Cursor = page.Cursor
		}
	case "changes":
		var page struct {
			Changes []json.RawMessage `json:"changes"`
			Cursor  int64             `json:"cursor"`
		}
		if err := json.Unmarshal(raw, &page); err != nil {
			t.Fatal(err)
		}
		var p psync.ChangesPage
		for _, c := range page.Changes {
			var head struct {
				Seq        int64  `json:"seq"`
				Collection string `json:"collection"`
				RecordID   string `json:"recordId"`
				Author     string `json:"author"`
				MutationID int64  `json:"mutationId"`
			}
			if err := json.Unmarshal(c, &head); err != nil {
				t.Fatal(err)
			}
			p.Changes = append(p.Changes, psync.Change{Seq: head.Seq, Collection: head.Collection, RecordID: head.RecordID,
				Author: head.Author, MutationID: head.MutationID, Body: c})
		}
		p.Cursor = page.Cursor
		r.ApplyChanges(t, p)
	default:
		t.Fatalf("not a page: %v", m)
	}
}
