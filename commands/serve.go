package commands

import (
	"fmt"

	"github.com/spf13/cobra"

	"primeur"
	"primeur/core/demo"
	"primeur/daemon"
)

const serveLong = `Run the daemon: migrate the database, then serve the web interface and the
API until SIGINT or SIGTERM, letting requests in flight finish.

With --demo, an empty database first receives the demo world (see
'primeur demo'), and the demo logins are printed.`

func (a *app) serveCommand() *cobra.Command {
	var withDemo bool
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the daemon (web interface and API)",
		Long:  serveLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			log := a.logger()
			db, err := a.openDB(ctx)
			if err != nil {
				return err
			}
			defer db.Close()
			if withDemo {
				res, err := demo.SeedIfEmpty(ctx, db, a.now().In(a.cfg.Location))
				if err != nil {
					return err
				}
				if res.Created {
					log.Info("demo data created")
				}
				a.printLogins(res)
			}
			d := daemon.New(daemon.Options{Config: a.cfg, DB: db, Log: log, UI: primeur.UI()})
			return d.Run(ctx, func(addr string) {
				fmt.Fprintf(a.out, "Primeur %s à l'écoute sur http://%s\n", daemon.Version, addr)
			})
		},
	}
	addSettingFlags(cmd.Flags(), serveKeys)
	addSettingFlags(cmd.Flags(), jobKeys)
	cmd.Flags().BoolVar(&withDemo, "demo", false, "fill an empty database with the demo world and print its logins")
	return cmd
}
