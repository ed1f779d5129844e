package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"patrimonio/core"
	"patrimonio/server/account"
	"patrimonio/server/config"
	"patrimonio/server/store"
)

const adminUsage = `Usage:
  patrimonio admin grant <email> [flags]    make the user with this e-mail an app admin
  patrimonio admin revoke <email> [flags]   take the app admin role away
  patrimonio admin enable <email> [flags]   enable the account again after an admin disabled it

The database is the one the server uses (DATABASE_URL or -database-url; SQLite by default).
Addresses in PATRIMONIO_ADMIN_EMAILS are admins whatever is stored; revoke them there too.
Granting does not enable a disabled account (the command says so); enable it with enable.
Revoking the last enabled admin is refused, as in the admin area: grant another account first.
`

// adminCommand grants or revokes the app admin flag of a user, or enables their account again, in
// the database the configuration selects. It returns the process exit code: 0 done, 1 failed (unknown user, the last
// enabled admin, database), 2 usage.
func adminCommand(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "help") {
		fmt.Fprint(stdout, adminUsage)
		return 0
	}
	if len(args) < 2 || (args[0] != "grant" && args[0] != "revoke" && args[0] != "enable") || len(args[1]) == 0 || args[1][0] == '-' {
		fmt.Fprint(stderr, "patrimonio admin: expected grant, revoke or enable and an e-mail address\n\n", adminUsage)
		return 2
	}
	verb, email := args[0], args[1]
	cfg, err := config.Load(getenv, args[2:])
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, adminUsage)
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "patrimonio admin:", err)
		return 2
	}
	ctx := core.WithLanguage(context.Background(), core.LangEN)
	db, err := store.Open(ctx, cfg.Dialect(), cfg.DatabaseSource())
	if err != nil {
		fmt.Fprintln(stderr, "patrimonio admin:", err)
		return 1
	}
	defer db.Close()
	acfg := account.DefaultConfig()
	acfg.AdminEmails = cfg.AdminEmailList()
	accounts, err := account.New(db, acfg, account.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		fmt.Fprintln(stderr, "patrimonio admin:", err)
		return 1
	}
	var u *account.User
	if verb == "enable" {
		u, err = accounts.Users.Enable(ctx, email)
	} else {
		u, err = accounts.Users.SetAdmin(ctx, email, verb == "grant")
	}
	if errors.Is(err, account.ErrLastAdmin) {
		fmt.Fprintf(stderr, "patrimonio admin: %s is the last enabled app admin: nothing was changed (nobody would be left to run the admin area).\n"+
			"Make another account an admin first with\n  patrimonio admin grant <email>\n", account.NormalizeEmail(email))
		return 1
	}
	if core.ErrorCode(err) == core.ENOTFOUND {
		fmt.Fprintf(stderr, "patrimonio admin: no user has the e-mail address %s (they must sign up first)\n", email)
		return 1
	}
	if err != nil {
		fmt.Fprintln(stderr, "patrimonio admin:", err)
		return 1
	}
	switch {
	case verb == "enable":
		fmt.Fprintf(stdout, "%s is enabled: they can sign in again.\n", u.Email)
		return 0
	case verb == "grant" && u.Disabled():
		fmt.Fprintf(stdout, "%s is now an app admin, but the account is disabled: they cannot sign in until you run\n  patrimonio admin enable %s\n",
			u.Email, u.Email)
		return 0
	case verb == "grant":
		fmt.Fprintf(stdout, "%s is now an app admin.\n", u.Email)
		return 0
	}
	if u.IsAdmin {
		fmt.Fprintf(stdout, "%s: the stored admin flag is off, but the address is in %s, so it stays an admin until removed there.\n",
			u.Email, config.EnvAdminEmails)
		return 0
	}
	fmt.Fprintf(stdout, "%s is no longer an app admin.\n", u.Email)
	return 0
}
