package server_test

import (
	"context"
	"testing"

	"patrimonio/server"
)

func TestTheLanguageTravelsInTheContextWithSpanishAsTheDefault(t *testing.T) {
	for _, tt := range []struct {
		name string
		ctx  context.Context
		want string
	}{
		{"a context without a language is Spanish", context.Background(), server.LangES},
		{"English is kept", server.WithLanguage(context.Background(), "en"), server.LangEN},
		{"English in capitals is English", server.WithLanguage(context.Background(), " EN "), server.LangEN},
		{"Spanish is kept", server.WithLanguage(context.Background(), "es"), server.LangES},
		{"an unsupported language falls back to Spanish", server.WithLanguage(context.Background(), "fr"), server.LangES},
		{"the innermost language wins", server.WithLanguage(server.WithLanguage(context.Background(), "en"), "es"), server.LangES},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := server.LanguageFrom(tt.ctx); got != tt.want {
				t.Fatalf("LanguageFrom = %q, want %q", got, tt.want)
			}
		})
	}
}
