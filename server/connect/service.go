package connect

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"patrimonio/core"
	"patrimonio/server/authz"
	"patrimonio/server/members"
	"patrimonio/server/store"
	psync "patrimonio/sync"
)

// Writer writes synced records as the server's own client (the sync engine's WriteAsServer).
type Writer interface {
	WriteAsServer(ctx context.Context, userID, workspaceID string, changes []psync.ServerChange) ([]psync.Outcome, error)
	RecordFields(ctx context.Context, workspaceID, collection, recordID string) (map[string]any, error)
}

// assetState says whether an asset a connection feeds still exists (not deleted) and is held (not
// marked sold or otherwise disposed: such an asset is read-only until its sale is undone, so a
// connection leaves it alone meanwhile and feeds it again after).
func (s *Service) assetState(ctx context.Context, workspaceID, assetID string) (exists, held bool, err error) {
	fields, err := s.cfg.Sync.RecordFields(ctx, workspaceID, "assets", assetID)
	if err != nil || fields == nil {
		return false, false, err
	}
	disposal, disposed := fields["disposal"]
	return true, !disposed || disposal == nil, nil
}

// KnownProviders are the providers the server can be configured with, in the order shown.
var KnownProviders = []struct {
	Name string
	Kind Kind
}{{"enablebanking", KindBank}, {"snaptrade", KindBrokerage}}

// providerNames are the providers' names as people know them. The texts a person reads are in
// core/messages under connect.*; providers' own messages are English and may name internal
// details: they are logged, never shown.
var providerNames = map[string]string{"enablebanking": "Enable Banking", "snaptrade": "SnapTrade"}

// Config configures the Service.
type Config struct {
	DB        *store.DB
	Sync      Writer
	SecretKey []byte     // PATRIMONIO_SECRET_KEY; without it nothing can be linked
	Providers []Provider // the configured ones
	// PublicURL is the origin users reach; the institution sends them back to
	// PublicURL + "/connect/return".
	PublicURL string
	Logger    *slog.Logger
	Now       func() time.Time
	// LinkTTL is how long a started link may take to come back (30 minutes).
	LinkTTL time.Duration
	// ConsentDays is the consent validity asked for (180 days; banks cap it).
	ConsentDays int
}

// Service links accounts and refreshes their balances. Every public method checks the caller's
// role through authz; handlers hold no permission logic.
type Service struct {
	cfg       Config
	db        *store.DB
	box       *secretBox
	providers map[string]Provider
	log       *slog.Logger
}

// New returns the service.
func New(cfg Config) (*Service, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.LinkTTL <= 0 {
		cfg.LinkTTL = 30 * time.Minute
	}
	if cfg.ConsentDays <= 0 {
		cfg.ConsentDays = 180
	}
	s := &Service{cfg: cfg, db: cfg.DB, providers: map[string]Provider{}, log: cfg.Logger}
	if len(cfg.SecretKey) > 0 {
		box, err := newSecretBox(cfg.SecretKey)
		if err != nil {
			return nil, err
		}
		s.box = box
	}
	for _, p := range cfg.Providers {
		s.providers[p.Name()] = p
	}
	return s, nil
}

func (s *Service) now() time.Time { return s.cfg.Now().UTC().Truncate(time.Microsecond) }

// ProviderInfo says whether a provider is configured.
type ProviderInfo struct {
	Name        string `json:"name"`
	Kind        Kind   `json:"kind"`
	Title       string `json:"title"`
	Configured  bool   `json:"configured"`
	ReadsPerDay int    `json:"readsPerDay,omitempty"`
}

// Providers lists every known provider and whether this server has it configured (and a secret
// key to keep its credentials).
func (s *Service) Providers() []ProviderInfo {
	var out []ProviderInfo
	for _, k := range KnownProviders {
		p, ok := s.providers[k.Name]
		info := ProviderInfo{Name: k.Name, Kind: k.Kind, Title: providerNames[k.Name], Configured: ok && s.box != nil}
		if ok {
			info.ReadsPerDay = p.ReadsPerDay()
		}
		out = append(out, info)
	}
	return out
}

func (s *Service) provider(ctx context.Context, name string) (Provider, error) {
	known := slices.ContainsFunc(KnownProviders, func(k struct {
		Name string
		Kind Kind
	}) bool {
		return k.Name == name
	})
	if !known {
		return nil, core.Refuse(ctx, core.ENOTFOUND, "connect.provider.unknown")
	}
	p, ok := s.providers[name]
	if !ok || s.box == nil {
		return nil, core.Refuse(ctx, core.ENOTFOUND, "connect.provider.off", providerNames[name])
	}
	return p, nil
}

var countryPattern = regexp.MustCompile(`^[A-Z]{2}$`)

// Institutions lists a provider's institutions in a country (any signed-in user may search).
func (s *Service) Institutions(ctx context.Context, providerName, country string) ([]Institution, error) {
	p, err := s.provider(ctx, providerName)
	if err != nil {
		return nil, err
	}
	country = strings.ToUpper(strings.TrimSpace(country))
	if !countryPattern.MatchString(country) {
		return nil, core.Refuse(ctx, core.EINVALID, "connect.country.invalid")
	}
	list, err := p.Institutions(ctx, country)
	if err != nil {
		return nil, s.providerError(ctx, p, err)
	}
	return list, nil
}

