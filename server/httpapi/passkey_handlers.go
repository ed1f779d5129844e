package httpapi

// The /api/v1/auth/passkeys endpoints of the local provider: register a passkey (signed in), sign
// in with a discoverable passkey (usernameless), list and remove passkeys. The ceremonies are in
// server/passkey; options and credentials travel in WebAuthn's standard JSON forms (binary fields
// as base64url), which the browser reads and writes with
// PublicKeyCredential.parseCreationOptionsFromJSON / parseRequestOptionsFromJSON and
// credential.toJSON().

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"patrimonio/core"
	"patrimonio/server/account"
	"patrimonio/server/passkey"
)

// passkeyJSON is how the API shows a passkey.
type passkeyJSON struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastUsedAt *time.Time `json:"lastUsedAt"`
}

func toPasskeyJSON(p passkey.Passkey) passkeyJSON {
	return passkeyJSON{ID: p.ID, Name: p.Name, CreatedAt: p.CreatedAt, LastUsedAt: p.LastUsedAt}
}

// passkeysOn refuses the passkey endpoints (404) when this server has no passkeys: another provider
// signs users in, or the public URL's host cannot be a WebAuthn relying party (an IP address).
func (a *api) passkeysOn(w http.ResponseWriter, r *http.Request) bool {
	if a.passkeys == nil || a.authProvider != ProviderLocal {
		a.writeError(w, r, core.Refuse(r.Context(), core.ENOTFOUND, "passkey.unavailable"))
		return false
	}
	return true
}

// passkeyUser is the signed-in user as the passkey service sees them.
func passkeyUser(u *account.User) passkey.User {
	name := strings.TrimSpace(u.Identity.FirstName + " " + u.Identity.LastName)
	return passkey.User{ID: u.ID, Email: u.Email, DisplayName: name}
}

// requirePasskeyProof applies the re-verification rule to adding a passkey: a proof of identity in
// the last 10 minutes that included a second factor when the user has one
// (account.RequireSecondFactorProof). A user without a second factor, during onboarding, in a
// session younger than the re-verification window (just signed up or in) needs none.
func (a *api) requirePasskeyProof(r *http.Request, u *account.User, sess *account.Session) error {
	ctx := r.Context()
	has, err := a.accounts.SecondFactors.HasSecondFactor(ctx, u)
	if err != nil {
		return err
	}
	if !has && sess != nil && !a.accounts.Profile.OnboardingOf(u).Completed &&
		a.accounts.Now().Sub(sess.CreatedAt) < a.accounts.Config().ReverifyWindow {
		return nil
	}
	return a.accounts.Reverify.RequireSecondFactorProof(ctx, u, sess)
}

// POST /api/v1/auth/passkeys/register/begin (signed in, address verified; recent proof) → 200
// PublicKeyCredentialCreationOptionsJSON: {rp, user, challenge, pubKeyCredParams, timeout,
// excludeCredentials, authenticatorSelection, attestation}.
func (a *api) passkeyRegisterBegin(w http.ResponseWriter, r *http.Request) {
	if !a.passkeysOn(w, r) {
		return
	}
	u, sess, _ := account.AuthFrom(r.Context())
	if err := a.accounts.SecondFactors.RequireVerifiedEmail(r.Context(), u); err != nil {
		a.writeError(w, r, err)
		return
	}
	if err := a.requirePasskeyProof(r, u, sess); err != nil {
		a.writeError(w, r, err)
		return
	}
	opts, err := a.passkeys.BeginRegistration(r.Context(), passkeyUser(u), sess.ID)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, opts)
}

type passkeyRegisterRequest struct {
	// Credential is the RegistrationResponseJSON of credential.toJSON().
	Credential json.RawMessage `json:"credential"`
	Name       string          `json:"name"`
}

