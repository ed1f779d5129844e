// Package passkey is the WebAuthn part of the local provider (go-webauthn/webauthn): registering
// passkeys for a signed-in user, signing in with a discoverable credential (no user name typed),
// listing and removing passkeys. Ceremony state lives in the database: each challenge is stored at
// begin with a short expiry and deleted at the first finish attempt, so it is used once.
//
// The package knows users by id only; sessions, cookies and the re-verification rule belong to the
// account package and the HTTP layer, which call this service.
package passkey

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
	"github.com/google/uuid"

	"patrimonio/core"
	"patrimonio/server/store"
)

// Limits and lifetimes.
const (
	// CeremonyTTL is how long a challenge may be answered; it is also the timeout the browser is
	// given.
	CeremonyTTL = 5 * time.Minute
	// MaxPerUser is the largest number of passkeys one user may register.
	MaxPerUser = 20
	// MaxNameLen is the longest passkey name, in characters.
	MaxNameLen = 64
	// MaxLoginsPerIP bounds the sign-in ceremonies in flight from one client (an IPv4 address or an
	// IPv6 /64, core.IPBucket), and maxLiveLogins those of everyone: anyone may begin one, and each
	// is a row until it expires. Beyond either, begin answers "too many requests" until some expire.
	MaxLoginsPerIP = 20
	maxLiveLogins  = 10000
	// userHandleLen is the length of the random WebAuthn user handle.
	userHandleLen = 32
	// rpName is the relying party name authenticators show.
	rpName = "Patrimonio"
)

// Options configure the relying party.
type Options struct {
	// PublicURL is the origin users reach (config.Config.PublicURL); its host is the RP ID.
	PublicURL string
	// AllowedOrigins are further origins a ceremony may come from (PATRIMONIO_ALLOWED_ORIGINS, e.g.
	// the Vite dev server). Their hosts must be the RP ID or under it for browsers to accept them.
	AllowedOrigins []string
}

// Service registers passkeys and signs users in with them.
type Service struct {
	db   *store.DB
	wa   *webauthn.WebAuthn
	rpID string

	// Now tells the time; tests replace it.
	Now func() time.Time
}

// New returns the passkey service for the relying party of opts. It fails when the public URL's
// host cannot be an RP ID (an IP address: browsers refuse WebAuthn there), in which case the
// server runs without passkeys.
func New(db *store.DB, opts Options) (*Service, error) {
	u, err := url.Parse(opts.PublicURL)
	if err != nil || u.Hostname() == "" {
		return nil, fmt.Errorf("passkeys: public URL %q has no host", opts.PublicURL)
	}
	rpID := strings.ToLower(u.Hostname())
	if err := protocol.ValidateRPID(rpID); err != nil {
		return nil, fmt.Errorf("passkeys: %q cannot be a WebAuthn relying party id (use a host name, not an IP address): %w", rpID, err)
	}
	origins := []string{opts.PublicURL}
	for _, o := range opts.AllowedOrigins {
		if o != "" && o != opts.PublicURL {
			origins = append(origins, o)
		}
	}
	wa, err := webauthn.New(&webauthn.Config{
		RPID:          rpID,
		RPDisplayName: rpName,
		RPOrigins:     origins,
		// Passkeys: discoverable, with user verification (the authenticator's PIN or biometrics),
		// so a passkey alone is a two-factor sign-in. No attestation: we do not restrict makes.
		AuthenticatorSelection: protocol.AuthenticatorSelection{
			ResidentKey:        protocol.ResidentKeyRequirementRequired,
			RequireResidentKey: protocol.ResidentKeyRequired(),
			UserVerification:   protocol.VerificationRequired,
		},
		AttestationPreference: protocol.PreferNoAttestation,
		Timeouts: webauthn.TimeoutsConfig{
			Login:        webauthn.TimeoutConfig{Timeout: CeremonyTTL, TimeoutUVD: CeremonyTTL},
			Registration: webauthn.TimeoutConfig{Timeout: CeremonyTTL, TimeoutUVD: CeremonyTTL},
		},
		// We request no extension and read none, so an output a client adds on its own (some
		// password managers do) is ignored rather than failing the ceremony.
		ExtensionsUnsolicitedOutputPolicy: protocol.UnsolicitedOutputPolicyIgnore,
	})
	if err != nil {
		return nil, fmt.Errorf("passkeys: %w", err)
	}
	return &Service{db: db, wa: wa, rpID: rpID, Now: time.Now}, nil
}

