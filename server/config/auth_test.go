package config_test

import (
	"strings"
	"testing"

	"patrimonio/server/config"
)

const (
	testPK  = "pk_test_Y2xlcmsucGF0cmltb25pby50ZXN0JA" // base64("clerk.patrimonio.test$")
	testPEM = "-----BEGIN PUBLIC KEY-----\nMIIB...\n-----END PUBLIC KEY-----"
)

func TestLoadConfigChoosesTheAuthProvider(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want config.AuthConfig
	}{
		{
			name: "without configuration the local provider signs users in",
			want: config.AuthConfig{},
		},
		{
			name: "local is the local provider",
			env:  map[string]string{"PATRIMONIO_AUTH_PROVIDER": "local"},
			want: config.AuthConfig{},
		},
		{
			name: "clerk with a publishable key and a PEM key is networkless Clerk",
			env: map[string]string{"PATRIMONIO_AUTH_PROVIDER": "Clerk", "CLERK_PUBLISHABLE_KEY": testPK,
				"CLERK_JWT_KEY": testPEM},
			want: config.AuthConfig{AuthProvider: "clerk", ClerkPublishableKey: testPK, ClerkJWTKey: testPEM},
		},
		{
			name: "clerk with a secret key fetches keys from the Backend API",
			env: map[string]string{"PATRIMONIO_AUTH_PROVIDER": "clerk", "CLERK_PUBLISHABLE_KEY": testPK,
				"CLERK_SECRET_KEY": "sk_test_abc", "CLERK_API_URL": "http://localhost:9999/v1/"},
			want: config.AuthConfig{AuthProvider: "clerk", ClerkPublishableKey: testPK, ClerkSecretKey: "sk_test_abc",
				ClerkAPIURL: "http://localhost:9999/v1"},
		},
		{
			name: "clerk with a JWKS URL, given by flags",
			args: []string{"-auth-provider", "clerk", "-clerk-publishable-key", testPK,
				"-clerk-jwks-url", "https://clerk.patrimonio.test/.well-known/jwks.json"},
			want: config.AuthConfig{AuthProvider: "clerk", ClerkPublishableKey: testPK,
				ClerkJWKSURL: "https://clerk.patrimonio.test/.well-known/jwks.json"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := config.Load(envFrom(tt.env), tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.AuthConfig != tt.want {
				t.Fatalf("got  %+v\nwant %+v", cfg.AuthConfig, tt.want)
			}
			wantProvider := "local"
			if tt.want.AuthProvider != "" {
				wantProvider = tt.want.AuthProvider
			}
			if cfg.Provider() != wantProvider {
				t.Fatalf("provider %q, want %q", cfg.Provider(), wantProvider)
			}
		})
	}
}

func TestLoadConfigRejectsBadAuthValues(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		wantErr string
	}{
		{"an unknown provider", map[string]string{"PATRIMONIO_AUTH_PROVIDER": "auth0"}, "PATRIMONIO_AUTH_PROVIDER"},
		{"clerk without a publishable key", map[string]string{"PATRIMONIO_AUTH_PROVIDER": "clerk", "CLERK_JWT_KEY": testPEM}, "needs CLERK_PUBLISHABLE_KEY"},
		{"clerk without a way to verify tokens", map[string]string{"PATRIMONIO_AUTH_PROVIDER": "clerk", "CLERK_PUBLISHABLE_KEY": testPK}, "needs a way to verify"},
		{"a publishable key of another kind", map[string]string{"CLERK_PUBLISHABLE_KEY": "sk_test_abc"}, "CLERK_PUBLISHABLE_KEY"},
		{"a secret key of another kind", map[string]string{"CLERK_SECRET_KEY": "pk_test_abc"}, "CLERK_SECRET_KEY"},
		{"a JWT key that is not a PEM public key", map[string]string{"CLERK_JWT_KEY": "MIIBIjANBg"}, "CLERK_JWT_KEY"},
		{"a JWKS URL over plain http", map[string]string{"CLERK_JWKS_URL": "http://clerk.example.com/jwks"}, "CLERK_JWKS_URL"},
		{"a JWKS URL that is not absolute", map[string]string{"CLERK_JWKS_URL": "/jwks"}, "CLERK_JWKS_URL"},
		{"an API URL with a password", map[string]string{"CLERK_API_URL": "https://u:p@api.clerk.com/v1"}, "CLERK_API_URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is refused", func(t *testing.T) {
			_, err := config.Load(envFrom(tt.env), nil)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %v, want one naming %s", err, tt.wantErr)
			}
		})
	}
}
