package httpapi

// The request bodies validated against the shared schema (validate.go): every shared vector of a
// request entity (shared-schema/testdata/<entity>Request.json, also run by Vitest against the
// PWA's zod schemas) is sent to an endpoint that takes that body. An invalid vector must be
// answered 400 invalid naming exactly the vector's field and message key; a valid one must get
// past the schema (whatever the service then says, it is not a refusal of the body's fields).

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"patrimonio/core"
	"patrimonio/server/store"
	schema "patrimonio/shared-schema"
)

type invalidAnswer struct {
	Error struct {
		Code    string            `json:"code"`
		Message string            `json:"message"`
		Fields  []core.FieldIssue `json:"fields"`
	} `json:"error"`
}

func TestRequestBodiesAreValidatedWithTheSharedSchema(t *testing.T) {
	eachTeamFixture(t, func(t *testing.T, f *teamFixture) {
		ana := f.signUp("ana@example.com")
		var created struct{ Workspace workspaceJSON }
		f.expect(f.call(ana, "POST", "/api/v1/workspaces", map[string]string{"name": "Familia"}), "POST", "/api/v1/workspaces", 201, &created)
		ws := "/api/v1/workspaces/" + created.Workspace.ID
		anonymous := person{}
		boss, bea := f.signUp("boss@example.com"), f.signUp("bea@example.com")

		type endpoint struct {
			who           person
			method, path  string
			route         string
			validStatuses []int
		}
		// entity → the endpoints taking that body, and what a valid body may be answered there.
		endpoints := map[string][]endpoint{
			bodySignUp: {{anonymous, "POST", "/api/v1/auth/signup", "/api/v1/auth/signup", []int{201, 202, 400}}}, // 400: a common password
			bodySignIn: {{anonymous, "POST", "/api/v1/auth/signin", "/api/v1/auth/signin", []int{401}}},
			bodyCode: {
				{ana, "POST", "/api/v1/auth/email/verify", "/api/v1/auth/email/verify", []int{409}}, // already verified
				{ana, "POST", "/api/v1/users/email/verify", "/api/v1/users/email/verify", []int{400, 403, 409}},
			},
			bodyWorkspaceName: {
				{ana, "POST", "/api/v1/workspaces", "/api/v1/workspaces", []int{201}},
				{ana, "PATCH", ws, "/api/v1/workspaces/{id}", []int{200}},
			},
			bodyInvitation: {{ana, "POST", ws + "/invitations", "/api/v1/workspaces/{id}/invitations", []int{201}}},
			bodyMemberRole: {{ana, "PATCH", ws + "/members/" + ana.id, "/api/v1/workspaces/{id}/members/{userId}", []int{200, 409}}},
			bodyEmail: {
				{ana, "POST", "/api/v1/users/email", "/api/v1/users/email", []int{200, 202, 403}},
				{anonymous, "POST", "/api/v1/auth/signup/resend", "/api/v1/auth/signup/resend", []int{202, 429}},
			},
			// A valid body with a code nobody sent: 400 without fields (the service's refusal).
			bodySignUpVerify: {{anonymous, "POST", "/api/v1/auth/signup/verify", "/api/v1/auth/signup/verify", []int{400}}},
			// boss is an admin by configuration, with a fresh proof (grant_admin and revoke_admin need one).
			"adminUserActionRequest": {{boss, "POST", "/api/v1/admin/users/" + bea.id + "/action", "/api/v1/admin/users/{id}/action", []int{200}}},
		}

		vectors, err := schema.Vectors()
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		for _, v := range vectors {
			eps, ok := endpoints[v.Entity]
			if !ok {
				continue
			}
			seen[v.Entity]++
			for _, ep := range eps {
				t.Run(v.Entity+" "+ep.method+" "+ep.route+" "+v.Name, func(t *testing.T) {
					var body any
					if err := json.Unmarshal(v.Input, &body); err != nil {
						t.Fatal(err)
					}
					rec := f.call(ep.who, ep.method, ep.path, body, "en")
					var got invalidAnswer
					_ = json.Unmarshal(rec.Body.Bytes(), &got)
					if v.Valid {
						if len(got.Error.Fields) > 0 || !contains(ep.validStatuses, rec.Code) {
							t.Fatalf("valid body answered %d %s", rec.Code, rec.Body)
						}
						return
					}
					f.expect(rec, ep.method, ep.route, 400, nil)
					if got.Error.Code != "invalid" || len(got.Error.Fields) != 1 ||
						got.Error.Fields[0].Path != v.Path || got.Error.Fields[0].Key != v.Key {
						t.Fatalf("got %s, want one field %q with key %q", rec.Body, v.Path, v.Key)
					}
					want := schema.Message("en", v.Key, v.Params)
					if got.Error.Fields[0].Message != want || !strings.Contains(got.Error.Message, want) {
						t.Fatalf("message %q / %q, want %q", got.Error.Message, got.Error.Fields[0].Message, want)
					}
				})
			}
		}
		for entity := range endpoints {
			if seen[entity] < 4 {
				t.Errorf("%s: only %d shared vectors", entity, seen[entity])
			}
		}
	})
}

