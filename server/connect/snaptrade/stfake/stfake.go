// Package stfake is a fake SnapTrade API for tests and the end-to-end suite. It checks each
// request's clientId and Signature like the real API, serves fixtures shaped by
// ../testdata/openapi-trimmed.yaml under /api/v1, and plays the Connection Portal by sending the
// user straight back to the custom redirect. Every portal visit makes a new brokerage connection
// whose accounts get new ids (as a deleted and re-added connection does). Activities are served
// two per page so that paging is exercised.
package stfake

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"patrimonio/server/connect/snaptrade"
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

// PageSize is how many activities one page of the fake holds.
const PageSize = 2

type user struct {
	secret   string
	accounts []string // account ids of the current connection
}

// Server is the fake. Call New.
type Server struct {
	clientID, consumerKey string
	// URL is where the fake is served (set it after starting the listener).
	URL string
	Now func() time.Time

	mu       sync.Mutex
	users    map[string]*user
	portals  map[string]string // portal session -> user id
	redirect map[string]string // portal session -> custom redirect
	owner    map[string]string // account id -> user id
	n        int
	throttle int
	revoked  bool
	settled  bool
	sold     map[string]bool // symbols sold: no longer among the positions
	unpriced map[string]bool // symbols served without a price
	requests []string
}

// New returns a fake for the given client id and consumer key.
func New(clientID, consumerKey string) *Server {
	return &Server{clientID: clientID, consumerKey: consumerKey, Now: time.Now, users: map[string]*user{},
		portals: map[string]string{}, redirect: map[string]string{}, owner: map[string]string{}}
}

// Throttle makes the next n API requests answer 429 (Retry-After: 1).
func (s *Server) Throttle(n int) { s.mu.Lock(); s.throttle = n; s.mu.Unlock() }

// Revoke makes every user's data answer 403, as a removed connection does.
func (s *Server) Revoke() { s.mu.Lock(); s.revoked = true; s.mu.Unlock() }

// Sell sells the whole position in symbol: it is no longer among the account's positions.
func (s *Server) Sell(symbol string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sold == nil {
		s.sold = map[string]bool{}
	}
	s.sold[symbol] = true
}

// BuyBack makes a sold symbol's position (Sell) held again.
func (s *Server) BuyBack(symbol string) { s.mu.Lock(); delete(s.sold, symbol); s.mu.Unlock() }

// Unprice serves symbol's position without a price (price null), as a broker does when it has
// no quote.
func (s *Server) Unprice(symbol string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.unpriced == nil {
		s.unpriced = map[string]bool{}
	}
	s.unpriced[symbol] = true
}

// Reprice serves symbol's price again (Unprice).
func (s *Server) Reprice(symbol string) { s.mu.Lock(); delete(s.unpriced, symbol); s.mu.Unlock() }

// Settle settles today's trade (it is pending until then).
func (s *Server) Settle() { s.mu.Lock(); s.settled = true; s.mu.Unlock() }

// Requests lists "METHOD path?offset" of every API request.
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

