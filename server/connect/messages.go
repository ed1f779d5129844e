package connect

import (
	"context"
	"fmt"

	"patrimonio/server"
)

// catalogue holds every user-visible text of connections, {es, en}, by key. Providers' own
// messages are English and may name internal details: they are logged, never shown.
var catalogue = map[string][2]string{
	"provider.unknown":     {"Ese proveedor de conexiones no existe.", "There is no such connection provider."},
	"provider.off":         {"Las conexiones con %s no están configuradas en este servidor. Puedes importar un extracto en su lugar.", "Connections through %s are not configured on this server. You can import a statement instead."},
	"country.invalid":      {"El país debe ser un código ISO de dos letras.", "The country must be a two-letter ISO code."},
	"institution.unknown":  {"No encontramos esa entidad en el país elegido. Vuelve a buscarla.", "That institution was not found in the chosen country. Search for it again."},
	"connection.notFound":  {"No se ha encontrado la conexión.", "Connection not found."},
	"link.unknown":         {"Este enlace con el banco no es válido o ya se ha usado. Vuelve a empezar la conexión.", "This bank link is not valid or was already used. Start the connection again."},
	"link.expired":         {"Pasó demasiado tiempo desde que empezaste la conexión. Vuelve a empezarla.", "Too much time passed since you started the connection. Start it again."},
	"link.refused":         {"La entidad no concedió el acceso (se canceló o se rechazó). Puedes volver a intentarlo.", "The institution did not grant access (it was cancelled or refused). You can try again."},
	"consent.expired":      {"El consentimiento con %s ha caducado. Renuévalo para seguir actualizando los saldos.", "The consent with %s has expired. Renew it to keep balances up to date."},
	"provider.busy":        {"%s está recibiendo demasiadas solicitudes. Vuelve a intentarlo en %d segundos.", "%s is receiving too many requests. Try again in %d seconds."},
	"provider.unavailable": {"No se puede contactar con %s ahora mismo. Vuelve a intentarlo en unos minutos.", "%s cannot be reached right now. Try again in a few minutes."},
	"account.unknown":      {"Esa cuenta no pertenece a esta conexión.", "That account does not belong to this connection."},
	"account.adopted":      {"Esa cuenta ya tiene un activo.", "That account already has an asset."},
	"account.class":        {"Una cuenta se añade como cuenta bancaria o como inversión.", "An account becomes a bank account or an investment."},
	"choices.empty":        {"Elige al menos una cuenta.", "Choose at least one account."},
	"connection.notActive": {"Esta conexión no está activa. Renuévala primero.", "This connection is not active. Renew it first."},
	"secret.missing":       {"El servidor no tiene clave de cifrado configurada, así que no puede guardar conexiones.", "The server has no encryption key configured, so it cannot keep connections."},
}

// providerNames are the providers' names as people know them.
var providerNames = map[string]string{"enablebanking": "Enable Banking", "snaptrade": "SnapTrade"}

func text(ctx context.Context, key string, args ...any) string {
	texts, ok := catalogue[key]
	if !ok {
		return key
	}
	t := texts[0]
	if server.LanguageFrom(ctx) == server.LangEN {
		t = texts[1]
	}
	if len(args) == 0 {
		return t
	}
	return fmt.Sprintf(t, args...)
}

func errorf(ctx context.Context, code, key string, args ...any) error {
	return &server.Error{Code: code, Message: text(ctx, key, args...)}
}
