package core

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
)

// The one catalogue of the server's user-visible messages: messages/es.json and messages/en.json,
// a flat object each, key → text. A key starts with its area (account., passkey., clerk.,
// workspace., admin., billing., enums., authz., http.). Texts with fmt verbs (%s, %d) take the same
// arguments, in the same order, in both languages; a test checks that both files have the same
// keys and verbs, and that every key the code names exists and every key is used. The shared
// schema's validation messages are not here: they live with the schema (shared-schema/messages).
//
//go:embed messages/es.json messages/en.json
var messageFiles embed.FS

// catalogue holds the texts by language, then key; read once at start.
var catalogue = func() map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, lang := range []string{LangES, LangEN} {
		b, err := messageFiles.ReadFile("messages/" + lang + ".json")
		if err != nil {
			panic(err)
		}
		texts := map[string]string{}
		if err := json.Unmarshal(b, &texts); err != nil {
			panic(fmt.Sprintf("core: messages/%s.json: %v", lang, err))
		}
		out[lang] = texts
	}
	return out
}()

// TextIn returns the text of key in lang ("es" or "en"; anything else is Spanish), filled with
// args. An unknown key returns the key itself (a test makes sure every key used exists).
func TextIn(lang, key string, args ...any) string {
	text, ok := catalogue[NormalizeLanguage(lang)][key]
	if !ok {
		return key
	}
	if len(args) == 0 {
		return text
	}
	return fmt.Sprintf(text, args...)
}

// Text returns the text of key in the language of ctx (WithLanguage), filled with args.
func Text(ctx context.Context, key string, args ...any) string {
	return TextIn(LanguageFrom(ctx), key, args...)
}

// Refuse returns an *Error with code and the text of key in the language of ctx, filled with args.
func Refuse(ctx context.Context, code, key string, args ...any) *Error {
	return &Error{Code: code, Message: Text(ctx, key, args...)}
}
