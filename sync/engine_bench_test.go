package psync_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"patrimonio/server/store"
	psync "patrimonio/sync"
	"patrimonio/sync/internal/enginetest"
)

// BenchmarkApply measures durable mutations per second through Engine.Apply (validation, merge,
// group commit), 4 devices pushing batches of 500 asset writes at once, on each store. The
// socket adds its own costs on top (make bench measures through it).
func BenchmarkApply(b *testing.B) {
	benchStores(b, func(b *testing.B, db *store.DB) {
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
		enginetest.PushInParallel(b, devices, batch, func(i int) {
			d := ds[i]
			muts := make([]psync.ClientMutation, batch)
			for k := range muts {
				muts[k] = d.Mutation(psync.OpPut, w, "assets", newRecordID(t), enginetest.AssetFields(k), nil)
			}
			out, err := e.Apply(context.Background(), d.Client, muts)
			if err != nil || out[batch-1].Status != psync.StatusApplied {
				panic(fmt.Sprint(err, out[batch-1]))
			}
		})
	})
}

// BenchmarkApplyOne measures the latency of one device's one-mutation pushes, one at a time (a
// device editing live): each is a transaction of its own, so its round trips to the database and
// the commit are most of it. ns/op is the time from Apply to its verdict.
func BenchmarkApplyOne(b *testing.B) {
	benchStores(b, func(b *testing.B, db *store.DB) {
		e := newEngine(b, db, psync.Options{GCInterval: -1})
		w := addWorkspace(b, db)
		u := addUser(b, db)
		addMember(b, db, w, u, "editor")
		d := newDevice(b, e, u, time.Now)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			m := d.Mutation(psync.OpPut, w, "tasks", newRecordID(b), map[string]any{"title": fmt.Sprintf("Revisar la póliza %d", i), "status": "todo", "priority": "medium"}, nil)
			out, err := e.Apply(context.Background(), d.Client, []psync.ClientMutation{m})
			if err != nil || out[0].Status != psync.StatusApplied {
				b.Fatal(err, out[0])
			}
		}
	})
}
