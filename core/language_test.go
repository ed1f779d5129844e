package core_test

import (
	"context"
	"testing"

	"patrimonio/core"
)

func TestTheLanguageTravelsInTheContextWithSpanishAsTheDefault(t *testing.T) {
	for _, tt := range []struct {
		name string
		ctx  context.Context
		want string
	}{
		{"a context without a language is Spanish", context.Background(), core.LangES},
		{"English is kept", core.WithLanguage(context.Background(), "en"), core.LangEN},
		{"English in capitals is English", core.WithLanguage(context.Background(), " EN "), core.LangEN},
		{"Spanish is kept", core.WithLanguage(context.Background(), "es"), core.LangES},
		{"an unsupported language falls back to Spanish", core.WithLanguage(context.Background(), "fr"), core.LangES},
		{"the innermost language wins", core.WithLanguage(core.WithLanguage(context.Background(), "en"), "es"), core.LangES},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := core.LanguageFrom(tt.ctx); got != tt.want {
				t.Fatalf("LanguageFrom = %q, want %q", got, tt.want)
			}
		})
	}
}
