package commands

import (
	"archive/zip"
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/closure"
	"primeur/core/mydata"
	"primeur/core/store"
)

func (a *app) userCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "user",
		Short: "Gérer les comptes (créer, lister, changer un mot de passe, exporter, clore)",
		Long: "Gérer les comptes. Un mot de passe n'est jamais pris d'une option : il est demandé\n" +
			"dans le terminal, ou lu sur la première ligne de l'entrée standard sinon.",
	}
	cmd.AddCommand(a.userCreateCommand(), a.userListCommand(), a.userSetPasswordCommand(), a.userExportCommand(), a.userCloseCommand(),
		a.userCheckIdentifiersCommand())
	return cmd
}

func (a *app) userCreateCommand() *cobra.Command {
	var email, name, kind string
	cmd := &cobra.Command{
		Use:        "create",
		Short:      "Créer un compte",
		SuggestFor: []string{"add", "new", "ajouter", "creer"},
		Example:    "  echo 'motdepasse1' | primeur user create --email ferme@example.fr --name 'Ferme du Lac' --type producer",
		Args:       noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if kind != accounts.Producer && kind != accounts.Distributor {
				return fmt.Errorf("--type « %s » : %s (producteur) ou %s (magasin) est attendu", kind, accounts.Producer, accounts.Distributor)
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
			fmt.Fprintf(a.out, "compte %s créé : %s (%s)\n", typeName(u.Type), u.Email, u.ID)
			return nil
		},
	}
	cmd.Flags().StringVar(&email, "email", "", "adresse email, l'identifiant de connexion (obligatoire)")
	cmd.Flags().StringVar(&name, "name", "", "raison sociale (obligatoire)")
	cmd.Flags().StringVar(&kind, "type", accounts.Distributor, "producer (producteur) ou distributor (magasin)")
	_ = cmd.MarkFlagRequired("email")
	_ = cmd.MarkFlagRequired("name")
	return cmd
}

const userListLong = `Lister les comptes, les magasins (distributor) d'abord puis les producteurs,
chacun par email : type, email, raison sociale et création du compte (dans le
fuseau configuré).

Avec --json, un tableau d'un objet par compte, dans le même ordre, aux noms de
champs du profil de l'API (GET /api/user) :
  [{"_id": "01…", "type": "distributor", "email": "epicerie@example.fr",
    "name": "Épicerie du Lac", "createdAt": "2026-11-20T09:00:00Z"}, …]
type vaut "distributor" ou "producer" ; createdAt est en RFC 3339, en UTC.`

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
		Short: "Lister les comptes",
		Long:  userListLong,
		Args:  noArgs,
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
			fmt.Fprintln(w, "TYPE\tEMAIL\tRAISON SOCIALE\tCRÉÉ LE")
			for _, u := range users {
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", typeName(u.Type), u.Email, u.Name,
					a.clock().Stamp(time.UnixMilli(u.CreatedAt)))
			}
			return w.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "écrire du JSON au lieu d'un tableau")
	return cmd
}

// typeName is an account's type as the terminal says it.
func typeName(t string) string {
	if t == accounts.Producer {
		return "producteur"
	}
	return "magasin"
}

func (a *app) userSetPasswordCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "set-password EMAIL",
		Short: "Changer le mot de passe d'un compte (ses sessions prennent fin)",
		Args:  exactArgs(1),
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
				return noAccount(args[0], err)
			}
			fmt.Fprintf(a.out, "mot de passe changé pour %s\n", args[0])
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
			return "", fmt.Errorf("mot de passe illisible dans le terminal : %w", err)
		}
		if confirm {
			fmt.Fprint(a.errOut, "Confirmation : ")
			p2, err := term.ReadPassword(int(f.Fd()))
			fmt.Fprintln(a.errOut)
			if err != nil {
				return "", fmt.Errorf("mot de passe illisible dans le terminal : %w", err)
			}
			if string(p1) != string(p2) {
				return "", errors.New(accounts.MsgPasswordsDiffer)
			}
		}
		return string(p1), nil
	}
	line, err := bufio.NewReader(a.in).ReadString('\n')
	if err != nil && line == "" {
		return "", errors.New("aucun mot de passe sur l'entrée standard : donnez-le sur sa première ligne, ou lancez la commande dans un terminal")
	}
	return strings.TrimRight(line, "\r\n"), nil
}

