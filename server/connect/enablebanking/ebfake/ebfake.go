// Package ebfake is a fake Enable Banking API for tests and the end-to-end suite: it checks the
// request JWT like the real API (RS256, kid, iss, aud), serves fixtures shaped by the operations in
// ../testdata/openapi-trimmed.yaml, and plays the bank's consent page by redirecting straight back
// with a code. Knobs let a test make it answer 429, expire the sessions, book the pending
// transaction, leave an account out of the next consents or close one.
package ebfake

import (
	"crypto/rsa"
	"embed"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

//go:embed fixtures/*.json
var fixtures embed.FS

// Fixture returns a fixture file's bytes.
func Fixture(name string) []byte {
	b, err := fixtures.ReadFile("fixtures/" + name)
	if err != nil {
		panic(err)
	}
	return b
}

type auth struct {
	state, redirect, validUntil string
}

type account struct {
	session  string
	currency string
	iban     string
}

// Server is the fake. Its zero value is not usable: call New.
type Server struct {
	appID string
	key   *rsa.PublicKey
	// URL is where the fake is served (set it after starting the listener); the consent page
	// link points there.
	URL string

	mu       sync.Mutex
	auths    map[string]auth   // code -> the authorization it completes
	pending  map[string]string // authorization id -> code
	sessions map[string]bool   // session id -> expired
	accounts map[string]account
	n        int
	throttle int             // answer 429 to the next throttle requests
	booked   bool            // the pending transaction is booked
	withheld map[string]bool // IBANs the next consents leave out
	closed   map[string]bool // IBANs whose data answers 404
	requests []string
}

// New returns a fake that accepts tokens signed for appID with the key whose public half is key.
func New(appID string, key *rsa.PublicKey) *Server {
	return &Server{appID: appID, key: key, auths: map[string]auth{}, pending: map[string]string{},
		sessions: map[string]bool{}, accounts: map[string]account{}}
}

// Throttle makes the next n API requests answer 429 Too Many Requests (Retry-After: 1).
func (s *Server) Throttle(n int) { s.mu.Lock(); s.throttle = n; s.mu.Unlock() }

// ExpireSessions makes every session issued so far expired.
func (s *Server) ExpireSessions() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id := range s.sessions {
		s.sessions[id] = true
	}
}

// Withhold makes the consents given from now on leave out the account with this IBAN, as when
// the user does not tick it again at the bank, or it was closed.
func (s *Server) Withhold(iban string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.withheld == nil {
		s.withheld = map[string]bool{}
	}
	s.withheld[iban] = true
}

// Close makes the account with this IBAN answer 404 ACCOUNT_DOES_NOT_EXIST under every session,
// as a closed account does while the consent lasts.
func (s *Server) Close(iban string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed == nil {
		s.closed = map[string]bool{}
	}
	s.closed[iban] = true
}

// BookPending makes the pending transaction booked.
func (s *Server) BookPending() { s.mu.Lock(); s.booked = true; s.mu.Unlock() }

// Requests lists "METHOD path" of every API request received (the consent page excluded).
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, code, message string) {
	writeJSON(w, status, map[string]any{"code": status, "error": code, "message": message})
}

func (s *Server) checkToken(r *http.Request) error {
	raw, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return fmt.Errorf("no bearer token")
	}
	tok, err := jwt.Parse(raw, func(t *jwt.Token) (any, error) {
		if t.Header["kid"] != s.appID {
			return nil, fmt.Errorf("kid %v is not the application", t.Header["kid"])
		}
		return s.key, nil
	}, jwt.WithValidMethods([]string{"RS256"}), jwt.WithIssuer("enablebanking.com"),
		jwt.WithAudience("api.enablebanking.com"), jwt.WithIssuedAt(), jwt.WithExpirationRequired())
	if err != nil {
		return err
	}
	if !tok.Valid {
		return fmt.Errorf("invalid token")
	}
	return nil
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/consent" {
		s.consent(w, r)
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, r.Method+" "+r.URL.Path)
	throttled := s.throttle > 0
	if throttled {
		s.throttle--
	}
	s.mu.Unlock()
	if throttled {
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusTooManyRequests, "TOO_MANY_REQUESTS", "Too many requests")
		return
	}
	if err := s.checkToken(r); err != nil {
		writeError(w, http.StatusUnauthorized, "UNAUTHORIZED_ACCESS", err.Error())
		return
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/aspsps":
		s.aspsps(w, r)
	case r.Method == http.MethodPost && r.URL.Path == "/auth":
		s.startAuth(w, r)
	case r.Method == http.MethodPost && r.URL.Path == "/sessions":
		s.session(w, r)
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/accounts/"):
		s.accountData(w, r)
	default:
		writeError(w, http.StatusNotFound, "NOT_FOUND", "no such operation in the fake")
	}
}

func (s *Server) aspsps(w http.ResponseWriter, r *http.Request) {
	var all struct {
		ASPSPs []map[string]any `json:"aspsps"`
	}
	_ = json.Unmarshal(Fixture("aspsps.json"), &all)
	country := r.URL.Query().Get("country")
	out := []map[string]any{}
	for _, a := range all.ASPSPs {
		if country == "" || a["country"] == country {
			out = append(out, a)
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"aspsps": out})
}

