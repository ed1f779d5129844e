package schema_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	schema "patrimonio/shared-schema"
)

const validAsset = `{"name":"Piso","assetClass":"real_estate","category":"residential","currency":"EUR","participation":"100"}`

func onlyIssue(t *testing.T, entity string, raw []byte, lang string) schema.Issue {
	t.Helper()
	issues, err := schema.Validate(entity, raw, lang)
	if err != nil {
		t.Fatal(err)
	}
	if len(issues) != 1 {
		t.Fatalf("want one issue, got %+v", issues)
	}
	return issues[0]
}

func TestValidateRefusesBadDocumentsBeforeTheSchema(t *testing.T) {
	tests := []struct {
		name   string
		entity string
		raw    []byte
		key    string
	}{
		{"a record one byte over the limit is too large", "asset", []byte(`{"name":"` + strings.Repeat("a", schema.MaxRecordBytes) + `"}`), "validation.document.tooLarge"},
		{"a message over the message limit is too large", "clientMessage", []byte(`{"type":"ping","x":"` + strings.Repeat("a", schema.MaxMessageBytes) + `"}`), "validation.document.tooLarge"},
		{"sixty thousand nested arrays are refused as too deep", "asset", []byte(strings.Repeat("[", 60_000)), "validation.document.tooDeep"},
		{"eleven levels are too deep", "asset", []byte(`{"a":` + strings.Repeat("[", 10) + strings.Repeat("]", 10) + `}`), "validation.document.tooDeep"},
		{"truncated JSON is invalid", "asset", []byte(`{"name":`), "validation.document.invalidJson"},
		{"trailing data is invalid", "asset", []byte(validAsset + ` {}`), "validation.document.invalidJson"},
		{"invalid UTF-8 is invalid", "asset", []byte("{\"name\":\"\xff\xfe\"}"), "validation.document.invalidJson"},
		{"an empty body is invalid", "asset", nil, "validation.document.invalidJson"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := onlyIssue(t, tt.entity, tt.raw, "en")
			if got.Key != tt.key || got.Path != "" {
				t.Fatalf("got %+v, want key %s at the document", got, tt.key)
			}
		})
	}
}

func TestTenLevelsOfNestingAreAllowed(t *testing.T) {
	raw := []byte(`{"a":` + strings.Repeat("[", 9) + strings.Repeat("]", 9) + `}`)
	issues, err := schema.Validate("asset", raw, "en")
	if err != nil {
		t.Fatal(err)
	}
	for _, issue := range issues {
		if issue.Key == "validation.document.tooDeep" {
			t.Fatalf("depth 10 refused: %+v", issue)
		}
	}
	if len(issues) == 0 {
		t.Fatal("want schema issues for this document")
	}
}

func TestValidateValueChecksDepth(t *testing.T) {
	var v any = "x"
	for i := 0; i < 11; i++ {
		v = []any{v}
	}
	issues, err := schema.ValidateValue("asset", map[string]any{"name": v}, "es")
	if err != nil || len(issues) != 1 || issues[0].Key != "validation.document.tooDeep" {
		t.Fatalf("got %+v %v", issues, err)
	}
}

func TestValidateValueAcceptsPlainGoNumbers(t *testing.T) {
	doc := map[string]any{"name": "Piso", "assetClass": "real_estate", "category": "residential", "currency": "EUR", "participation": "100", "risk": 3, "liquidity": float64(5)}
	if issues, err := schema.ValidateValue("asset", doc, "es"); err != nil || issues != nil {
		t.Fatalf("got %+v %v", issues, err)
	}
	doc["liquidity"] = 5.5
	issues, _ := schema.ValidateValue("asset", doc, "es")
	if len(issues) != 1 || issues[0].Key != "validation.type.integer" {
		t.Fatalf("got %+v", issues)
	}
}

