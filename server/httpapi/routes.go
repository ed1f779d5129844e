package httpapi

import (
	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"patrimonio/server/account"
)

// routes is the one route table of the server. Every endpoint is listed here; its handler lives in
// the file of its resource (health.go, web.go, ...).
func (a *api) routes() *chi.Mux {
	r := chi.NewRouter()
	r.Use(a.middleware()...)
	// Set before the sub-routers are mounted so they inherit them: both answer JSON.
	r.NotFound(a.notFound)
	r.MethodNotAllowed(a.methodNotAllowed)

	r.Route("/api/v1", func(r chi.Router) {
		// session.go: the messages' language (first, so that every refusal is worded in it), then
		// the body limit and the CSRF refusal.
		r.Use(noStore, a.language, limitBody(maxJSONBody), a.sameOrigin, a.validInput)

		r.Get("/health", a.health)

		// Accounts: auth_handlers.go, users_handlers.go (local provider; session.go has requireUser).
		r.Get("/auth/config", a.authConfig)
		r.Post("/auth/signup", a.signUp)
		r.Post("/auth/signup/verify", a.signUpVerify) // security_handlers.go
		r.Post("/auth/signup/resend", a.signUpResend)
		r.Post("/auth/password/forgot", a.forgotPassword)
		r.Post("/auth/password/reset", a.resetPassword)
		r.Post("/auth/signin", a.signIn)
		r.With(a.requirePendingMFA).Post("/auth/signin/totp", a.signInTOTP)
		r.Post("/auth/signout", a.signOut)
		r.Get("/me", a.me) // 204 when nobody is signed in: users_handlers.go
		r.Group(func(r chi.Router) {
			r.Use(a.requireUser)
			r.Post("/auth/email/verify", a.verifyEmail)
			r.Post("/auth/email/resend", a.resendEmail)
			r.Post("/auth/totp/setup", a.totpSetup)
			r.Post("/auth/totp/enable", a.totpEnable)
			r.Delete("/auth/totp", a.totpDisable)
			r.Post("/auth/reverify", a.reverify)
			r.Post("/auth/reverify/email", a.reverifyEmail)
			r.Post("/auth/password", a.changePassword)
			r.Get("/auth/sessions", a.listSessions)
			r.Post("/auth/sessions/signout-others", a.signOutOthers)
			r.Put("/users/username", a.setUsername)
			r.Patch("/users/", a.updateUser)
			r.Delete("/users/", a.deleteAccount)
			r.Post("/users/email", a.requestEmailChange)
			r.Post("/users/email/verify", a.confirmEmailChange)
			r.Post("/onboarding/advance", a.advanceOnboarding)
		})

		// Passkeys: passkey_handlers.go (local provider; 404 when the server has none).
		r.Post("/auth/passkeys/login/begin", a.passkeyLoginBegin)
		r.Post("/auth/passkeys/login/finish", a.passkeyLoginFinish)
		r.Group(func(r chi.Router) {
			r.Use(a.requireUser, a.validInput) // validInput again: route parameters are known now
			r.Post("/auth/passkeys/register/begin", a.passkeyRegisterBegin)
			r.Post("/auth/passkeys/register/finish", a.passkeyRegisterFinish)
			r.Get("/auth/passkeys", a.passkeyList)
			r.Patch("/auth/passkeys/{id}", a.passkeyRename)
			r.Delete("/auth/passkeys/{id}", a.passkeyRemove)
			r.Post("/auth/reverify/passkey/begin", a.reverifyPasskeyBegin)
			r.Post("/auth/reverify/passkey/finish", a.reverifyPasskeyFinish)
			r.Delete("/auth/sessions/{id}", a.endSession)
		})
		// Workspaces, members and invitations: workspace_handlers.go (who may do what: authz).
		r.Group(func(r chi.Router) {
			r.Use(a.requireUser, a.validInput)
			r.Get("/workspaces", a.listWorkspaces)
			r.Post("/workspaces", a.createWorkspace)
			r.Get("/workspaces/{id}", a.getWorkspace)
			r.Patch("/workspaces/{id}", a.renameWorkspace)
			r.Delete("/workspaces/{id}", a.deleteWorkspace)
			r.Post("/workspaces/{id}/invitations", a.inviteToWorkspace)
			r.Delete("/workspaces/{id}/invitations/{invitationId}", a.revokeInvitation)
			r.Patch("/workspaces/{id}/members/{userId}", a.changeMemberRole)
			r.Delete("/workspaces/{id}/members/{userId}", a.removeMember)
			r.Get("/workspaces/{id}/devices", a.workspaceDevices) // devices_handlers.go
			r.Get("/invitations", a.myInvitations)
			r.Post("/invitations/{id}/accept", a.acceptInvitation)
			r.Post("/invitations/{id}/decline", a.declineInvitation)
		})
		// Enumerations: enums_handlers.go. Every signed-in user reads them; admins change them
		// under /admin/enums.
		r.Group(func(r chi.Router) {
			// The whole list is ~0.8 MB of JSON on a first fill: gzip it (Vary: Accept-Encoding).
			r.Use(a.requireUser, middleware.Compress(5, "application/json"))
			r.Get("/enums/", a.listEnums)
			r.Get("/enums/types", a.enumTypes)
			r.Get("/enums/id/{number}", a.getEnum)
		})
		// Exchange rates: fx_handlers.go. Every signed-in user reads them (the full history is a
		// few MB of JSON on a device's first fill: gzip).
		r.Group(func(r chi.Router) {
			r.Use(a.requireUser, middleware.Compress(5, "application/json"))
			r.Get("/fx-rates", a.listFXRates)
		})
		// A workspace's base currency (issue 12): fx_handlers.go. Members read, owners and editors change.
		r.Group(func(r chi.Router) {
			r.Use(a.requireUser, a.validInput)
			r.Get("/workspaces/{id}/base-currency", a.getBaseCurrency)
			r.Put("/workspaces/{id}/base-currency", a.putBaseCurrency)
		})
		// The admin area: admin_handlers.go. Every route under /admin is for app admins only.
		r.Route("/admin", func(r chi.Router) {
			r.Use(a.requireUser, a.requireAdmin)
			r.Get("/users", a.adminListUsers)
			r.Get("/users/audit", a.adminUserAudit)
			r.With(a.validInput).Post("/users/{id}/action", a.adminUserAction)
			r.Post("/enums", a.adminCreateEnum) // enums_handlers.go
			r.Post("/enums/reorder", a.adminReorderEnums)
			r.Get("/enums/audit", a.adminEnumAudit)
			r.Put("/enums/{number}", a.adminUpdateEnum)
			r.Post("/enums/{number}/deactivate", a.adminDeactivateEnum)
			r.Post("/enums/{number}/activate", a.adminActivateEnum)
		})
		// Billing with Stripe: billing_handlers.go. The webhook is Stripe's (signed, no session).
		r.Group(func(r chi.Router) {
			r.Use(a.requireUser)
			r.Get("/stripe/products", a.stripeProducts)
			r.Post("/stripe/create-checkout-session", a.stripeCreateCheckout)
			r.Post("/stripe/portal-session", a.stripePortal)
			r.Get("/stripe/subscriptions", a.stripeSubscriptions)
			r.Post("/stripe/subscriptions/refresh", a.stripeRefresh)
			r.Post("/stripe/subscriptions/{id}/abandon", a.stripeAbandon)
		})
		r.Post("/stripe/webhook", a.stripeWebhook)
		// Bank and broker connections (issue 15): connections_handlers.go (who may: authz).
		r.Group(func(r chi.Router) {
			r.Use(a.requireUser, a.validInput)
			r.Get("/connections/providers", a.connectionProviders)
			r.Get("/connections/institutions", a.connectionInstitutions)
			r.Post("/connections", a.startConnection)
			r.Post("/connections/complete", a.completeConnection)
			r.Get("/connections/{id}", a.getConnection)
			r.Delete("/connections/{id}", a.deleteConnection)
			r.Post("/connections/{id}/renew", a.renewConnection)
			r.Post("/connections/{id}/assets", a.adoptConnectionAccounts)
			r.Post("/connections/{id}/refresh", a.refreshConnection)
			r.Get("/workspaces/{id}/connections", a.listConnections)
		})
		r.Get("/openapi.json", a.openAPI) // openapi.go; openapi.yaml must describe every route

		// Sync: the WebSocket of the sync engine (sync/PROTOCOL.md), which checks Origin and the
		// session itself.
		r.Get("/sync", a.sync.ServeHTTP)

		if a.cfg.DevOutbox != "" {
			r.Get("/dev/outbox", a.devOutbox)
		}
	})
	// The profile image (security_handlers.go): beside /api/v1 for its larger body limit (10 MB).
	r.Group(func(r chi.Router) {
		r.Use(noStore, a.language, limitBody(account.AvatarMaxBytes), a.sameOrigin, a.requireUser)
		r.Get("/api/v1/users/avatar", a.getAvatar)
		r.Put("/api/v1/users/avatar", a.putAvatar)
		r.Delete("/api/v1/users/avatar", a.deleteAvatar)
	})

	// Any other /api path is an unknown API path: JSON 404, never the web app.
	r.With(noStore).HandleFunc("/api", a.notFound)
	r.With(noStore).HandleFunc("/api/*", a.notFound)

	// The PWA: built files from Config.WebDir, and index.html for every client route.
	r.Get("/*", a.web)
	r.Head("/*", a.web)
	return r
}
