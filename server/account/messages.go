package account

import (
	"context"
	"fmt"
	"time"

	"patrimonio/core"
)

// The languages of messages (core.LangES, the default, and core.LangEN), repeated here for
// the callers of Message.
const (
	LangES = core.LangES
	LangEN = core.LangEN
)

// catalogue holds every user-visible text of the accounts feature, in Spanish and English, by
// key. Texts with %d or %s take arguments (the same ones, in the same order, in both languages;
// a test checks it). The personal identity messages come from the shared schema instead.
var catalogue = map[string][2]string{ // key → {es, en}
	// E-mail and password.
	"email.invalid":          {"Introduce una dirección de correo electrónico válida.", "Enter a valid e-mail address."},
	"email.taken":            {"Ya existe una cuenta con este correo electrónico.", "An account with this e-mail address already exists."},
	"email.alreadyVerified":  {"Tu correo electrónico ya está verificado.", "Your e-mail address is already verified."},
	"email.same":             {"Esa ya es tu dirección de correo electrónico.", "That is already your e-mail address."},
	"email.unavailable":      {"No se puede usar esa dirección de correo electrónico. Elige otra.", "That e-mail address cannot be used. Choose another one."},
	"email.clerkManaged":     {"Tu correo electrónico lo gestiona tu proveedor de inicio de sesión; cámbialo allí.", "Your e-mail address is managed by your sign-in provider; change it there."},
	"password.required":      {"Introduce una contraseña.", "Enter a password."},
	"password.tooShort":      {"La contraseña es demasiado corta: debe tener al menos %d caracteres.", "The password is too short: it must have at least %d characters."},
	"password.tooLong":       {"La contraseña es demasiado larga: puede tener como máximo %d caracteres.", "The password is too long: it can have at most %d characters."},
	"password.compromised":   {"Esta contraseña es demasiado común y aparece en filtraciones de contraseñas; elige otra.", "This password is too common and appears in password leaks; choose another one."},
	"password.blank":         {"La contraseña no puede estar formada solo por espacios.", "The password cannot be only spaces."},
	"password.badCharacters": {"La contraseña contiene caracteres no válidos.", "The password contains characters that are not allowed."},
	"password.personal":      {"La contraseña no puede ser tu correo electrónico ni tu nombre.", "The password cannot be your e-mail address or your name."},
	"password.currentWrong":  {"La contraseña actual no es correcta.", "The current password is wrong."},
	"password.same":          {"La nueva contraseña es igual que la actual; elige otra.", "The new password is the same as the current one; choose another one."},
	"reset.invalid":          {"El enlace o el código para restablecer la contraseña no es válido o ha caducado. Pide uno nuevo.", "The password reset link or code is not valid or has expired. Ask for a new one."},

	// Sign-in and sessions.
	"signin.invalid":     {"El correo electrónico o la contraseña no son correctos.", "The e-mail address or the password is wrong."},
	"signin.localOff":    {"El inicio de sesión con correo y contraseña está desactivado en este servidor.", "Signing in with e-mail and password is turned off on this server."},
	"signin.throttled":   {"Demasiados intentos fallidos. Vuelve a intentarlo dentro de %d minutos.", "Too many failed attempts. Try again in %d minutes."},
	"session.required":   {"Inicia sesión para continuar.", "Sign in to continue."},
	"session.mfaPending": {"Introduce el código de tu segundo factor para terminar de iniciar sesión.", "Enter your second-factor code to finish signing in."},
	"session.noMFA":      {"No hay ningún inicio de sesión esperando un segundo factor.", "There is no sign-in waiting for a second factor."},
	"csrf.crossSite":     {"Solicitud rechazada: procede de otro sitio web.", "Request refused: it comes from another website."},
	"secondFactor.oneOf": {"Envía un código del autenticador o un código de recuperación.", "Send an authenticator code or a recovery code."},
	"user.notFound":      {"No se ha encontrado la cuenta.", "The account was not found."},
	"account.disabled":   {"Esta cuenta está desactivada. Ponte en contacto con el administrador.", "This account is disabled. Contact the administrator."},
	"session.notFound":   {"No se ha encontrado esa sesión; puede que ya se haya cerrado.", "That session was not found; it may have ended already."},

	// E-mailed codes.
	"code.format":          {"El código debe tener 6 dígitos.", "The code must have 6 digits."},
	"code.wrong":           {"El código no es correcto.", "The code is wrong."},
	"code.expired":         {"El código ha caducado. Pide uno nuevo.", "The code has expired. Ask for a new one."},
	"code.tooManyAttempts": {"Demasiados intentos con este código. Pide uno nuevo.", "Too many attempts with this code. Ask for a new one."},
	"code.none":            {"No hay ningún código pendiente. Pide uno nuevo.", "There is no pending code. Ask for a new one."},
	"code.resendTooSoon":   {"Espera %d segundos antes de pedir otro código.", "Wait %d seconds before asking for another code."},

	// TOTP and recovery codes.
	"totp.wrong":      {"El código del autenticador no es correcto o ya se ha usado.", "The authenticator code is wrong or was already used."},
	"totp.notEnabled": {"La verificación en dos pasos no está activada.", "Two-step verification is not turned on."},
	"totp.noSetup":    {"La configuración del autenticador ha caducado o no se ha iniciado. Empieza de nuevo.", "The authenticator setup has expired or was not started. Start again."},
	"recovery.wrong":  {"El código de recuperación no es correcto o ya se ha usado.", "The recovery code is wrong or was already used."},

	// Re-verification.
	"reverify.required":      {"Confirma tu identidad para continuar.", "Confirm your identity to continue."},
	"reverify.method":        {"El método de verificación debe ser password, totp o email.", "The verification method must be password, totp or email."},
	"reverify.noPassword":    {"Tu cuenta no tiene contraseña; usa otro método.", "Your account has no password; use another method."},
	"reverify.passwordWrong": {"La contraseña no es correcta.", "The password is wrong."},
	"reverify.passkeyOther":  {"Esa llave de acceso no es de tu cuenta.", "That passkey does not belong to your account."},
	"reverify.secondFactor":  {"Confirma tu identidad con tu segundo factor (el código del autenticador o una llave de acceso) para continuar.", "Confirm your identity with your second factor (the authenticator code or a passkey) to continue."},

	// Onboarding.
	"onboarding.unknownStep":    {"Paso de bienvenida desconocido.", "Unknown onboarding step."},
	"onboarding.action":         {"La acción debe ser complete o skip.", "The action must be complete or skip."},
	"onboarding.notCurrent":     {"Ese paso no es el actual; el paso actual es %s.", "That is not the current step; the current step is %s."},
	"onboarding.notSkippable":   {"Este paso no se puede omitir.", "This step cannot be skipped."},
	"onboarding.verifyByCode":   {"Verifica tu correo con el código que te hemos enviado.", "Verify your e-mail address with the code we sent you."},
	"onboarding.needTOTP":       {"Activa primero la verificación en dos pasos, u omite este paso.", "Turn on two-step verification first, or skip this step."},
	"onboarding.needPasskey":    {"Crea primero una llave de acceso, u omite este paso.", "Create a passkey first, or skip this step."},
	"onboarding.needIdentity":   {"Completa primero tus datos personales.", "Fill in your personal details first."},
	"onboarding.billingPending": {"La verificación de la tarjeta se completa desde la pantalla de pago.", "Card verification is completed from the payment screen."},
	"identity.invalid":          {"Revisa los datos personales.", "Check the personal details."},

	// Mails. The code is the first argument of the texts.
	"mail.verify.subject": {"Tu código para verificar el correo en Patrimonio", "Your code to verify your e-mail address on Patrimonio"},
	"mail.verify.text": {"Hola:\n\nTu código para verificar el correo electrónico es:\n\n    %s\n\nCaduca en %d minutos. Si no has creado una cuenta en Patrimonio, ignora este mensaje.\n",
		"Hello,\n\nYour code to verify your e-mail address is:\n\n    %s\n\nIt expires in %d minutes. If you did not create a Patrimonio account, ignore this message.\n"},
	"mail.reverify.subject": {"Tu código para confirmar tu identidad en Patrimonio", "Your code to confirm your identity on Patrimonio"},
	"mail.reverify.text": {"Hola:\n\nTu código para confirmar tu identidad es:\n\n    %s\n\nCaduca en %d minutos. Si no lo has pedido tú, cambia tu contraseña.\n",
		"Hello,\n\nYour code to confirm your identity is:\n\n    %s\n\nIt expires in %d minutes. If you did not ask for it, change your password.\n"},

	"mail.changeEmail.subject": {"Tu código para cambiar el correo de tu cuenta de Patrimonio", "Your code to change the e-mail address of your Patrimonio account"},
	"mail.changeEmail.text": {"Hola:\n\nHas pedido usar esta dirección de correo electrónico en tu cuenta de Patrimonio. Tu código es:\n\n    %s\n\nCaduca en %d minutos. Si no lo has pedido tú, ignora este mensaje: la dirección no se usará.\n",
		"Hello,\n\nYou asked to use this e-mail address for your Patrimonio account. Your code is:\n\n    %s\n\nIt expires in %d minutes. If you did not ask for it, ignore this message: the address will not be used.\n"},
	// The notice to the old address after a change; the argument is the new address, masked.
	"mail.emailChanged.subject": {"El correo de tu cuenta de Patrimonio ha cambiado", "The e-mail address of your Patrimonio account has changed"},
	"mail.emailChanged.text": {"Hola:\n\nLa dirección de correo electrónico de tu cuenta de Patrimonio se ha cambiado a %s. Desde ahora, los avisos y los códigos llegarán allí y esta dirección ya no sirve para iniciar sesión.\n\nSi no has sido tú, ponte en contacto cuanto antes con quien administra tu servidor de Patrimonio.\n",
		"Hello,\n\nThe e-mail address of your Patrimonio account was changed to %s. From now on, notices and codes go there, and this address no longer signs you in.\n\nIf this was not you, contact whoever runs your Patrimonio server as soon as possible.\n"},

	// Sign-up with a taken address: the notice to its owner (sign-in and reset addresses).
	"mail.signupExists.subject": {"Alguien ha intentado crear una cuenta de Patrimonio con tu correo", "Someone tried to create a Patrimonio account with your e-mail address"},
	"mail.signupExists.text": {"Hola:\n\nAlguien ha intentado crear una cuenta de Patrimonio con esta dirección de correo electrónico, pero ya tienes una.\n\nSi has sido tú, inicia sesión en %s o, si no recuerdas la contraseña, restablécela en %s.\n\nSi no has sido tú, ignora este mensaje: tu cuenta no ha cambiado.\n",
		"Hello,\n\nSomeone tried to create a Patrimonio account with this e-mail address, but you already have one.\n\nIf it was you, sign in at %s or, if you do not remember the password, reset it at %s.\n\nIf it was not you, ignore this message: your account has not changed.\n"},
	// Password reset: the code, its lifetime in minutes and the link.
	"mail.resetPassword.subject": {"Restablece tu contraseña de Patrimonio", "Reset your Patrimonio password"},
	"mail.resetPassword.text": {"Hola:\n\nPara elegir una nueva contraseña, introduce este código:\n\n    %s\n\no abre este enlace (caduca en %d minutos):\n\n    %s\n\nSi no lo has pedido tú, ignora este mensaje: tu contraseña no cambiará.\n",
		"Hello,\n\nTo choose a new password, enter this code:\n\n    %s\n\nor open this link (it expires in %d minutes):\n\n    %s\n\nIf you did not ask for it, ignore this message: your password will not change.\n"},
	"mail.passwordChanged.subject": {"La contraseña de tu cuenta de Patrimonio ha cambiado", "The password of your Patrimonio account has changed"},
	"mail.passwordChanged.text": {"Hola:\n\nLa contraseña de tu cuenta de Patrimonio se ha cambiado y se ha cerrado la sesión en tus otros dispositivos.\n\nSi no has sido tú, restablece la contraseña cuanto antes en %s.\n",
		"Hello,\n\nThe password of your Patrimonio account was changed, and your other devices were signed out.\n\nIf this was not you, reset the password as soon as possible at %s.\n"},

	// Deleting the account.
	"account.lastOwner": {"No puedes eliminar tu cuenta: eres el único propietario de %s, que tiene otros miembros. Haz propietario a otro miembro o elimina ese espacio de trabajo antes.",
		"You cannot delete your account: you are the only owner of %s, which has other members. Make another member an owner or delete that workspace first."},
	"account.lastOwnerMany": {"No puedes eliminar tu cuenta: eres el único propietario de estos espacios de trabajo, que tienen otros miembros: %s. Haz propietario a otro miembro o elimina esos espacios de trabajo antes.",
		"You cannot delete your account: you are the only owner of these workspaces, which have other members: %s. Make another member an owner or delete those workspaces first."},

	// The profile: username and image (spec §5).
	"username.length":     {"El nombre de usuario debe tener entre %d y %d caracteres.", "The username must have between %d and %d characters."},
	"username.characters": {"El nombre de usuario solo puede tener letras, números, puntos, guiones y guiones bajos.", "The username can only have letters, digits, dots, hyphens and underscores."},
	"username.taken":      {"Ese nombre de usuario ya está en uso. Elige otro.", "That username is taken. Choose another one."},
	"avatar.empty":        {"Elige una imagen.", "Choose an image."},
	"avatar.tooLarge":     {"La imagen debe pesar menos de %d MB.", "The image must be smaller than %d MB."},
	"avatar.format":       {"La imagen debe ser JPG, PNG, GIF o WEBP.", "The image must be a JPG, PNG, GIF or WEBP."},
	"avatar.dimensions":   {"La imagen es demasiado grande en píxeles.", "The image has too many pixels."},
	"avatar.none":         {"No hay imagen de perfil.", "There is no profile image."},

	// Workspaces.
	"workspace.personalName": {"Personal", "Personal"},
}