const userExportLong = `Écrire ce que Primeur détient d'un compte, en zip (RGPD), comme son bouton
« Télécharger mes données ».

Sans --out, le fichier est nommé d'après le compte et le jour :
primeur-donnees-<email>-AAAA-MM-JJ.zip dans le dossier courant (l'email en
minuscules, chaque suite d'autres caractères que lettres et chiffres devenue
un tiret : primeur-donnees-ferme-aravis-fr-2026-11-28.zip). Un fichier qui
existe déjà n'est jamais remplacé, sauf avec --force ; le zip est écrit à côté
puis mis à sa place une fois complet.`

// exportName is the default file of `user export`: the account's email
// made a file name (lower case, every run of other characters than
// letters and digits a dash) and the day.
func exportName(email, today string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(email) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	return "primeur-donnees-" + b.String() + "-" + today + ".zip"
}

func (a *app) userExportCommand() *cobra.Command {
	var out string
	var force bool
	cmd := &cobra.Command{
		Use:     "export EMAIL",
		Short:   "Écrire ce que Primeur détient d'un compte, en zip (RGPD ; son « Télécharger mes données »)",
		Long:    userExportLong,
		Example: "  primeur user export ferme@example.fr\n  primeur user export ferme@example.fr --out ferme.zip --force",
		Args:    exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				out = exportName(args[0], a.clock().Today().String())
			}
			if _, err := os.Lstat(out); err == nil && !force {
				return fmt.Errorf("%s existe déjà ; choisissez un autre nom (--out), ou --force pour le remplacer", out)
			}
			db, u, err := a.account(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			defer db.Close()
			now := a.clock().Now()
			today := a.clock().Today().String()
			if err := writeExport(out, force, func(z *zip.Writer) error {
				return mydata.Write(cmd.Context(), db, z, u, now, today)
			}); err != nil {
				return err
			}
			fmt.Fprintf(a.out, "données de %s écrites dans %s\n", args[0], out)
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "le zip à écrire (par défaut primeur-donnees-<email>-AAAA-MM-JJ.zip)")
	cmd.Flags().BoolVar(&force, "force", false, "remplacer le fichier s'il existe")
	return cmd
}

// writeExport writes a zip with write into a new file beside out, then
// gives it out's name: without force only if out does not exist (a link,
// which fails on an existing name, so two exports never overwrite each
// other), with force replacing it. A failure leaves out as it was.
func writeExport(out string, force bool, write func(*zip.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(out), ".primeur-export-*.zip")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	z := zip.NewWriter(f)
	err = write(z)
	if err == nil {
		err = z.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if force {
		return os.Rename(tmp, out)
	}
	if err := os.Link(tmp, out); errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s existe déjà ; choisissez un autre nom (--out), ou --force pour le remplacer", out)
	} else if err != nil {
		return err
	}
	return nil
}

func (a *app) userCloseCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "close EMAIL",
		Short: "Clore un compte : anonymisé, plus de connexion ; refusé, en disant pourquoi, tant qu'il commerce ou doit",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			db, u, err := a.account(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			defer db.Close()
			if err := closure.Close(cmd.Context(), db, u, a.clock().Now(), a.cfg.Location); err != nil {
				return err
			}
			fmt.Fprintf(a.out, "compte %s clos (%s)\n", args[0], u.ID)
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
		return nil, accounts.User{}, noAccount(email, err)
	}
	return db, u, nil
}

// noAccount says so when err is that no account has the email.
func noAccount(email string, err error) error {
	var refusal *core.Refusal
	if errors.Is(err, core.ErrNotFound) && !errors.As(err, &refusal) {
		return fmt.Errorf("aucun compte n'a l'email %s (primeur user list les liste)", email)
	}
	return err
}
