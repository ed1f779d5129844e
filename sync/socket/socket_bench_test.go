package socket_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"patrimonio/server/store"
	psync "patrimonio/sync"
	"patrimonio/sync/internal/enginetest"
	"patrimonio/sync/socket"
)

// BenchmarkSocketIngest measures durable mutations per second through real sockets: 4 devices,
// each syncing its own workspace live, push batches of 500 asset creations and wait for each ack
// (reading the changes the server sends back meanwhile, pulling when a page says hasMore).
func BenchmarkSocketIngest(b *testing.B) {
	benchStores(b, func(b *testing.B, db *store.DB) {
		env := newSocketEnv(b, db, psync.Options{GCInterval: -1}, socket.Options{})
		user := addUser(b, db)
		const devices, batch = 4, 500
		type dev struct {
			c     *wsClient
			w     string
			clock *psync.Clock
			next  int64 // the last mutation id pushed
		}
		var ds []*dev
		for range devices {
			w := addWorkspace(b, db)
			addMember(b, db, w, user, "owner")
			c := env.connect(user)
			c.hello(uuid.NewString(), map[string]any{w: nil}, nil)
			c.expect("snapshot")
			clock, _ := psync.NewClock(psync.ClockConfig{Node: psync.NewNodeID(), Now: time.Now})
			ds = append(ds, &dev{c: c, w: w, clock: clock})
		}
		enginetest.PushInParallel(b, devices, batch, func(i int) {
			d := ds[i]
			muts := make([]map[string]any, batch)
			for k := range muts {
				d.next++
				muts[k] = wireMutation(d.next, d.w, "assets", newRecordID(b), "put", d.clock.Now(), enginetest.AssetFields(k), nil)
			}
			if err := d.c.ws.WriteJSON(push(muts...)); err != nil {
				panic(err)
			}
			for acked := false; !acked; {
				var m map[string]any
				if err := d.c.ws.ReadJSON(&m); err != nil {
					panic(err)
				}
				switch m["type"] {
				case "ack":
					acked = true
				case "changes":
					if m["hasMore"] == true {
						_ = d.c.ws.WriteJSON(map[string]any{"type": "pull", "workspaceId": d.w, "after": m["cursor"]})
					}
				default:
					panic(fmt.Sprint(m))
				}
			}
		})
	})
}