// RPID is the relying party id: the host of the public URL.
func (s *Service) RPID() string { return s.rpID }

// User is who registers a passkey: the signed-in user.
type User struct {
	ID    string
	Email string
	// DisplayName is what authenticators show beside the e-mail (the person's name, or the e-mail).
	DisplayName string
}

// Passkey is a registered passkey as the user sees it.
type Passkey struct {
	ID         string
	Name       string
	CreatedAt  time.Time
	LastUsedAt *time.Time
	// BackedUp says the credential is synced (backup state flag), e.g. in a password manager.
	BackedUp bool
}

// now is the service clock in UTC, truncated to microseconds, the precision both databases keep.
func (s *Service) now() time.Time { return s.Now().UTC().Truncate(time.Microsecond) }

// waUser is a user as the webauthn library sees it.
type waUser struct {
	id          string // the application's user id
	handle      []byte
	name        string
	displayName string
	credentials []webauthn.Credential
}

func (u *waUser) WebAuthnID() []byte                         { return u.handle }
func (u *waUser) WebAuthnName() string                       { return u.name }
func (u *waUser) WebAuthnDisplayName() string                { return u.displayName }
func (u *waUser) WebAuthnCredentials() []webauthn.Credential { return u.credentials }

// BeginRegistration starts registering a passkey for u in the session sessionID and returns the
// PublicKeyCredentialCreationOptions to give to navigator.credentials.create (as JSON: base64url
// binary fields, the form PublicKeyCredential.parseCreationOptionsFromJSON reads). The user's
// existing passkeys are listed as excluded, so one authenticator is not registered twice.
func (s *Service) BeginRegistration(ctx context.Context, u User, sessionID string) (*protocol.PublicKeyCredentialCreationOptions, error) {
	now := s.now()
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()

	handle, err := userHandle(ctx, tx, u.ID, now)
	if err != nil {
		return nil, err
	}
	creds, err := credentialsOf(ctx, tx, u.ID)
	if err != nil {
		return nil, err
	}
	if len(creds) >= MaxPerUser {
		return nil, core.Refuse(ctx, core.ECONFLICT, "passkey.register.limit", MaxPerUser)
	}
	user := &waUser{id: u.ID, handle: handle, name: u.Email, displayName: orDefault(u.DisplayName, u.Email), credentials: creds}
	creation, session, err := s.wa.BeginRegistration(user,
		webauthn.WithExclusions(webauthn.Credentials(creds).CredentialDescriptors()))
	if err != nil {
		return nil, fmt.Errorf("begin passkey registration: %w", err)
	}
	if err := saveCeremony(ctx, tx, "register", u.ID, sessionID, "", session, now); err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("begin passkey registration: commit: %w", err)
	}
	return &creation.Response, nil
}

