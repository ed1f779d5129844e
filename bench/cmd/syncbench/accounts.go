package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// user is an account made through the HTTP API (POST /api/v1/auth/signup), as a person makes it.
type user struct {
	Email, Password string
	ID              string
	Cookie          string // patrimonio_session=<token>
	Workspace       string // the personal workspace made at sign-up
}

var httpClient = &http.Client{Timeout: time.Minute}

// signUp creates an account and returns it with its first session and personal workspace.
func signUp(baseURL, label string) (*user, error) {
	var b [6]byte
	_, _ = rand.Read(b[:])
	u := &user{Email: fmt.Sprintf("bench-%s-%s@example.com", label, hex.EncodeToString(b[:])), Password: "bench password " + hex.EncodeToString(b[:])}
	// Sign-up answers without a session (the same for a taken address); the password signs in.
	if _, err := authPost(baseURL, "/api/v1/auth/signup", u.Email, u.Password); err != nil && !strings.Contains(err.Error(), "no session cookie") {
		return nil, err
	}
	cookie, err := authPost(baseURL, "/api/v1/auth/signin", u.Email, u.Password)
	if err != nil {
		return nil, err
	}
	if err := u.fill(baseURL, cookie); err != nil {
		return nil, err
	}
	return u, nil
}

// signIn starts another session of u (another device).
func (u *user) signIn(baseURL string) (string, error) {
	return authPost(baseURL, "/api/v1/auth/signin", u.Email, u.Password)
}

func authPost(baseURL, path, email, password string) (string, error) {
	body, _ := json.Marshal(map[string]string{"email": email, "password": password})
	req, _ := http.NewRequest(http.MethodPost, baseURL+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", baseURL)
	res, err := httpClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("POST %s: %w", path, err)
	}
	defer res.Body.Close()
	if res.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(res.Body)
		return "", fmt.Errorf("POST %s: HTTP %d %s", path, res.StatusCode, msg)
	}
	for _, c := range res.Cookies() {
		if c.Name == "patrimonio_session" {
			return c.Name + "=" + c.Value, nil
		}
	}
	return "", fmt.Errorf("POST %s: no session cookie in the answer", path)
}

func (u *user) fill(baseURL, cookie string) error {
	req, _ := http.NewRequest(http.MethodGet, baseURL+"/api/v1/me", nil)
	req.Header.Set("Cookie", cookie)
	res, err := httpClient.Do(req)
	if err != nil {
		return fmt.Errorf("GET /api/v1/me: %w", err)
	}
	defer res.Body.Close()
	var me struct {
		User struct {
			ID string `json:"id"`
		} `json:"user"`
		Workspaces []struct {
			ID   string `json:"id"`
			Kind string `json:"kind"`
		} `json:"workspaces"`
	}
	if res.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(res.Body)
		return fmt.Errorf("GET /api/v1/me: HTTP %d %s", res.StatusCode, msg)
	}
	if err := json.NewDecoder(res.Body).Decode(&me); err != nil {
		return fmt.Errorf("GET /api/v1/me: %w", err)
	}
	if len(me.Workspaces) == 0 {
		return fmt.Errorf("the new account %s has no workspace", me.User.ID)
	}
	u.ID, u.Cookie, u.Workspace = me.User.ID, cookie, me.Workspaces[0].ID
	for _, w := range me.Workspaces {
		if strings.EqualFold(w.Kind, "personal") {
			u.Workspace = w.ID
		}
	}
	return nil
}

// signUpMany makes n accounts, `parallel` at a time (each sign-up runs argon2id on the server).
func signUpMany(baseURL, label string, n, parallel int) ([]*user, error) {
	users := make([]*user, n)
	errs := make(chan error, n)
	sem := make(chan struct{}, parallel)
	for i := range n {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			u, err := signUp(baseURL, fmt.Sprintf("%s%d", label, i))
			users[i] = u
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			return nil, err
		}
	}
	return users, nil
}
