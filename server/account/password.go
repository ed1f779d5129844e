package account

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/subtle"
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
	"golang.org/x/text/unicode/norm"

	"patrimonio/core"
)

// Passwords are hashed with argon2id and stored as PHC strings:
//
//	$argon2id$v=19$m=65536,t=3,p=2$<salt, base64 without padding>$<key, base64 without padding>
//
// The parameters travel in the string, so a hash made with older (or test) parameters still
// verifies; a successful sign-in rehashes it with the current ones. Before hashing, a password
// is normalised to Unicode NFC, so that "ñ" typed as one code point or as n + combining tilde is
// the same password on every device.

const (
	saltLen = 16
	keyLen  = 32
)

var errBadHash = errors.New("account: malformed password hash")

func hashPassword(password string, p PasswordParams) (string, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("password salt: %w", err)
	}
	key := argon2.IDKey([]byte(norm.NFC.String(password)), salt, p.Time, p.Memory, p.Threads, keyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.Memory, p.Time, p.Threads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// parseHash reads a PHC argon2id string.
func parseHash(phc string) (p PasswordParams, salt, key []byte, err error) {
	parts := strings.Split(phc, "$")
	// "", "argon2id", "v=19", "m=..,t=..,p=..", salt, key
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" || parts[2] != "v="+strconv.Itoa(argon2.Version) {
		return p, nil, nil, errBadHash
	}
	for _, kv := range strings.Split(parts[3], ",") {
		name, value, ok := strings.Cut(kv, "=")
		if !ok {
			return p, nil, nil, errBadHash
		}
		n, perr := strconv.ParseUint(value, 10, 32)
		if perr != nil || n == 0 {
			return p, nil, nil, errBadHash
		}
		switch name {
		case "m":
			p.Memory = uint32(n)
		case "t":
			p.Time = uint32(n)
		case "p":
			if n > 255 {
				return p, nil, nil, errBadHash
			}
			p.Threads = uint8(n)
		default:
			return p, nil, nil, errBadHash
		}
	}
	if p.Memory == 0 || p.Time == 0 || p.Threads == 0 {
		return p, nil, nil, errBadHash
	}
	b64 := base64.RawStdEncoding
	if salt, err = b64.DecodeString(parts[4]); err != nil || len(salt) < 8 {
		return p, nil, nil, errBadHash
	}
	if key, err = b64.DecodeString(parts[5]); err != nil || len(key) < 16 {
		return p, nil, nil, errBadHash
	}
	return p, salt, key, nil
}

// verifyPassword says whether password matches the PHC hash, and whether the hash was made with
// parameters other than current (so it should be replaced).
func verifyPassword(password, phc string, current PasswordParams) (ok, stale bool, err error) {
	p, salt, key, err := parseHash(phc)
	if err != nil {
		return false, false, err
	}
	got := argon2.IDKey([]byte(norm.NFC.String(password)), salt, p.Time, p.Memory, p.Threads, uint32(len(key)))
	return subtle.ConstantTimeCompare(got, key) == 1, p != current, nil
}

// hash and verify run argon2id under the service's slots, so that a burst of sign-ins cannot
// allocate 64 MiB each all at once.
func (s *base) hash(ctx context.Context, password string) (string, error) {
	if err := s.takeSlot(ctx); err != nil {
		return "", err
	}
	defer s.releaseSlot()
	return hashPassword(password, s.cfg.Password)
}

func (s *base) verify(ctx context.Context, password, phc string) (ok, stale bool, err error) {
	if err := s.takeSlot(ctx); err != nil {
		return false, false, err
	}
	defer s.releaseSlot()
	return verifyPassword(password, phc, s.cfg.Password)
}

func (s *base) takeSlot(ctx context.Context) error {
	select {
	case s.hashSlots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("wait for a password hashing slot: %w", ctx.Err())
	}
}

func (s *base) releaseSlot() { <-s.hashSlots }

// PasswordContext is what a password must not be: the user's own address and names.
type PasswordContext struct {
	Email     string
	FirstName string
	LastName  string
	Username  string
}

func passwordContextOf(u *User) PasswordContext {
	return PasswordContext{Email: u.Email, FirstName: u.Identity.FirstName, LastName: u.Identity.LastName, Username: u.Username}
}

// checkPasswordPolicy enforces the length limits and refuses blank and common passwords, and the
// user's own e-mail address (or its part before @) and names, compared like common passwords
// (ignoring case, spaces and symbol swaps).
func (s *base) checkPasswordPolicy(ctx context.Context, password string, pc PasswordContext) error {
	n := utf8.RuneCountInString(password)
	switch {
	case n == 0:
		return core.Refuse(ctx, core.EINVALID, "account.password.required")
	case strings.TrimSpace(password) == "":
		return core.Refuse(ctx, core.EINVALID, "account.password.blank")
	case !validText(password):
		return core.Refuse(ctx, core.EINVALID, "account.password.badCharacters")
	case n < s.cfg.MinPasswordLength:
		return core.Refuse(ctx, core.EINVALID, "account.password.tooShort", s.cfg.MinPasswordLength)
	case n > s.cfg.MaxPasswordLength:
		return core.Refuse(ctx, core.EINVALID, "account.password.tooLong", s.cfg.MaxPasswordLength)
	case IsCommonPassword(password):
		return core.Refuse(ctx, core.EINVALID, "account.password.compromised")
	}
	folded := foldPassword(password)
	local, _, _ := strings.Cut(pc.Email, "@")
	for _, own := range []string{pc.Email, local, pc.FirstName, pc.LastName, pc.FirstName + pc.LastName, pc.LastName + pc.FirstName, pc.Username} {
		if f := foldPassword(own); f != "" && f == folded {
			return core.Refuse(ctx, core.EINVALID, "account.password.personal")
		}
	}
	return nil
}

// commonPasswordsText is the shipped list of common passwords, generated by
// common_passwords_gen.go (go generate ./server/account): frequent passwords and words of public
// breach lists, in English and Spanish, with the usual capitalisation, digits, years and symbols
// around them, keyboard walks and digit runs. No list is downloaded.
//
//go:generate go run common_passwords_gen.go
//go:embed common_passwords.txt
var commonPasswordsText string

var commonPasswords = sync.OnceValue(func() map[string]struct{} {
	set := make(map[string]struct{}, 8192)
	sc := bufio.NewScanner(strings.NewReader(commonPasswordsText))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		set[foldPassword(line)] = struct{}{}
	}
	return set
})

// IsCommonPassword says whether password is on the shipped list, ignoring case, spaces and the
// usual letter-for-symbol swaps (P@ssw0rd is password).
func IsCommonPassword(password string) bool {
	_, ok := commonPasswords()[foldPassword(password)]
	return ok
}

// CommonPasswordCount is the number of distinct entries of the shipped list.
func CommonPasswordCount() int { return len(commonPasswords()) }

var leet = strings.NewReplacer("@", "a", "4", "a", "3", "e", "1", "i", "!", "i", "0", "o", "$", "s", "5", "s", "7", "t")

func foldPassword(p string) string {
	p = strings.ToLower(norm.NFC.String(p))
	p = strings.Join(strings.Fields(p), "")
	return leet.Replace(p)
}
