package clerkauth

import "patrimonio/core"

// catalogue holds the user-visible texts of the Clerk provider, in Spanish and English, by key.
// The language comes from the request (core.LanguageFrom); Spanish is the default.
var catalogue = map[string][2]string{ // key → {es, en}
	"noEmail":     {"Tu cuenta de Clerk no tiene un correo electrónico principal verificado; verifica uno y vuelve a intentarlo.", "Your Clerk account has no verified primary e-mail address; verify one and try again."},
	"noUser":      {"Tu cuenta de Clerk ya no existe. Inicia sesión de nuevo.", "Your Clerk account no longer exists. Please sign in again."},
	"unavailable": {"No se ha podido contactar con el servicio de inicio de sesión. Inténtalo de nuevo en unos minutos.", "The sign-in service could not be reached. Please try again in a few minutes."},
	"invalid":     {"Tu sesión no es válida; vuelve a iniciar sesión.", "Your session is not valid; please sign in again."},
	"disabled":    {"Esta cuenta está desactivada. Ponte en contacto con el administrador.", "This account is disabled. Contact the administrator."},
}

// Message returns the text of key in lang ("es" or "en"). An unknown key returns the key itself
// (a test makes sure every key used exists).
func Message(lang, key string) string {
	texts, ok := catalogue[key]
	if !ok {
		return key
	}
	if lang == core.LangEN {
		return texts[1]
	}
	return texts[0]
}
