package httpapi

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"patrimonio/server/admin"
	"patrimonio/server/enums"
)

// withEnums gives the fixture's handler a seeded enumerations service.
func withEnums(t *testing.T, f *teamFixture) {
	t.Helper()
	svc := enums.NewService(f.db)
	svc.Now = f.clock
	if err := svc.Seed(context.Background()); err != nil {
		t.Fatal(err)
	}
	f.api = newAPI(f.cfg, Deps{DB: f.db, Accounts: f.accounts, Admin: admin.NewService(f.db, f.cfg.AdminEmailList()), Enums: svc})
}

// callWith sends a GET as p with extra headers.
func (f *teamFixture) getWith(p person, target string, header ...string) *httptest.ResponseRecorder {
	f.t.Helper()
	req := httptest.NewRequest("GET", target, nil)
	req.Header.Set("Accept-Language", "en")
	req.Header.Set("Cookie", p.cookie)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	f.api.mux.ServeHTTP(rec, req)
	return rec
}

func TestSignedInUsersReadEnumerationsWithAnETag(t *testing.T) {
	eachTeamFixture(t, func(t *testing.T, f *teamFixture) {
		withEnums(t, f)
		user := f.signUp("ana@example.com")
		f.expect(f.call(person{}, "GET", "/api/v1/enums/", nil), "GET", "/api/v1/enums/", 401, nil)

		var provinces []enumJSON
		route := "/api/v1/enums/"
		rec := f.call(user, "GET", route+"?type=state&parentId=3724&levels=province", nil)
		f.expect(rec, "GET", route, 200, &provinces)
		if len(provinces) != 50 {
			t.Fatalf("%d Spanish provinces, want 50", len(provinces))
		}
		var alicante *enumJSON
		for i := range provinces {
			if provinces[i].Code == "ES-A" {
				alicante = &provinces[i]
			}
		}
		if alicante == nil || alicante.Labels.ES != "Alicante/Alacant" || alicante.Labels.EN != "Alicante/Alacant" || alicante.ParentID == 0 {
			t.Errorf("ES-A = %+v", alicante)
		}
		etag := rec.Header().Get("ETag")
		if etag == "" || rec.Header().Get("Cache-Control") != "private, no-cache" {
			t.Fatalf("headers %v", rec.Header())
		}
		again := f.getWith(user, route+"?type=state&parentId=3724&levels=province", "If-None-Match", etag)
		f.expect(again, "GET", route, 304, nil)
		// The list travels compressed to a browser that accepts it, and decompresses to the same values.
		zipped := f.getWith(user, route+"?type=state&parentId=3724&levels=province", "Accept-Encoding", "gzip")
		if zipped.Code != 200 || zipped.Header().Get("Content-Encoding") != "gzip" || !strings.Contains(strings.Join(zipped.Header().Values("Vary"), ","), "Accept-Encoding") {
			t.Fatalf("gzip: %d %v", zipped.Code, zipped.Header())
		}
		zr, err := gzip.NewReader(zipped.Body)
		if err != nil {
			t.Fatal(err)
		}
		var unzipped []enumJSON
		if err := json.NewDecoder(zr).Decode(&unzipped); err != nil || len(unzipped) != len(provinces) {
			t.Fatalf("gzip body: %d values, %v", len(unzipped), err)
		}
		// Several levels, comma-separated or repeated, give the same answer.
		var a, b []enumJSON
		f.expect(f.call(user, "GET", route+"?parentId=3724&levels=province,autonomous_community", nil), "GET", route, 200, &a)
		f.expect(f.call(user, "GET", route+"?parentId=3724&levels=province&levels=autonomous_community", nil), "GET", route, 200, &b)
		if len(a) != 67 || len(b) != 67 {
			t.Errorf("two levels: %d and %d values, want 67", len(a), len(b))
		}

		var spain enumJSON
		f.expect(f.call(user, "GET", "/api/v1/enums/id/3724", nil), "GET", "/api/v1/enums/id/{number}", 200, &spain)
		if spain.Code != "ES" || spain.Labels.ES != "España" || spain.Type != "country" {
			t.Errorf("3724 = %+v", spain)
		}
		f.expect(f.call(user, "GET", "/api/v1/enums/id/42", nil), "GET", "/api/v1/enums/id/{number}", 404, nil)
		rec = f.call(user, "GET", "/api/v1/enums/id/abc", nil, "es")
		f.expect(rec, "GET", "/api/v1/enums/id/{number}", 400, nil)
		if msg := errorOf(t, rec).Message; msg != `El identificador "abc" debe ser un número entero positivo.` {
			t.Errorf("message %q", msg)
		}
		f.expect(f.call(user, "GET", route+"?parentId=-3", nil), "GET", route, 400, nil)
		f.expect(f.call(user, "GET", route+"?type=no%20type", nil), "GET", route, 400, nil)

		var types []enumTypeJSON
		f.expect(f.call(user, "GET", "/api/v1/enums/types", nil), "GET", "/api/v1/enums/types", 200, &types)
		if len(types) != len(enums.Types) || types[0].Type != "country" || types[0].Count != 249 {
			t.Errorf("types %+v", types)
		}
	})
}

