package httpapi

// The /api/v1/auth endpoints of the local provider (sign-up, sign-in, second factor, sign-out,
// e-mail verification, TOTP, re-verification) and the dev outbox. Each handler decodes, calls the
// account service and answers; the rules live in server/account.

import (
	"net/http"
	"time"

	"patrimonio/core"
	"patrimonio/server/account"
)

// Auth providers, as /auth/config names them.
const (
	ProviderLocal = "local"
	ProviderClerk = "clerk"
)

type authConfigJSON struct {
	Provider            string `json:"provider"`
	ClerkPublishableKey string `json:"clerkPublishableKey,omitempty"`
	Passkeys            bool   `json:"passkeys"`
	EmailDelivery       string `json:"emailDelivery"`
}

// GET /api/v1/auth/config → which provider signs users in, and how e-mails travel.
func (a *api) authConfig(w http.ResponseWriter, r *http.Request) {
	delivery := "log"
	if a.cfg.SMTPURL != "" {
		delivery = "smtp"
	}
	out := authConfigJSON{Provider: a.authProvider, Passkeys: a.passkeys != nil && a.authProvider == ProviderLocal, EmailDelivery: delivery}
	if a.authProvider == ProviderClerk {
		out.ClerkPublishableKey = a.clerkPublishableKey
	}
	writeJSON(w, http.StatusOK, out)
}

// localOnly refuses the password endpoints when another provider signs users in.
func (a *api) localOnly(w http.ResponseWriter, r *http.Request) bool {
	if a.authProvider != ProviderLocal {
		a.writeError(w, r, core.Refuse(r.Context(), core.EFORBIDDEN, "account.signin.localOff"))
		return false
	}
	return true
}

type credentialsRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

type userEnvelope struct {
	User *userJSON `json:"user"`
}

// POST /api/v1/auth/signup {email, password} → 202 {email, resendAfterSeconds}, the same for a
// free and a taken address, and no session: a free address gets the verification code, which
// POST /auth/signup/verify exchanges for a session; the owner of a taken one gets a notice. 429
// past the client's sign-up limit (account.Config.SignUpRequestsIP per IP and window).
func (a *api) signUp(w http.ResponseWriter, r *http.Request) {
	if !a.localOnly(w, r) {
		return
	}
	var req credentialsRequest
	if err := decodeValid(w, r, bodySignUp, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	res, err := a.accounts.Signup.Register(r.Context(), req.Email, req.Password, a.sessionMeta(r))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, toSignUpJSON(res))
}

type signInJSON struct {
	// User is null while the second factor is due.
	User        *userJSON `json:"user"`
	MFARequired bool      `json:"mfaRequired"`
}

