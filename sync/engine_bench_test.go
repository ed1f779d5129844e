package sync_test

import (
	"context"
	"fmt"
	gosync "sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"patrimonio/server/store"
	psync "patrimonio/sync"
)

// BenchmarkApply measures durable mutations per second through Engine.Apply (validation, merge,
// group commit), 4 devices pushing batches of 500 asset writes at once, on each store. The
// socket adds its own costs on top (make bench measures through it).
func BenchmarkApply(b *testing.B) {
	for _, name := range []string{"sqlite", "postgres"} {
		b.Run(name, func(b *testing.B) {
			dialect, url := store.SQLite, b.TempDir()+"/bench.db"
			if name == "postgres" {
				dialect, url = store.Postgres, postgresURL(b)
			}
			db := openStore(b, dialect, url)
			e := newEngine(b, db, psync.Options{GCInterval: -1})
			t := b
			w := addWorkspace(t, db)
			const devices, batch = 4, 500
			var ds []*device
			for range devices {
				u := addUser(t, db)
				addMember(t, db, w, u, "editor")
				ds = append(ds, newDevice(t, e, u, time.Now))
			}
			b.ResetTimer()
			start := time.Now()
			var wg gosync.WaitGroup
			for _, d := range ds {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; i < b.N; i++ {
						muts := make([]psync.ClientMutation, batch)
						for k := range muts {
							muts[k] = d.mutation(psync.OpPut, w, "assets", newRecordID(t), map[string]any{
								"name": fmt.Sprintf("Activo %d", k), "assetClass": "real_estate", "category": "residential",
								"currency": "EUR", "participation": "100", "currentValue": "250000.50"}, nil)
						}
						out, err := e.Apply(context.Background(), d.Client, muts)
						if err != nil || out[batch-1].Status != psync.StatusApplied {
							panic(fmt.Sprint(err, out[batch-1]))
						}
					}
				}()
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.ReportMetric(float64(devices*batch*b.N)/elapsed.Seconds(), "mutations/s")
		})
	}
}

// BenchmarkSocketIngest measures durable mutations per second through real sockets: 4 devices,
// each syncing its own workspace live, push batches of 500 asset creations and wait for each ack
// (reading the changes the server sends back meanwhile, pulling when a page says hasMore).
func BenchmarkSocketIngest(b *testing.B) {
	for _, name := range []string{"sqlite", "postgres"} {
		b.Run(name, func(b *testing.B) {
			dialect, url := store.SQLite, b.TempDir()+"/bench.db"
			if name == "postgres" {
				dialect, url = store.Postgres, postgresURL(b)
			}
			db := openStore(b, dialect, url)
			env := newSocketEnv(b, db, psync.Options{GCInterval: -1})
			user := addUser(b, db)
			const devices, batch = 4, 500
			type dev struct {
				c     *wsClient
				w     string
				clock *psync.Clock
			}
			var ds []dev
			for range devices {
				w := addWorkspace(b, db)
				addMember(b, db, w, user, "owner")
				c := env.connect(user)
				c.hello(uuid.NewString(), map[string]any{w: nil}, nil)
				c.expect("snapshot")
				clock, _ := psync.NewClock(psync.ClockConfig{Node: psync.NewNodeID(), Now: time.Now})
				ds = append(ds, dev{c, w, clock})
			}
			b.ResetTimer()
			start := time.Now()
			var wg gosync.WaitGroup
			for _, d := range ds {
				wg.Add(1)
				go func() {
					defer wg.Done()
					id := int64(0)
					for range b.N {
						muts := make([]map[string]any, batch)
						for k := range muts {
							id++
							muts[k] = wireMutation(id, d.w, "assets", newRecordID(b), "put", d.clock.Now(), map[string]any{
								"name": fmt.Sprintf("Activo %d", k), "assetClass": "real_estate", "category": "residential",
								"currency": "EUR", "participation": "100", "currentValue": "250000.50"}, nil)
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
					}
				}()
			}
			wg.Wait()
			b.ReportMetric(float64(devices*batch*b.N)/time.Since(start).Seconds(), "mutations/s")
		})
	}
}