// providerError turns a provider's failure into an error a person can act on.
func (s *Service) providerError(ctx context.Context, p Provider, err error) error {
	name := providerNames[p.Name()]
	var rl *RateLimitError
	switch {
	case errors.As(err, &rl):
		e := &core.Error{Code: core.ETOOMANY, RetryAfter: rl.RetryAfter} // Retry-After on the answer
		e.Message = core.Text(ctx, "connect.provider.busy", name, max(1, e.RetryAfterSeconds()))
		return e
	case errors.Is(err, ErrConsentExpired):
		return core.Refuse(ctx, core.ECONFLICT, "connect.consent.expired", name)
	case errors.Is(err, ErrLinkRefused):
		return core.Refuse(ctx, core.ECONFLICT, "connect.link.refused")
	}
	s.log.Warn("connect: provider call failed", "provider", p.Name(), "err", err)
	return core.Refuse(ctx, core.EUNAVAILABLE, "connect.provider.unavailable", name)
}

func (s *Service) authorize(ctx context.Context, userID, workspaceID string, action authz.Action) error {
	role, err := members.Role(ctx, s.db, workspaceID, userID)
	if err != nil {
		return err
	}
	if err := authz.Authorize(authz.Request{Role: role, Action: action}); err != nil {
		var r *authz.Refusal
		if errors.As(err, &r) {
			return &core.Error{Code: r.Err.Code, Message: r.Message(core.LanguageFrom(ctx))}
		}
		return err
	}
	return nil
}

// StartRequest starts a link, or the renewal of a connection (RenewConnectionID).
type StartRequest struct {
	WorkspaceID       string
	Provider          string
	InstitutionID     string
	Country           string
	Language          string
	RenewConnectionID string
}

// Started is where to send the user.
type Started struct {
	ConnectionID string `json:"connectionId"`
	RedirectURL  string `json:"redirectUrl"`
}

// Start begins a link for userID in a workspace where they may manage connections. The state
// sent to the institution is random; only its hash is stored, bound to the user and workspace.
func (s *Service) Start(ctx context.Context, userID string, req StartRequest) (Started, error) {
	if err := s.authorize(ctx, userID, req.WorkspaceID, authz.ConnectionManage); err != nil {
		return Started{}, err
	}
	var previous *Credentials
	var renewing *connectionRow
	if req.RenewConnectionID != "" {
		row, err := s.load(ctx, req.RenewConnectionID)
		if err != nil || row.WorkspaceID != req.WorkspaceID {
			return Started{}, core.Refuse(ctx, core.ENOTFOUND, "connect.connection.notFound")
		}
		// Only the member who linked it renews it: a renewal reuses the provider identity it
		// was made with (SnapTrade's user and secret), which is theirs.
		if row.UserID != userID {
			return Started{}, core.Refuse(ctx, core.EFORBIDDEN, "connect.connection.notYours")
		}
		renewing = &row
		req.Provider, req.InstitutionID, req.Country = row.Provider, row.InstitutionID, row.Country
		if row.Credentials.Valid {
			c, err := s.box.open(row.Credentials.String, row.ID)
			if err == nil {
				previous = &c
			}
		}
	}
	p, err := s.provider(ctx, req.Provider)
	if err != nil {
		return Started{}, err
	}
	inst := Institution{ID: req.InstitutionID, Country: strings.ToUpper(req.Country)}
	if p.Kind() == KindBank || req.Country != "" {
		list, err := s.Institutions(ctx, req.Provider, req.Country)
		if err != nil {
			return Started{}, err
		}
		i := slices.IndexFunc(list, func(x Institution) bool { return x.ID == req.InstitutionID })
		if i < 0 {
			return Started{}, core.Refuse(ctx, core.ENOTFOUND, "connect.institution.unknown")
		}
		inst = list[i]
		if inst.Country == "" {
			inst.Country = strings.ToUpper(req.Country)
		}
	}
	if inst.Name == "" {
		inst.Name = inst.ID
	}
	state, stateHash, err := newState()
	if err != nil {
		return Started{}, err
	}
	now := s.now()
	id := ""
	if renewing != nil {
		id = renewing.ID
	} else {
		u, err := uuid.NewV7()
		if err != nil {
			return Started{}, err
		}
		id = u.String()
		if _, err := s.db.Exec(ctx, `INSERT INTO connections (id, workspace_id, user_id, provider, institution_id, institution_name, country, status, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`, id, req.WorkspaceID, userID, p.Name(), inst.ID, inst.Name, inst.Country, now, now); err != nil {
			return Started{}, fmt.Errorf("connect: insert connection: %w", err)
		}
	}
	link, err := p.StartLink(ctx, LinkRequest{
		Institution: inst, RedirectURL: s.cfg.PublicURL + "/connect/return?provider=" + url.QueryEscape(p.Name()), State: state,
		Language: core.NormalizeLanguage(req.Language), ValidUntil: now.Add(time.Duration(s.cfg.ConsentDays) * 24 * time.Hour),
		UserRef: id, Previous: previous,
	})
	if err != nil {
		if renewing == nil { // nothing was linked: no pending connection is left behind
			_, _ = s.db.Exec(ctx, `DELETE FROM connections WHERE id = ? AND status = 'pending'`, id)
		}
		return Started{}, s.providerError(ctx, p, err)
	}
	sealed, err := s.box.seal(link.Pending, id)
	if err != nil {
		return Started{}, err
	}
	if _, err := s.db.Exec(ctx, `UPDATE connections SET state_hash = ?, link_started_at = ?, pending_credentials = ?, updated_at = ?, user_id = ? WHERE id = ?`,
		stateHash, now, sealed, now, userID, id); err != nil {
		return Started{}, fmt.Errorf("connect: keep the link's state: %w", err)
	}
	return Started{ConnectionID: id, RedirectURL: link.URL}, nil
}

func newState() (state, hash string, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", "", err
	}
	state = base64.RawURLEncoding.EncodeToString(b)
	return state, hashOf(state), nil
}