// POST /api/v1/auth/passkeys/register/finish {credential, name?} (signed in, address verified,
// same session as begin) → 201 {passkey}.
func (a *api) passkeyRegisterFinish(w http.ResponseWriter, r *http.Request) {
	if !a.passkeysOn(w, r) {
		return
	}
	var req passkeyRegisterRequest
	if err := decodeJSON(w, r, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	if len(req.Credential) == 0 || string(req.Credential) == "null" {
		a.writeError(w, r, core.Refuse(r.Context(), core.EINVALID, "passkey.credential.missing"))
		return
	}
	u, sess, _ := account.AuthFrom(r.Context())
	if err := a.accounts.SecondFactors.RequireVerifiedEmail(r.Context(), u); err != nil {
		a.writeError(w, r, err)
		return
	}
	p, err := a.passkeys.FinishRegistration(r.Context(), passkeyUser(u), sess.ID, req.Credential, req.Name)
	if err != nil {
		a.logPasskeyRefusal(r, err)
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, struct {
		Passkey passkeyJSON `json:"passkey"`
	}{toPasskeyJSON(*p)})
}

// POST /api/v1/auth/passkeys/login/begin → 200 PublicKeyCredentialRequestOptionsJSON: {challenge,
// timeout, rpId, userVerification}, without allowCredentials (the authenticator offers its
// passkeys for this site). 429 beyond passkey.MaxLoginsPerIP sign-ins in flight from one IP.
func (a *api) passkeyLoginBegin(w http.ResponseWriter, r *http.Request) {
	if !a.passkeysOn(w, r) {
		return
	}
	opts, err := a.passkeys.BeginLogin(r.Context(), a.clientIP(r))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, opts)
}

type passkeyLoginRequest struct {
	// Credential is the AuthenticationResponseJSON of credential.toJSON().
	Credential json.RawMessage `json:"credential"`
}

// POST /api/v1/auth/passkeys/login/finish {credential} → 200 {user, mfaRequired: false} + a new
// session cookie. A passkey with user verification is a second factor in itself, so no TOTP code is
// asked. The session the request came with, if any, is ended. Failures are throttled per IP with
// the password sign-ins (429 with Retry-After).
func (a *api) passkeyLoginFinish(w http.ResponseWriter, r *http.Request) {
	if !a.passkeysOn(w, r) {
		return
	}
	var req passkeyLoginRequest
	if err := decodeJSON(w, r, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	ctx := r.Context()
	if len(req.Credential) == 0 || string(req.Credential) == "null" {
		a.writeError(w, r, core.Refuse(ctx, core.EINVALID, "passkey.credential.missing"))
		return
	}
	// Failed assertions count against the client's IP like wrong passwords do (429 past the limit).
	var userID string
	err := a.accounts.Sessions.ThrottleByIP(ctx, a.clientIP(r), func() error {
		var err error
		userID, err = a.passkeys.FinishLogin(ctx, req.Credential)
		return err
	})
	if err != nil {
		a.logPasskeyRefusal(r, err)
		a.writeError(w, r, err)
		return
	}
	if ck, err := r.Cookie(a.cookieName); err == nil {
		if err := a.accounts.Sessions.SignOut(ctx, ck.Value); err != nil {
			a.writeError(w, r, err)
			return
		}
	}
	token, err := a.accounts.Sessions.StartSession(ctx, userID, a.sessionMeta(r))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	u, err := a.accounts.Users.User(ctx, userID)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.setSessionCookie(w, token, a.accounts.Config().SessionAbsolute)
	writeJSON(w, http.StatusOK, signInJSON{User: toUserJSON(u)})
}

// GET /api/v1/auth/passkeys (signed in) → 200 [{id, name, createdAt, lastUsedAt}], oldest first.
func (a *api) passkeyList(w http.ResponseWriter, r *http.Request) {
	if !a.passkeysOn(w, r) {
		return
	}
	u, _, _ := account.AuthFrom(r.Context())
	list, err := a.passkeys.List(r.Context(), u.ID)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	out := make([]passkeyJSON, 0, len(list))
	for _, p := range list {
		out = append(out, toPasskeyJSON(p))
	}
	writeJSON(w, http.StatusOK, out)
}

// DELETE /api/v1/auth/passkeys/{id} (signed in; recent proof with a second factor) → 204. Every
// other session of the user ends.
func (a *api) passkeyRemove(w http.ResponseWriter, r *http.Request) {
	if !a.passkeysOn(w, r) {
		return
	}
	u, sess, _ := account.AuthFrom(r.Context())
	if err := a.accounts.Reverify.RequireSecondFactorProof(r.Context(), u, sess); err != nil {
		a.writeError(w, r, err)
		return
	}
	if err := a.passkeys.Remove(r.Context(), u.ID, chi.URLParam(r, "id")); err != nil {
		a.writeError(w, r, err)
		return
	}
	if _, err := a.accounts.Sessions.EndOtherSessions(r.Context(), u, sess); err != nil {
		a.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// logPasskeyRefusal logs why a ceremony was refused (the client only learns that it was): the
// library's reason is worth having when a browser or authenticator misbehaves.
func (a *api) logPasskeyRefusal(r *http.Request, err error) {
	switch core.ErrorCode(err) {
	case core.EINVALID, core.EUNAUTHORIZED:
		a.logger.InfoContext(r.Context(), "passkey ceremony refused", "path", r.URL.Path, "reason", err.Error())
	}
}
