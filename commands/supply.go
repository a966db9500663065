package commands

import (
	"errors"
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

const supplyLong = `Show a shop's stock grid and supply advice in the terminal, from a running
daemon: the command logs in over HTTP as the browser does (--server, --email,
the password from a prompt or PRIMEUR_PASSWORD) and reads GET /api/supply.

Each cell is the morning stock, then "+" what comes in that day, coloured by
risk (green covered, orange partial, red empty). Arrow keys move the selection
(at the edges, the window moves by one day), Enter opens the detail of the
selected cell (the platform order proposed for the next day and its
assumptions), Esc closes it, t returns to the current week, q quits. A
terminal 110 columns wide or more shows 8 days, narrower ones up to 5.`

func (a *app) supplyCommand() *cobra.Command {
	var server, email string
	cmd := &cobra.Command{
		Use:     "supply",
		Short:   "Terminal viewer of a shop's stock grid and supply advice (needs a running daemon)",
		Long:    supplyLong,
		Example: "  PRIMEUR_PASSWORD=primeur2026 primeur supply --server http://127.0.0.1:8080 --email epicerie-du-lac@demo.primeur.fr",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if server == "" {
				server = "http://" + a.cfg.Addr
			}
			c, err := supplyui.NewClient(server)
			if err != nil {
				return err
			}
			password := os.Getenv(EnvPassword)
			if password == "" {
				f, ok := a.in.(*os.File)
				if !ok || !term.IsTerminal(int(f.Fd())) {
					return errors.New("no terminal to ask the password: set " + EnvPassword)
				}
				if password, err = a.readPassword(false); err != nil {
					return err
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
			p := tea.NewProgram(supplyui.New(account.Name, c.Supply, first),
				tea.WithContext(ctx), tea.WithInput(a.in), tea.WithOutput(a.out), tea.WithAltScreen())
			_, err = p.Run()
			if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
				return nil // interrupted by a signal
			}
			return err
		},
	}
	cmd.Flags().StringVar(&server, "server", "", "URL of the running daemon (default: http:// and the addr setting)")
	cmd.Flags().StringVar(&email, "email", "", "email of the shop's account (required)")
	_ = cmd.MarkFlagRequired("email")
	return cmd
}