// FinishRegistration verifies the authenticator's answer (the PublicKeyCredential as JSON, e.g.
// from credential.toJSON()) to a registration that u began in sessionID, and stores the passkey
// under name ("Llave de acceso N" / "Passkey N" when empty, in the language of ctx).
func (s *Service) FinishRegistration(ctx context.Context, u User, sessionID string, credential []byte, name string) (*Passkey, error) {
	name, err := cleanName(ctx, name)
	if err != nil {
		return nil, err
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(credential)
	if err != nil {
		return nil, fmt.Errorf("parse passkey registration: %s: %w", detail(err), core.Refuse(ctx, core.EINVALID, "passkey.register.failed"))
	}
	session, err := s.takeCeremony(ctx, "register", parsed.Response.CollectedClientData.Challenge, u.ID, sessionID)
	if err != nil {
		return nil, err
	}
	if session == nil {
		return nil, core.Refuse(ctx, core.EINVALID, "passkey.register.gone")
	}

	now := s.now()
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	handle, err := userHandle(ctx, tx, u.ID, now)
	if err != nil {
		return nil, err
	}
	creds, err := credentialsOf(ctx, tx, u.ID)
	if err != nil {
		return nil, err
	}
	if len(creds) >= MaxPerUser {
		return nil, core.Refuse(ctx, core.ECONFLICT, "passkey.register.limit", MaxPerUser)
	}
	user := &waUser{id: u.ID, handle: handle, name: u.Email, displayName: orDefault(u.DisplayName, u.Email), credentials: creds}
	cred, err := s.wa.CreateCredential(user, *session, parsed)
	if err != nil {
		return nil, fmt.Errorf("verify passkey registration: %s: %w", detail(err), core.Refuse(ctx, core.EINVALID, "passkey.register.failed"))
	}
	var taken int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM passkeys WHERE credential_id = ?`, cred.ID).Scan(&taken); err != nil {
		return nil, fmt.Errorf("check passkey credential id: %w", err)
	}
	if taken > 0 {
		return nil, core.Refuse(ctx, core.ECONFLICT, "passkey.register.taken")
	}
	if name == "" {
		name = core.Text(ctx, "passkey.name.default", len(creds)+1)
	}
	p := &Passkey{ID: uuid.NewString(), Name: name, CreatedAt: now, BackedUp: cred.Flags.BackupState}
	transports := make([]string, len(cred.Transport))
	for i, t := range cred.Transport {
		transports[i] = string(t)
	}
	aaguid := cred.Authenticator.AAGUID
	if aaguid == nil {
		aaguid = []byte{}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO passkeys (id, user_id, credential_id, public_key, sign_count,
		clone_warning, transports, aaguid, attestation_format, attachment, user_verified, backup_eligible,
		backup_state, rp_id, name, created_at, last_used_at)
		VALUES (?, ?, ?, ?, ?, false, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
		p.ID, u.ID, cred.ID, cred.PublicKey, int64(cred.Authenticator.SignCount),
		strings.Join(transports, ","), aaguid, cred.AttestationFormat, string(cred.Authenticator.Attachment),
		cred.Flags.UserVerified, cred.Flags.BackupEligible, cred.Flags.BackupState, session.GetRelyingPartyID(s.rpID),
		p.Name, now); err != nil {
		return nil, fmt.Errorf("store passkey: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("store passkey: commit: %w", err)
	}
	return p, nil
}

// BeginLogin starts a usernameless sign-in from the client at ip and returns the
// PublicKeyCredentialRequestOptions for navigator.credentials.get: no allowCredentials, so the
// authenticator offers the passkeys it holds for this site. The ceremony records the client's
// bucket (core.IPBucket: an IPv6 address by its /64), which MaxLoginsPerIP bounds.
func (s *Service) BeginLogin(ctx context.Context, ip string) (*protocol.PublicKeyCredentialRequestOptions, error) {
	ip = core.IPBucket(ip)
	now := s.now()
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var live, fromIP int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN ip = ? THEN 1 ELSE 0 END), 0)
		FROM passkey_ceremonies WHERE kind = 'login' AND expires_at > ?`, ip, now).Scan(&live, &fromIP); err != nil {
		return nil, fmt.Errorf("count passkey sign-ins: %w", err)
	}
	if live >= maxLiveLogins || fromIP >= MaxLoginsPerIP {
		return nil, core.Refuse(ctx, core.ETOOMANY, "passkey.signin.busy")
	}
	assertion, session, err := s.wa.BeginDiscoverableLogin()
	if err != nil {
		return nil, fmt.Errorf("begin passkey sign-in: %w", err)
	}
	if err := saveCeremony(ctx, tx, "login", "", "", ip, session, now); err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("begin passkey sign-in: commit: %w", err)
	}
	return &assertion.Response, nil
}

