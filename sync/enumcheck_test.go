package psync_test

import (
	"context"
	"testing"
	"time"

	"patrimonio/server/enums"
	"patrimonio/server/store"
	psync "patrimonio/sync"
)

// TestAnAssetTakesOnlyAnActiveAdminCategoryOfItsClass: the push applies what only the server can
// judge (server/enums.CheckRecordRefs): an admin-added category code the device sent must be an
// active asset_category of the asset's class; an asset keeps a category deactivated later.
func TestAnAssetTakesOnlyAnActiveAdminCategoryOfItsClass(t *testing.T) {
	forEachStore(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc := enums.NewService(db)
		if err := svc.Seed(ctx); err != nil {
			t.Fatal(err)
		}
		root := enums.Actor{UserID: addUser(t, db), Email: "root@example.com", IsAdmin: true}
		parking, err := svc.Create(ctx, root, enums.Input{Type: "asset_category", Code: "parking_space", ParentID: 1, LabelES: "Plaza de garaje", LabelEN: "Parking space"})
		if err != nil {
			t.Fatal(err)
		}
		e := newEngine(t, db, psync.Options{})
		user, w := addUser(t, db), addWorkspace(t, db)
		addMember(t, db, w, user, "editor")
		d := newDevice(t, e, user, time.Now)
		asset := func(class, category string) map[string]any {
			return map[string]any{"name": "Garaje", "assetClass": class, "category": category, "currency": "EUR", "participation": "100"}
		}
		rejected := func(o psync.Outcome) {
			t.Helper()
			if o.Status != psync.StatusRejected || o.Code != "invalid" || len(o.Issues) != 1 || o.Issues[0].Path != "category" || o.Issues[0].Key != enums.KeyAssetCategoryUnknown {
				t.Fatalf("outcome %+v, want the category rejected", o)
			}
		}
		kept := newRecordID(t)
		out := apply(t, e, d,
			d.Mutation(psync.OpPut, w, "assets", kept, asset("real_estate", "parking_space"), nil),
			d.Mutation(psync.OpPut, w, "assets", newRecordID(t), asset("vehicles", "parking_space"), nil),
			d.Mutation(psync.OpPut, w, "assets", newRecordID(t), asset("real_estate", "castle"), nil),
		)
		wantStatus(t, out, psync.StatusApplied, psync.StatusRejected, psync.StatusRejected)
		rejected(out[1])
		rejected(out[2])

		// Deactivated: a new asset may not take it, the asset that has it keeps it through edits.
		if _, err := svc.SetActive(ctx, root, parking.ID, false); err != nil {
			t.Fatal(err)
		}
		rejected(apply(t, e, d, d.Mutation(psync.OpPut, w, "assets", newRecordID(t), asset("real_estate", "parking_space"), nil))[0])
		wantStatus(t, apply(t, e, d, d.Mutation(psync.OpPut, w, "assets", kept, map[string]any{"name": "Garaje del centro"}, nil)), psync.StatusApplied)
		// Moving it to another class is taking the category anew: refused.
		rejected(apply(t, e, d, d.Mutation(psync.OpPut, w, "assets", kept, map[string]any{"assetClass": "vehicles"}, nil))[0])
	})
}