func hashOf(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

type connectionRow struct {
	ID, WorkspaceID, UserID, Provider, InstitutionID, InstitutionName, Country, Status string
	LinkStartedAt, ConsentExpiresAt, LastRefreshAt                                     sql.NullTime
	Pending, Credentials                                                               sql.NullString
	LastError                                                                          string
	CreatedAt                                                                          time.Time
}

const connectionColumns = `id, workspace_id, user_id, provider, institution_id, institution_name, country, status,
	link_started_at, consent_expires_at, last_refresh_at, pending_credentials, credentials, last_error, created_at`

func scanConnection(row interface{ Scan(...any) error }) (connectionRow, error) {
	var c connectionRow
	err := row.Scan(&c.ID, &c.WorkspaceID, &c.UserID, &c.Provider, &c.InstitutionID, &c.InstitutionName, &c.Country, &c.Status,
		&c.LinkStartedAt, &c.ConsentExpiresAt, &c.LastRefreshAt, &c.Pending, &c.Credentials, &c.LastError, &c.CreatedAt)
	return c, err
}

func (s *Service) load(ctx context.Context, id string) (connectionRow, error) {
	c, err := scanConnection(s.db.QueryRow(ctx, `SELECT `+connectionColumns+` FROM connections WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return c, core.Refuse(ctx, core.ENOTFOUND, "connect.connection.notFound")
	}
	return c, err
}

// Complete finishes the link that state belongs to, for the user who started it: the accounts
// found are stored (matched to the workspace's existing ones by IBAN or account number, so a
// renewal keeps their assets), and the connection becomes active.
func (s *Service) Complete(ctx context.Context, userID, state string, params url.Values) (Connection, error) {
	if state == "" {
		return Connection{}, core.Refuse(ctx, core.ENOTFOUND, "connect.link.unknown")
	}
	c, err := scanConnection(s.db.QueryRow(ctx, `SELECT `+connectionColumns+` FROM connections WHERE state_hash = ?`, hashOf(state)))
	if errors.Is(err, sql.ErrNoRows) || (err == nil && c.UserID != userID) {
		return Connection{}, core.Refuse(ctx, core.ENOTFOUND, "connect.link.unknown")
	}
	if err != nil {
		return Connection{}, err
	}
	if err := s.authorize(ctx, userID, c.WorkspaceID, authz.ConnectionManage); err != nil {
		return Connection{}, err
	}
	now := s.now()
	if !c.LinkStartedAt.Valid || now.Sub(c.LinkStartedAt.Time) > s.cfg.LinkTTL {
		return Connection{}, core.Refuse(ctx, core.ECONFLICT, "connect.link.expired")
	}
	p, err := s.provider(ctx, c.Provider)
	if err != nil {
		return Connection{}, err
	}
	var pending Credentials
	if c.Pending.Valid {
		if pending, err = s.box.open(c.Pending.String, c.ID); err != nil {
			return Connection{}, err
		}
	}
	// The state is good once, whatever the institution answered: of two returns racing with the
	// same state (a double click, a replayed redirect), only the one that clears it goes on.
	res, err := s.db.Exec(ctx, `UPDATE connections SET state_hash = NULL, updated_at = ? WHERE id = ? AND state_hash = ?`, now, c.ID, hashOf(state))
	if err != nil {
		return Connection{}, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return Connection{}, err
	} else if n != 1 {
		return Connection{}, core.Refuse(ctx, core.ENOTFOUND, "connect.link.unknown")
	}
	consent, err := p.CompleteLink(ctx, pending, Callback{Params: params})
	if err != nil {
		_, _ = s.db.Exec(ctx, `UPDATE connections SET last_error = ?, pending_credentials = NULL WHERE id = ?`, errorKey(err), c.ID)
		return Connection{}, s.providerError(ctx, p, err)
	}
	sealed, err := s.box.seal(consent.Credentials, c.ID)
	if err != nil {
		return Connection{}, err
	}
	if err := s.storeConsent(ctx, c, consent, sealed, now); err != nil {
		return Connection{}, err
	}
	return s.Get(ctx, userID, c.ID)
}

func errorKey(err error) string {
	switch {
	case errors.Is(err, ErrConsentExpired):
		return "consent_expired"
	case errors.Is(err, ErrRateLimited):
		return "rate_limited"
	case errors.Is(err, ErrLinkRefused):
		return "link_refused"
	}
	return "provider_error"
}

// storeConsent writes the completed consent and its accounts in one transaction.
func (s *Service) storeConsent(ctx context.Context, c connectionRow, consent Consent, sealed string, now time.Time) error {
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var expires any
	if consent.ExpiresAt != nil {
		expires = consent.ExpiresAt.UTC()
	}
	if _, err := tx.Exec(ctx, `UPDATE connections SET status = 'active', credentials = ?, pending_credentials = NULL, consent_expires_at = ?,
		last_error = '', updated_at = ? WHERE id = ?`, sealed, expires, now, c.ID); err != nil {
		return fmt.Errorf("connect: activate connection: %w", err)
	}
	kept := map[string]bool{} // this consent's account rows
	for _, a := range consent.Accounts {
		match := hashOf(a.Match)
		var existingID, existingConn string
		err := tx.QueryRow(ctx, `SELECT id, connection_id FROM connection_accounts WHERE workspace_id = ? AND match_hash = ?
			ORDER BY CASE WHEN connection_id = ? THEN 0 ELSE 1 END, CASE WHEN asset_id IS NULL THEN 1 ELSE 0 END LIMIT 1`,
			c.WorkspaceID, match, c.ID).Scan(&existingID, &existingConn)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			id, err := uuid.NewV7()
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO connection_accounts (id, connection_id, workspace_id, provider_account_id, match_hash, name, kind, institution, currency, masked)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, id.String(), c.ID, c.WorkspaceID, a.ID, match, a.Name, string(a.Kind), a.Institution, a.Currency, mask(a)); err != nil {
				return fmt.Errorf("connect: insert account: %w", err)
			}
			kept[id.String()] = true
		case err != nil:
			return err
		default:
			// The same account, seen before (a renewal, or another link to the same bank): it
			// keeps its asset and takes the new provider id. A row of this connection already
			// holding the match is replaced, never duplicated.
			if existingConn != c.ID {
				if _, err := tx.Exec(ctx, `DELETE FROM connection_accounts WHERE connection_id = ? AND match_hash = ? AND id <> ?`, c.ID, match, existingID); err != nil {
					return err
				}
			}
			if _, err := tx.Exec(ctx, `UPDATE connection_accounts SET connection_id = ?, provider_account_id = ?, name = ?, kind = ?, institution = ?, currency = ?, masked = ?,
				last_error = '' WHERE id = ?`, c.ID, a.ID, a.Name, string(a.Kind), a.Institution, a.Currency, mask(a), existingID); err != nil {
				return fmt.Errorf("connect: update account: %w", err)
			}
			kept[existingID] = true
		}
	}
	// The connection's accounts this consent no longer includes (closed, or not granted again at
	// the institution) cannot be read through it. One that feeds an asset is detached: it keeps its
	// asset, the asset's history and its positions, and stops updating until a later consent
	// includes it again; one never chosen is simply forgotten.
	rows, err := tx.Query(ctx, `SELECT id, asset_id FROM connection_accounts WHERE connection_id = ?`, c.ID)
	if err != nil {
		return err
	}
	type gone struct {
		id      string
		adopted bool
	}
	var dropped []gone
	for rows.Next() {
		var g gone
		var asset sql.NullString
		if err := rows.Scan(&g.id, &asset); err != nil {
			rows.Close()
			return err
		}
		g.adopted = asset.Valid
		if !kept[g.id] {
			dropped = append(dropped, g)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, g := range dropped {
		q := `UPDATE connection_accounts SET provider_account_id = '', last_error = '' WHERE id = ?`
		if !g.adopted {
			q = `DELETE FROM connection_accounts WHERE id = ?`
		}
		if _, err := tx.Exec(ctx, q, g.id); err != nil {
			return fmt.Errorf("connect: detach an account the consent no longer includes: %w", err)
		}
	}
	return tx.Commit()
}

// mask shows the start and the last four characters of an IBAN or account number.
func mask(a Account) string {
	v := a.IBAN
	if v == "" {
		v = a.Number
	}
	v = strings.ReplaceAll(v, " ", "")
	switch {
	case len(v) > 8:
		return v[:4] + " •••• " + v[len(v)-4:]
	case len(v) > 4:
		return "•••• " + v[len(v)-4:]
	}
	return v
}

// Connection is what the API shows of a connection. No credential ever leaves the server.
type Connection struct {
	ID               string      `json:"id"`
	WorkspaceID      string      `json:"workspaceId"`
	Provider         string      `json:"provider"`
	Kind             Kind        `json:"kind"`
	Institution      Institution `json:"institution"`
	Status           string      `json:"status"` // pending, active, expired
	ConsentExpiresAt *time.Time  `json:"consentExpiresAt"`
	RenewSoon        bool        `json:"renewSoon"` // the consent ends within RenewWarning
	// LinkedByMe: the caller linked it, so may renew it (a renewal reuses their provider identity).
	LinkedByMe    bool                `json:"linkedByMe"`
	LastRefreshAt *time.Time          `json:"lastRefreshAt"`
	LastError     string              `json:"lastError,omitempty"`
	ReadsPerDay   int                 `json:"readsPerDay"`
	Accounts      []ConnectionAccount `json:"accounts"`
	CreatedAt     time.Time           `json:"createdAt"`
}

// ConnectionAccount is one account of a connection.
type ConnectionAccount struct {
	ID              string     `json:"id"`
	Name            string     `json:"name"`
	Kind            Kind       `json:"kind"`
	Institution     string     `json:"institution"`
	Currency        string     `json:"currency"`
	Masked          string     `json:"masked"`
	AssetID         *string    `json:"assetId"`
	LastBalance     *string    `json:"lastBalance"`
	LastBalanceDate *string    `json:"lastBalanceDate"`
	LastRefreshAt   *time.Time `json:"lastRefreshAt"`
	ReadsLeftToday  int        `json:"readsLeftToday"`
	// Detached: the connection's renewed consent no longer includes the account (closed, or not
	// granted again). It keeps its asset, which no longer updates; a later consent including it
	// attaches it again.
	Detached bool `json:"detached"`
	// LastError is the key of this account's last failed read (its own failure, such as the
	// provider no longer finding it; "" after a good read).
	LastError string `json:"lastError,omitempty"`
	// Positions are a brokerage account's positions, each an asset of its own (positions.go).
	Positions []Position `json:"positions"`
}

// RenewWarning is how long before its end a consent is shown as needing renewal.
const RenewWarning = 14 * 24 * time.Hour

func (s *Service) view(ctx context.Context, userID string, c connectionRow) (Connection, error) {
	now := s.now()
	out := Connection{ID: c.ID, WorkspaceID: c.WorkspaceID, Provider: c.Provider, Status: c.Status, LastError: c.LastError, CreatedAt: c.CreatedAt.UTC(),
		LinkedByMe:  c.UserID == userID,
		Institution: Institution{ID: c.InstitutionID, Name: c.InstitutionName, Country: c.Country}, Accounts: []ConnectionAccount{}}
	for _, k := range KnownProviders {
		if k.Name == c.Provider {
			out.Kind = k.Kind
		}
	}
	reads := 0
	if p, ok := s.providers[c.Provider]; ok {
		reads = p.ReadsPerDay()
	}
	out.ReadsPerDay = reads
	if c.ConsentExpiresAt.Valid {
		t := c.ConsentExpiresAt.Time.UTC()
		out.ConsentExpiresAt = &t
		if c.Status == "active" && !now.Before(t) {
			out.Status = "expired"
		}
		out.RenewSoon = t.Sub(now) < RenewWarning
	}
	if c.LastRefreshAt.Valid {
		t := c.LastRefreshAt.Time.UTC()
		out.LastRefreshAt = &t
	}
	rows, err := s.db.Query(ctx, `SELECT id, name, kind, institution, currency, masked, asset_id, last_balance, last_balance_date, last_refresh_at, reads_day, reads_today,
		provider_account_id, last_error
		FROM connection_accounts WHERE connection_id = ? ORDER BY name, id`, c.ID)
	if err != nil {
		return out, err
	}
	defer rows.Close()
	today := now.Format(time.DateOnly)
	for rows.Next() {
		var a ConnectionAccount
		var kind, readsDay string
		var asset, bal, balDate sql.NullString
		var last sql.NullTime
		var readsToday int
		var providerID string
		if err := rows.Scan(&a.ID, &a.Name, &kind, &a.Institution, &a.Currency, &a.Masked, &asset, &bal, &balDate, &last, &readsDay, &readsToday,
			&providerID, &a.LastError); err != nil {
			return out, err
		}
		a.Detached = providerID == ""
		a.Kind = Kind(kind)
		if asset.Valid {
			a.AssetID = &asset.String
		}
		if bal.Valid {
			a.LastBalance = &bal.String
		}
		if balDate.Valid {
			a.LastBalanceDate = &balDate.String
		}
		if last.Valid {
			t := last.Time.UTC()
			a.LastRefreshAt = &t
		}
		a.ReadsLeftToday = reads
		if readsDay == today {
			a.ReadsLeftToday = max(0, reads-readsToday)
		}
		out.Accounts = append(out.Accounts, a)
	}
	if err := rows.Err(); err != nil {
		return out, err
	}
	rows.Close()
	for i := range out.Accounts {
		if out.Accounts[i].Positions, err = s.positions(ctx, out.Accounts[i].ID); err != nil {
			return out, err
		}
	}
	return out, nil
}

// Get returns one connection to a member of its workspace.
func (s *Service) Get(ctx context.Context, userID, id string) (Connection, error) {
	c, err := s.load(ctx, id)
	if err != nil {
		return Connection{}, err
	}
	if err := s.authorize(ctx, userID, c.WorkspaceID, authz.ConnectionRead); err != nil {
		return Connection{}, core.Refuse(ctx, core.ENOTFOUND, "connect.connection.notFound")
	}
	return s.view(ctx, userID, c)
}

// List returns the workspace's connections (pending ones only to the member who started them).
func (s *Service) List(ctx context.Context, userID, workspaceID string) ([]Connection, error) {
	if err := s.authorize(ctx, userID, workspaceID, authz.ConnectionRead); err != nil {
		return nil, err
	}
	rows, err := s.db.Query(ctx, `SELECT `+connectionColumns+` FROM connections WHERE workspace_id = ? AND (status <> 'pending' OR user_id = ?) ORDER BY created_at, id`,
		workspaceID, userID)
	if err != nil {
		return nil, err
	}
	var list []connectionRow
	for rows.Next() {
		c, err := scanConnection(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		list = append(list, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := []Connection{}
	for _, c := range list {
		v, err := s.view(ctx, userID, c)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// Choice makes one account of a connection an asset of a class.
type Choice struct {
	AccountID  string `json:"accountId"`
	AssetClass string `json:"assetClass"` // bank_accounts or investments
}

var categoryOf = map[string]string{"bank_accounts": "current_account", "investments": "institutional_account"}

// Adopt creates the chosen accounts' assets (as the server's synced writes) and reads their
// balances at once (within the daily limit).
func (s *Service) Adopt(ctx context.Context, userID, connectionID string, choices []Choice) (Connection, error) {
	c, err := s.load(ctx, connectionID)
	if err != nil {
		return Connection{}, err
	}
	if err := s.authorize(ctx, userID, c.WorkspaceID, authz.ConnectionManage); err != nil {
		return Connection{}, err
	}
	if len(choices) == 0 {
		return Connection{}, core.Refuse(ctx, core.EINVALID, "connect.choices.empty")
	}
	type pick struct {
		accountID, assetID string
	}
	var picks []pick
	var changes []psync.ServerChange
	chosen := map[string]bool{}
	for _, ch := range choices {
		// The same account chosen twice in one request becomes one asset.
		if chosen[ch.AccountID] {
			continue
		}
		chosen[ch.AccountID] = true
		category, ok := categoryOf[ch.AssetClass]
		if !ok {
			return Connection{}, core.Refuse(ctx, core.EINVALID, "connect.account.class")
		}
		var name, institution, currency, masked string
		var asset sql.NullString
		err := s.db.QueryRow(ctx, `SELECT name, institution, currency, masked, asset_id FROM connection_accounts WHERE id = ? AND connection_id = ?`,
			ch.AccountID, c.ID).Scan(&name, &institution, &currency, &masked, &asset)
		if errors.Is(err, sql.ErrNoRows) {
			return Connection{}, core.Refuse(ctx, core.ENOTFOUND, "connect.account.unknown")
		}
		if err != nil {
			return Connection{}, err
		}
		if asset.Valid {
			return Connection{}, core.Refuse(ctx, core.ECONFLICT, "connect.account.adopted")
		}
		id, err := uuid.NewV7()
		if err != nil {
			return Connection{}, err
		}
		fields := map[string]any{"name": truncate(name, 140), "assetClass": ch.AssetClass, "category": category, "currency": currency,
			"participation": "100", "institution": truncate(institution, 140)}
		if masked != "" {
			fields["description"] = truncate(masked, 256)
		}
		changes = append(changes, psync.ServerChange{Collection: "assets", RecordID: id.String(), Fields: fields})
		picks = append(picks, pick{ch.AccountID, id.String()})
	}
	if _, err := s.cfg.Sync.WriteAsServer(ctx, c.UserID, c.WorkspaceID, changes); err != nil {
		return Connection{}, err
	}
	// An account takes its new asset only while it has none: of two requests racing (a double
	// submit), one takes it, and the other's asset, written meanwhile, is deleted again, so an
	// account never feeds two assets. (The asset is written first: a refresh meanwhile must never
	// see an account pointing at an asset not yet written, which it would take as deleted.)
	var lost []psync.ServerChange
	for _, p := range picks {
		res, err := s.db.Exec(ctx, `UPDATE connection_accounts SET asset_id = ?, history_read = 0 WHERE id = ? AND asset_id IS NULL`, p.assetID, p.accountID)
		if err != nil {
			return Connection{}, err
		}
		if n, err := res.RowsAffected(); err != nil {
			return Connection{}, err
		} else if n != 1 {
			lost = append(lost, psync.ServerChange{Collection: "assets", RecordID: p.assetID, Delete: true})
		}
	}
	if len(lost) > 0 {
		if _, err := s.cfg.Sync.WriteAsServer(ctx, c.UserID, c.WorkspaceID, lost); err != nil {
			return Connection{}, err
		}
		if len(lost) == len(picks) {
			return Connection{}, core.Refuse(ctx, core.ECONFLICT, "connect.account.adopted")
		}
	}
	if _, err := s.refresh(ctx, c); err != nil {
		s.log.Info("connect: first read after choosing accounts failed", "connection", c.ID, "err", err)
	}
	return s.Get(ctx, userID, c.ID)
}

func truncate(s string, n int) string {
	r := []rune(strings.TrimSpace(s))
	if len(r) > n {
		r = r[:n]
	}
	if len(r) == 0 {
		return "—"
	}
	return string(r)
}

// RefreshResult says what a refresh did.
type RefreshResult struct {
	Refreshed  int        `json:"refreshed"`  // accounts read
	Limited    int        `json:"limited"`    // accounts left alone: their reads for today are used up
	Failed     int        `json:"failed"`     // accounts whose own read failed (the error is on the account)
	Connection Connection `json:"connection"` // the connection after the refresh
}

// Refresh reads the balances of the connection's accounts that feed an asset, within the
// provider's daily limit, and writes each as a dated valuation of its asset.
func (s *Service) Refresh(ctx context.Context, userID, connectionID string) (RefreshResult, error) {
	c, err := s.load(ctx, connectionID)
	if err != nil {
		return RefreshResult{}, err
	}
	if err := s.authorize(ctx, userID, c.WorkspaceID, authz.ConnectionManage); err != nil {
		return RefreshResult{}, err
	}
	res, err := s.refresh(ctx, c)
	if err != nil {
		return RefreshResult{}, err
	}
	if res.Connection, err = s.Get(ctx, userID, c.ID); err != nil {
		return RefreshResult{}, err
	}
	return res, nil
}

type accountRow struct {
	id, providerID, currency, readsDay string
	name, institution                  string
	historyRead                        int
	assetID                            string
	readsToday                         int
	lastValuation, lastDate            sql.NullString
}

func (s *Service) refresh(ctx context.Context, c connectionRow) (RefreshResult, error) {
	var res RefreshResult
	p, err := s.provider(ctx, c.Provider)
	if err != nil {
		return res, err
	}
	if c.Status != "active" || !c.Credentials.Valid {
		return res, core.Refuse(ctx, core.ECONFLICT, "connect.connection.notActive")
	}
	now := s.now()
	if c.ConsentExpiresAt.Valid && !now.Before(c.ConsentExpiresAt.Time) {
		return res, core.Refuse(ctx, core.ECONFLICT, "connect.consent.expired", providerNames[c.Provider])
	}
	// The connection reads as the member who linked it: one who may no longer write in the
	// workspace (a viewer now, or gone; the workspace service ends their connections then, this
	// is for a change made without it) is not read for at all, nor is their consent used.
	if role, err := members.Role(ctx, s.db, c.WorkspaceID, c.UserID); err != nil {
		return res, err
	} else if authz.Authorize(authz.Request{Role: role, Action: authz.ConnectionManage}) != nil {
		_, _ = s.db.Exec(ctx, `UPDATE connections SET last_error = 'write_failed', updated_at = ? WHERE id = ?`, now, c.ID)
		return res, core.Refuse(ctx, core.EFORBIDDEN, "connect.connection.linkerCannotWrite")
	}
	creds, err := s.box.open(c.Credentials.String, c.ID)
	if err != nil {
		return res, err
	}
	rows, err := s.db.Query(ctx, `SELECT id, provider_account_id, currency, reads_day, reads_today, asset_id, last_valuation_id, last_balance_date, name, institution, history_read
		FROM connection_accounts WHERE connection_id = ? AND asset_id IS NOT NULL ORDER BY id`, c.ID)
	if err != nil {
		return res, err
	}
	var accounts []accountRow
	for rows.Next() {
		var a accountRow
		if err := rows.Scan(&a.id, &a.providerID, &a.currency, &a.readsDay, &a.readsToday, &a.assetID, &a.lastValuation, &a.lastDate, &a.name, &a.institution, &a.historyRead); err != nil {
			rows.Close()
			return res, err
		}
		accounts = append(accounts, a)
	}
	rows.Close()
	today := now.Format(time.DateOnly)
	limit := p.ReadsPerDay()
	// A failure of the whole consent (it ended, the provider is down or busy, our writes are
	// refused) stops the refresh and is kept on the connection; one account's own failure is kept
	// on that account and the others are read.
	failed := func(err error) error {
		status, key := c.Status, errorKey(err)
		if errors.Is(err, ErrConsentExpired) {
			status = "expired"
		}
		var wf *writeFailure
		if errors.As(err, &wf) {
			key = "write_failed"
		}
		_, _ = s.db.Exec(ctx, `UPDATE connections SET last_error = ?, status = ?, updated_at = ? WHERE id = ?`, key, status, now, c.ID)
		if wf != nil {
			s.log.Warn("connect: writing what a connection read failed", "connection", c.ID, "err", wf.err)
			return wf.err
		}
		return s.providerError(ctx, p, err)
	}
	for _, a := range accounts {
		// The renewed consent no longer includes the account: it is not read (storeConsent).
		if a.providerID == "" {
			continue
		}
		// A member deleted the asset: the account no longer feeds it (and is offered again). One
		// marked sold is not read (nor a read counted) until the sale is undone.
		exists, held, err := s.assetState(ctx, c.WorkspaceID, a.assetID)
		if err != nil {
			return res, err
		}
		if !exists {
			if _, err := s.db.Exec(ctx, `UPDATE connection_accounts SET asset_id = NULL, last_valuation_id = NULL WHERE id = ?`, a.id); err != nil {
				return res, err
			}
			continue
		}
		if !held {
			continue
		}
		if a.readsDay != today {
			a.readsToday = 0
		}
		if limit > 0 && a.readsToday >= limit {
			res.Limited++
			continue
		}
		// The read counts before it is made: a failed read still used one of the day's.
		if _, err := s.db.Exec(ctx, `UPDATE connection_accounts SET reads_day = ?, reads_today = ? WHERE id = ?`, today, a.readsToday+1, a.id); err != nil {
			return res, err
		}
		err = s.readAccount(ctx, p, creds, c, a, now)
		if err != nil && accountError(err) {
			s.log.Info("connect: reading an account failed", "connection", c.ID, "account", a.id, "err", err)
			if _, err := s.db.Exec(ctx, `UPDATE connection_accounts SET last_error = 'account_error' WHERE id = ?`, a.id); err != nil {
				return res, err
			}
			res.Failed++
			continue
		}
		if err != nil {
			return res, failed(err)
		}
		if _, err := s.db.Exec(ctx, `UPDATE connection_accounts SET last_error = '' WHERE id = ? AND last_error <> ''`, a.id); err != nil {
			return res, err
		}
		res.Refreshed++
	}
	if _, err := s.db.Exec(ctx, `UPDATE connections SET last_refresh_at = ?, last_error = '', updated_at = ? WHERE id = ?`, now, now, c.ID); err != nil {
		return res, err
	}
	return res, nil
}

// writeFailure is a failure to write what was read (the sync engine refused the write, as it
// does when the member who linked the connection is no longer in the workspace, or the database
// failed): the connection keeps it as its last error "write_failed".
type writeFailure struct{ err error }

func (e *writeFailure) Error() string { return "connect: write what was read: " + e.err.Error() }
func (e *writeFailure) Unwrap() error { return e.err }

// readAccount reads one account and writes what it read.
func (s *Service) readAccount(ctx context.Context, p Provider, creds Credentials, c connectionRow, a accountRow, now time.Time) error {
	balances, err := p.Balances(ctx, creds, a.providerID)
	if err != nil {
		return err
	}
	// A brokerage account's positions become assets of their own (positions.go), and the
	// account's asset then carries only its cash; both are read before anything is written, so a
	// failed read never leaves the cash without its positions.
	var holdings []Holding
	positions := false
	if p.Kind() == KindBrokerage {
		holdings, err = p.Holdings(ctx, creds, a.providerID)
		switch {
		case errors.Is(err, ErrNotSupported):
		case err != nil:
			return err
		default:
			positions = true
		}
	}
	b, ok := pickBalance(balances, a.currency)
	if positions {
		b, ok = cashBalance(balances, a.currency, holdings)
	}
	if ok {
		if err := s.writeBalance(ctx, c, a, b, now); err != nil {
			return &writeFailure{err}
		}
	}
	if positions {
		if err := s.writePositions(ctx, c, a, holdings, now); err != nil {
			return &writeFailure{err}
		}
	}
	// A bank account's first read also brings the balances of the days before (history.go); a
	// failure is tried again at the next read, which the balance read already counted.
	if p.Kind() == KindBank && a.historyRead == 0 {
		if err := s.writeHistory(ctx, p, creds, c, a, balances); err != nil {
			s.log.Info("connect: reading an account's history failed", "connection", c.ID, "err", err)
		}
	}
	return nil
}

// accountError tells a provider's refusal of one account (it no longer finds it: closed or
// moved, 404; or refuses that account's request, another 4xx) from one of the whole consent or
// the provider: the consent ended (401/403, ErrConsentExpired), its rate limit (429), the
// provider or the network failing (5xx, no answer), or our own writes refused. Only the first
// kind lets the other accounts be read.
func accountError(err error) bool {
	var pe *ProviderError
	if !errors.As(err, &pe) || errors.Is(err, ErrConsentExpired) || errors.Is(err, ErrRateLimited) {
		return false
	}
	switch pe.Status {
	case 401, 403, 429:
		return false
	}
	return pe.Status >= 400 && pe.Status < 500
}

// pickBalance is the first balance in the account's currency, else the first one.
func pickBalance(balances []Balance, currency string) (Balance, bool) {
	for _, b := range balances {
		if b.Currency == currency {
			return b, true
		}
	}
	if len(balances) > 0 {
		return balances[0], true
	}
	return Balance{}, false
}

// writeBalance writes a balance as the asset's valuation on its date (a second read on the same
// date updates that valuation) and as the asset's current value.
func (s *Service) writeBalance(ctx context.Context, c connectionRow, a accountRow, b Balance, now time.Time) error {
	date := b.Date.Format(time.DateOnly)
	if b.Date.IsZero() {
		date = now.Format(time.DateOnly)
	}
	value := b.Amount.Round(4)
	if value.IsNegative() {
		// An overdrawn account is a debt, not a value of the asset: nothing is written.
		_, err := s.db.Exec(ctx, `UPDATE connection_accounts SET last_balance = ?, last_balance_date = ?, last_refresh_at = ? WHERE id = ?`,
			value.String(), date, now, a.id)
		return err
	}
	valuationID := valuationID(a.assetID, date, "connection")
	if a.lastValuation.Valid && a.lastDate.Valid && a.lastDate.String == date {
		valuationID = a.lastValuation.String // one written before ids were derived
	}
	changes := []psync.ServerChange{{Collection: "valuations", RecordID: valuationID, Fields: map[string]any{
		"assetId": a.assetID, "date": date, "value": value.String(), "currency": b.Currency, "source": "connection",
	}}}
	if b.Currency == a.currency {
		changes = append(changes, psync.ServerChange{Collection: "assets", RecordID: a.assetID, Fields: map[string]any{
			"currentValue": value.String(), "valuationDate": date,
		}})
	}
	if _, err := s.cfg.Sync.WriteAsServer(ctx, c.UserID, c.WorkspaceID, changes); err != nil {
		return err
	}
	_, err := s.db.Exec(ctx, `UPDATE connection_accounts SET last_balance = ?, last_balance_date = ?, last_valuation_id = ?, last_refresh_at = ? WHERE id = ?`,
		value.String(), date, valuationID, now, a.id)
	return err
}

// valuationNamespace separates the connections' derived valuation ids from any other hash.
const valuationNamespace = "patrimonio-connection-valuation"

// valuationID is the id of the valuation a connection writes for an asset on a date. It is
// derived, not random, so that reads that overlap (two instances' schedules, a member's "update
// balance" during the scheduled one, the first read of Adopt during either) write the same
// record instead of one each. Record ids must be UUIDv7-shaped (shared-schema's uuidv7 format,
// which the sync engine checks), so the id is built like one: its 48-bit timestamp is the date's
// UTC midnight in milliseconds, and its other 74 bits are the first bits of
// SHA-256(namespace|asset id|date|source) around the version (7) and variant (10) bits.
func valuationID(assetID, date, source string) string {
	var id uuid.UUID
	h := sha256.Sum256([]byte(valuationNamespace + "|" + assetID + "|" + date + "|" + source))
	copy(id[6:], h[:10])
	if d, err := time.Parse(time.DateOnly, date); err == nil {
		ms := uint64(d.UnixMilli())
		for i := 0; i < 6; i++ {
			id[i] = byte(ms >> (8 * (5 - i)))
		}
	}
	id[6] = 0x70 | id[6]&0x0f // version 7
	id[8] = 0x80 | id[8]&0x3f // variant 10
	return id.String()
}

// RefreshAll refreshes every active connection whose consent has not ended, each as the member
// who linked it, within the providers' daily limits (what a refresh cannot do is kept in the
// connection's last error). Run calls it on a schedule.
func (s *Service) RefreshAll(ctx context.Context) (refreshed int) {
	rows, err := s.db.Query(ctx, `SELECT `+connectionColumns+` FROM connections WHERE status = 'active' ORDER BY id`)
	if err != nil {
		s.log.Error("connect: list connections to refresh", "err", err)
		return 0
	}
	var list []connectionRow
	for rows.Next() {
		c, err := scanConnection(rows)
		if err != nil {
			rows.Close()
			s.log.Error("connect: read a connection", "err", err)
			return 0
		}
		list = append(list, c)
	}
	rows.Close()
	now := s.now()
	for _, c := range list {
		if _, ok := s.providers[c.Provider]; !ok || (c.ConsentExpiresAt.Valid && !now.Before(c.ConsentExpiresAt.Time)) {
			continue
		}
		res, err := s.refresh(ctx, c)
		if err != nil {
			s.log.Info("connect: scheduled refresh failed", "connection", c.ID, "provider", c.Provider, "err", err)
			continue
		}
		refreshed += res.Refreshed
	}
	return refreshed
}

// RefreshInterval is how often Run refreshes: six hours, so that four reads a day are spread out.
const RefreshInterval = 6 * time.Hour

// Run refreshes every connection each RefreshInterval until ctx ends.
func (s *Service) Run(ctx context.Context) {
	if len(s.providers) == 0 {
		return
	}
	t := time.NewTicker(RefreshInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.RefreshAll(ctx)
		}
	}
}

// Delete removes a connection (its assets and valuations stay: they are the user's records).
func (s *Service) Delete(ctx context.Context, userID, connectionID string) error {
	c, err := s.load(ctx, connectionID)
	if err != nil {
		return err
	}
	if err := s.authorize(ctx, userID, c.WorkspaceID, authz.ConnectionManage); err != nil {
		return err
	}
	_, err = s.db.Exec(ctx, `DELETE FROM connections WHERE id = ?`, c.ID)
	return err
}
