package httpapi

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"patrimonio/server/admin"
	"patrimonio/server/connect"
	"patrimonio/server/connect/enablebanking"
	"patrimonio/server/connect/enablebanking/ebfake"
	psync "patrimonio/sync"
)

// withConnections gives the fixture's handler the connections service with Enable Banking
// (against its fake) and without SnapTrade.
func withConnections(t *testing.T, f *teamFixture) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	fake := ebfake.New("app", &key.PublicKey)
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	fake.URL = srv.URL
	eb, err := enablebanking.New(enablebanking.Config{AppID: "app", Key: key, BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	engine, err := psync.New(f.db, psync.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { engine.Close() })
	svc, err := connect.New(connect.Config{DB: f.db, Sync: engine, SecretKey: testSecretKey(t), Providers: []connect.Provider{eb}, PublicURL: f.cfg.PublicURL})
	if err != nil {
		t.Fatal(err)
	}
	f.api = newAPI(f.cfg, Deps{DB: f.db, Accounts: f.accounts, Workspaces: f.api.workspaces, Admin: admin.NewService(f.db, f.cfg.AdminEmailList()), Connections: svc})
}

func TestLinkingABankAccountThroughTheAPI(t *testing.T) {
	eachTeamFixture(t, func(t *testing.T, f *teamFixture) {
		withConnections(t, f)
		ana, vic := f.signUp("ana@example.com"), f.signUp("vic@example.com")
		var workspaces []workspaceJSON
		f.expect(f.call(ana, "GET", "/api/v1/workspaces", nil), "GET", "/api/v1/workspaces", 200, &workspaces)
		ws := workspaces[0].ID
		if _, err := f.db.Exec(context.Background(), `INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES (?, ?, 'viewer', ?)`, ws, vic.id, f.clock()); err != nil {
			t.Fatal(err)
		}

		var providers providersJSON
		f.expect(f.call(ana, "GET", "/api/v1/connections/providers", nil), "GET", "/api/v1/connections/providers", 200, &providers)
		if providers.ImportPath != "/import" || len(providers.Providers) != 2 || !providers.Providers[0].Configured || providers.Providers[1].Configured {
			t.Fatalf("providers: %+v", providers)
		}
		route := "/api/v1/connections/institutions"
		var inst struct{ Institutions []connect.Institution }
		f.expect(f.call(ana, "GET", route+"?provider=enablebanking&country=ES", nil), "GET", route, 200, &inst)
		if len(inst.Institutions) != 3 {
			t.Fatalf("institutions: %+v", inst)
		}
		f.expect(f.call(ana, "GET", route+"?provider=enablebanking&country=Spain", nil), "GET", route, 400, nil)

		start := map[string]any{"workspaceId": ws, "provider": "enablebanking", "institutionId": "BBVA", "country": "ES", "language": "es"}
		f.expect(f.call(vic, "POST", "/api/v1/connections", start), "POST", "/api/v1/connections", 403, nil)
		rec := f.call(ana, "POST", "/api/v1/connections", map[string]any{"workspaceId": ws, "provider": "snaptrade", "institutionId": "DEGIRO"}, "es")
		f.expect(rec, "POST", "/api/v1/connections", 404, nil)
		if !strings.Contains(rec.Body.String(), "no están configuradas") {
			t.Errorf("SnapTrade off, in Spanish: %s", rec.Body)
		}
		rec = f.call(ana, "POST", "/api/v1/connections", map[string]any{"workspaceId": ws, "provider": "plaid", "institutionId": "x"})
		f.expect(rec, "POST", "/api/v1/connections", 400, nil)
		if !strings.Contains(rec.Body.String(), `"path":"provider"`) {
			t.Errorf("a provider the schema does not know: %s", rec.Body)
		}

		var started connect.Started
		f.expect(f.call(ana, "POST", "/api/v1/connections", start), "POST", "/api/v1/connections", 201, &started)
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := client.Get(started.RedirectURL)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		back, _ := url.Parse(resp.Header.Get("Location"))
		if back.Path != "/connect/return" || back.Query().Get("provider") != "enablebanking" {
			t.Fatalf("back at %s", back)
		}
		params := map[string]string{}
		for k := range back.Query() {
			params[k] = back.Query().Get(k)
		}
		var c connect.Connection
		f.expect(f.call(ana, "POST", "/api/v1/connections/complete", map[string]any{"state": params["state"], "params": params}),
			"POST", "/api/v1/connections/complete", 200, &c)
		if c.Status != "active" || len(c.Accounts) != 2 || c.Accounts[0].Masked == "" {
			t.Fatalf("connection: %+v", c)
		}
		if strings.Contains(f.call(ana, "GET", "/api/v1/connections/"+c.ID, nil).Body.String(), "ES9121000418450200051332") {
			t.Error("the full IBAN left the server")
		}

		adopt := "/api/v1/connections/{id}/assets"
		path := "/api/v1/connections/" + c.ID + "/assets"
		f.expect(f.call(ana, "POST", path, map[string]any{"accounts": []any{map[string]any{"accountId": c.Accounts[0].ID, "assetClass": "vehicles"}}}), "POST", adopt, 400, nil)
		f.expect(f.call(vic, "POST", path, map[string]any{"accounts": []any{map[string]any{"accountId": c.Accounts[0].ID, "assetClass": "bank_accounts"}}}), "POST", adopt, 403, nil)
		f.expect(f.call(ana, "POST", path, map[string]any{"accounts": []any{map[string]any{"accountId": c.Accounts[0].ID, "assetClass": "bank_accounts"}}}), "POST", adopt, 200, &c)
		if c.Accounts[0].AssetID == nil || c.Accounts[0].LastBalance == nil {
			t.Fatalf("after choosing: %+v", c.Accounts[0])
		}
		var refreshed connect.RefreshResult
		f.expect(f.call(ana, "POST", "/api/v1/connections/"+c.ID+"/refresh", nil), "POST", "/api/v1/connections/{id}/refresh", 200, &refreshed)
		if refreshed.Refreshed != 1 || refreshed.Connection.Accounts[0].ReadsLeftToday != 2 {
			t.Errorf("refresh: %+v", refreshed)
		}
		var list struct{ Connections []connect.Connection }
		f.expect(f.call(vic, "GET", "/api/v1/workspaces/"+ws+"/connections", nil), "GET", "/api/v1/workspaces/{id}/connections", 200, &list)
		if len(list.Connections) != 1 {
			t.Errorf("the viewer sees %d connections", len(list.Connections))
		}
		var renew connect.Started
		f.expect(f.call(ana, "POST", "/api/v1/connections/"+c.ID+"/renew", map[string]any{"language": "en"}), "POST", "/api/v1/connections/{id}/renew", 201, &renew)
		if renew.ConnectionID != c.ID || renew.RedirectURL == "" {
			t.Errorf("renew: %+v", renew)
		}
		f.expect(f.call(vic, "DELETE", "/api/v1/connections/"+c.ID, nil), "DELETE", "/api/v1/connections/{id}", 403, nil)
		f.expect(f.call(ana, "DELETE", "/api/v1/connections/"+c.ID, nil), "DELETE", "/api/v1/connections/{id}", 204, nil)
		f.expect(f.call(ana, "GET", "/api/v1/connections/"+c.ID, nil), "GET", "/api/v1/connections/{id}", 404, nil)
	})
}