func TestAdminsChangeEnumerationsAndTheChangesAreAudited(t *testing.T) {
	eachTeamFixture(t, func(t *testing.T, f *teamFixture) {
		withEnums(t, f)
		boss := f.signUp("boss@example.com") // an admin by configuration
		user := f.signUp("ana@example.com")

		list := func() ([]enumJSON, string) {
			var out []enumJSON
			rec := f.call(user, "GET", "/api/v1/enums/?type=asset_category&parentId=1", nil)
			f.expect(rec, "GET", "/api/v1/enums/", 200, &out)
			return out, rec.Header().Get("ETag")
		}
		before, etag := list()
		if len(before) != 3 {
			t.Fatalf("real estate has %d categories", len(before))
		}

		body := map[string]any{"type": "asset_category", "code": "land", "parentId": 1, "labels": map[string]string{"es": "Terreno", "en": "Land"}}
		f.expect(f.call(user, "POST", "/api/v1/admin/enums", body), "POST", "/api/v1/admin/enums", 403, nil)
		var created enumJSON
		f.expect(f.call(boss, "POST", "/api/v1/admin/enums", body), "POST", "/api/v1/admin/enums", 201, &created)
		if created.ID != enums.FirstUserID || created.ParentID != 1 || created.Order != 4 || !created.Active {
			t.Errorf("created %+v", created)
		}
		after, etag2 := list()
		if len(after) != 4 || after[3].Labels.ES != "Terreno" || etag2 == etag {
			t.Errorf("after the create the user sees %+v (etag %s → %s)", after, etag, etag2)
		}
		f.expect(f.call(boss, "POST", "/api/v1/admin/enums", body), "POST", "/api/v1/admin/enums", 409, nil)

		// A body the shared schema refuses names the field, in the request's language.
		rec := f.call(boss, "POST", "/api/v1/admin/enums", map[string]any{"type": "city", "code": "x", "labels": map[string]string{"es": "X", "en": ""}}, "es")
		f.expect(rec, "POST", "/api/v1/admin/enums", 400, nil)
		if msg := errorOf(t, rec).Message; !strings.Contains(msg, "labels.en") {
			t.Errorf("message %q", msg)
		}
		rec = f.call(boss, "POST", "/api/v1/admin/enums", map[string]any{"type": "city", "code": "x", "labels": map[string]string{"es": "X", "en": "X"}})
		f.expect(rec, "POST", "/api/v1/admin/enums", 400, nil)
		if msg := errorOf(t, rec).Message; msg != "This type of value needs a parent (for example, the country of a province)." {
			t.Errorf("message %q", msg)
		}

		update := map[string]any{"code": "land", "labels": map[string]string{"es": "Terrenos", "en": "Land"}}
		var updated enumJSON
		f.expect(f.call(boss, "PUT", "/api/v1/admin/enums/1000000", update), "PUT", "/api/v1/admin/enums/{number}", 200, &updated)
		if updated.Labels.ES != "Terrenos" {
			t.Errorf("updated %+v", updated)
		}
		f.expect(f.call(boss, "PUT", "/api/v1/admin/enums/7777777", update), "PUT", "/api/v1/admin/enums/{number}", 404, nil)
		var off enumJSON
		f.expect(f.call(boss, "POST", "/api/v1/admin/enums/1000000/deactivate", nil), "POST", "/api/v1/admin/enums/{number}/deactivate", 200, &off)
		if off.Active {
			t.Errorf("deactivated %+v", off)
		}
		// Still readable (old records), marked inactive.
		var got enumJSON
		f.expect(f.call(user, "GET", "/api/v1/enums/id/1000000", nil), "GET", "/api/v1/enums/id/{number}", 200, &got)
		if got.Active || got.Labels.ES != "Terrenos" {
			t.Errorf("deactivated value as read %+v", got)
		}
		f.expect(f.call(boss, "POST", "/api/v1/admin/enums/1000000/activate", nil), "POST", "/api/v1/admin/enums/{number}/activate", 200, nil)

		var ordered []enumJSON
		reorder := map[string]any{"type": "asset_category", "parentId": 1, "ids": []int{1000000, 101, 102, 103}}
		f.expect(f.call(boss, "POST", "/api/v1/admin/enums/reorder", reorder), "POST", "/api/v1/admin/enums/reorder", 200, &ordered)
		if len(ordered) != 4 || ordered[0].ID != 1000000 || ordered[0].Order != 1 {
			t.Errorf("reordered %+v", ordered)
		}
		f.expect(f.call(boss, "POST", "/api/v1/admin/enums/reorder", map[string]any{"type": "asset_category", "parentId": 1, "ids": []int{101}}),
			"POST", "/api/v1/admin/enums/reorder", 400, nil)

		var log []enumAuditJSON
		rec = f.call(boss, "GET", "/api/v1/admin/enums/audit?enumId=1000000", nil)
		f.expect(rec, "GET", "/api/v1/admin/enums/audit", 200, &log)
		var actions []string
		for _, e := range log {
			actions = append(actions, e.Action)
			if e.ActorEmail != "boss@example.com" || e.ActorID != boss.id {
				t.Errorf("entry %+v", e)
			}
		}
		if strings.Join(actions, ",") != "reorder,activate,deactivate,update,create" || rec.Header().Get("X-Total-Count") != "5" {
			t.Errorf("audit %v, total %s", actions, rec.Header().Get("X-Total-Count"))
		}
		if log[3].Before == nil || log[3].Before.Labels.ES != "Terreno" || log[3].After.Labels.ES != "Terrenos" || log[4].Before != nil {
			t.Errorf("update entry %+v / create entry %+v", log[3], log[4])
		}
		f.expect(f.call(user, "GET", "/api/v1/admin/enums/audit", nil), "GET", "/api/v1/admin/enums/audit", 403, nil)
	})
}
