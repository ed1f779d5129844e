// Package account is Patrimonio's local auth provider and the home of users and their sessions:
// sign-up and sign-in with e-mail and password (argon2id), server-side sessions with idle and
// absolute expiry, e-mailed codes (e-mail verification and re-verification), the TOTP second
// factor with single-use recovery codes, re-verification for sensitive actions, throttling of
// failed attempts (kept in the database, so it holds across server instances), onboarding progress,
// personal identity, and the app admin flag.
//
// The package is several services, one per concern (Services: Users, Signup, Sessions,
// SecondFactors, Reverify, Profile), built together by New over one shared base. The HTTP layer
// (server/httpapi) decodes requests and calls the service it needs; the services own their
// transactions and tell the time through Options.Now, which tests set. Every user-visible message is
// in the server's one catalogue (core/messages, keys "account.…"), in Spanish and English; the
// language travels in the context (core.WithLanguage).
package account

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"patrimonio/server/store"
)

// Onboarding steps, in order. Billing is only part of the flow when Config.Billing is on.
const (
	StepVerifyEmail     = "verify_email"
	StepSecurityTOTP    = "security_totp"
	StepSecurityPasskey = "security_passkey"
	StepPersonalInfo    = "personal_info"
	StepBilling         = "billing"
	StepDone            = "done"
)

// User is a person with an account.
type User struct {
	ID    string
	Email string // lower case
	// EmailVerifiedAt is zero until the address is verified.
	EmailVerifiedAt time.Time
	// HasPassword is false for users who sign in with Clerk or passkeys only.
	HasPassword bool
	ClerkUserID string
	// IsAdmin is the stored flag or a configured admin address (Config.AdminEmails).
	IsAdmin bool
	// Username is the user's chosen handle (3 to 20 characters, unique ignoring case), "" if none.
	Username string
	// HasAvatar says whether the user uploaded a profile image.
	HasAvatar      bool
	Identity       Identity
	OnboardingStep string
	TOTPEnabled    bool
	// DisabledAt is when an admin disabled the account (zero: enabled). A disabled user cannot
	// sign in and has no session (server/admin ends them).
	DisabledAt time.Time
	CreatedAt  time.Time
	UpdatedAt  time.Time

	passwordHash string
}

// EmailVerified says whether the address was verified.
func (u *User) EmailVerified() bool { return !u.EmailVerifiedAt.IsZero() }

// Disabled says whether an admin disabled the account.
func (u *User) Disabled() bool { return !u.DisabledAt.IsZero() }

// Identity is the personal identity of a user (all fields empty until given).
type Identity struct {
	FirstName string
	LastName  string
	Birthday  string // YYYY-MM-DD
	Gender    string // female, male, other
	Country   string // ISO 3166-1 alpha-2
	State     string
}

// Session is a signed-in device. Its ID is the hex SHA-256 of the token in the cookie.
type Session struct {
	ID         string
	UserID     string
	CreatedAt  time.Time
	LastSeenAt time.Time
	// ExpiresAt is the absolute expiry; the idle expiry is LastSeenAt + Config.SessionIdle.
	ExpiresAt time.Time
	// ReverifiedAt is the time of the last proof of identity (sign-in counts); zero if none.
	ReverifiedAt time.Time
	// ReverifiedMFA says whether that proof included a second factor (TOTP code, passkey).
	ReverifiedMFA bool
	// MFAPending is true between a right password and the second factor.
	MFAPending bool
	UserAgent  string
	IP         string
}

// SessionMeta describes the device starting a session.
type SessionMeta struct {
	UserAgent string
	IP        string
}

// Onboarding is where a user is in the onboarding flow.
type Onboarding struct {
	Step      string
	Completed bool
}

// PasswordParams are the argon2id parameters of new password hashes.
type PasswordParams struct {
	Memory  uint32 // KiB
	Time    uint32 // passes
	Threads uint8
}

// DefaultPasswordParams take about 90 ms per hash on the 2-core development machine (measured:
// m=64 MiB, t=3, p=2 → 85–95 ms; t=1 → 25–30 ms, t=2 → 55–60 ms).
var DefaultPasswordParams = PasswordParams{Memory: 64 * 1024, Time: 3, Threads: 2}