func TestAnInvalidBodyIsExplainedInTheRequestsLanguage(t *testing.T) {
	s := startAuthServer(t, store.SQLite)
	c := s.client()
	for _, tt := range []struct{ lang, message, field string }{
		{"es", "Datos no válidos: email: Correo electrónico no válido; password: Debe tener al menos 10 caracteres.", "Correo electrónico no válido"},
		{"en", "Invalid data: email: Invalid e-mail address; password: Must have at least 10 characters.", "Invalid e-mail address"},
	} {
		c.lang = tt.lang
		rec := c.call("POST", "/api/v1/auth/signup", `{"email":"ana@example","password":"corta"}`)
		c.expect(rec, "POST", "/api/v1/auth/signup", 400, nil)
		failure(t, rec, 400, "invalid", tt.message)
		var got invalidAnswer
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		want := []core.FieldIssue{
			{Path: "email", Key: "validation.format.email", Message: tt.field},
			{Path: "password", Key: "validation.string.min"},
		}
		if len(got.Error.Fields) != 2 || got.Error.Fields[0].Path != want[0].Path || got.Error.Fields[0].Key != want[0].Key ||
			got.Error.Fields[0].Message != want[0].Message || got.Error.Fields[1].Key != want[1].Key ||
			fmt.Sprint(got.Error.Fields[1].Params["min"]) != "10" {
			t.Fatalf("fields %+v", got.Error.Fields)
		}
		// The refused password is never echoed.
		if strings.Contains(rec.Body.String(), "corta") {
			t.Fatalf("the answer echoes the password: %s", rec.Body)
		}
	}
	// A valid body reaches the service: this one is created.
	if rec := c.call("POST", "/api/v1/auth/signup", map[string]string{"email": "Ana@Example.com", "password": password}); rec.Code != 201 && rec.Code != 202 {
		t.Fatalf("valid sign-up answered %d %s", rec.Code, rec.Body)
	}
}

// POST /auth/signin/totp only answers a pending sign-in (a session waiting for its second factor),
// so its body reader is run directly: {code} is a codeRequest, {recoveryCode} a recoveryCodeRequest.
func TestTheSecondFactorBodyIsACodeOrARecoveryCode(t *testing.T) {
	vectors, err := schema.Vectors()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, v := range vectors {
		if v.Entity != bodyCode && v.Entity != bodyRecoveryCode {
			continue
		}
		// A codeRequest vector with a recoveryCode field is read as a recovery code instead.
		if (v.Entity == bodyCode) == strings.Contains(string(v.Input), `"recoveryCode"`) {
			continue
		}
		n++
		t.Run(v.Entity+" "+v.Name, func(t *testing.T) {
			req := httptest.NewRequest("POST", "/api/v1/auth/signin/totp", strings.NewReader(string(v.Input)))
			req.Header.Set("Content-Type", "application/json")
			var body secondFactorRequest
			err := decodeSecondFactor(httptest.NewRecorder(), req, &body)
			var invalid *core.Error
			switch {
			case v.Valid && err != nil:
				t.Fatalf("valid body refused: %v", err)
			case v.Valid && body.Code == "" && body.RecoveryCode == "":
				t.Fatalf("valid body not decoded: %+v", body)
			case !v.Valid && !errors.As(err, &invalid):
				t.Fatalf("invalid body: got %v", err)
			case !v.Valid && (len(invalid.Fields) != 1 || invalid.Fields[0].Path != v.Path || invalid.Fields[0].Key != v.Key):
				t.Fatalf("fields %+v, want %s %s", invalid.Fields, v.Path, v.Key)
			}
		})
	}
	if n < 10 {
		t.Fatalf("only %d vectors", n)
	}
}

func contains(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