// POST /api/v1/auth/signin {email, password} → 200 {user, mfaRequired} + session cookie. With
// TOTP on, the cookie holds a pending session, user is null and mfaRequired true: finish with
// /auth/signin/totp.
func (a *api) signIn(w http.ResponseWriter, r *http.Request) {
	if !a.localOnly(w, r) {
		return
	}
	var req credentialsRequest
	if err := decodeValid(w, r, bodySignIn, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	res, err := a.accounts.Sessions.SignIn(r.Context(), req.Email, req.Password, a.sessionMeta(r))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if res.MFARequired {
		a.setSessionCookie(w, res.Token, a.accounts.Config().MFAPendingTTL)
		writeJSON(w, http.StatusOK, signInJSON{MFARequired: true})
		return
	}
	a.setSessionCookie(w, res.Token, a.accounts.Config().SessionAbsolute)
	writeJSON(w, http.StatusOK, signInJSON{User: toUserJSON(res.User)})
}

type secondFactorRequest struct {
	Code         string `json:"code"`
	RecoveryCode string `json:"recoveryCode"`
}

// POST /api/v1/auth/signin/totp {code} or {recoveryCode} (pending session) → 200 {user,
// mfaRequired: false} + a new session cookie.
func (a *api) signInTOTP(w http.ResponseWriter, r *http.Request) {
	var req secondFactorRequest
	if err := decodeSecondFactor(w, r, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	_, pending, _ := account.AuthFrom(r.Context())
	u, token, err := a.accounts.Sessions.SignInSecondFactor(r.Context(), pending, req.Code, req.RecoveryCode, a.sessionMeta(r))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.setSessionCookie(w, token, a.accounts.Config().SessionAbsolute)
	writeJSON(w, http.StatusOK, signInJSON{User: toUserJSON(u)})
}

// POST /api/v1/auth/signout → 204. The session is deleted on the server, the cookie removed, and
// Clear-Site-Data asks the browser to drop this site's caches, cookies and storage. Answers the
// same with no or a stale session.
func (a *api) signOut(w http.ResponseWriter, r *http.Request) {
	if ck, err := r.Cookie(a.cookieName); err == nil {
		if err := a.accounts.Sessions.SignOut(r.Context(), ck.Value); err != nil {
			a.writeError(w, r, err)
			return
		}
	}
	a.clearSessionCookie(w)
	w.Header().Set("Clear-Site-Data", clearSiteData)
	w.WriteHeader(http.StatusNoContent)
}

// clearSiteData asks the browser to drop this site's caches, cookies and storage (IndexedDB
// included): the answer to signing out and to deleting the account.
const clearSiteData = `"cache", "cookies", "storage"`

type codeRequest struct {
	Code string `json:"code"`
}

// POST /api/v1/auth/email/verify {code} → 200 {user, onboarding}.
func (a *api) verifyEmail(w http.ResponseWriter, r *http.Request) {
	var req codeRequest
	if err := decodeValid(w, r, bodyCode, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	u, _, _ := account.AuthFrom(r.Context())
	u, err := a.accounts.Signup.VerifyEmail(r.Context(), u, req.Code, a.clientIP(r))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		User       *userJSON      `json:"user"`
		Onboarding onboardingJSON `json:"onboarding"`
	}{toUserJSON(u), toOnboardingJSON(a.accounts.Profile.OnboardingOf(u))})
}

// POST /api/v1/auth/email/resend → 204; a new verification code is e-mailed (at most one a minute:
// 429 with Retry-After).
func (a *api) resendEmail(w http.ResponseWriter, r *http.Request) {
	u, _, _ := account.AuthFrom(r.Context())
	if err := a.accounts.Signup.ResendVerification(r.Context(), u); err != nil {
		a.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

type totpSetupJSON struct {
	Secret     string `json:"secret"`
	OTPAuthURL string `json:"otpauthUrl"`
	QRPNG      string `json:"qrPng"`
}

// POST /api/v1/auth/totp/setup → 200 {secret, otpauthUrl, qrPng}. Needs a verified address and a
// recent proof (a fresh sign-in counts), with the second factor when the user has one.
func (a *api) totpSetup(w http.ResponseWriter, r *http.Request) {
	u, sess, _ := account.AuthFrom(r.Context())
	setup, err := a.accounts.SecondFactors.SetupTOTP(r.Context(), u, sess)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, totpSetupJSON{Secret: setup.Secret, OTPAuthURL: setup.OTPAuthURL, QRPNG: setup.QRPNG})
}

// POST /api/v1/auth/totp/enable {code} → 200 {recoveryCodes: [10 codes]} (shown once). The same
// conditions as setup.
func (a *api) totpEnable(w http.ResponseWriter, r *http.Request) {
	var req codeRequest
	if err := decodeValid(w, r, bodyCode, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	u, sess, _ := account.AuthFrom(r.Context())
	codes, err := a.accounts.SecondFactors.EnableTOTP(r.Context(), u, sess, req.Code)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		RecoveryCodes []string `json:"recoveryCodes"`
	}{codes})
}

// DELETE /api/v1/auth/totp → 204 (recent proof required).
func (a *api) totpDisable(w http.ResponseWriter, r *http.Request) {
	u, sess, _ := account.AuthFrom(r.Context())
	if err := a.accounts.SecondFactors.DisableTOTP(r.Context(), u, sess); err != nil {
		a.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

type reverifyRequest struct {
	Method   string `json:"method"`
	Password string `json:"password"`
	Code     string `json:"code"`
}

// POST /api/v1/auth/reverify {method: password|totp|email, password? | code?} → 200
// {reverifiedUntil}.
func (a *api) reverify(w http.ResponseWriter, r *http.Request) {
	var req reverifyRequest
	if err := decodeValid(w, r, bodyReverify, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	secret := req.Code
	if req.Method == account.MethodPassword {
		secret = req.Password
	}
	u, sess, _ := account.AuthFrom(r.Context())
	until, err := a.accounts.Reverify.Reverify(r.Context(), u, sess, req.Method, secret, a.clientIP(r))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		ReverifiedUntil time.Time `json:"reverifiedUntil"`
	}{until})
}

// POST /api/v1/auth/reverify/email → 204; e-mails a re-verification code (at most one a minute).
func (a *api) reverifyEmail(w http.ResponseWriter, r *http.Request) {
	u, _, _ := account.AuthFrom(r.Context())
	if err := a.accounts.Reverify.SendReverifyCode(r.Context(), u); err != nil {
		a.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// GET /api/v1/dev/outbox?to=address → [{to, subject, text, code, purpose, sentAt, link?}], oldest
// first; 400 without to.
// Only routed when PATRIMONIO_DEV_OUTBOX is set (development and end-to-end tests).
func (a *api) devOutbox(w http.ResponseWriter, r *http.Request) {
	to := r.URL.Query().Get("to")
	if to == "" {
		// Never every user's codes at once: the caller names the mailbox it reads.
		a.writeError(w, r, core.Refuse(r.Context(), core.EINVALID, "http.outbox.to"))
		return
	}
	mails, err := account.ReadOutbox(a.cfg.DevOutbox, to)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, mails)
}