// Config holds the rules of the service. DefaultConfig gives the production values; tests make
// hashing cheap and leave the rest.
type Config struct {
	Password PasswordParams
	// MinPasswordLength and MaxPasswordLength count characters (Unicode code points).
	MinPasswordLength int
	MaxPasswordLength int

	// AdminEmails are lower-case addresses that are app admins (PATRIMONIO_ADMIN_EMAILS).
	AdminEmails []string

	SessionIdle     time.Duration // sliding idle expiry
	SessionAbsolute time.Duration // absolute expiry from sign-in
	// SessionTouch is the least time between two updates of a session's last_seen_at.
	SessionTouch time.Duration
	// MFAPendingTTL bounds how long a password-only session waits for its second factor.
	MFAPendingTTL time.Duration
	// ReverifyWindow is how long a proof of identity keeps sensitive actions open.
	ReverifyWindow time.Duration

	EmailCodeTTL      time.Duration
	EmailCodeAttempts int
	// EmailResendInterval is the least time between two codes of the same purpose.
	EmailResendInterval time.Duration

	// TOTPSetupTTL bounds how long a TOTP secret being set up waits for its first code.
	TOTPSetupTTL time.Duration

	// Failed attempts allowed per window (throttle.go): per account and client IP (so that a
	// stranger's failures never lock the owner out), per IP across accounts, and per account from
	// every IP together (a distributed guess; the owner still gets in with a password reset, which
	// clears it).
	ThrottleWindow      time.Duration
	AccountFailures     int
	IPFailures          int
	AccountWideFailures int
	// PasswordResetTTL is how long an e-mailed reset link and code work; ResetRequestsIP bounds
	// the reset requests per IP and window.
	PasswordResetTTL time.Duration
	ResetRequestsIP  int
	// SignUpRequestsIP bounds the sign-ups and sign-up code resends per IP (an IPv6 /64) and window,
	// together: each may send a mail to an address the caller chose (PATRIMONIO_SIGNUPS_PER_IP).
	SignUpRequestsIP int

	// Billing adds the billing step to onboarding (a later issue).
	Billing bool
	// Issuer names the app in authenticator apps.
	Issuer string
	// PublicURL is the app's address (PATRIMONIO_PUBLIC_URL); e-mailed password-reset links point
	// at PublicURL + "/password/reset".
	PublicURL string

	// SecretKey (32 bytes) encrypts TOTP secrets at rest (secretbox.go). Without it the service
	// works, but refuses to store or read TOTP secrets (ErrNoSecretKey): it never keeps them in
	// plaintext.
	SecretKey []byte
}

// DefaultConfig returns the production rules.
func DefaultConfig() Config {
	return Config{
		Password:            DefaultPasswordParams,
		MinPasswordLength:   10,
		MaxPasswordLength:   256,
		SessionIdle:         7 * 24 * time.Hour,
		SessionAbsolute:     30 * 24 * time.Hour,
		SessionTouch:        time.Minute,
		MFAPendingTTL:       10 * time.Minute,
		ReverifyWindow:      10 * time.Minute,
		EmailCodeTTL:        15 * time.Minute,
		EmailCodeAttempts:   5,
		EmailResendInterval: time.Minute,
		TOTPSetupTTL:        30 * time.Minute,
		ThrottleWindow:      15 * time.Minute,
		AccountFailures:     5,
		IPFailures:          20,
		AccountWideFailures: 50,
		PasswordResetTTL:    30 * time.Minute,
		ResetRequestsIP:     20,
		SignUpRequestsIP:    20,
		Issuer:              "Patrimonio",
	}
}

// Hooks are what the account services tell, or ask, the rest of the app. They are given to New
// (each may be nil) and never change afterwards.
type Hooks struct {
	// HasPasskey tells whether a user has registered a passkey: a passkey is a second factor
	// (SecondFactors.HasSecondFactor, Reverify.RequireSecondFactorProof) and completes the
	// onboarding's passkey step (Profile.AdvanceOnboarding). The passkey provider's Has.
	HasPasskey func(ctx context.Context, userID string) (bool, error)
	// OnSessionEnded is told the id of every session the services end (sign-out, the other
	// sessions after a security event), so live connections opened with it (the sync socket) close
	// at once instead of at their next session check.
	OnSessionEnded func(sessionID string)
	// OnUserEnded is told the id of a deleted user, so every live connection of the user closes at
	// once.
	OnUserEnded func(userID string)
	// BeforeDelete runs before an account is deleted, outside any transaction, once the deletion is
	// known to be allowed; an error refuses the deletion (nothing deleted). With billing on it
	// cancels the user's Stripe subscriptions (billing.Service.CancelSubscriptions).
	BeforeDelete func(ctx context.Context, userID string) error
}

// Options are what New needs besides the database and the rules.
type Options struct {
	// Mailer delivers e-mailed codes and notices (nil: none are sent).
	Mailer Mailer
	// Logger receives the few events worth logging (mail failures, sweeps); nil discards them.
	Logger *slog.Logger
	// Now tells the time (nil: time.Now); tests pass their clock.
	Now   func() time.Time
	Hooks Hooks
}

// Services are the account services, one per concern, over one shared base (the database, the
// rules, the clock, the mailer, the throttle and the password hasher). server/app builds them once
// with New; each handler uses the one it needs.
type Services struct {
	// Users looks users up, provisions Clerk's, sets the admin flag and sweeps expired rows.
	Users *Users
	// Signup is sign-up with its e-mailed code, e-mail verification and password reset.
	Signup *Signup
	// Sessions is sign-in (password, then the second factor), sessions, sign-out and devices.
	Sessions *Sessions
	// SecondFactors is the TOTP second factor, its recovery codes and the sealed TOTP secrets.
	SecondFactors *SecondFactors
	// Reverify is re-verification for sensitive actions (the proofs a session holds).
	Reverify *Reverify
	// Profile is the user's own account: username, avatar, identity, onboarding, e-mail and
	// password change, deletion.
	Profile *Profile
}

