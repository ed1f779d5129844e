package passkey

import (
	"context"
	"fmt"

	"patrimonio/core"
)

// catalogue holds every user-visible text of passkeys, in Spanish and English, by key. The
// language travels in the context (core.WithLanguage); Spanish is the default. Texts with %d
// take the same arguments in both languages (a test checks it).
var catalogue = map[string][2]string{ // key → {es, en}
	"register.gone":      {"Esta solicitud de llave de acceso ha caducado o ya se ha usado. Inténtalo de nuevo.", "This passkey request has expired or was already used. Please try again."},
	"register.failed":    {"No se ha podido verificar la llave de acceso.", "The passkey could not be verified."},
	"register.taken":     {"Esta llave de acceso ya está registrada.", "This passkey is already registered."},
	"register.limit":     {"Ya tienes %d llaves de acceso, el máximo permitido. Elimina una para añadir otra.", "You already have %d passkeys, the most allowed. Remove one to add another."},
	"signin.failed":      {"No se ha podido verificar la llave de acceso.", "The passkey could not be verified."},
	"signin.gone":        {"Esta solicitud de inicio de sesión ha caducado o ya se ha usado. Inténtalo de nuevo.", "This sign-in request has expired or was already used. Please try again."},
	"signin.busy":        {"Hay demasiados intentos de inicio de sesión ahora mismo. Inténtalo de nuevo en unos minutos.", "Too many sign-in attempts right now. Please try again in a few minutes."},
	"name.tooLong":       {"El nombre de la llave de acceso puede tener como máximo %d caracteres.", "The passkey name must be at most %d characters long."},
	"name.control":       {"El nombre de la llave de acceso no puede contener caracteres de control.", "The passkey name must not contain control characters."},
	"name.default":       {"Llave de acceso %d", "Passkey %d"},
	"name.empty":         {"Escribe un nombre para la llave de acceso.", "Type a name for the passkey."},
	"notFound":           {"No se ha encontrado la llave de acceso.", "The passkey was not found."},
	"unavailable":        {"Las llaves de acceso no están disponibles en este servidor.", "Passkeys are not available on this server."},
	"credential.missing": {"Falta la credencial de la llave de acceso.", "The passkey credential is missing."},
}

// Message returns the text of key in lang ("es" or "en"), filled with args. An unknown key
// returns the key itself (a test makes sure every key used exists).
func Message(lang, key string, args ...any) string {
	texts, ok := catalogue[key]
	if !ok {
		return key
	}
	text := texts[0]
	if lang == core.LangEN {
		text = texts[1]
	}
	if len(args) == 0 {
		return text
	}
	return fmt.Sprintf(text, args...)
}

// errorf returns a *core.Error with code and the message of key in the language of ctx.
func errorf(ctx context.Context, code, key string, args ...any) *core.Error {
	return &core.Error{Code: code, Message: Message(core.LanguageFrom(ctx), key, args...)}
}
