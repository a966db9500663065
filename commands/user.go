package commands

import (
	"archive/zip"
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"primeur/core/accounts"
	"primeur/core/closure"
	"primeur/core/mydata"
	"primeur/core/store"
)

func (a *app) userCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "user",
		Short: "Manage accounts (create, list, set a password, export, close)",
		Long: "Manage accounts. Passwords are never taken from flags: they are asked at a prompt\n" +
			"on a terminal, or read from the first line of standard input otherwise.",
	}
	cmd.AddCommand(a.userCreateCommand(), a.userListCommand(), a.userSetPasswordCommand(), a.userExportCommand(), a.userCloseCommand(),
		a.userCheckIdentifiersCommand())
	return cmd
}

func (a *app) userCreateCommand() *cobra.Command {
	var email, name, kind string
	cmd := &cobra.Command{
		Use:     "create",
		Short:   "Create an account",
		Example: "  echo 'motdepasse1' | primeur user create --email ferme@example.fr --name 'Ferme du Lac' --type producer",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if kind != accounts.Producer && kind != accounts.Distributor {
				return fmt.Errorf("--type must be %q or %q", accounts.Producer, accounts.Distributor)
			}
			password, err := a.readPassword(true)
			if err != nil {
				return err
			}
			db, err := a.openDB(cmd.Context())
			if err != nil {
				return err
			}
			defer db.Close()
			u, err := accounts.Register(cmd.Context(), db, accounts.Registration{
				Email: email, Password: password, Name: name, Distributor: kind == accounts.Distributor,
			}, a.clock().Now())
			if err != nil {
				return err
			}
			fmt.Fprintf(a.out, "created %s %s (%s)\n", u.Type, u.Email, u.ID)
			return nil
		},
	}
	cmd.Flags().StringVar(&email, "email", "", "email address, the login (required)")
	cmd.Flags().StringVar(&name, "name", "", "company name (required)")
	cmd.Flags().StringVar(&kind, "type", accounts.Distributor, "producer or distributor")
	_ = cmd.MarkFlagRequired("email")
	_ = cmd.MarkFlagRequired("name")
	return cmd
}

const userListLong = `List the accounts, shops (distributor) first then producers, each by email: type,
email, company name and when the account was created (in the configured time zone).

With --json, an array with one object per account, in the same order, its field
names those of the API's profile (GET /api/user):
  [{"_id": "01…", "type": "distributor", "email": "epicerie@example.fr",
    "name": "Épicerie du Lac", "createdAt": "2026-11-20T09:00:00Z"}, …]
type is "distributor" or "producer"; createdAt is RFC 3339 in UTC.`

// userJSON is an account as 'user list --json' prints it.
type userJSON struct {
	ID        string `json:"_id"`
	Type      string `json:"type"`
	Email     string `json:"email"`
	Name      string `json:"name"`
	CreatedAt string `json:"createdAt"`
}

func (a *app) userListCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List accounts",
		Long:  userListLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := a.openDB(cmd.Context())
			if err != nil {
				return err
			}
			defer db.Close()
			users, err := accounts.List(cmd.Context(), db)
			if err != nil {
				return err
			}
			if asJSON {
				out := make([]userJSON, len(users))
				for i, u := range users {
					out[i] = userJSON{ID: u.ID, Type: u.Type, Email: u.Email, Name: u.Name,
						CreatedAt: time.UnixMilli(u.CreatedAt).UTC().Format(time.RFC3339)}
				}
				return a.writeJSON(out)
			}
			w := tabwriter.NewWriter(a.out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "TYPE\tEMAIL\tNAME\tCREATED")
			for _, u := range users {
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", u.Type, u.Email, u.Name,
					a.clock().Stamp(time.UnixMilli(u.CreatedAt)))
			}
			return w.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	return cmd
}

func (a *app) userSetPasswordCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "set-password EMAIL",
		Short: "Set an account's password (its sessions end)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			password, err := a.readPassword(true)
			if err != nil {
				return err
			}
			db, err := a.openDB(cmd.Context())
			if err != nil {
				return err
			}
			defer db.Close()
			if err := accounts.SetPassword(cmd.Context(), db, args[0], password, a.clock().Now()); err != nil {
				return err
			}
			fmt.Fprintf(a.out, "password updated for %s\n", args[0])
			return nil
		},
	}
}

// readPassword asks twice at a terminal prompt, or reads the first line of a
// non-terminal standard input.
func (a *app) readPassword(confirm bool) (string, error) {
	if f, ok := a.in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprint(a.errOut, "Mot de passe : ")
		p1, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(a.errOut)
		if err != nil {
			return "", fmt.Errorf("read password: %w", err)
		}
		if confirm {
			fmt.Fprint(a.errOut, "Confirmation : ")
			p2, err := term.ReadPassword(int(f.Fd()))
			fmt.Fprintln(a.errOut)
			if err != nil {
				return "", fmt.Errorf("read password: %w", err)
			}
			if string(p1) != string(p2) {
				return "", errors.New(accounts.MsgPasswordsDiffer)
			}
		}
		return string(p1), nil
	}
	line, err := bufio.NewReader(a.in).ReadString('\n')
	if err != nil && line == "" {
		return "", errors.New("no password on standard input")
	}
	return strings.TrimRight(line, "\r\n"), nil
}

func (a *app) userExportCommand() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:     "export EMAIL",
		Short:   "Write what Primeur holds of an account as a zip (RGPD; as its \"Télécharger mes données\")",
		Example: "  primeur user export ferme@example.fr --out ferme.zip",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			db, u, err := a.account(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			defer db.Close()
			now := a.clock().Now()
			today := a.clock().Today().String()
			if out == "" {
				out = mydata.FileName(today)
			}
			f, err := os.Create(out)
			if err != nil {
				return err
			}
			z := zip.NewWriter(f)
			err = mydata.Write(cmd.Context(), db, z, u, now, today)
			if err == nil {
				err = z.Close()
			}
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return errors.Join(err, os.Remove(out))
			}
			fmt.Fprintf(a.out, "data of %s written to %s\n", args[0], out)
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "the zip to write (default primeur-mes-donnees-YYYY-MM-DD.zip)")
	return cmd
}

func (a *app) userCloseCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "close EMAIL",
		Short: "Close an account: anonymised, no more login; refused, saying why, while it still trades or owes",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			db, u, err := a.account(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			defer db.Close()
			if err := closure.Close(cmd.Context(), db, u, a.clock().Now(), a.cfg.Location); err != nil {
				return err
			}
			fmt.Fprintf(a.out, "account %s closed (%s)\n", args[0], u.ID)
			return nil
		},
	}
}

// account opens the database and reads the account of email; the caller
// closes the database.
func (a *app) account(ctx context.Context, email string) (*store.DB, accounts.User, error) {
	db, err := a.openDB(ctx)
	if err != nil {
		return nil, accounts.User{}, err
	}
	u, err := accounts.ByEmail(ctx, db, email)
	if err != nil {
		db.Close()
		return nil, accounts.User{}, err
	}
	return db, u, nil
}
