package billing

import (
	"context"
	"fmt"

	"patrimonio/core"
)

// catalogue holds every user-visible text of billing, in Spanish and English, by key. Texts with
// verbs take the same arguments in both languages (a test checks it). Stripe's own messages are
// English only and may name internal details: they are logged, never shown.
var catalogue = map[string][2]string{ // key → {es, en}
	"billing.off":            {"El cobro no está configurado en este servidor.", "Billing is not configured on this server."},
	"checkout.kind":          {"El tipo de pago debe ser card_check o subscription.", "The kind of payment must be card_check or subscription."},
	"checkout.returnTo":      {"La vuelta debe ser onboarding o billing.", "The return must be onboarding or billing."},
	"checkout.priceRequired": {"Elige un plan.", "Choose a plan."},
	"checkout.unknownPrice":  {"Ese plan ya no se ofrece. Vuelve a cargar la lista de planes.", "That plan is no longer offered. Reload the list of plans."},
	"checkout.cardFirst":     {"Verifica primero tu tarjeta con el pago de 1 dólar.", "Verify your card first with the 1 dollar payment."},
	"checkout.alreadyActive": {"Ya tienes una suscripción activa; gestiónala desde la página de facturación.", "You already have an active subscription; manage it from the billing page."},
	"checkout.productName":   {"Verificación de la tarjeta", "Card verification"},
	"delete.stripe":          {"No hemos borrado tu cuenta: no se han podido cancelar tus suscripciones con el proveedor de pagos, que no responde. Vuelve a intentarlo en unos minutos.", "Your account was not deleted: your subscriptions could not be canceled with the payment provider, which is not answering. Try again in a few minutes."},
	"portal.noCustomer":      {"Todavía no tienes datos de facturación que gestionar.", "You have no billing details to manage yet."},
	"gate.subscription":      {"Necesitas una suscripción activa para %s. Tus datos siguen disponibles: puedes consultarlos, editarlos y exportarlos.", "You need an active subscription to %s. Your data stays available: you can read, edit and export it."},
	"gate.teamWorkspace":     {"crear un espacio de trabajo de equipo", "create a team workspace"},
	"gate.invite":            {"invitar a otras personas", "invite other people"},

	// Stripe's refusals, translated at the adapter (stripe.go).
	"stripe.unreachable":   {"No se puede contactar con el proveedor de pagos ahora mismo. Vuelve a intentarlo en unos minutos.", "The payment provider cannot be reached right now. Try again in a few minutes."},
	"stripe.busy":          {"El proveedor de pagos está recibiendo demasiadas solicitudes. Vuelve a intentarlo en unos segundos.", "The payment provider is receiving too many requests. Try again in a few seconds."},
	"stripe.misconfigured": {"El cobro de este servidor está mal configurado; el administrador debe revisar la clave de Stripe.", "Billing on this server is misconfigured; the administrator must check the Stripe key."},
	"stripe.notFound":      {"El proveedor de pagos no encuentra ese plan o cliente. Vuelve a cargar la página.", "The payment provider cannot find that plan or customer. Reload the page."},
	"stripe.refused":       {"El proveedor de pagos ha rechazado la solicitud. Vuelve a intentarlo o escríbenos si se repite.", "The payment provider refused the request. Try again, or contact us if it happens again."},
	"stripe.card":          {"La tarjeta ha sido rechazada. Prueba con otra tarjeta.", "The card was declined. Try another card."},
	"stripe.conflict":      {"Otra solicitud igual está en curso. Espera un momento y vuelve a intentarlo.", "The same request is already in progress. Wait a moment and try again."},

	// The webhook's refusals (read by Stripe's dashboard, not by people using the app).
	"webhook.signature": {"La firma del webhook no es válida.", "The webhook signature is not valid."},
	"webhook.time":      {"La marca de tiempo del webhook está fuera de la tolerancia de 5 minutos.", "The webhook timestamp is outside the 5 minute tolerance."},
	"webhook.body":      {"El cuerpo del webhook no es un evento de Stripe.", "The webhook body is not a Stripe event."},
}

// text returns the text of key in the language of ctx, filled with args.
func text(ctx context.Context, key string, args ...any) string {
	texts, ok := catalogue[key]
	if !ok {
		return key
	}
	t := texts[0]
	if core.LanguageFrom(ctx) == core.LangEN {
		t = texts[1]
	}
	if len(args) == 0 {
		return t
	}
	return fmt.Sprintf(t, args...)
}

// errorf is a *core.Error with code and the text of key.
func errorf(ctx context.Context, code, key string, args ...any) error {
	return &core.Error{Code: code, Message: text(ctx, key, args...)}
}
