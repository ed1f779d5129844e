package sim_test

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/jackc/pgx/v5"

	schema "patrimonio/shared-schema"
	"patrimonio/sync/socket"
)

// Found by the simulation (seeds of kind postgres-restart): while Postgres restarts, a device
// that reconnects was told 4401 "unauthorized" — "sign in again; do not retry blindly" — because
// the session could not be read. A database that does not answer is the server's failure (1011,
// "reconnect with backoff"), not the end of the device's session.
func TestASocketOpenedWhileTheDatabaseIsDownIsClosedAsAnInternalErrorNotAsUnauthorized(t *testing.T) {
	e := theEnv(t)
	base, err := e.PostgresBase()
	if err != nil {
		t.Fatal(err)
	}
	dep, err := e.Deploy(base, false, t.TempDir())
	if dep != nil {
		t.Cleanup(func() { dep.Close() })
	}
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(dep.Database)
	if err != nil {
		t.Fatal(err)
	}
	name := pgx.Identifier{strings.TrimPrefix(u.Path, "/")}.Sanitize()
	admin := func(sql string) {
		t.Helper()
		conn, err := pgx.Connect(t.Context(), base)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(t.Context())
		if _, err := conn.Exec(t.Context(), sql); err != nil {
			t.Fatal(err)
		}
	}
	ana := dep.World.Users[0]
	dial := func() (int, string) {
		t.Helper()
		wsURL := "ws" + strings.TrimPrefix(dep.Server.URL(), "http") + "/api/v1/sync"
		ws, _, err := websocket.DefaultDialer.Dial(wsURL, http.Header{"Origin": {dep.Server.URL()}, "Cookie": {"patrimonio_session=" + ana.Token}})
		if err != nil {
			t.Fatalf("handshake: %v", err)
		}
		defer ws.Close()
		if err := ws.WriteJSON(map[string]any{"type": "hello", "protocolVersion": schema.ProtocolVersion, "schemaVersion": schema.SchemaVersion,
			"clientId": "0b4f4c1e-8d0a-4c59-9d3e-5b1f7a2c6e90", "cursors": map[string]any{}}); err != nil {
			return 0, "write: " + err.Error()
		}
		for {
			_ = ws.SetReadDeadline(time.Now().Add(30 * time.Second)) // a hang guard, not a time limit
			_, data, err := ws.ReadMessage()
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				return ce.Code, ce.Text
			}
			if err != nil {
				return 0, err.Error()
			}
			if strings.Contains(string(data), `"welcome"`) {
				return 0, "welcome"
			}
		}
	}

	// The database stops answering: the server's connections are ended, new ones refused.
	admin(`ALTER DATABASE ` + name + ` ALLOW_CONNECTIONS false`)
	admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ` + quoteLiteral(strings.TrimPrefix(u.Path, "/")))
	code, text := dial()
	admin(`ALTER DATABASE ` + name + ` ALLOW_CONNECTIONS true`)
	if code != socket.CloseInternal {
		t.Errorf("with the database down, the socket closed with %d %q, want %d (internal: reconnect with backoff)", code, text, socket.CloseInternal)
	}
	// And once it answers again, the same session syncs.
	if code, text := dial(); text != "welcome" {
		t.Errorf("with the database back: %d %q, want a welcome", code, text)
	}
}

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
