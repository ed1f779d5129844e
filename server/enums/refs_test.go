package enums_test

import (
	"context"
	"slices"
	"testing"

	"patrimonio/server/enums"
	"patrimonio/server/store"
	schema "patrimonio/shared-schema"
)

func queryRow(db *store.DB) enums.QueryRowFunc {
	return func(ctx context.Context, query string, args ...any) enums.Row {
		return db.QueryRow(ctx, query, args...)
	}
}

func TestRecordsTakeOnlyActiveAdminCodesOfTheirClass(t *testing.T) {
	eachDialect(t, func(t *testing.T, s *enums.Service, db *store.DB) {
		parking, err := s.Create(ctx, admin, enums.Input{Type: "asset_category", Code: "parking_space", ParentID: 1, LabelES: "Plaza de garaje", LabelEN: "Parking space"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Create(ctx, admin, enums.Input{Type: "structure_type", Code: "llc", LabelES: "LLC", LabelEN: "LLC"}); err != nil {
			t.Fatal(err)
		}
		asset := func(class, category string) map[string]any {
			return map[string]any{"name": "Garaje", "assetClass": class, "category": category, "currency": "EUR", "participation": "100"}
		}
		check := func(entity string, prev, next map[string]any) []string {
			t.Helper()
			issues, err := enums.CheckRecordRefs(ctx, queryRow(db), entity, prev, next)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, is := range issues {
				out = append(out, is.Path+" "+is.Key)
			}
			return out
		}
		unknownCategory := []string{"category " + enums.KeyAssetCategoryUnknown}
		for _, c := range []struct {
			name       string
			prev, next map[string]any
			want       []string
		}{
			{"a new asset with the admin's category", nil, asset("real_estate", "parking_space"), nil},
			{"a new asset with a built-in category", nil, asset("vehicles", "car"), nil},
			{"custom", nil, asset("vehicles", "custom"), nil},
			{"the admin's category under another class", nil, asset("vehicles", "parking_space"), unknownCategory},
			{"a code nobody created", nil, asset("real_estate", "castle"), unknownCategory},
			{"a code of another type (a country's)", nil, asset("real_estate", "ES"), unknownCategory},
			{"changing the category to an unknown code", asset("real_estate", "residential"), asset("real_estate", "castle"), unknownCategory},
			{"changing only the class away from the category's", asset("real_estate", "parking_space"), asset("vehicles", "parking_space"), unknownCategory},
		} {
			if got := check("asset", c.prev, c.next); !slices.Equal(got, c.want) {
				t.Errorf("%s: %v, want %v", c.name, got, c.want)
			}
		}

		// Deactivated: new records may not take it; a record that has it keeps it through edits.
		if _, err := s.SetActive(ctx, admin, parking.ID, false); err != nil {
			t.Fatal(err)
		}
		if got := check("asset", nil, asset("real_estate", "parking_space")); !slices.Equal(got, unknownCategory) {
			t.Errorf("a new asset with a deactivated category: %v", got)
		}
		old := asset("real_estate", "parking_space")
		edited := asset("real_estate", "parking_space")
		edited["name"] = "Garaje del centro"
		if got := check("asset", old, edited); got != nil {
			t.Errorf("editing the name of an asset whose category was deactivated: %v", got)
		}
		if _, err := s.SetActive(ctx, admin, parking.ID, true); err != nil {
			t.Fatal(err)
		}
		if got := check("asset", nil, asset("real_estate", "parking_space")); got != nil {
			t.Errorf("reactivated: %v", got)
		}

		structure := func(typ string) map[string]any {
			return map[string]any{"name": "Holding", "structureType": typ, "country": "ES"}
		}
		if got := check("legalStructure", nil, structure("llc")); got != nil {
			t.Errorf("admin's structure type: %v", got)
		}
		if got := check("legalStructure", nil, structure("foundation")); got != nil {
			t.Errorf("built-in structure type: %v", got)
		}
		if got := check("legalStructure", structure("company"), structure("sarl")); !slices.Equal(got, []string{"structureType " + enums.KeyStructureTypeUnknown}) {
			t.Errorf("unknown structure type: %v", got)
		}
		if got := check("liability", nil, map[string]any{"category": "castle"}); got != nil {
			t.Errorf("other entities are not checked: %v", got)
		}
	})
}

// TestBuiltinCodesAreTheSeededOnes: the codes the check lets through without asking the database
// are the shared schema's built-in ones, which the seed has (server/enums/data/fixed.csv).
func TestBuiltinCodesAreTheSeededOnes(t *testing.T) {
	eachDialect(t, func(t *testing.T, s *enums.Service, db *store.DB) {
		cats, err := s.List(ctx, member, enums.Filter{Type: "asset_category"})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cats {
			if !schema.IsBuiltinAssetCategory(c.Code) {
				t.Errorf("seeded category %q is not built in the shared schema", c.Code)
			}
		}
		if !schema.IsBuiltinAssetCategory("custom") || schema.IsBuiltinAssetCategory("parking_space") {
			t.Error("custom must be built in, parking_space not")
		}
		types, err := s.List(ctx, member, enums.Filter{Type: "structure_type"})
		if err != nil {
			t.Fatal(err)
		}
		var codes []string
		for _, v := range types {
			codes = append(codes, v.Code)
		}
		if got := enums.BuiltinStructureTypes(); !slices.Equal(codes, got) {
			t.Errorf("seeded structure types %v, built-in %v", codes, got)
		}
	})
}
