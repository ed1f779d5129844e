package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sync"

	"github.com/jackc/pgx/v5"
)

// World is who exists in every scenario's database: users signed up through the real HTTP API
// (sign-up, e-mail verification with the code from the development outbox, invitations
// accepted), each with a live session, and two team workspaces with different members:
//
//	ana    owner of A            (A only)
//	bruno  owner of B            (B only)
//	carla  editor of A and of B  (both)
//	dario  viewer of A           (A only, may not write)
//
// It is made once per database server, in a template database (a SQLite file copied for each
// scenario, or a Postgres database each scenario's database is created from).
type World struct {
	Users []*User
	A, B  string // workspace ids

	sqliteFile string // the template file (SQLite)
	pgBase     string // the Postgres server (Postgres)
	pgTemplate string // the template database (Postgres)
	createMu   sync.Mutex
}

// User is a signed-up user with a session.
type User struct {
	Name  string
	Email string
	ID    string
	Token string            // the session cookie's value
	Roles map[string]string // workspace id → role, for A and B only
}

// Member reports whether the user may read the workspace.
func (u *User) Member(workspace string) bool { return u.Roles[workspace] != "" }

// CanWrite reports whether the user may write to the workspace.
func (u *User) CanWrite(workspace string) bool {
	r := u.Roles[workspace]
	return r == "owner" || r == "editor"
}

const worldPassword = "una frase de paso larga 42"

// World returns the world of a database base ("sqlite", or a Postgres server URL), making its
// template the first time.
func (e *Env) World(base string) (*World, error) {
	e.worldMu.Lock()
	defer e.worldMu.Unlock()
	if w := e.worlds[base]; w != nil {
		return w, nil
	}
	dir, err := os.MkdirTemp(e.Dir, "template-")
	if err != nil {
		return nil, err
	}
	w := &World{}
	var database string
	if base == "sqlite" {
		w.sqliteFile = filepath.Join(dir, "template.db")
		database = "sqlite:" + w.sqliteFile
	} else {
		w.pgBase, w.pgTemplate = base, randomName("simtmpl_")
		if err := adminExec(base, `CREATE DATABASE `+pgx.Identifier{w.pgTemplate}.Sanitize()); err != nil {
			return nil, fmt.Errorf("create the template database: %w", err)
		}
		e.templates = append(e.templates, base+"\x00"+w.pgTemplate)
		if database, err = withDatabase(base, w.pgTemplate); err != nil {
			return nil, err
		}
	}
	s := newServer(e, false, database, dir)
	s.devMail = filepath.Join(dir, "mail")
	if err := s.Start(); err != nil {
		return nil, fmt.Errorf("start the template server: %w", err)
	}
	err = w.populate(s.URL(), s.devMail)
	if serr := s.Stop(); err == nil && serr != nil {
		err = fmt.Errorf("stop the template server: %w", serr)
	}
	if err != nil {
		return nil, err
	}
	e.worlds[base] = w
	return w, nil
}

