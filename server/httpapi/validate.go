package httpapi

// Request bodies that people type into a form (sign-up, sign-in, codes, workspace names,
// invitations, roles, the new e-mail address) are validated against the shared schema
// (patrimonio/shared-schema, jsonschema/<entity>.json) before the handler reads them: the same
// rules and messages as the PWA's forms, which validate with the zod schemas they come from.
// A refused body answers 400 invalid naming every field at fault:
//
//	{"error":{"code":"invalid","message":"Datos no válidos: email: Correo electrónico no válido.",
//	          "fields":[{"path":"email","key":"validation.format.email","message":"Correo electrónico no válido"}]}}
//
// A field's "params" (e.g. {"min":10}) fill the key's placeholders.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"patrimonio/core"
	schema "patrimonio/shared-schema"
)

// The shared schema's request entities (shared-schema/src/requests.ts).
const (
	bodySignUp        = "signUpRequest"
	bodySignIn        = "signInRequest"
	bodyCode          = "codeRequest"
	bodyRecoveryCode  = "recoveryCodeRequest"
	bodyWorkspaceName = "workspaceNameRequest"
	bodyInvitation    = "invitationRequest"
	bodyMemberRole    = "memberRoleRequest"
	bodyEmail         = "emailRequest"
	bodySignUpVerify  = "signUpVerifyRequest"
	bodyReverify      = "reverifyRequest"
	bodyCheckout      = "checkoutRequest"
)

// decodeValid reads the JSON body like decodeJSON, validates it as the shared schema's entity
// and decodes it into dst. Problems are a *core.Error (EINVALID naming the fields at fault, or
// ETOOLARGE), worded in the request's language; answer them with writeError.
func decodeValid(w http.ResponseWriter, r *http.Request, entity string, dst any) error {
	return decodeValidAs(w, r, func(json.RawMessage) string { return entity }, dst)
}

// decodeSecondFactor reads the body of POST /auth/signin/totp: {code} (an authenticator code) or
// {recoveryCode}, each validated as its own shared-schema entity.
func decodeSecondFactor(w http.ResponseWriter, r *http.Request, dst any) error {
	return decodeValidAs(w, r, func(raw json.RawMessage) string {
		var keys map[string]json.RawMessage
		if json.Unmarshal(raw, &keys) == nil {
			if _, ok := keys["recoveryCode"]; ok {
				return bodyRecoveryCode
			}
		}
		return bodyCode
	}, dst)
}

// decodeValidAs is decodeValid with the entity chosen by looking at the body.
func decodeValidAs(w http.ResponseWriter, r *http.Request, entityOf func(json.RawMessage) string, dst any) error {
	var raw json.RawMessage
	if err := decodeJSON(w, r, &raw); err != nil {
		return err
	}
	entity := entityOf(raw)
	lang := core.LanguageFrom(r.Context())
	issues, err := schema.Validate(entity, raw, lang)
	if err != nil {
		return fmt.Errorf("validate %s: %w", entity, err)
	}
	if len(issues) > 0 {
		var fields []core.FieldIssue
		parts := make([]string, 0, len(issues))
		for _, is := range issues {
			fields = append(fields, core.FieldIssue{Path: is.Path, Key: is.Key, Params: is.Params, Message: is.Message})
			if is.Path == "" {
				parts = append(parts, is.Message)
			} else {
				parts = append(parts, is.Path+": "+is.Message)
			}
		}
		out := core.Refuse(r.Context(), core.EINVALID, "http.request.invalidFields", strings.Join(parts, "; "))
		out.Fields = fields
		return out
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		// The schema fixes every field's JSON type, so only a mismatch between it and dst gets here.
		return fmt.Errorf("decode %s after validation: %w", entity, err)
	}
	return nil
}
