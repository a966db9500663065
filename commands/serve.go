package commands

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"primeur"
	"primeur/core/demo"
	"primeur/daemon"
)

const serveLong = `Lancer le démon : mettre la base à jour, puis servir l'interface web et l'API
jusqu'à SIGINT ou SIGTERM, en laissant finir les requêtes en cours. Sa première
ligne de journal donne la version et la base de données utilisée.

Avec --demo, une base vide reçoit d'abord le monde de démonstration (voir
« primeur demo »), et ses identifiants sont affichés ; une plateforme agréée
locale (de démonstration) est lancée dans le démon et la Ferme des Glières y
est connectée : ses factures y sont déposées et leurs statuts s'affichent.`

func (a *app) serveCommand() *cobra.Command {
	var (
		withDemo bool
		startAt  string
	)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Lancer le démon (interface web et API)",
		Long:  serveLong,
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			log := a.logger()
			log.Info("primeur starting", "version", daemon.Version, "commit", commit, "database", describeDatabase(a.cfg))
			a.dbLogged = true
			if startAt != "" {
				clock, err := shiftedClock(startAt, a.now)
				if err != nil {
					return err
				}
				a.now = clock
				log.Warn("the daemon's clock is shifted (--now): dates, locks and jobs follow it", "now", a.clock().Now())
			}
			db, err := a.createDB(ctx)
			if err != nil {
				return err
			}
			defer db.Close()
			if withDemo {
				res, err := demo.SeedIfEmpty(ctx, db, a.clock().Now())
				if err != nil {
					return err
				}
				if res.Created {
					log.Info("demo data created")
				}
				a.printLogins(res)
			}
			listening := func(string) {}
			if withDemo {
				srv, hook, err := a.demoPA(ctx, db, log)
				if err != nil {
					return err
				}
				defer demoPAClose(srv)
				listening = hook
			}
			d := daemon.New(daemon.Options{Config: a.cfg, DB: db, Log: log, UI: primeur.UI(), Now: a.now})
			return d.Run(ctx, func(addr string) {
				listening(addr)
				fmt.Fprintf(a.out, "Primeur %s à l'écoute sur http://%s\n", daemon.Version, addr)
			})
		},
	}
	addSettingFlags(cmd.Flags(), serveKeys)
	addSettingFlags(cmd.Flags(), jobKeys)
	cmd.Flags().BoolVar(&withDemo, "demo", false, "remplir une base vide avec le monde de démonstration et afficher ses identifiants")
	cmd.Flags().StringVar(&startAt, "now", "", "faire partir l'horloge du démon de cette heure RFC 3339 (tests du navigateur, démonstrations)")
	_ = cmd.Flags().MarkHidden("now")
	return cmd
}

// shiftedClock returns a clock that reads `at` now and runs forward in real
// time from there: the browser tests pin the daemon to a known day so that
// month-bound rules (claims within the delivery's month, past months) do not
// depend on the day CI runs.
func shiftedClock(at string, real func() time.Time) (func() time.Time, error) {
	start, err := time.Parse(time.RFC3339, at)
	if err != nil {
		return nil, fmt.Errorf("--now « %s » : une heure RFC 3339 est attendue (2026-11-10T09:00:00+01:00)", at)
	}
	// Elapsed real time added to start, rather than a fixed offset from the
	// real clock: an offset overflows time.Duration for a start more than
	// 292 years away (FuzzParseAt found --now 0000-01-01 starting in 1734).
	origin := real()
	return func() time.Time { return start.Add(real().Sub(origin)) }, nil
}