func (s *Server) startAuth(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Access struct {
			ValidUntil string `json:"valid_until"`
		} `json:"access"`
		ASPSP struct {
			Name    string `json:"name"`
			Country string `json:"country"`
		} `json:"aspsp"`
		State       string `json:"state"`
		RedirectURL string `json:"redirect_url"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.State == "" || body.RedirectURL == "" || body.ASPSP.Name == "" {
		writeError(w, http.StatusUnprocessableEntity, "WRONG_REQUEST_PARAMETERS", "access, aspsp, state and redirect_url are required")
		return
	}
	if _, err := time.Parse(time.RFC3339, body.Access.ValidUntil); err != nil {
		writeError(w, http.StatusUnprocessableEntity, "WRONG_REQUEST_PARAMETERS", "access.valid_until must be a date-time")
		return
	}
	s.mu.Lock()
	s.n++
	id := fmt.Sprintf("auth-%d", s.n)
	code := fmt.Sprintf("code-%d", s.n)
	s.pending[id] = code
	s.auths[code] = auth{state: body.State, redirect: body.RedirectURL, validUntil: body.Access.ValidUntil}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{
		"url":              s.URL + "/consent?authorization_id=" + id,
		"authorization_id": id,
		"psu_id_hash":      "fake-psu-hash",
	})
}

// consent is the bank's consent page: it approves at once and sends the user back.
func (s *Server) consent(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	code, ok := s.pending[r.URL.Query().Get("authorization_id")]
	a := s.auths[code]
	s.mu.Unlock()
	if !ok {
		http.Error(w, "unknown authorization", http.StatusNotFound)
		return
	}
	u, _ := url.Parse(a.redirect)
	q := u.Query()
	if r.URL.Query().Get("deny") != "" {
		q.Set("error", "access_denied")
	} else {
		q.Set("code", code)
	}
	q.Set("state", a.state)
	u.RawQuery = q.Encode()
	http.Redirect(w, r, u.String(), http.StatusFound)
}

func (s *Server) session(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Code string `json:"code"`
	}
	_ = json.NewDecoder(r.Body).Decode(&body)
	s.mu.Lock()
	a, ok := s.auths[body.Code]
	if ok {
		delete(s.auths, body.Code) // a code is good once
	}
	s.n++
	n := s.n
	s.mu.Unlock()
	if !ok {
		writeError(w, http.StatusBadRequest, "WRONG_AUTHORIZATION_CODE", "Wrong authorization code provided")
		return
	}
	var out map[string]any
	_ = json.Unmarshal(Fixture("session.json"), &out)
	sid := fmt.Sprintf("session-%d", n)
	out["session_id"] = sid
	out["access"] = map[string]any{"valid_until": a.validUntil}
	s.mu.Lock()
	s.sessions[sid] = false
	var granted []any
	for i, acc := range out["accounts"].([]any) {
		m := acc.(map[string]any)
		iban := m["account_id"].(map[string]any)["iban"].(string)
		if s.withheld[iban] {
			continue
		}
		// Every session has new account ids, as a renewed consent does at the real API.
		uid := fmt.Sprintf("uid-%d-%d", n, i+1)
		m["uid"] = uid
		s.accounts[uid] = account{session: sid, currency: m["currency"].(string), iban: iban}
		granted = append(granted, m)
	}
	out["accounts"] = granted
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) accountData(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/accounts/"), "/")
	if len(parts) != 2 {
		writeError(w, http.StatusNotFound, "NOT_FOUND", "no such operation in the fake")
		return
	}
	s.mu.Lock()
	acc, ok := s.accounts[parts[0]]
	ok = ok && !s.closed[acc.iban]
	expired := s.sessions[acc.session]
	booked := s.booked
	s.mu.Unlock()
	switch {
	case !ok:
		writeError(w, http.StatusNotFound, "ACCOUNT_DOES_NOT_EXIST", "No account found matching provided id")
		return
	case expired:
		writeError(w, http.StatusUnauthorized, "EXPIRED_SESSION", "Session is expired")
		return
	}
	switch parts[1] {
	case "balances":
		var out map[string]any
		_ = json.Unmarshal(Fixture("balances.json"), &out)
		for _, b := range out["balances"].([]any) {
			b.(map[string]any)["balance_amount"].(map[string]any)["currency"] = acc.currency
		}
		writeJSON(w, http.StatusOK, out)
	case "transactions":
		if r.URL.Query().Get("date_from") == "" {
			writeError(w, http.StatusUnprocessableEntity, "WRONG_REQUEST_PARAMETERS", "date_from is required by this fake")
			return
		}
		name := "transactions-1.json"
		switch r.URL.Query().Get("continuation_key") {
		case "":
		case "page-2":
			name = "transactions-2.json"
		default:
			writeError(w, http.StatusBadRequest, "WRONG_CONTINUATION_KEY", "Wrong continuation key provided")
			return
		}
		var out map[string]any
		_ = json.Unmarshal(Fixture(name), &out)
		if booked {
			for _, t := range out["transactions"].([]any) {
				m := t.(map[string]any)
				if m["status"] == "PDNG" {
					m["status"] = "BOOK"
					m["booking_date"] = m["transaction_date"]
				}
			}
		}
		writeJSON(w, http.StatusOK, out)
	default:
		writeError(w, http.StatusNotFound, "NOT_FOUND", "no such operation in the fake")
	}
}