func TestMessagesFollowTheRequestLanguage(t *testing.T) {
	raw := []byte(`{"last_name":"García","birthday":"1980-01-01","gender":"female","country":"ES","state":"Madrid"}`)
	tests := []struct {
		acceptLanguage string
		want           string
	}{
		{"es-ES,es;q=0.9", "El primer nombre es requerido"},
		{"en-US,en;q=0.9,es;q=0.8", "First name is required"},
		{"", "El primer nombre es requerido"},
		{"fr-FR", "El primer nombre es requerido"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("Accept-Language %q gives %q", tt.acceptLanguage, tt.want), func(t *testing.T) {
			got := onlyIssue(t, "personalIdentity", raw, schema.Language(tt.acceptLanguage))
			if got.Path != "first_name" || got.Message != tt.want {
				t.Fatalf("got %+v", got)
			}
		})
	}
}

func TestMessagesFillTheirParams(t *testing.T) {
	raw := []byte(`{"name":"Piso","assetClass":"real_estate","category":"residential","currency":"EUR","participation":"87.5"}`)
	if got := onlyIssue(t, "asset", raw, "es"); got.Message != "Faltan 12.5% para llegar al 100%" {
		t.Fatalf("got %q", got.Message)
	}
	if got := onlyIssue(t, "asset", raw, "en"); got.Message != "12.5% left to reach 100%" {
		t.Fatalf("got %q", got.Message)
	}
	long := []byte(strings.Replace(validAsset, `"Piso"`, `"`+strings.Repeat("x", 141)+`"`, 1))
	if got := onlyIssue(t, "asset", long, "es"); got.Message != "Debe tener como máximo 140 caracteres" {
		t.Fatalf("got %q", got.Message)
	}
}

func TestLanguage(t *testing.T) {
	tests := []struct{ header, want string }{
		{"", "es"},
		{"es", "es"},
		{"en", "en"},
		{"EN-gb", "en"},
		{"de-DE,de;q=0.9", "es"},
		{"de-DE,en;q=0.5", "en"},
		{"es;q=0.4,en;q=0.6", "en"},
		{"en;q=0.5,es;q=0.5", "en"},
		{"en;q=0,es;q=0.1", "es"},
		{"en;q=0", "es"},
		{"*", "es"},
		{"en-US;q=bogus,es;q=0.2", "es"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q picks %s", tt.header, tt.want), func(t *testing.T) {
			if got := schema.Language(tt.header); got != tt.want {
				t.Fatalf("got %s", got)
			}
		})
	}
}

func TestUnknownEntityIsAnError(t *testing.T) {
	if _, err := schema.Validate("account", []byte(`{}`), "es"); !errors.Is(err, schema.ErrUnknownEntity) {
		t.Fatalf("got %v", err)
	}
	if _, err := schema.Fields("clientMessage"); !errors.Is(err, schema.ErrUnknownEntity) {
		t.Fatalf("got %v", err)
	}
}

func TestLoginSecretIsMarkedAndNeverEchoed(t *testing.T) {
	secrets, err := schema.SecretFields("login")
	if err != nil || !reflect.DeepEqual(secrets, []string{"notes", "secret"}) {
		t.Fatalf("got %v %v", secrets, err)
	}
	raw := []byte(`{"institution":"Banco","secret":"hunter2-` + strings.Repeat("s", 1000) + `"}`)
	for _, entity := range []string{"login", "loginPlaintext"} {
		got := onlyIssue(t, entity, raw, "en")
		if strings.Contains(fmt.Sprintf("%+v", got), "hunter2") {
			t.Fatalf("issue echoes the secret: %+v", got)
		}
	}
}