// FinishLogin verifies the authenticator's assertion (the PublicKeyCredential as JSON) against a
// sign-in begun with BeginLogin, finds the user by the credential's user handle, records the use of
// the passkey and returns the user's id. The caller then starts a session.
func (s *Service) FinishLogin(ctx context.Context, credential []byte) (userID string, err error) {
	parsed, err := protocol.ParseCredentialRequestResponseBytes(credential)
	if err != nil {
		return "", fmt.Errorf("parse passkey assertion: %s: %w", detail(err), core.Refuse(ctx, core.EUNAUTHORIZED, "passkey.signin.failed"))
	}
	session, err := s.takeCeremony(ctx, "login", parsed.Response.CollectedClientData.Challenge, "", "")
	if err != nil {
		return "", err
	}
	if session == nil {
		return "", core.Refuse(ctx, core.EUNAUTHORIZED, "passkey.signin.gone")
	}

	now := s.now()
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return "", err
	}
	defer tx.Rollback()
	var lookupErr error
	_, cred, err := s.wa.ValidatePasskeyLogin(func(_, handle []byte) (webauthn.User, error) {
		user, err := userByHandle(ctx, tx, handle)
		if err != nil {
			lookupErr = err
			return nil, err
		}
		userID = user.id
		return user, nil
	}, *session, parsed)
	if lookupErr != nil && !errors.Is(lookupErr, errUnknownHandle) {
		return "", lookupErr
	}
	if err != nil {
		return "", fmt.Errorf("verify passkey assertion: %s: %w", detail(err), core.Refuse(ctx, core.EUNAUTHORIZED, "passkey.signin.failed"))
	}
	if cred.Authenticator.CloneWarning {
		// The signature counter did not grow: two copies of the key may exist. Refuse this
		// assertion, and keep the warning on the passkey for the record.
		if _, err := tx.Exec(ctx, `UPDATE passkeys SET clone_warning = true WHERE credential_id = ?`, cred.ID); err != nil {
			return "", fmt.Errorf("record passkey clone warning: %w", err)
		}
		if err := tx.Commit(); err != nil {
			return "", fmt.Errorf("record passkey clone warning: commit: %w", err)
		}
		return "", fmt.Errorf("verify passkey assertion: signature counter did not increase: %w", core.Refuse(ctx, core.EUNAUTHORIZED, "passkey.signin.failed"))
	}
	if _, err := tx.Exec(ctx, `UPDATE passkeys SET sign_count = ?, user_verified = ?, backup_state = ?, last_used_at = ?
		WHERE credential_id = ? AND user_id = ?`,
		int64(cred.Authenticator.SignCount), cred.Flags.UserVerified, cred.Flags.BackupState, now, cred.ID, userID); err != nil {
		return "", fmt.Errorf("record passkey use: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return "", fmt.Errorf("record passkey use: commit: %w", err)
	}
	return userID, nil
}

