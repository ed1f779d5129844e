package workspace

import (
	"context"
	"errors"
	"fmt"

	"patrimonio/core"
	"patrimonio/server/authz"
)

// catalogue holds the user-visible texts of the service, {Spanish, English}, by key. Texts with
// verbs take the same arguments in both languages.
var catalogue = map[string][2]string{
	"name.empty":          {"El nombre del espacio de trabajo no puede estar vacío.", "The workspace name must not be empty."},
	"name.characters":     {"El nombre del espacio de trabajo contiene caracteres no permitidos.", "The workspace name contains characters that are not allowed."},
	"name.tooLong":        {"El nombre del espacio de trabajo puede tener como máximo %d caracteres.", "The workspace name must be at most %d characters long."},
	"email.invalid":       {"Introduce una dirección de correo electrónico válida.", "Enter a valid e-mail address."},
	"member.exists":       {"%s ya es miembro de este espacio de trabajo.", "%s is already a member of this workspace."},
	"member.notFound":     {"No se ha encontrado el miembro.", "Member not found."},
	"invitation.notFound": {"No se ha encontrado la invitación.", "Invitation not found."},
	"invitation.expired":  {"Esta invitación ha caducado; pide una nueva.", "This invitation has expired; ask for a new one."},
	"account.gone":        {"Tu cuenta ya no existe.", "Your account no longer exists."},
}

// language is the language of messages carried by ctx (the HTTP layer puts it there from
// Accept-Language): "es" (the default) or "en".
func language(ctx context.Context) string { return core.LanguageFrom(ctx) }

// errorf returns an *core.Error with code and the text of key in the language of ctx.
func errorf(ctx context.Context, code, key string, args ...any) *core.Error {
	texts, ok := catalogue[key]
	if !ok {
		return core.Errorf(core.EINTERNAL, "workspace: no message %q", key)
	}
	text := texts[0]
	if language(ctx) == core.LangEN {
		text = texts[1]
	}
	if len(args) > 0 {
		text = fmt.Sprintf(text, args...)
	}
	return &core.Error{Code: code, Message: text}
}

// authorize asks authz and words a refusal in the language of ctx.
func authorize(ctx context.Context, req authz.Request) error {
	err := authz.Authorize(req)
	var r *authz.Refusal
	if errors.As(err, &r) {
		return &core.Error{Code: r.Err.Code, Message: r.Message(language(ctx))}
	}
	return err
}
