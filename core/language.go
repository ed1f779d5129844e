package core

import (
	"context"
	"strings"
)

// The languages of user-visible messages. Spanish is the default: the app's locale is es-ES.
const (
	LangES = "es"
	LangEN = "en"
)

// languageKey is the private context key of the language of messages.
type languageKey struct{}

// NormalizeLanguage returns LangEN for "en" (any case) and LangES for anything else.
func NormalizeLanguage(lang string) string {
	if strings.EqualFold(strings.TrimSpace(lang), LangEN) {
		return LangEN
	}
	return LangES
}

// WithLanguage returns a context whose user-visible messages are in lang ("es" or "en"; anything
// else is Spanish). The HTTP layer sets it from Accept-Language; every service that words a
// message reads it with LanguageFrom.
func WithLanguage(ctx context.Context, lang string) context.Context {
	return context.WithValue(ctx, languageKey{}, NormalizeLanguage(lang))
}

// LanguageFrom returns the language of messages carried by ctx, Spanish when none is.
func LanguageFrom(ctx context.Context) string {
	if l, ok := ctx.Value(languageKey{}).(string); ok {
		return l
	}
	return LangES
}