func fail(w http.ResponseWriter, status int, code, detail string) {
	writeJSON(w, status, map[string]any{"detail": detail, "code": code})
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/portal" {
		s.portal(w, r)
		return
	}
	path, ok := strings.CutPrefix(r.URL.Path, "/api/v1")
	if !ok {
		fail(w, http.StatusNotFound, "404", "not found")
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, r.Method+" "+path+"?"+r.URL.Query().Get("offset"))
	throttled := s.throttle > 0
	if throttled {
		s.throttle--
	}
	s.mu.Unlock()
	if throttled {
		w.Header().Set("Retry-After", "1")
		fail(w, http.StatusTooManyRequests, "429", "Too many requests")
		return
	}
	body, _ := io.ReadAll(r.Body)
	if err := s.checkSignature(r, body); err != nil {
		fail(w, http.StatusUnauthorized, "1076", err.Error())
		return
	}
	q := r.URL.Query()
	switch {
	case r.Method == http.MethodGet && path == "/brokerages":
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(Fixture("brokerages.json"))
	case r.Method == http.MethodPost && path == "/snapTrade/registerUser":
		var in struct {
			UserID string `json:"userId"`
		}
		_ = json.Unmarshal(body, &in)
		s.mu.Lock()
		_, taken := s.users[in.UserID]
		s.n++
		secret := fmt.Sprintf("secret-%d", s.n)
		if !taken && in.UserID != "" {
			s.users[in.UserID] = &user{secret: secret}
		}
		s.mu.Unlock()
		if taken || in.UserID == "" {
			fail(w, http.StatusBadRequest, "1010", "User already exist")
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"userId": in.UserID, "userSecret": secret})
	case r.Method == http.MethodPost && path == "/snapTrade/login":
		u := s.user(q)
		var in struct {
			CustomRedirect string `json:"customRedirect"`
		}
		_ = json.Unmarshal(body, &in)
		if u == "" || in.CustomRedirect == "" {
			fail(w, http.StatusBadRequest, "1083", "Invalid userID or userSecret provided")
			return
		}
		s.mu.Lock()
		s.n++
		sid := fmt.Sprintf("portal-%d", s.n)
		s.portals[sid] = u
		s.redirect[sid] = in.CustomRedirect
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, map[string]string{"redirectURI": s.URL + "/portal?session=" + sid, "sessionId": sid})
	case r.Method == http.MethodGet && path == "/accounts":
		u := s.user(q)
		if u == "" {
			fail(w, http.StatusUnauthorized, "1083", "Invalid userID or userSecret provided")
			return
		}
		s.mu.Lock()
		ids := append([]string(nil), s.users[u].accounts...)
		s.mu.Unlock()
		out := []any{}
		for _, id := range ids {
			out = append(out, s.account(id))
		}
		writeJSON(w, http.StatusOK, out)
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/accounts/"):
		s.accountData(w, strings.Split(strings.TrimPrefix(path, "/accounts/"), "/"), q)
	default:
		fail(w, http.StatusNotFound, "404", "no such operation in the fake")
	}
}

// checkSignature recomputes the Signature the way the real API does.
func (s *Server) checkSignature(r *http.Request, body []byte) error {
	if r.URL.Query().Get("clientId") != s.clientID {
		return fmt.Errorf("unknown clientId")
	}
	if _, err := strconv.ParseInt(r.URL.Query().Get("timestamp"), 10, 64); err != nil {
		return fmt.Errorf("no timestamp")
	}
	var content any
	if len(bytes.TrimSpace(body)) > 0 {
		if err := json.Unmarshal(body, &content); err != nil {
			return fmt.Errorf("body is not JSON")
		}
	}
	// The path as the client sent it (RequestURI), also when the fake is mounted under a prefix.
	path := r.URL.Path
	if u, err := url.ParseRequestURI(r.RequestURI); err == nil && r.RequestURI != "" {
		path = u.Path
	}
	want, err := snaptrade.Sign(s.consumerKey, path, r.URL.RawQuery, content)
	if err != nil {
		return err
	}
	if r.Header.Get("Signature") != want {
		return fmt.Errorf("wrong signature")
	}
	return nil
}

// user returns the user id whose secret the query carries ("" if none).
func (s *Server) user(q url.Values) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[q.Get("userId")]
	if !ok || u.secret != q.Get("userSecret") {
		return ""
	}
	return q.Get("userId")
}