// Users looks users up and keeps the stored admin flag (users.go).
type Users struct{ *base }

// Signup signs people up and verifies their address; it also resets forgotten passwords
// (signin.go, emailcode.go, passwordchange.go).
type Signup struct{ *base }

// Sessions signs people in and keeps their sessions (signin.go, sessions.go, security.go).
type Sessions struct{ *base }

// SecondFactors keeps the TOTP second factor and its recovery codes (totp.go, secretbox.go).
type SecondFactors struct{ *base }

// Reverify is the proof of identity that sensitive actions ask for (reverify.go, sessions.go).
type Reverify struct{ *base }

// Profile is what a user changes of their own account (profile.go, reverify.go, emailchange.go,
// passwordchange.go, delete.go).
type Profile struct{ *base }

// base is what the services share: the database, the rules, the mailer, the clock, the hooks,
// the password hasher's bounds and the sweep of expired rows. Its helpers are unexported; every
// exported method belongs to one service.
type base struct {
	db     *store.DB
	cfg    Config
	mailer Mailer
	logger *slog.Logger
	box    *secretBox // nil without Config.SecretKey
	clock  func() time.Time
	hooks  Hooks

	dummyHash   string        // a hash of a random password, checked for unknown e-mails
	hashSlots   chan struct{} // bounds concurrent argon2id runs (64 MiB each)
	lastCleanup atomic.Int64  // unix seconds of the last sweep of expired rows
}

// New returns the account services over db with the rules cfg.
func New(db *store.DB, cfg Config, opts Options) (*Services, error) {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	clock := opts.Now
	if clock == nil {
		clock = time.Now
	}
	if cfg.Password.Memory == 0 || cfg.Password.Time == 0 || cfg.Password.Threads == 0 {
		return nil, fmt.Errorf("account: password parameters must be positive: %+v", cfg.Password)
	}
	if cfg.MinPasswordLength < 1 || cfg.MaxPasswordLength < cfg.MinPasswordLength {
		return nil, fmt.Errorf("account: bad password length limits %d..%d", cfg.MinPasswordLength, cfg.MaxPasswordLength)
	}
	if cfg.Issuer == "" {
		cfg.Issuer = "Patrimonio"
	}
	admins := make([]string, 0, len(cfg.AdminEmails))
	for _, e := range cfg.AdminEmails {
		if e = NormalizeEmail(e); e != "" {
			admins = append(admins, e)
		}
	}
	cfg.AdminEmails = admins
	var box *secretBox
	if len(cfg.SecretKey) > 0 {
		var err error
		if box, err = newSecretBox(cfg.SecretKey); err != nil {
			return nil, err
		}
	}
	cfg.SecretKey = nil // the box holds it; Config() is shown to callers
	b := &base{
		db:        db,
		cfg:       cfg,
		mailer:    opts.Mailer,
		logger:    logger,
		box:       box,
		clock:     clock,
		hooks:     opts.Hooks,
		hashSlots: make(chan struct{}, max(1, runtime.NumCPU())),
	}
	dummy, err := hashPassword(randomToken(), cfg.Password)
	if err != nil {
		return nil, err
	}
	b.dummyHash = dummy
	return &Services{Users: &Users{b}, Signup: &Signup{b}, Sessions: &Sessions{b},
		SecondFactors: &SecondFactors{b}, Reverify: &Reverify{b}, Profile: &Profile{b}}, nil
}

// Config returns the rules the services run with (without the secret key).
func (s *Services) Config() Config { return s.Users.cfg }

// Now is the services' clock (Options.Now).
func (s *Services) Now() time.Time { return s.Users.clock() }

// now is the current time in UTC, truncated to microseconds, the precision both databases keep.
func (s *base) now() time.Time { return s.clock().UTC().Truncate(time.Microsecond) }

func (s *base) isConfiguredAdmin(email string) bool {
	return slices.Contains(s.cfg.AdminEmails, strings.ToLower(email))
}

// Context values: the signed-in user and session. The language of messages travels in the
// context too, through core.WithLanguage.
type authKey struct{}

type auth struct {
	user    *User
	session *Session
}

// WithAuth returns a context carrying the signed-in user and session.
func WithAuth(ctx context.Context, u *User, s *Session) context.Context {
	return context.WithValue(ctx, authKey{}, auth{u, s})
}

// AuthFrom returns the user and session carried by ctx; ok is false when nobody is signed in.
func AuthFrom(ctx context.Context) (u *User, s *Session, ok bool) {
	a, ok := ctx.Value(authKey{}).(auth)
	if !ok || a.user == nil {
		return nil, nil, false
	}
	return a.user, a.session, true
}
