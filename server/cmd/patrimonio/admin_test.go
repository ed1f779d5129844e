package main

import (
	"context"
	"errors"
	"log/slog"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"patrimonio/internal/pgtest"
	"patrimonio/server/account"
	"patrimonio/server/config"
	"patrimonio/server/store"
)

// runAdmin runs the real binary's admin subcommand and returns its exit code and output.
func runAdmin(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(binary(t), append([]string{"admin"}, args...)...)
	cmd.Env = cleanEnv(env...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, stdout.String(), stderr.String()
	case errors.As(err, &exit):
		return exit.ExitCode(), stdout.String(), stderr.String()
	}
	t.Fatal(err)
	return 0, "", ""
}

func TestTheAdminSubcommandGrantsAndRevokesTheAdminRole(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			databaseURL := "sqlite:" + filepath.Join(t.TempDir(), "patrimonio.db")
			if dialect == "postgres" {
				databaseURL = pgtest.URL(t)
			}
			cfg, err := config.Load(func(k string) string {
				return map[string]string{"DATABASE_URL": databaseURL}[k]
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			db, err := store.Open(context.Background(), cfg.Dialect(), cfg.DatabaseSource())
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			acfg := account.DefaultConfig()
			acfg.Password = account.PasswordParams{Memory: 64, Time: 1, Threads: 1}
			accounts, err := account.New(db, acfg, account.Options{Logger: slog.New(slog.DiscardHandler)})
			if err != nil {
				t.Fatal(err)
			}
			for _, email := range []string{"ana@example.com", "luis@example.com"} {
				if _, _, err := accounts.Signup.SignUp(context.Background(), email, "lentejas con chorizo 42", account.SessionMeta{}); err != nil {
					t.Fatal(err)
				}
			}
			// A configured admin address counts once verified (issue 11).
			if _, err := db.Exec(context.Background(), `UPDATE users SET email_verified_at = created_at`); err != nil {
				t.Fatal(err)
			}
			isAdmin := func() bool {
				t.Helper()
				u, err := accounts.Users.UserByEmail(context.Background(), "ana@example.com")
				if err != nil {
					t.Fatal(err)
				}
				return u.IsAdmin
			}

			code, out, errOut := runAdmin(t, []string{"DATABASE_URL=" + databaseURL}, "grant", "ANA@example.com")
			if code != 0 || !strings.Contains(out, "ana@example.com is now an app admin") || !isAdmin() {
				t.Fatalf("grant: exit %d, out %q, err %q", code, out, errOut)
			}
			// Another admin remains (the last one keeps the role: see the next test).
			if code, out, errOut = runAdmin(t, []string{"DATABASE_URL=" + databaseURL}, "grant", "luis@example.com"); code != 0 {
				t.Fatalf("grant luis: exit %d, out %q, err %q", code, out, errOut)
			}
			// Flags work as for serve.
			code, out, errOut = runAdmin(t, nil, "revoke", "ana@example.com", "-database-url", databaseURL)
			if code != 0 || !strings.Contains(out, "no longer an app admin") || isAdmin() {
				t.Fatalf("revoke: exit %d, out %q, err %q", code, out, errOut)
			}
			// A configured admin stays one, and the command says so.
			code, out, _ = runAdmin(t, []string{"DATABASE_URL=" + databaseURL, "PATRIMONIO_ADMIN_EMAILS=ana@example.com"}, "revoke", "ana@example.com")
			if code != 0 || !strings.Contains(out, "PATRIMONIO_ADMIN_EMAILS") {
				t.Fatalf("revoke of a configured admin: exit %d, out %q", code, out)
			}
			// Every admin disabled (audit finding 3): grant says the account is disabled, enable
			// brings it back.
			if _, err := db.Exec(context.Background(), `UPDATE users SET disabled_at = created_at`); err != nil {
				t.Fatal(err)
			}
			disabled := func() bool {
				t.Helper()
				u, err := accounts.Users.UserByEmail(context.Background(), "ana@example.com")
				if err != nil {
					t.Fatal(err)
				}
				return u.Disabled()
			}
			code, out, errOut = runAdmin(t, []string{"DATABASE_URL=" + databaseURL}, "grant", "ana@example.com")
			if code != 0 || !strings.Contains(out, "the account is disabled") || !strings.Contains(out, "patrimonio admin enable ana@example.com") || !disabled() {
				t.Fatalf("grant to a disabled user: exit %d, out %q, err %q", code, out, errOut)
			}
			code, out, errOut = runAdmin(t, []string{"DATABASE_URL=" + databaseURL}, "enable", "Ana@example.com")
			if code != 0 || !strings.Contains(out, "ana@example.com is enabled") || disabled() || !isAdmin() {
				t.Fatalf("enable: exit %d, out %q, err %q", code, out, errOut)
			}
			if code, out, _ = runAdmin(t, []string{"DATABASE_URL=" + databaseURL}, "enable", "ana@example.com"); code != 0 || disabled() {
				t.Fatalf("enable again: exit %d, out %q", code, out)
			}
			code, _, errOut = runAdmin(t, []string{"DATABASE_URL=" + databaseURL}, "enable", "nobody@example.com")
			if code != 1 || !strings.Contains(errOut, "no user has the e-mail address nobody@example.com") {
				t.Fatalf("enable an unknown user: exit %d, err %q", code, errOut)
			}
			code, _, errOut = runAdmin(t, []string{"DATABASE_URL=" + databaseURL}, "grant", "nobody@example.com")
			if code != 1 || !strings.Contains(errOut, "no user has the e-mail address nobody@example.com") {
				t.Fatalf("unknown user: exit %d, err %q", code, errOut)
			}
		})
	}
}

func TestTheAdminSubcommandRejectsBadUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"promote", "ana@example.com"}, {"grant"}, {"grant", "-database-url", "x"}} {
		code, _, errOut := runAdmin(t, nil, args...)
		if code != 2 || !strings.Contains(errOut, "patrimonio admin grant <email>") {
			t.Errorf("admin %q: exit %d, err %q", args, code, errOut)
		}
	}
	code, out, _ := runAdmin(t, nil, "help")
	if code != 0 || !strings.Contains(out, "patrimonio admin revoke <email>") || !strings.Contains(out, "patrimonio admin enable <email>") {
		t.Errorf("admin help: exit %d, out %q", code, out)
	}
}

// The command line refuses to take the role from the last enabled admin, as the admin area does
// (nobody would be left to run it): it says so, names the way out and changes nothing. A disabled
// admin does not count as one left; a configured address does.
func TestTheAdminSubcommandRefusesToRevokeTheLastEnabledAdmin(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			databaseURL := "sqlite:" + filepath.Join(t.TempDir(), "patrimonio.db")
			if dialect == "postgres" {
				databaseURL = pgtest.URL(t)
			}
			cfg, err := config.Load(func(k string) string {
				return map[string]string{"DATABASE_URL": databaseURL}[k]
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			db, err := store.Open(context.Background(), cfg.Dialect(), cfg.DatabaseSource())
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			acfg := account.DefaultConfig()
			acfg.Password = account.PasswordParams{Memory: 64, Time: 1, Threads: 1}
			accounts, err := account.New(db, acfg, account.Options{Logger: slog.New(slog.DiscardHandler)})
			if err != nil {
				t.Fatal(err)
			}
			for _, email := range []string{"ana@example.com", "luis@example.com", "eva@example.com"} {
				if _, _, err := accounts.Signup.SignUp(context.Background(), email, "lentejas con chorizo 42", account.SessionMeta{}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := db.Exec(context.Background(), `UPDATE users SET email_verified_at = created_at`); err != nil {
				t.Fatal(err)
			}
			isAdmin := func(email string) bool {
				t.Helper()
				u, err := accounts.Users.UserByEmail(context.Background(), email)
				if err != nil {
					t.Fatal(err)
				}
				return u.IsAdmin
			}
			env := []string{"DATABASE_URL=" + databaseURL}
			for _, email := range []string{"ana@example.com", "luis@example.com"} {
				if code, out, errOut := runAdmin(t, env, "grant", email); code != 0 {
					t.Fatalf("grant %s: exit %d, out %q, err %q", email, code, out, errOut)
				}
			}
			// Another enabled admin remains: revoking is fine.
			if code, out, errOut := runAdmin(t, env, "revoke", "luis@example.com"); code != 0 || isAdmin("luis@example.com") {
				t.Fatalf("revoke with another admin left: exit %d, out %q, err %q", code, out, errOut)
			}
			// Ana is the last one.
			code, out, errOut := runAdmin(t, env, "revoke", "ana@example.com")
			if code != 1 || !strings.Contains(errOut, "ana@example.com is the last enabled app admin") ||
				!strings.Contains(errOut, "patrimonio admin grant <email>") || !isAdmin("ana@example.com") {
				t.Fatalf("revoke the last admin: exit %d, out %q, err %q", code, out, errOut)
			}
			// A disabled admin is no admin left.
			if code, _, _ := runAdmin(t, env, "grant", "luis@example.com"); code != 0 {
				t.Fatal("grant luis again")
			}
			if _, err := db.Exec(context.Background(), `UPDATE users SET disabled_at = created_at WHERE email = 'luis@example.com'`); err != nil {
				t.Fatal(err)
			}
			if code, _, errOut := runAdmin(t, env, "revoke", "ana@example.com"); code != 1 || !isAdmin("ana@example.com") {
				t.Fatalf("revoke with only a disabled admin left: exit %d, err %q", code, errOut)
			}
			// Revoking the disabled one takes no enabled admin away.
			if code, out, errOut := runAdmin(t, env, "revoke", "luis@example.com"); code != 0 || isAdmin("luis@example.com") {
				t.Fatalf("revoke a disabled admin: exit %d, out %q, err %q", code, out, errOut)
			}
			// A configured (verified) address is an admin left.
			withEva := append([]string{"PATRIMONIO_ADMIN_EMAILS=eva@example.com"}, env...)
			if code, out, errOut := runAdmin(t, withEva, "revoke", "ana@example.com"); code != 0 || isAdmin("ana@example.com") {
				t.Fatalf("revoke with a configured admin left: exit %d, out %q, err %q", code, out, errOut)
			}
		})
	}
}