// populate signs the users up and sets up the workspaces through the HTTP API.
func (w *World) populate(base, mailDir string) error {
	h := &httpClient{base: base}
	for _, name := range []string{"ana", "bruno", "carla", "dario"} {
		u := &User{Name: name, Email: "sim-" + name + "@example.com", Roles: map[string]string{}}
		var out struct {
			User struct {
				ID string `json:"id"`
			} `json:"user"`
		}
		// Sign-up answers without a session; the e-mailed code signs in (and verifies the address).
		if _, err := h.do(http.MethodPost, "/api/v1/auth/signup", "", map[string]string{"email": u.Email, "password": worldPassword}, nil, http.StatusAccepted); err != nil {
			return fmt.Errorf("sign up %s: %w", name, err)
		}
		var mails []struct {
			Code string `json:"code"`
		}
		if _, err := h.do(http.MethodGet, "/api/v1/dev/outbox?to="+url.QueryEscape(u.Email), "", nil, &mails, http.StatusOK); err != nil || len(mails) == 0 || mails[len(mails)-1].Code == "" {
			return fmt.Errorf("read %s's verification code: %v (%d mails)", name, err, len(mails))
		}
		resp, err := h.do(http.MethodPost, "/api/v1/auth/signup/verify", "", map[string]string{"email": u.Email, "code": mails[len(mails)-1].Code}, &out, http.StatusOK)
		if err != nil {
			return fmt.Errorf("verify %s: %w", name, err)
		}
		for _, c := range resp.Cookies() {
			if c.Name == "patrimonio_session" {
				u.Token = c.Value
			}
		}
		u.ID = out.User.ID
		if u.Token == "" || u.ID == "" {
			return fmt.Errorf("sign up %s: no session or no id", name)
		}
		w.Users = append(w.Users, u)
	}
	ana, bruno, carla, dario := w.Users[0], w.Users[1], w.Users[2], w.Users[3]
	create := func(owner *User, name string) (string, error) {
		var out struct {
			Workspace struct {
				ID string `json:"id"`
			} `json:"workspace"`
		}
		if _, err := h.do(http.MethodPost, "/api/v1/workspaces", owner.Token, map[string]string{"name": name}, &out, http.StatusCreated); err != nil {
			return "", fmt.Errorf("create workspace %s: %w", name, err)
		}
		owner.Roles[out.Workspace.ID] = "owner"
		return out.Workspace.ID, nil
	}
	invite := func(owner *User, workspace string, who *User, role string) error {
		var out struct {
			Invitation struct {
				ID string `json:"id"`
			} `json:"invitation"`
		}
		if _, err := h.do(http.MethodPost, "/api/v1/workspaces/"+workspace+"/invitations", owner.Token,
			map[string]string{"email": who.Email, "role": role}, &out, http.StatusCreated); err != nil {
			return fmt.Errorf("invite %s: %w", who.Name, err)
		}
		if _, err := h.do(http.MethodPost, "/api/v1/invitations/"+out.Invitation.ID+"/accept", who.Token, nil, nil, http.StatusOK); err != nil {
			return fmt.Errorf("%s accepts: %w", who.Name, err)
		}
		who.Roles[workspace] = role
		return nil
	}
	var err error
	if w.A, err = create(ana, "Casa A"); err != nil {
		return err
	}
	if w.B, err = create(bruno, "Casa B"); err != nil {
		return err
	}
	if err := invite(ana, w.A, carla, "editor"); err != nil {
		return err
	}
	if err := invite(bruno, w.B, carla, "editor"); err != nil {
		return err
	}
	return invite(ana, w.A, dario, "viewer")
}

type httpClient struct{ base string }

// do sends a JSON request as the user of token ("" for none) and decodes the answer into out.
func (h *httpClient) do(method, path, token string, body, out any, want int) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, h.base+path, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Origin", h.base)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Cookie", "patrimonio_session="+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		return resp, fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return resp, fmt.Errorf("%s %s: %w", method, path, err)
		}
	}
	return resp, nil
}

// newDatabase makes a scenario's database from the world's template: a copy of the SQLite file,
// or a Postgres database created from the template. drop removes it.
func (w *World) newDatabase(dir string) (database string, drop func() error, err error) {
	if w.sqliteFile != "" {
		dst := filepath.Join(dir, "patrimonio.db")
		for _, suffix := range []string{"", "-wal"} {
			b, err := os.ReadFile(w.sqliteFile + suffix)
			if os.IsNotExist(err) && suffix != "" {
				continue
			}
			if err != nil {
				return "", nil, err
			}
			if err := os.WriteFile(dst+suffix, b, 0o600); err != nil {
				return "", nil, err
			}
		}
		return "sqlite:" + dst, func() error { return nil }, nil
	}
	name := randomName("sim_")
	w.createMu.Lock()
	defer w.createMu.Unlock()
	if err := adminExec(w.pgBase, `CREATE DATABASE `+pgx.Identifier{name}.Sanitize()+` TEMPLATE `+pgx.Identifier{w.pgTemplate}.Sanitize()); err != nil {
		return "", nil, fmt.Errorf("create the scenario's database: %w", err)
	}
	database, err = withDatabase(w.pgBase, name)
	if err != nil {
		return "", nil, err
	}
	return database, func() error {
		return adminExec(w.pgBase, `DROP DATABASE IF EXISTS `+pgx.Identifier{name}.Sanitize()+` WITH (FORCE)`)
	}, nil
}
