package httpapi

import (
	"context"
	"fmt"

	"patrimonio/core"
)

// requestTexts are the HTTP layer's own refusals of a request body (decodeJSON, limitBody), in
// Spanish and English by key; the language is the request's (core.LanguageFrom). Texts with
// verbs take the same arguments in both languages (a test checks it). Services word their own
// refusals.
var requestTexts = map[string][2]string{ // key → {es, en}
	"request.notJSON":     {"El cuerpo de la solicitud debe ser JSON (Content-Type: application/json).", "The request body must be JSON (Content-Type: application/json)."},
	"request.emptyBody":   {"El cuerpo de la solicitud está vacío; se esperaba JSON.", "The request body is empty; JSON was expected."},
	"request.cutOff":      {"El cuerpo de la solicitud no es JSON válido: termina antes de tiempo.", "The request body is not valid JSON: it ends too early."},
	"request.badJSON":     {"El cuerpo de la solicitud no es JSON válido (en el byte %d).", "The request body is not valid JSON (at byte %d)."},
	"request.unreadable":  {"No se ha podido leer el cuerpo de la solicitud.", "The request body could not be read."},
	"request.bodyType":    {"El cuerpo de la solicitud debe ser %s.", "The request body must be %s."},
	"request.fieldType":   {"El campo %s debe ser %s.", "The field %s must be %s."},
	"request.unknown":     {"El campo %s no está permitido.", "The field %s is not allowed."},
	"request.singleValue": {"El cuerpo de la solicitud debe contener un único valor JSON.", "The request body must hold a single JSON value."},
	"request.tooLarge":    {"El cuerpo de la solicitud supera el límite de %d KiB.", "The request body is larger than the limit of %d KiB."},

	// A body the shared schema refused (validate.go): "path: message; path: message".
	"request.invalidFields": {"Datos no válidos: %s.", "Invalid data: %s."},

	// Ids and text checked before they reach the database (input.go), and the dev outbox.
	"request.badText":      {"El texto enviado contiene caracteres no válidos (por ejemplo, un byte nulo).", "The text sent contains characters that are not allowed (for example, a NUL byte)."},
	"request.badID":        {"El identificador %s no es válido: debe ser un UUID.", "The id %s is not valid: it must be a UUID."},
	"fx.since":             {"El parámetro since debe ser una fecha AAAA-MM-DD.", "The parameter since must be a date YYYY-MM-DD."},
	"fx.baseCurrency":      {"La moneda base debe ser un código ISO 4217 de tres letras mayúsculas (EUR).", "The base currency must be an ISO 4217 code of three capital letters (EUR)."},
	"fx.currencies":        {"El parámetro currencies debe ser una lista de códigos ISO 4217 separados por comas (USD,GBP).", "The parameter currencies must be ISO 4217 codes separated by commas (USD,GBP)."},
	"database.unavailable": {"El servicio no está disponible en este momento. Vuelve a intentarlo en unos segundos.", "The service is not available right now. Try again in a few seconds."},
	"outbox.to":            {"Indica el buzón que quieres leer con ?to=dirección.", "Name the mailbox to read with ?to=address."},

	// The JSON types a field may have to be (the last %s of request.bodyType and request.fieldType).
	"kind.string": {"una cadena de texto", "a string"},
	"kind.bool":   {"true o false", "true or false"},
	"kind.int":    {"un número entero", "a whole number"},
	"kind.number": {"un número", "a number"},
	"kind.array":  {"una lista (array)", "an array"},
	"kind.object": {"un objeto", "an object"},
	"kind.other":  {"de otro tipo", "of another type"},
}

// requestText returns the text of key in the language of ctx, filled with args.
func requestText(ctx context.Context, key string, args ...any) string {
	texts, ok := requestTexts[key]
	if !ok {
		return key
	}
	text := texts[0]
	if core.LanguageFrom(ctx) == core.LangEN {
		text = texts[1]
	}
	if len(args) == 0 {
		return text
	}
	return fmt.Sprintf(text, args...)
}
