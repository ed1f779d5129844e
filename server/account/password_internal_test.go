package account

import (
	"strings"
	"testing"
)

var cheap = PasswordParams{Memory: 64, Time: 1, Threads: 1}

func TestPasswordHashesArePHCStringsThatVerifyOnlyTheirPassword(t *testing.T) {
	h, err := hashPassword("Grüße aus Málaga 2025", cheap)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=64,t=1,p=1$") || strings.Count(h, "$") != 5 {
		t.Fatalf("hash %q is not an argon2id PHC string with the parameters", h)
	}
	h2, _ := hashPassword("Grüße aus Málaga 2025", cheap)
	if h == h2 {
		t.Fatal("two hashes of one password are equal: the salt is not random")
	}
	tests := []struct {
		name      string
		password  string
		current   PasswordParams
		wantOK    bool
		wantStale bool
	}{
		{"the right password verifies", "Grüße aus Málaga 2025", cheap, true, false},
		{"a password differing in case does not verify", "grüße aus málaga 2025", cheap, false, false},
		{"a decomposed accent is the same password (NFC)", "Gru\u0308ße aus Ma\u0301laga 2025", cheap, true, false},
		{"a hash made with other parameters is stale", "Grüße aus Málaga 2025", DefaultPasswordParams, true, true},
		{"an empty password does not verify", "", cheap, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok, stale, err := verifyPassword(tt.password, h, tt.current)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tt.wantOK || stale != tt.wantStale {
				t.Fatalf("ok=%v stale=%v, want ok=%v stale=%v", ok, stale, tt.wantOK, tt.wantStale)
			}
		})
	}
}

func TestMalformedPasswordHashesAreRefused(t *testing.T) {
	good, _ := hashPassword("whatever it is", cheap)
	parts := strings.Split(good, "$")
	for name, h := range map[string]string{
		"empty":             "",
		"bcrypt":            "$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy",
		"argon2i":           strings.Replace(good, "argon2id", "argon2i", 1),
		"other version":     strings.Replace(good, "v=19", "v=16", 1),
		"zero memory":       strings.Replace(good, "m=64", "m=0", 1),
		"unknown parameter": strings.Replace(good, "p=1", "x=1", 1),
		"too many threads":  strings.Replace(good, "p=1", "p=300", 1),
		"salt not base64":   strings.Join([]string{"", parts[1], parts[2], parts[3], "!!!", parts[5]}, "$"),
		"key too short":     strings.Join([]string{"", parts[1], parts[2], parts[3], parts[4], "AAAA"}, "$"),
		"missing key":       strings.Join(parts[:5], "$"),
	} {
		t.Run("a hash with "+name+" is an error", func(t *testing.T) {
			if _, _, err := verifyPassword("whatever it is", h, cheap); err == nil {
				t.Fatalf("verifyPassword accepted %q", h)
			}
		})
	}
}

func TestTheCommonPasswordListFoldsCaseSpacesAndLeetSwaps(t *testing.T) {
	if n := CommonPasswordCount(); n < 5000 {
		t.Fatalf("the shipped list has %d entries, want thousands", n)
	}
	for _, p := range []string{"password123", "Password123!", "P@ssw0rd2024", "QWERTYUIOP", "qwertyuiop",
		"1234567890", "contraseña123", "Contrasena2025", "teamo 123456", "iloveyou2020", "realmadrid2014",
		"1q2w3e4r5t", "aaaaaaaaaaaa", "Barcelona1234", "patrimonio2025"} {
		if !IsCommonPassword(p) {
			t.Errorf("%q is not recognised as common", p)
		}
	}
	for _, p := range []string{"lentejas con chorizo 42", "Vq8#tR2!mZp4", "my cat eats saffron rice", "correct horse battery staple 9"} {
		if IsCommonPassword(p) {
			t.Errorf("%q is wrongly recognised as common", p)
		}
	}
}
