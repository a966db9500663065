package commands

import (
	"errors"
	"fmt"
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"primeur/commands/supplyui"
	"primeur/core/supply"
)

// EnvPassword holds the password of `primeur supply` when no terminal can
// ask it.
const EnvPassword = "PRIMEUR_PASSWORD"

const supplyLong = `Afficher la grille de stock et les conseils d'approvisionnement d'un magasin,
depuis un démon en marche : la commande se connecte en HTTP comme le navigateur
(--server, --email, le mot de passe demandé dans le terminal, ou pris de
PRIMEUR_PASSWORD, ou de la première ligne de l'entrée standard) et lit
GET /api/supply.

Dans un terminal, chaque case est le stock du matin, puis « + » ce qui arrive ce
jour-là, colorée selon le risque (vert couvert, orange partiel, rouge vide). Les
flèches déplacent la sélection (aux bords, la fenêtre avance ou recule d'un
jour), Entrée ouvre le détail de la case (la commande plateforme proposée pour
le lendemain et ses hypothèses), Échap le ferme, t revient à la semaine en
cours, q quitte. Un terminal de 110 colonnes ou plus montre 8 jours, un plus
étroit jusqu'à 5.

Sans terminal (sortie redirigée vers un fichier ou un tube, tâche planifiée),
la commande écrit le rapport en texte de la semaine en cours, celui de
« primeur simulate supply », et s'arrête.`

// isTerminal reports whether f is a terminal.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && term.IsTerminal(int(file.Fd()))
}

func (a *app) supplyCommand() *cobra.Command {
	var server, email string
	cmd := &cobra.Command{
		Use:     "supply",
		Short:   "Grille de stock et conseils d'approvisionnement d'un magasin, dans le terminal (démon en marche)",
		Long:    supplyLong,
		Example: "  PRIMEUR_PASSWORD=primeur2026 primeur supply --server http://127.0.0.1:8080 --email epicerie-du-lac@demo.primeur.fr",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if server == "" {
				server = "http://" + a.cfg.Addr
			}
			c, err := supplyui.NewClient(server)
			if err != nil {
				return err
			}
			// The viewer needs a terminal to draw in and to read keys from;
			// anything else gets the plain report.
			viewer := isTerminal(a.in) && isTerminal(a.out)
			password := os.Getenv(EnvPassword)
			if password == "" {
				if password, err = a.readPassword(false); err != nil {
					return fmt.Errorf("%w (ou PRIMEUR_PASSWORD)", err)
				}
			}
			account, err := c.Login(ctx, email, password)
			if err != nil {
				return err
			}
			first, err := c.Supply(ctx, "", supply.DefaultDays)
			if err != nil {
				return err
			}
			if !viewer {
				return supplyui.WriteReport(a.out, account.Name, first)
			}
			p := tea.NewProgram(supplyui.New(account.Name, c.Supply, first),
				tea.WithContext(ctx), tea.WithInput(a.in), tea.WithOutput(a.out), tea.WithAltScreen())
			_, err = p.Run()
			if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
				return nil // interrupted by a signal
			}
			return err
		},
	}
	cmd.Flags().StringVar(&server, "server", "", "URL du démon en marche (par défaut : http:// et le réglage addr)")
	cmd.Flags().StringVar(&email, "email", "", "email du compte du magasin (obligatoire)")
	_ = cmd.MarkFlagRequired("email")
	return cmd
}
