package socket_test

import (
	"testing"

	"github.com/google/uuid"

	"patrimonio/server/store"
	schema "patrimonio/shared-schema"
	psync "patrimonio/sync"
	"patrimonio/sync/socket"
)

// Messages leave in the order the server decided them: a hello sent together with a broken push
// is answered welcome, then the error, then the close frame (never the error first).
func TestAHelloSentWithABrokenPushIsWelcomedBeforeTheError(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		env := newSocketEnv(t, db, psync.Options{}, socket.Options{})
		user := addUser(t, db)
		for range 20 {
			c := env.connect(user)
			c.send(map[string]any{"type": "hello", "protocolVersion": schema.ProtocolVersion, "schemaVersion": schema.SchemaVersion, "clientId": uuid.NewString(),
				"cursors": map[string]any{}})
			c.send(map[string]any{"type": "push", "mutations": "not a list"})
			code, _, before := c.closed()
			if code != socket.CloseInvalidMessage || len(before) != 2 || before[0]["type"] != "welcome" ||
				before[1]["type"] != "error" || before[1]["code"] != "invalid_message" {
				t.Fatalf("closed with %d after %v, want welcome, error invalid_message, 4400", code, before)
			}
		}
	})
}
