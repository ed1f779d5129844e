package httpapi

// The signed-in user: GET /api/v1/me, PATCH /api/v1/users/ (personal identity), the change of
// e-mail address (POST /api/v1/users/email, /users/email/verify), DELETE /api/v1/users/ (the
// account) and POST /api/v1/onboarding/advance.

import (
	"net/http"
	"time"

	"patrimonio/server/account"
)

// userJSON is how every endpoint shows a user. Personal identity fields are null until given.
type userJSON struct {
	ID            string  `json:"id"`
	Email         string  `json:"email"`
	EmailVerified bool    `json:"emailVerified"`
	IsAdmin       bool    `json:"isAdmin"`
	FirstName     *string `json:"firstName"`
	LastName      *string `json:"lastName"`
	Birthday      *string `json:"birthday"`
	Gender        *string `json:"gender"`
	Country       *string `json:"country"`
	State         *string `json:"state"`
	TOTPEnabled   bool    `json:"totpEnabled"`
	HasPassword   bool    `json:"hasPassword"`
	// Username is null until chosen; HasAvatar says whether GET /users/avatar has an image.
	Username  *string `json:"username"`
	HasAvatar bool    `json:"hasAvatar"`
}

func toUserJSON(u *account.User) *userJSON {
	if u == nil {
		return nil
	}
	opt := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	return &userJSON{
		ID:            u.ID,
		Email:         u.Email,
		EmailVerified: u.EmailVerified(),
		IsAdmin:       u.IsAdmin,
		FirstName:     opt(u.Identity.FirstName),
		LastName:      opt(u.Identity.LastName),
		Birthday:      opt(u.Identity.Birthday),
		Gender:        opt(u.Identity.Gender),
		Country:       opt(u.Identity.Country),
		State:         opt(u.Identity.State),
		TOTPEnabled:   u.TOTPEnabled,
		HasPassword:   u.HasPassword,
		Username:      opt(u.Username),
		HasAvatar:     u.HasAvatar,
	}
}

type onboardingJSON struct {
	Step      string `json:"step"`
	Completed bool   `json:"completed"`
}

func toOnboardingJSON(o account.Onboarding) onboardingJSON {
	return onboardingJSON{Step: o.Step, Completed: o.Completed}
}

type membershipJSON struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Kind string `json:"kind"`
	Role string `json:"role"`
}

type meJSON struct {
	User       *userJSON        `json:"user"`
	Workspaces []membershipJSON `json:"workspaces"`
	Onboarding onboardingJSON   `json:"onboarding"`
	// ReverifiedUntil is until when sensitive actions need no re-verification; null when they do.
	ReverifiedUntil *time.Time `json:"reverifiedUntil"`
	Provider        string     `json:"provider"`
}