func (s *Server) portal(w http.ResponseWriter, r *http.Request) {
	sid := r.URL.Query().Get("session")
	s.mu.Lock()
	uid, ok := s.portals[sid]
	target := s.redirect[sid]
	if ok {
		delete(s.portals, sid)
		for _, old := range s.users[uid].accounts { // the previous connection's accounts are gone
			delete(s.owner, old)
		}
		var ids []string
		var accounts []map[string]any
		_ = json.Unmarshal(Fixture("accounts.json"), &accounts)
		for i := range accounts {
			s.n++
			id := fmt.Sprintf("9f1c7a52-0000-4000-8000-%012d", s.n*10+i)
			ids = append(ids, id)
			s.owner[id] = uid
		}
		s.users[uid].accounts = ids
	}
	s.mu.Unlock()
	if !ok {
		http.Error(w, "unknown portal session", http.StatusNotFound)
		return
	}
	u, _ := url.Parse(target)
	q := u.Query()
	q.Set("status", "SUCCESS")
	q.Set("connection_id", "87b24961-b51e-4db8-9226-f198f6518a89")
	u.RawQuery = q.Encode()
	http.Redirect(w, r, u.String(), http.StatusFound)
}

// account returns the fixture account behind id.
func (s *Server) account(id string) map[string]any {
	s.mu.Lock()
	uid := s.owner[id]
	index := 0
	for i, a := range s.users[uid].accounts {
		if a == id {
			index = i
		}
	}
	s.mu.Unlock()
	var accounts []map[string]any
	_ = json.Unmarshal(Fixture("accounts.json"), &accounts)
	a := accounts[index]
	a["id"] = id
	return a
}

func (s *Server) accountData(w http.ResponseWriter, parts []string, q url.Values) {
	u := s.user(q)
	s.mu.Lock()
	owner, known := s.owner[parts[0]]
	revoked, settled := s.revoked, s.settled
	s.mu.Unlock()
	switch {
	case u == "":
		fail(w, http.StatusUnauthorized, "1083", "Invalid userID or userSecret provided")
		return
	case revoked:
		fail(w, http.StatusForbidden, "1066", "User does not have permission to access this resource")
		return
	case !known || owner != u:
		fail(w, http.StatusNotFound, "1013", "Account not found")
		return
	}
	rest := strings.Join(parts[1:], "/")
	switch rest {
	case "":
		writeJSON(w, http.StatusOK, s.account(parts[0]))
	case "balances":
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(Fixture("balances.json"))
	case "positions/all":
		var all struct {
			Results       []map[string]any `json:"results"`
			DataFreshness any              `json:"data_freshness"`
		}
		_ = json.Unmarshal(Fixture("positions.json"), &all)
		held := []map[string]any{}
		s.mu.Lock()
		for _, p := range all.Results {
			instrument, _ := p["instrument"].(map[string]any)
			symbol := fmt.Sprint(instrument["symbol"])
			if s.sold[symbol] {
				continue
			}
			if s.unpriced[symbol] {
				p["price"] = nil
			}
			held = append(held, p)
		}
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, map[string]any{"results": held, "data_freshness": all.DataFreshness})
	case "activities":
		today := s.Now().UTC().Format(time.DateOnly)
		settles := s.Now().UTC().AddDate(0, 0, 2).Format(time.DateOnly)
		if settled {
			settles = today
		}
		raw := strings.NewReplacer(`"TODAY"`, `"`+today+`T00:00:00Z"`, `"SETTLES"`, `"`+settles+`T00:00:00Z"`).Replace(string(Fixture("activities.json")))
		var all []any
		_ = json.Unmarshal([]byte(raw), &all)
		offset, _ := strconv.Atoi(q.Get("offset"))
		limit, _ := strconv.Atoi(q.Get("limit"))
		if limit <= 0 || limit > PageSize {
			limit = PageSize
		}
		end := min(offset+limit, len(all))
		page := []any{}
		if offset < len(all) {
			page = all[offset:end]
		}
		writeJSON(w, http.StatusOK, map[string]any{"data": page, "pagination": map[string]int{"offset": offset, "limit": limit, "total": len(all)}})
	default:
		fail(w, http.StatusNotFound, "404", "no such operation in the fake")
	}
}