// List returns the passkeys of a user, oldest first.
func (s *Service) List(ctx context.Context, userID string) ([]Passkey, error) {
	rows, err := s.db.Query(ctx, `SELECT id, name, created_at, last_used_at, backup_state
		FROM passkeys WHERE user_id = ? ORDER BY created_at, id`, userID)
	if err != nil {
		return nil, fmt.Errorf("list passkeys: %w", err)
	}
	defer rows.Close()
	out := []Passkey{}
	for rows.Next() {
		var p Passkey
		var lastUsed sql.NullTime
		if err := rows.Scan(&p.ID, &p.Name, &p.CreatedAt, &lastUsed, &p.BackedUp); err != nil {
			return nil, fmt.Errorf("list passkeys: %w", err)
		}
		p.CreatedAt = p.CreatedAt.UTC()
		if lastUsed.Valid {
			t := lastUsed.Time.UTC()
			p.LastUsedAt = &t
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list passkeys: %w", err)
	}
	return out, nil
}

// Has says whether a user has registered a passkey (account.Hooks.HasPasskey).
func (s *Service) Has(ctx context.Context, userID string) (bool, error) {
	n, err := s.Count(ctx, userID)
	return n > 0, err
}

// Count returns how many passkeys a user has.
func (s *Service) Count(ctx context.Context, userID string) (int, error) {
	var n int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM passkeys WHERE user_id = ?`, userID).Scan(&n); err != nil {
		return 0, fmt.Errorf("count passkeys: %w", err)
	}
	return n, nil
}

// Remove deletes one of the user's passkeys. A passkey of another user is "not found".
func (s *Service) Remove(ctx context.Context, userID, passkeyID string) error {
	res, err := s.db.Exec(ctx, `DELETE FROM passkeys WHERE id = ? AND user_id = ?`, passkeyID, userID)
	if err != nil {
		return fmt.Errorf("remove passkey: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("remove passkey: %w", err)
	} else if n == 0 {
		return core.Refuse(ctx, core.ENOTFOUND, "passkey.notFound")
	}
	return nil
}

// Rename gives one of the user's passkeys a new name (trimmed, at most MaxNameLen characters, not
// empty). A passkey of another user is "not found".
func (s *Service) Rename(ctx context.Context, userID, passkeyID, name string) (*Passkey, error) {
	name, err := cleanName(ctx, name)
	if err != nil {
		return nil, err
	}
	if name == "" {
		return nil, core.Refuse(ctx, core.EINVALID, "passkey.name.empty")
	}
	res, err := s.db.Exec(ctx, `UPDATE passkeys SET name = ? WHERE id = ? AND user_id = ?`, name, passkeyID, userID)
	if err != nil {
		return nil, fmt.Errorf("rename passkey: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, fmt.Errorf("rename passkey: %w", err)
	} else if n == 0 {
		return nil, core.Refuse(ctx, core.ENOTFOUND, "passkey.notFound")
	}
	list, err := s.List(ctx, userID)
	if err != nil {
		return nil, err
	}
	for i := range list {
		if list[i].ID == passkeyID {
			return &list[i], nil
		}
	}
	return nil, core.Refuse(ctx, core.ENOTFOUND, "passkey.notFound")
}

// saveCeremony stores the state of a begun ceremony and deletes the expired ones.
func saveCeremony(ctx context.Context, tx *store.Tx, kind, userID, sessionID, ip string, session *webauthn.SessionData, now time.Time) error {
	if _, err := tx.Exec(ctx, `DELETE FROM passkey_ceremonies WHERE expires_at <= ?`, now); err != nil {
		return fmt.Errorf("delete expired passkey ceremonies: %w", err)
	}
	data, err := json.Marshal(session)
	if err != nil {
		return fmt.Errorf("encode passkey ceremony: %w", err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO passkey_ceremonies (challenge, kind, user_id, session_id, ip, data, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		session.Challenge, kind, nullIfEmpty(userID), nullIfEmpty(sessionID), ip, string(data), now, now.Add(CeremonyTTL)); err != nil {
		return fmt.Errorf("store passkey ceremony: %w", err)
	}
	return nil
}

// takeCeremony deletes the ceremony of the given kind and challenge (bound to userID and sessionID
// for a registration) and returns its state, or nil when there is none or it has expired. It commits
// at once, so a challenge is gone after its first finish attempt, whatever the outcome.
func (s *Service) takeCeremony(ctx context.Context, kind, challenge, userID, sessionID string) (*webauthn.SessionData, error) {
	if challenge == "" {
		return nil, nil
	}
	now := s.now()
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	q := `DELETE FROM passkey_ceremonies WHERE challenge = ? AND kind = ?`
	args := []any{challenge, kind}
	if kind == "register" {
		q += ` AND user_id = ? AND session_id = ?`
		args = append(args, userID, sessionID)
	}
	var data string
	var expires time.Time
	err = tx.QueryRow(ctx, q+` RETURNING data, expires_at`, args...).Scan(&data, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("take passkey ceremony: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("take passkey ceremony: commit: %w", err)
	}
	if !now.Before(expires) {
		return nil, nil
	}
	var session webauthn.SessionData
	if err := json.Unmarshal([]byte(data), &session); err != nil {
		return nil, fmt.Errorf("decode passkey ceremony: %w", err)
	}
	return &session, nil
}

// userHandle returns the user's WebAuthn user handle, creating it on first use.
func userHandle(ctx context.Context, tx *store.Tx, userID string, now time.Time) ([]byte, error) {
	var handle []byte
	err := tx.QueryRow(ctx, `SELECT user_handle FROM passkey_users WHERE user_id = ?`, userID).Scan(&handle)
	if err == nil {
		return handle, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("read passkey user handle: %w", err)
	}
	handle = make([]byte, userHandleLen)
	_, _ = rand.Read(handle)
	if _, err := tx.Exec(ctx, `INSERT INTO passkey_users (user_id, user_handle, created_at) VALUES (?, ?, ?)`,
		userID, handle, now); err != nil {
		return nil, fmt.Errorf("store passkey user handle: %w", err)
	}
	return handle, nil
}

var errUnknownHandle = errors.New("no user has this user handle")

// userByHandle loads the user of a user handle with their credentials.
func userByHandle(ctx context.Context, tx *store.Tx, handle []byte) (*waUser, error) {
	var userID string
	err := tx.QueryRow(ctx, `SELECT user_id FROM passkey_users WHERE user_handle = ?`, handle).Scan(&userID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errUnknownHandle
	}
	if err != nil {
		return nil, fmt.Errorf("find passkey user: %w", err)
	}
	creds, err := credentialsOf(ctx, tx, userID)
	if err != nil {
		return nil, err
	}
	return &waUser{id: userID, handle: handle, name: userID, displayName: userID, credentials: creds}, nil
}

// credentialsOf loads a user's credentials in the library's form. The stored clone warning is not
// loaded: the library raises it again for the assertion at hand when its counter does not grow, and
// only that assertion is refused.
func credentialsOf(ctx context.Context, tx *store.Tx, userID string) ([]webauthn.Credential, error) {
	rows, err := tx.Query(ctx, `SELECT credential_id, public_key, sign_count, clone_warning, transports, aaguid,
		attestation_format, attachment, user_verified, backup_eligible, backup_state
		FROM passkeys WHERE user_id = ? ORDER BY created_at, id`, userID)
	if err != nil {
		return nil, fmt.Errorf("load passkeys: %w", err)
	}
	defer rows.Close()
	var out []webauthn.Credential
	for rows.Next() {
		var c webauthn.Credential
		var signCount int64
		var transports, attachment string
		var cloneWarning bool
		if err := rows.Scan(&c.ID, &c.PublicKey, &signCount, &cloneWarning, &transports,
			&c.Authenticator.AAGUID, &c.AttestationFormat, &attachment, &c.Flags.UserVerified,
			&c.Flags.BackupEligible, &c.Flags.BackupState); err != nil {
			return nil, fmt.Errorf("load passkeys: %w", err)
		}
		c.Flags.UserPresent = true
		c.Authenticator.SignCount = uint32(signCount)
		c.Authenticator.Attachment = protocol.AuthenticatorAttachment(attachment)
		if transports != "" {
			for _, t := range strings.Split(transports, ",") {
				c.Transport = append(c.Transport, protocol.AuthenticatorTransport(t))
			}
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load passkeys: %w", err)
	}
	return out, nil
}

// cleanName trims a passkey name and checks its length and characters.
func cleanName(ctx context.Context, name string) (string, error) {
	name = strings.TrimSpace(name)
	if utf8.RuneCountInString(name) > MaxNameLen {
		return "", core.Refuse(ctx, core.EINVALID, "passkey.name.tooLong", MaxNameLen)
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return "", core.Refuse(ctx, core.EINVALID, "passkey.name.control")
		}
	}
	return name, nil
}

// detail is the developer detail of a webauthn library error, for logs.
func detail(err error) string {
	var perr *protocol.Error
	if errors.As(err, &perr) {
		if perr.DevInfo != "" {
			return perr.Details + " (" + perr.DevInfo + ")"
		}
		return perr.Details
	}
	return err.Error()
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