// GET /api/v1/me → who is signed in, their workspaces and roles, onboarding and re-verification.
// Nobody signed in (no session, a dead one, or a sign-in still waiting for its second factor) is an
// answer, not an error: 204 No Content. Every signed-out page load asks it, and browsers log a 401
// as a failed request in the console.
func (a *api) me(w http.ResponseWriter, r *http.Request) {
	u, sess, ok := a.authenticate(w, r)
	if !ok {
		return
	}
	if u == nil || (sess != nil && sess.MFAPending) {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	ms, err := a.accounts.Users.Workspaces(r.Context(), u.ID)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	out := meJSON{
		User:       toUserJSON(u),
		Workspaces: make([]membershipJSON, 0, len(ms)),
		Onboarding: toOnboardingJSON(a.accounts.Profile.OnboardingOf(u)),
		Provider:   a.authProvider,
	}
	for _, m := range ms {
		out.Workspaces = append(out.Workspaces, membershipJSON{ID: m.ID, Name: m.Name, Kind: string(m.Kind), Role: string(m.Role)})
	}
	if until := a.accounts.Reverify.ReverifiedUntil(sess); !until.IsZero() {
		out.ReverifiedUntil = &until
	}
	writeJSON(w, http.StatusOK, out)
}

type identityRequest struct {
	FirstName *string `json:"first_name"`
	LastName  *string `json:"last_name"`
	Birthday  *string `json:"birthday"`
	Gender    *string `json:"gender"`
	Country   *string `json:"country"`
	State     *string `json:"state"`
}

// PATCH /api/v1/users/ {first_name, last_name, birthday, gender, country, state} → 200 {user}.
// All six are required; problems answer 400 with error.fields [{path, message}] in the request's
// language (the spec's Spanish messages by default).
func (a *api) updateUser(w http.ResponseWriter, r *http.Request) {
	var req identityRequest
	if err := decodeJSON(w, r, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	u, _, _ := account.AuthFrom(r.Context())
	u, err := a.accounts.Profile.UpdateIdentity(r.Context(), u.ID, account.IdentityInput{
		FirstName: req.FirstName, LastName: req.LastName, Birthday: req.Birthday,
		Gender: req.Gender, Country: req.Country, State: req.State,
	})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, userEnvelope{toUserJSON(u)})
}

type advanceRequest struct {
	Step   string `json:"step"`
	Action string `json:"action"`
}

// POST /api/v1/onboarding/advance {step, action: complete|skip} → 200 {onboarding}. The step must
// be the current one (409 otherwise, with the current step named in the message).
func (a *api) advanceOnboarding(w http.ResponseWriter, r *http.Request) {
	var req advanceRequest
	if err := decodeJSON(w, r, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	u, _, _ := account.AuthFrom(r.Context())
	o, err := a.accounts.Profile.AdvanceOnboarding(r.Context(), u, req.Step, req.Action)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Onboarding onboardingJSON `json:"onboarding"`
	}{toOnboardingJSON(o)})
}

type emailChangeRequest struct {
	Email string `json:"email"`
}

type emailChangeJSON struct {
	// PendingEmail is the new address (normalised) the code was sent to.
	PendingEmail string `json:"pendingEmail"`
	// ExpiresAt is when the code stops working.
	ExpiresAt time.Time `json:"expiresAt"`
}

// POST /api/v1/users/email {email} (recent proof) → 202 {pendingEmail, expiresAt}: a 6-digit code
// is e-mailed to the new address; nothing changes until POST /users/email/verify confirms it. The
// answer is the same whether another account uses the address or not.
func (a *api) requestEmailChange(w http.ResponseWriter, r *http.Request) {
	var req emailChangeRequest
	if err := decodeValid(w, r, bodyEmail, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	u, sess, _ := account.AuthFrom(r.Context())
	change, err := a.accounts.Profile.RequestEmailChange(r.Context(), u, sess, req.Email)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, emailChangeJSON{PendingEmail: change.NewEmail, ExpiresAt: change.ExpiresAt})
}

// POST /api/v1/users/email/verify {code} → 200 {user}: the address is the new one, verified; every
// other session of the user has ended, and the old address got a notice. 409 when the address
// cannot be used (another account has it).
func (a *api) confirmEmailChange(w http.ResponseWriter, r *http.Request) {
	var req codeRequest
	if err := decodeValid(w, r, bodyCode, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	u, sess, _ := account.AuthFrom(r.Context())
	u, err := a.accounts.Profile.ConfirmEmailChange(r.Context(), u, sess, req.Code, a.clientIP(r))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, userEnvelope{toUserJSON(u)})
}

// DELETE /api/v1/users/ (recent proof) → 204: the account is deleted with its personal workspace
// and everything in it; like signing out, the cookie is deleted and Clear-Site-Data clears the
// device. 409 while the user is the last owner of a team workspace with other members.
func (a *api) deleteAccount(w http.ResponseWriter, r *http.Request) {
	u, sess, _ := account.AuthFrom(r.Context())
	if err := a.accounts.Profile.DeleteAccount(r.Context(), u, sess); err != nil {
		a.writeError(w, r, err)
		return
	}
	a.clearSessionCookie(w)
	w.Header().Set("Clear-Site-Data", clearSiteData)
	w.WriteHeader(http.StatusNoContent)
}