// The logins vault is end-to-end encrypted: the server only accepts vault ciphertext in a login's
// secret and notes, so a device (or a client built by hand) that pushes a plaintext secret is refused
// with a clear message in the connection's language.
func TestLoginPlaintextSecretIsRefused(t *testing.T) {
	for lang, want := range map[string]string{
		"en": "Must be encrypted on the device (vault ciphertext v1): a plaintext secret is refused",
		"es": "Debe llegar cifrado desde el dispositivo (cifrado del baúl v1): no se acepta un secreto en claro",
	} {
		got := onlyIssue(t, "login", []byte(`{"institution":"Banco","secret":"correct horse battery staple"}`), lang)
		if got.Path != "secret" || got.Key != "validation.format.vaultCiphertext" || got.Message != want {
			t.Fatalf("%s: got %+v", lang, got)
		}
	}
	envelope := "v1.AAECAwQFBgc.AAECAwQFBgcICQoL.AAECAwQFBgcICQoLDA0ODxAREhM"
	if issues, err := schema.Validate("login", []byte(`{"institution":"Banco","secret":"`+envelope+`"}`), "en"); err != nil || len(issues) != 0 {
		t.Fatalf("envelope refused: %v %v", issues, err)
	}
}

func TestCollectionsAndFields(t *testing.T) {
	collections, err := schema.Collections()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"assets": "asset", "legalStructures": "legalStructure", "liabilities": "liability", "beneficiaries": "beneficiary",
		"legacyInstructions": "legacyInstruction", "valuations": "valuation", "tasks": "task", "cashFlows": "cashFlow", "logins": "login",
		"fxRates": "fxRate", "vaultKeys": "vaultKey",
	}
	if !reflect.DeepEqual(collections, want) {
		t.Fatalf("got %v", collections)
	}
	fields, err := schema.Fields("liability")
	if err != nil {
		t.Fatal(err)
	}
	wantFields := []string{"amountAsOf", "amountOutstanding", "assetId", "creditorName", "currency", "endDate", "kind", "name", "rate", "startDate"}
	if !reflect.DeepEqual(fields, wantFields) {
		t.Fatalf("got %v", fields)
	}
	entities, err := schema.Entities()
	if err != nil || len(entities) != 37 {
		t.Fatalf("got %v %v", entities, err)
	}
}

func TestValidateIsSafeForConcurrentUse(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for i := 0; i < 32; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			raw := []byte(validAsset)
			wantKey := ""
			if i%2 == 1 {
				raw = []byte(strings.Replace(validAsset, `"100"`, `"101"`, 1))
				wantKey = "validation.format.share"
			}
			issues, err := schema.Validate("asset", raw, []string{"es", "en"}[i%2])
			switch {
			case err != nil:
				errs <- err.Error()
			case wantKey == "" && len(issues) != 0, wantKey != "" && (len(issues) != 1 || issues[0].Key != wantKey):
				errs <- fmt.Sprintf("goroutine %d: %+v", i, issues)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestValidISIN(t *testing.T) {
	for _, s := range []string{"US0378331005", "DE0007164600", "GB0002634946", "ES0000012K61", "NL0000235190"} {
		if !schema.ValidISIN(s) {
			t.Errorf("%s refused", s)
		}
	}
	for _, s := range []string{"US0378331006", "DE0007164601", "US037833100", "us0378331005", "0S0378331005"} {
		if schema.ValidISIN(s) {
			t.Errorf("%s accepted", s)
		}
	}
}

// IsCurrencyCode holds the list every currency field enumerates: each code it accepts is a valid
// liability currency, and the codes it refuses are refused there too.
func TestIsCurrencyCodeIsTheRecordsList(t *testing.T) {
	for _, code := range []string{"EUR", "USD", "CLP", "XAU"} {
		if !schema.IsCurrencyCode(code) {
			t.Errorf("%s refused", code)
		}
	}
	for _, code := range []string{"ABC", "XXX", "XTS", "eur", "", "EURO"} {
		if schema.IsCurrencyCode(code) {
			t.Errorf("%q accepted", code)
		}
		raw := fmt.Sprintf(`{"name":"Deuda","kind":"loan","amountOutstanding":"1","currency":%q}`, code)
		if issues, err := schema.Validate("liability", []byte(raw), "en"); err != nil || len(issues) == 0 {
			t.Errorf("%q: the schema accepts it (%v)", code, err)
		}
	}
}