// Message returns the text of key in lang, filled with args. An unknown key returns the key
// itself (a test makes sure every key used exists).
func Message(lang, key string, args ...any) string {
	texts, ok := catalogue[key]
	if !ok {
		return key
	}
	text := texts[0]
	if core.NormalizeLanguage(lang) == LangEN {
		text = texts[1]
	}
	if len(args) == 0 {
		return text
	}
	return fmt.Sprintf(text, args...)
}

// msg is Message in the language of ctx.
func msg(ctx context.Context, key string, args ...any) string {
	return Message(core.LanguageFrom(ctx), key, args...)
}

// errorf returns a *core.Error with code and the message of key in the language of ctx.
func errorf(ctx context.Context, code, key string, args ...any) *core.Error {
	return &core.Error{Code: code, Message: msg(ctx, key, args...)}
}

// RetryError is a refusal that may be retried after a while (throttling, resend interval). The
// HTTP layer sends After as Retry-After.
type RetryError struct {
	Err   *core.Error
	After time.Duration
}

func (e *RetryError) Error() string { return e.Err.Error() }
func (e *RetryError) Unwrap() error { return e.Err }

// RetryAfterSeconds is After in whole seconds, rounded up, at least 1.
func (e *RetryError) RetryAfterSeconds() int {
	s := int((e.After + time.Second - 1) / time.Second)
	return max(1, s)
}

// FieldError is a problem with one field of a submitted document.
type FieldError struct {
	Path    string
	Message string
}

// ValidationError is an EINVALID error that names the fields at fault.
type ValidationError struct {
	Err    *core.Error
	Fields []FieldError
}

func (e *ValidationError) Error() string { return e.Err.Error() }
func (e *ValidationError) Unwrap() error { return e.Err }

// ErrorMessage returns the text of key in the language of ctx, for the HTTP layer's own refusals
// (no session, cross-site request).
func ErrorMessage(ctx context.Context, key string, args ...any) string { return msg(ctx, key, args...) }
