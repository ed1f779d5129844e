package socket_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/gorilla/websocket"

	"patrimonio/server/app"
	"patrimonio/server/config"
	psync "patrimonio/sync"
	"patrimonio/sync/socket"
)

// The whole server, as the binary runs it: sign up over HTTP, open the socket with the session
// cookie through the real router and middleware, sync, and shut down with "going away".
func TestTheServerServesTheSyncSocketWithTheSessionOfASignedInUser(t *testing.T) {
	databases := map[string]func(t *testing.T) string{
		"sqlite":   func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "patrimonio.db") },
		"postgres": func(t *testing.T) string { return postgresURL(t) },
	}
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	secretKey := base64.StdEncoding.EncodeToString(key)
	for _, name := range []string{"sqlite", "postgres"} {
		t.Run(name, func(t *testing.T) {
			outbox := t.TempDir()
			cfg, err := config.Load(func(k string) string {
				return map[string]string{
					"PATRIMONIO_ADDR":       "127.0.0.1:0",
					"DATABASE_URL":          databases[name](t),
					"PATRIMONIO_WEB_DIR":    t.TempDir(),
					"PATRIMONIO_DEV_OUTBOX": outbox,
				}[k]
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			cfg.SecretKey = secretKey
			s, err := app.Open(context.Background(), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- s.Run(ctx) }()
			var once sync.Once
			var runErr error
			stop := func() error {
				once.Do(func() { cancel(); runErr = <-done })
				return runErr
			}
			t.Cleanup(func() { stop() })

			// Sign up, then the e-mailed code (from the dev outbox) signs in: the answer sets the
			// session cookie; the personal workspace comes with it.
			body, _ := json.Marshal(map[string]string{"email": "ana@example.com", "password": "una frase de paso larga 42"})
			req, _ := http.NewRequest(http.MethodPost, s.URL()+"/api/v1/auth/signup", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Origin", s.URL())
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusAccepted {
				t.Fatalf("sign-up: %d", resp.StatusCode)
			}
			resp, err = http.Get(s.URL() + "/api/v1/dev/outbox?to=ana@example.com")
			if err != nil {
				t.Fatal(err)
			}
			var mails []struct{ Code string }
			err = json.NewDecoder(resp.Body).Decode(&mails)
			resp.Body.Close()
			if err != nil || len(mails) != 1 {
				t.Fatalf("outbox: %+v %v", mails, err)
			}
			body, _ = json.Marshal(map[string]string{"email": "ana@example.com", "code": mails[0].Code})
			req, _ = http.NewRequest(http.MethodPost, s.URL()+"/api/v1/auth/signup/verify", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Origin", s.URL())
			resp, err = http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			var token string
			for _, c := range resp.Cookies() {
				if c.Name == "patrimonio_session" {
					token = c.Value
				}
			}
			if resp.StatusCode != http.StatusOK || token == "" {
				t.Fatalf("sign-up verify: %d, cookie %q", resp.StatusCode, token)
			}
			cookie := "patrimonio_session=" + token
			req, _ = http.NewRequest(http.MethodGet, s.URL()+"/api/v1/me", nil)
			req.Header.Set("Cookie", cookie)
			resp, err = http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var me struct {
				User struct {
					ID string `json:"id"`
				} `json:"user"`
				Workspaces []struct {
					ID   string `json:"id"`
					Role string `json:"role"`
				} `json:"workspaces"`
			}
			err = json.NewDecoder(resp.Body).Decode(&me)
			resp.Body.Close()
			if err != nil || len(me.Workspaces) != 1 {
				t.Fatalf("me: %+v, %v", me, err)
			}
			w := me.Workspaces[0].ID

			wsURL := "ws" + strings.TrimPrefix(s.URL(), "http") + "/api/v1/sync"
			ws, _, err := websocket.DefaultDialer.Dial(wsURL, http.Header{"Origin": {s.URL()}, "Cookie": {cookie}})
			if err != nil {
				t.Fatal(err)
			}
			c := &wsClient{t: t, ws: ws}
			c.hello(uuid.NewString(), map[string]any{w: nil}, nil)
			c.expect("snapshot")
			clock, _ := psync.NewClock(psync.ClockConfig{Node: psync.NewNodeID(), Now: time.Now})
			c.send(push(wireMutation(1, w, "tasks", newRecordID(t), "put", clock.Now(), task("Hacer testamento"), nil)))
			got := map[string]bool{}
			for range 2 {
				got[c.next()["type"].(string)] = true
			}
			if !got["ack"] || !got["changes"] {
				t.Fatalf("after a push: %v", got)
			}
			// Without a session, or from another origin, through the real router.
			if _, resp, err := websocket.DefaultDialer.Dial(wsURL, http.Header{"Origin": {"https://evil.example"}, "Cookie": {cookie}}); err == nil || resp.StatusCode != http.StatusForbidden {
				t.Fatalf("foreign origin: %v", err)
			}
			anon, _, err := websocket.DefaultDialer.Dial(wsURL, http.Header{"Origin": {s.URL()}})
			if err != nil {
				t.Fatal(err)
			}
			(&wsClient{t: t, ws: anon}).expectClose(socket.CloseUnauthorized, "unauthorized")
			// A device naming another user (the cookie changed hands) is refused; naming its own
			// user, it is served.
			other, _, err := websocket.DefaultDialer.Dial(wsURL+"?user="+uuid.NewString(), http.Header{"Origin": {s.URL()}, "Cookie": {cookie}})
			if err != nil {
				t.Fatal(err)
			}
			(&wsClient{t: t, ws: other}).expectClose(socket.CloseUnauthorized, "unauthorized")
			own, _, err := websocket.DefaultDialer.Dial(wsURL+"?user="+me.User.ID, http.Header{"Origin": {s.URL()}, "Cookie": {cookie}})
			if err != nil {
				t.Fatal(err)
			}
			oc := &wsClient{t: t, ws: own}
			oc.hello(uuid.NewString(), map[string]any{w: nil}, nil)
			oc.expect("snapshot")
			own.Close()

			// A second session of the same user (signing in again) has a socket of its own.
			body, _ = json.Marshal(map[string]string{"email": "ana@example.com", "password": "una frase de paso larga 42"})
			req, _ = http.NewRequest(http.MethodPost, s.URL()+"/api/v1/auth/signin", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Origin", s.URL())
			resp, err = http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			var second string
			for _, ck := range resp.Cookies() {
				if ck.Name == "patrimonio_session" {
					second = ck.Value
				}
			}
			if resp.StatusCode != http.StatusOK || second == "" || second == token {
				t.Fatalf("second sign-in: %d, cookie %q", resp.StatusCode, second)
			}
			ws2, _, err := websocket.DefaultDialer.Dial(wsURL, http.Header{"Origin": {s.URL()}, "Cookie": {"patrimonio_session=" + second}})
			if err != nil {
				t.Fatal(err)
			}
			c2 := &wsClient{t: t, ws: ws2}
			c2.hello(uuid.NewString(), map[string]any{w: nil}, nil)
			c2.expect("snapshot")

			// A third device signs out the other devices (issue 11): their sockets close at once
			// (4401), not at the next periodic session check; its own stays open.
			signIn := func() string {
				body, _ := json.Marshal(map[string]string{"email": "ana@example.com", "password": "una frase de paso larga 42"})
				req, _ := http.NewRequest(http.MethodPost, s.URL()+"/api/v1/auth/signin", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Origin", s.URL())
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				for _, ck := range resp.Cookies() {
					if ck.Name == "patrimonio_session" {
						return ck.Value
					}
				}
				t.Fatalf("sign-in: %d", resp.StatusCode)
				return ""
			}
			third := signIn()
			ws3, _, err := websocket.DefaultDialer.Dial(wsURL, http.Header{"Origin": {s.URL()}, "Cookie": {"patrimonio_session=" + third}})
			if err != nil {
				t.Fatal(err)
			}
			c3 := &wsClient{t: t, ws: ws3}
			c3.hello(uuid.NewString(), map[string]any{w: nil}, nil)
			c3.expect("snapshot")
			req, _ = http.NewRequest(http.MethodPost, s.URL()+"/api/v1/auth/sessions/signout-others", nil)
			req.Header.Set("Origin", s.URL())
			req.Header.Set("Cookie", "patrimonio_session="+third)
			resp, err = http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("sign out the other devices: %d", resp.StatusCode)
			}
			c2.expectClose(socket.CloseUnauthorized, "unauthorized")

			// Signing out closes the sockets of that session at once (4401), not at the next
			// periodic session check (here: it was already ended by the other device).
			req, _ = http.NewRequest(http.MethodPost, s.URL()+"/api/v1/auth/signout", nil)
			req.Header.Set("Origin", s.URL())
			req.Header.Set("Cookie", cookie)
			resp, err = http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusNoContent {
				t.Fatalf("sign-out: %d", resp.StatusCode)
			}
			c.expectClose(socket.CloseUnauthorized, "unauthorized")

			// Shutting the server down closes the open socket with "going away"; Run returns cleanly.
			stopped := make(chan error, 1)
			go func() { stopped <- stop() }()
			c3.expectClose(socket.CloseGoingAway, "going_away")
			if err := <-stopped; err != nil {
				t.Fatalf("run: %v", err)
			}
		})
	}
}
