package httpapi

// Account security endpoints (issue 11): sign-up that answers the same for taken addresses and
// signs in with the e-mailed code, password change and reset, the list of sessions with "sign out
// other devices", re-verification with a passkey, and renaming passkeys. The rules live in
// server/account; the ids and text of every request are checked in input.go.

import (
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"patrimonio/core"
	"patrimonio/server/account"
)

// bodyPasswordReset is the shared schema's entity of a reset (shared-schema/src/requests.ts).
const bodyPasswordReset = "passwordResetRequest"

// signUpJSON is the answer to a sign-up and to a resend: the same for every address.
type signUpJSON struct {
	Email              string `json:"email"`
	ResendAfterSeconds int    `json:"resendAfterSeconds"`
}

func toSignUpJSON(res *account.SignUpResult) signUpJSON {
	return signUpJSON{Email: res.Email, ResendAfterSeconds: int(res.ResendAfter / time.Second)}
}

type signUpVerifyRequest struct {
	Email string `json:"email"`
	Code  string `json:"code"`
}

// POST /api/v1/auth/signup/verify {email, code} → 200 {user, onboarding} + session cookie: the
// address is verified and the new user signed in.
func (a *api) signUpVerify(w http.ResponseWriter, r *http.Request) {
	if !a.localOnly(w, r) {
		return
	}
	var req signUpVerifyRequest
	if err := decodeValid(w, r, bodySignUpVerify, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	u, token, err := a.accounts.Signup.VerifyRegistration(r.Context(), req.Email, req.Code, a.sessionMeta(r))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.setSessionCookie(w, token, a.accounts.Config().SessionAbsolute)
	writeJSON(w, http.StatusOK, struct {
		User       *userJSON      `json:"user"`
		Onboarding onboardingJSON `json:"onboarding"`
	}{toUserJSON(u), toOnboardingJSON(a.accounts.Profile.OnboardingOf(u))})
}

type emailRequest struct {
	Email string `json:"email"`
}

// POST /api/v1/auth/signup/resend {email} → 202 {email, resendAfterSeconds}, the same for every
// address; a new code goes out only to an account that is waiting for one. 429 past the client's
// sign-up limit (shared with POST /auth/signup).
func (a *api) signUpResend(w http.ResponseWriter, r *http.Request) {
	if !a.localOnly(w, r) {
		return
	}
	var req emailRequest
	if err := decodeValid(w, r, bodyEmail, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	res, err := a.accounts.Signup.ResendRegistrationCode(r.Context(), req.Email, a.clientIP(r))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, toSignUpJSON(res))
}

type passwordChangeRequest struct {
	CurrentPassword string `json:"currentPassword"`
	NewPassword     string `json:"newPassword"`
}

// POST /api/v1/auth/password {currentPassword, newPassword} (recent proof, with the second factor
// when the user has one) → 204; every other session has ended.
func (a *api) changePassword(w http.ResponseWriter, r *http.Request) {
	if !a.localOnly(w, r) {
		return
	}
	var req passwordChangeRequest
	if err := decodeJSON(w, r, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	u, sess, _ := account.AuthFrom(r.Context())
	if err := a.accounts.Profile.ChangePassword(r.Context(), u, sess, req.CurrentPassword, req.NewPassword, a.clientIP(r)); err != nil {
		a.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// POST /api/v1/auth/password/forgot {email} → 202 {}, the same for every address; the owner of a
// known one is e-mailed a reset link and code.
func (a *api) forgotPassword(w http.ResponseWriter, r *http.Request) {
	if !a.localOnly(w, r) {
		return
	}
	var req emailRequest
	if err := decodeValid(w, r, bodyEmail, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	if err := a.accounts.Signup.RequestPasswordReset(r.Context(), req.Email, a.clientIP(r)); err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, struct{}{})
}

type passwordResetRequest struct {
	Token    string `json:"token"`
	Email    string `json:"email"`
	Code     string `json:"code"`
	Password string `json:"password"`
}

// POST /api/v1/auth/password/reset {token, password} or {email, code, password} → 204: the
// password is the new one and every session of the user has ended (sign in again).
func (a *api) resetPassword(w http.ResponseWriter, r *http.Request) {
	if !a.localOnly(w, r) {
		return
	}
	var req passwordResetRequest
	if err := decodeValid(w, r, bodyPasswordReset, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	err := a.accounts.Signup.ResetPassword(r.Context(), account.ResetInput{Token: req.Token, Email: req.Email, Code: req.Code, Password: req.Password}, a.clientIP(r))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

type sessionJSON struct {
	ID         string    `json:"id"`
	Current    bool      `json:"current"`
	CreatedAt  time.Time `json:"createdAt"`
	LastSeenAt time.Time `json:"lastSeenAt"`
	UserAgent  string    `json:"userAgent"`
	IP         string    `json:"ip"`
}

// GET /api/v1/auth/sessions → 200 [{id, current, createdAt, lastSeenAt, userAgent, ip}], the most
// recently used first.
func (a *api) listSessions(w http.ResponseWriter, r *http.Request) {
	u, sess, _ := account.AuthFrom(r.Context())
	list, err := a.accounts.Sessions.Sessions(r.Context(), u, sess)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	out := make([]sessionJSON, 0, len(list))
	for _, s := range list {
		out = append(out, sessionJSON{ID: s.ID, Current: s.Current, CreatedAt: s.CreatedAt, LastSeenAt: s.LastSeenAt, UserAgent: s.UserAgent, IP: s.IP})
	}
	writeJSON(w, http.StatusOK, out)
}

// DELETE /api/v1/auth/sessions/{id} → 204: that device is signed out (its sync socket closes).
func (a *api) endSession(w http.ResponseWriter, r *http.Request) {
	u, _, _ := account.AuthFrom(r.Context())
	if err := a.accounts.Sessions.EndSession(r.Context(), u, chi.URLParam(r, "id")); err != nil {
		a.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// POST /api/v1/auth/sessions/signout-others → 200 {ended}: every other device is signed out.
func (a *api) signOutOthers(w http.ResponseWriter, r *http.Request) {
	u, sess, _ := account.AuthFrom(r.Context())
	n, err := a.accounts.Sessions.EndOtherSessions(r.Context(), u, sess)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Ended int `json:"ended"`
	}{n})
}

// POST /api/v1/auth/reverify/passkey/begin → 200 PublicKeyCredentialRequestOptionsJSON (as for
// signing in with a passkey).
func (a *api) reverifyPasskeyBegin(w http.ResponseWriter, r *http.Request) {
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

// POST /api/v1/auth/reverify/passkey/finish {credential} → 200 {reverifiedUntil}: a passkey of the
// signed-in user proves their identity with a second factor. A passkey of another user is refused
// like a wrong one (400).
func (a *api) reverifyPasskeyFinish(w http.ResponseWriter, r *http.Request) {
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
	u, sess, _ := account.AuthFrom(ctx)
	err := a.accounts.Sessions.ThrottleByIP(ctx, a.clientIP(r), func() error {
		userID, err := a.passkeys.FinishLogin(ctx, req.Credential)
		if err != nil {
			return err
		}
		if userID != u.ID {
			return core.Refuse(ctx, core.EINVALID, "account.reverify.passkeyOther")
		}
		return nil
	})
	if err != nil {
		a.logPasskeyRefusal(r, err)
		a.writeError(w, r, err)
		return
	}
	until, err := a.accounts.Reverify.MarkReverifiedSecondFactor(ctx, sess.ID)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		ReverifiedUntil time.Time `json:"reverifiedUntil"`
	}{until})
}

type passkeyRenameRequest struct {
	Name string `json:"name"`
}

// PATCH /api/v1/auth/passkeys/{id} {name} → 200 {passkey}.
func (a *api) passkeyRename(w http.ResponseWriter, r *http.Request) {
	if !a.passkeysOn(w, r) {
		return
	}
	var req passkeyRenameRequest
	if err := decodeJSON(w, r, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	u, _, _ := account.AuthFrom(r.Context())
	p, err := a.passkeys.Rename(r.Context(), u.ID, chi.URLParam(r, "id"), req.Name)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Passkey passkeyJSON `json:"passkey"`
	}{toPasskeyJSON(*p)})
}

type usernameRequest struct {
	Username string `json:"username"`
}

// PUT /api/v1/users/username {username} → 200 {user}: 3 to 20 characters, unique ("" removes it);
// 409 when another user has it.
func (a *api) setUsername(w http.ResponseWriter, r *http.Request) {
	var req usernameRequest
	if err := decodeJSON(w, r, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	u, _, _ := account.AuthFrom(r.Context())
	u, err := a.accounts.Profile.SetUsername(r.Context(), u, req.Username)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, userEnvelope{toUserJSON(u)})
}

// The profile image is routed beside /api/v1 (routes.go), with a body limit of 10 MB instead of
// the JSON one.

// GET /api/v1/users/avatar → 200 image/png (the signed-in user's profile image), 404 when none.
func (a *api) getAvatar(w http.ResponseWriter, r *http.Request) {
	u, _, _ := account.AuthFrom(r.Context())
	data, contentType, err := a.accounts.Profile.Avatar(r.Context(), u.ID)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(data)
}

// PUT /api/v1/users/avatar (the image file as the body) → 200 {user}. JPG, PNG, GIF or WEBP under
// 10 MB, recognised by content whatever the Content-Type; stored as a 256-pixel square PNG.
func (a *api) putAvatar(w http.ResponseWriter, r *http.Request) {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		var maxErr *http.MaxBytesError
		if errors.As(err, &maxErr) {
			a.writeError(w, r, core.Refuse(r.Context(), core.ETOOLARGE, "account.avatar.tooLarge", account.AvatarMaxBytes>>20))
			return
		}
		a.writeError(w, r, core.Refuse(r.Context(), core.EINVALID, "http.request.unreadable"))
		return
	}
	u, _, _ := account.AuthFrom(r.Context())
	if err := a.accounts.Profile.SetAvatar(r.Context(), u, data); err != nil {
		a.writeError(w, r, err)
		return
	}
	u, err = a.accounts.Users.User(r.Context(), u.ID)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, userEnvelope{toUserJSON(u)})
}

// DELETE /api/v1/users/avatar → 204.
func (a *api) deleteAvatar(w http.ResponseWriter, r *http.Request) {
	u, _, _ := account.AuthFrom(r.Context())
	if err := a.accounts.Profile.RemoveAvatar(r.Context(), u); err != nil {
		a.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
