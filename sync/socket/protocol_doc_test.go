package socket_test

import (
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"testing"

	"github.com/google/uuid"

	"patrimonio/server/store"
	psync "patrimonio/sync"
	"patrimonio/sync/socket"
)

// PROTOCOL.md is the contract an outside client is written from (issue 17): its hello and welcome
// examples and the versions it states must be what the server speaks, or a client written from it
// is refused at its first message. (Session 24 found the document still saying schemaVersion 4
// while the server spoke 6.)
func TestTheProtocolDocumentsHelloAndWelcomeAreWhatTheServerSpeaks(t *testing.T) {
	doc, err := os.ReadFile("../PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	block := func(typ string) map[string]any {
		t.Helper()
		re := regexp.MustCompile("(?s)```json\\n(\\{ \"type\": \"" + typ + "\".*?)\\n```")
		m := re.FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("PROTOCOL.md has no %s example", typ)
		}
		// The examples name placeholders ("<workspaceId>") where a client puts its own values.
		var v map[string]any
		if err := json.Unmarshal([]byte(m[1]), &v); err != nil {
			t.Fatalf("the %s example is not JSON: %v", typ, err)
		}
		return v
	}
	hello, welcome := block("hello"), block("welcome")
	stated := regexp.MustCompile("`protocolVersion` must be (\\d+) and `schemaVersion` (\\d+)").FindStringSubmatch(text)
	if stated == nil {
		t.Fatal("PROTOCOL.md no longer states the versions a hello must carry")
	}

	forEachStore(t, func(t *testing.T, db *store.DB) {
		env := newSocketEnv(t, db, psync.Options{}, socket.Options{})
		ana, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, ana, "owner")
		c := env.connect(ana)
		// The document's hello, with this device's id and workspace in place of the placeholders.
		h := map[string]any{}
		for k, v := range hello {
			h[k] = v
		}
		h["clientId"] = uuid.NewString()
		h["cursors"] = map[string]any{w: nil}
		delete(h, "resume")
		c.send(h)
		got := c.expect("welcome")

		for _, field := range []string{"protocolVersion", "schemaVersion"} {
			if hello[field] != got[field] || welcome[field] != got[field] {
				t.Errorf("%s: the document's hello says %v and its welcome %v; the server speaks %v", field, hello[field], welcome[field], got[field])
			}
		}
		if want := []string{jsonNumber(got["protocolVersion"]), jsonNumber(got["schemaVersion"])}; !reflect.DeepEqual(stated[1:], want) {
			t.Errorf("the document says protocolVersion %s and schemaVersion %s must be sent; the server speaks %v", stated[1], stated[2], want)
		}
		if !reflect.DeepEqual(welcome["limits"], got["limits"]) {
			t.Errorf("the document's welcome limits %v, the server's %v", welcome["limits"], got["limits"])
		}
	})
}

func jsonNumber(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
