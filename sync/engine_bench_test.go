package sync_test

import (
	"context"
	"fmt"
	gosync "sync"
	"testing"
	"time"

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
							muts[k] = d.Mutation(psync.OpPut, w, "assets", newRecordID(t), map[string]any{
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
