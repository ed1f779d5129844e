package enums_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"patrimonio/core"
	"patrimonio/internal/pgtest"
	"patrimonio/internal/testkit"
	"patrimonio/server/enums"
	"patrimonio/server/store"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

var ctx = context.Background()

var (
	admin  = enums.Actor{UserID: "00000000-0000-4000-8000-000000000001", Email: "root@example.com", IsAdmin: true}
	member = enums.Actor{UserID: "00000000-0000-4000-8000-000000000002", Email: "ana@example.com"}
	nobody = enums.Actor{}
)

// eachDialect runs f on a fresh, seeded database of each dialect, with the two users above.
func eachDialect(t *testing.T, f func(t *testing.T, s *enums.Service, db *store.DB)) {
	t.Helper()
	testkit.Stores(t, func(t *testing.T, db *store.DB) {
		for _, a := range []enums.Actor{admin, member} {
			if _, err := db.Exec(ctx, `INSERT INTO users (id, email, is_admin, onboarding_step, created_at, updated_at) VALUES (?, ?, ?, 'done', ?, ?)`,
				a.UserID, a.Email, a.IsAdmin, time.Now(), time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		s := enums.NewService(db)
		now := time.Date(2030, 5, 1, 9, 0, 0, 0, time.UTC)
		s.Now = func() time.Time { now = now.Add(time.Second); return now }
		if err := s.Seed(ctx); err != nil {
			t.Fatal(err)
		}
		f(t, s, db)
	})
}

func TestTheSeedHasEveryListWithItsCount(t *testing.T) {
	eachDialect(t, func(t *testing.T, s *enums.Service, db *store.DB) {
		types, err := s.TypeList(ctx, member)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int{
			"country": 249, "state": 5127, "city": 0, "currency": 179, "asset_class": 8, "asset_category": 34,
			"structure_type": 8, "liability_kind": 4, "relationship": 10,
		}
		var names []string
		for _, ti := range types {
			names = append(names, ti.Type)
			if ti.Count != want[ti.Type] || ti.Active != ti.Count {
				t.Errorf("%s: %d values (%d active), want %d", ti.Type, ti.Count, ti.Active, want[ti.Type])
			}
		}
		if !slices.Equal(names, enums.Types) {
			t.Errorf("types %v, want %v", names, enums.Types)
		}
		// Seeding again changes nothing (the version is recorded), and keeps an admin's edit.
		if _, err := s.Update(ctx, admin, 3724, enums.Input{Code: "ES", LabelES: "Reino de España", LabelEN: "Spain"}); err != nil {
			t.Fatal(err)
		}
		if err := s.Seed(ctx); err != nil {
			t.Fatal(err)
		}
		if v, _ := s.Get(ctx, member, 3724); v.LabelES != "Reino de España" {
			t.Errorf("after a second seed Spain is %+v", v)
		}
	})
}

func TestSpainHasItsProvincesWithBothLabels(t *testing.T) {
	eachDialect(t, func(t *testing.T, s *enums.Service, db *store.DB) {
		spain, err := s.Get(ctx, member, 3724)
		if err != nil || spain.Code != "ES" || spain.LabelES != "España" || spain.LabelEN != "Spain" || spain.Type != "country" {
			t.Fatalf("3724 = %+v, %v", spain, err)
		}
		provinces, err := s.List(ctx, member, enums.Filter{Type: "state", ParentID: spain.ID, Levels: []string{"province"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(provinces) != 50 {
			t.Errorf("Spain has %d provinces, want 50", len(provinces))
		}
		byCode := map[string]enums.Value{}
		for _, p := range provinces {
			byCode[p.Code] = p
		}
		for code, labels := range map[string][2]string{
			"ES-A":  {"Alicante/Alacant", "Alicante/Alacant"},
			"ES-VI": {"Araba/Álava", "Araba/Álava"},
			"ES-SE": {"Sevilla", "Seville"},
			"ES-C":  {"A Coruña", "A Coruña"},
		} {
			p := byCode[code]
			if p.LabelES != labels[0] || p.LabelEN != labels[1] || p.Level != "province" {
				t.Errorf("%s = %+v, want labels %v", code, p, labels)
			}
		}
		// Direct children: the 17 autonomous communities and the 2 autonomous cities.
		top, err := s.List(ctx, member, enums.Filter{ParentID: spain.ID})
		if err != nil {
			t.Fatal(err)
		}
		if len(top) != 19 {
			t.Errorf("Spain has %d direct subdivisions, want 19", len(top))
		}
		// Several levels at once.
		both, err := s.List(ctx, member, enums.Filter{ParentID: spain.ID, Levels: []string{"province", "autonomous_community"}})
		if err != nil || len(both) != 67 {
			t.Errorf("provinces and communities: %d, %v; want 67", len(both), err)
		}
		// Madrid the province hangs under Madrid the community.
		madrid := byCode["ES-M"]
		community, err := s.Get(ctx, member, madrid.ParentID)
		if err != nil || community.Code != "ES-MD" || community.LabelEN != "Community of Madrid" {
			t.Errorf("ES-M's parent = %+v, %v", community, err)
		}
		cats, err := s.List(ctx, member, enums.Filter{Type: "asset_category", ParentID: 1})
		if err != nil || len(cats) != 3 || cats[0].ID != 101 || cats[0].Code != "residential" || cats[0].LabelES != "Residencial" {
			t.Errorf("real estate categories %+v, %v", cats, err)
		}
	})
}

func TestOnlyAdminsChangeValuesAndEveryChangeIsAudited(t *testing.T) {
	eachDialect(t, func(t *testing.T, s *enums.Service, db *store.DB) {
		city := enums.Input{Type: "city", Code: "ES-M-madrid", ParentID: 11219, LabelES: "Madrid", LabelEN: "Madrid"}
		for _, who := range []struct {
			actor enums.Actor
			code  string
		}{{member, core.EFORBIDDEN}, {nobody, core.EUNAUTHORIZED}} {
			if _, err := s.Create(ctx, who.actor, city); core.ErrorCode(err) != who.code {
				t.Errorf("create as %q: %v, want %s", who.actor.Email, err, who.code)
			}
			if _, err := s.Update(ctx, who.actor, 101, enums.Input{Code: "residential", LabelES: "x", LabelEN: "x"}); core.ErrorCode(err) != who.code {
				t.Errorf("update as %q: %v", who.actor.Email, err)
			}
			if _, err := s.SetActive(ctx, who.actor, 101, false); core.ErrorCode(err) != who.code {
				t.Errorf("deactivate as %q: %v", who.actor.Email, err)
			}
			if _, err := s.Reorder(ctx, who.actor, "asset_category", 1, []int64{103, 102, 101}); core.ErrorCode(err) != who.code {
				t.Errorf("reorder as %q: %v", who.actor.Email, err)
			}
			if _, _, err := s.Audit(ctx, who.actor, enums.AuditQuery{}); core.ErrorCode(err) != who.code {
				t.Errorf("audit as %q: %v", who.actor.Email, err)
			}
		}
		if _, err := s.List(ctx, nobody, enums.Filter{}); core.ErrorCode(err) != core.EUNAUTHORIZED {
			t.Errorf("anonymous list: %v", err)
		}

		created, err := s.Create(ctx, admin, city)
		if err != nil {
			t.Fatal(err)
		}
		if created.ID != enums.FirstUserID || created.Order != 1 || !created.Active || created.Level != "city" {
			t.Errorf("created %+v", created)
		}
		cat, err := s.Create(ctx, admin, enums.Input{Type: "asset_category", Code: "land", ParentID: 1, LabelES: "Terreno", LabelEN: "Land"})
		if err != nil || cat.ID != enums.FirstUserID+1 || cat.Order != 4 {
			t.Fatalf("new category %+v, %v", cat, err)
		}
		if _, err := s.Create(ctx, admin, enums.Input{Type: "asset_category", Code: "land", ParentID: 1, LabelES: "T", LabelEN: "L"}); core.ErrorCode(err) != core.ECONFLICT {
			t.Errorf("a taken code: %v", err)
		}
		for name, in := range map[string]enums.Input{
			"unknown type":             {Type: "planet", Code: "mars", LabelES: "Marte", LabelEN: "Mars"},
			"category without class":   {Type: "asset_category", Code: "x", LabelES: "X", LabelEN: "X"},
			"category under a country": {Type: "asset_category", Code: "x", ParentID: 3724, LabelES: "X", LabelEN: "X"},
			"currency with a parent":   {Type: "currency", Code: "XYZ", ParentID: 3724, LabelES: "X", LabelEN: "X"},
			"missing parent":           {Type: "city", Code: "x", ParentID: 999999, LabelES: "X", LabelEN: "X"},
			"empty label":              {Type: "structure_type", Code: "x", LabelES: " ", LabelEN: "X"},
			"bad code":                 {Type: "structure_type", Code: "-x y", LabelES: "X", LabelEN: "X"},
		} {
			if _, err := s.Create(ctx, admin, in); core.ErrorCode(err) != core.EINVALID {
				t.Errorf("%s: %v, want invalid", name, err)
			}
		}
		updated, err := s.Update(ctx, admin, cat.ID, enums.Input{Code: "land", LabelES: "Terrenos", LabelEN: "Land"})
		if err != nil || updated.LabelES != "Terrenos" {
			t.Fatalf("update %+v, %v", updated, err)
		}
		if _, err := s.SetActive(ctx, admin, cat.ID, false); err != nil {
			t.Fatal(err)
		}
		if v, _ := s.Get(ctx, member, cat.ID); v.Active {
			t.Errorf("deactivated value still active: %+v", v)
		}
		if _, err := s.Reorder(ctx, admin, "asset_category", 1, []int64{cat.ID, 103, 102}); core.ErrorCode(err) != core.EINVALID {
			t.Errorf("reorder without every sibling: %v", err)
		}
		if _, err := s.Reorder(ctx, admin, "asset_category", 1, []int64{cat.ID, 103, 102, 101}); err != nil {
			t.Fatal(err)
		}
		cats, _ := s.List(ctx, member, enums.Filter{Type: "asset_category", ParentID: 1})
		var order []int64
		for _, c := range cats {
			order = append(order, c.ID)
		}
		if !slices.Equal(order, []int64{cat.ID, 103, 102, 101}) {
			t.Errorf("order after reorder %v", order)
		}

		log, total, err := s.Audit(ctx, admin, enums.AuditQuery{EnumID: cat.ID})
		if err != nil {
			t.Fatal(err)
		}
		var actions []string
		for _, e := range log {
			actions = append(actions, e.Action)
			if e.ActorID != admin.UserID || e.ActorEmail != admin.Email || e.At.IsZero() {
				t.Errorf("audit row %+v", e)
			}
		}
		if total != 4 || !slices.Equal(actions, []string{"reorder", "deactivate", "update", "create"}) {
			t.Errorf("audit of the category: %d rows %v", total, actions)
		}
		upd := log[2]
		if upd.Before == nil || upd.Before.LabelES != "Terreno" || upd.After.LabelES != "Terrenos" {
			t.Errorf("update row before %+v after %+v", upd.Before, upd.After)
		}
		if log[3].Before != nil || log[3].After.Code != "land" {
			t.Errorf("create row %+v", log[3])
		}
		all, total, err := s.Audit(ctx, admin, enums.AuditQuery{Limit: 2})
		if err != nil || len(all) != 2 || total != 8 { // 2 creates, update, deactivate, 4 reorders (4 moved)
			t.Errorf("whole log: %d of %d, %v", len(all), total, err)
		}
	})
}

func TestConcurrentCreatesGetDistinctIDs(t *testing.T) {
	eachDialect(t, func(t *testing.T, s *enums.Service, db *store.DB) {
		var wg sync.WaitGroup
		ids := make([]int64, 8)
		errs := make([]error, 8)
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				v, err := s.Create(ctx, admin, enums.Input{Type: "structure_type", Code: "t" + string(rune('a'+i)), LabelES: "T", LabelEN: "T"})
				ids[i], errs[i] = v.ID, err
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		slices.Sort(ids)
		if len(slices.Compact(ids)) != 8 {
			t.Errorf("ids %v", ids)
		}
	})
}

func TestMessagesAreInSpanishAndEnglish(t *testing.T) {
	eachDialect(t, func(t *testing.T, s *enums.Service, db *store.DB) {
		_, err := s.Get(core.WithLanguage(ctx, "en"), member, 42)
		if core.ErrorMessage(err) != "Enumeration value not found." {
			t.Errorf("en: %v", err)
		}
		_, err = s.Get(core.WithLanguage(ctx, "es"), member, 42)
		if core.ErrorMessage(err) != "No se ha encontrado el valor de la enumeración." {
			t.Errorf("es: %v", err)
		}
	})
}

// Audit finding 5: records keep enumerations by code, so a code is fixed at creation, for seeded
// values and admins' alike; a record that takes an admin's category keeps validating afterwards.
func TestACodeCannotBeChangedOnceCreated(t *testing.T) {
	eachDialect(t, func(t *testing.T, s *enums.Service, db *store.DB) {
		cat, err := s.Create(ctx, admin, enums.Input{Type: "asset_category", Code: "parking_space", ParentID: 1, LabelES: "Plaza", LabelEN: "Parking"})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			id   int64
			code string
		}{{1, "inmuebles"}, {3724, "XX"}, {cat.ID, "parking"}} {
			_, err := s.Update(ctx, admin, c.id, enums.Input{Code: c.code, LabelES: "X", LabelEN: "X"})
			if e, ok := err.(*core.Error); !ok || e.Code != core.ECONFLICT || e.Message == "" {
				t.Errorf("change the code of %d to %s: %v, want conflict", c.id, c.code, err)
			}
		}
		es := core.WithLanguage(ctx, core.LangES)
		if _, err := s.Update(es, admin, 1, enums.Input{Code: "inmuebles", LabelES: "X", LabelEN: "X"}); err == nil || !containsAll(err.Error(), "código", "real_estate") {
			t.Errorf("the refusal in Spanish: %v", err)
		}
		// Labels change; the code stays.
		v, err := s.Update(ctx, admin, 1, enums.Input{Code: "real_estate", LabelES: "Bienes inmuebles", LabelEN: "Real estate"})
		if err != nil || v.Code != "real_estate" || v.LabelES != "Bienes inmuebles" {
			t.Fatalf("relabel: %+v %v", v, err)
		}
		next := map[string]any{"name": "G", "assetClass": "real_estate", "category": "parking_space"}
		if issues, err := enums.CheckRecordRefs(ctx, queryRow(db), "asset", nil, next); err != nil || len(issues) != 0 {
			t.Errorf("an asset with the admin's category: %v %v", issues, err)
		}
		var code string
		if err := db.QueryRow(ctx, `SELECT code FROM enums WHERE id = ?`, 3724).Scan(&code); err != nil || code != "ES" {
			t.Errorf("Spain's code: %q %v", code, err)
		}
	})
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// Audit finding 14: two admins creating the same code at the same moment: one value, and the
// other is told the code is taken (409), on Postgres too.
func TestTwoCreationsOfOneCodeAtOnceAnswerConflict(t *testing.T) {
	eachDialect(t, func(t *testing.T, s *enums.Service, db *store.DB) {
		for round := range 5 {
			code := fmt.Sprintf("race_%d", round)
			errs := make(chan error, 2)
			for range 2 {
				go func() {
					_, err := s.Create(ctx, admin, enums.Input{Type: "structure_type", Code: code, LabelES: "X", LabelEN: "X"})
					errs <- err
				}()
			}
			var codes []string
			for range 2 {
				codes = append(codes, core.ErrorCode(<-errs))
			}
			slices.Sort(codes)
			if !slices.Equal(codes, []string{"", core.ECONFLICT}) {
				t.Errorf("round %d: %q, want one done and one conflict", round, codes)
			}
		}
	})
}
