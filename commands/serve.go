package commands

import (
	"fmt"
	"time"

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
	var (
		withDemo bool
		startAt  string
	)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the daemon (web interface and API)",
		Long:  serveLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			log := a.logger()
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
			d := daemon.New(daemon.Options{Config: a.cfg, DB: db, Log: log, UI: primeur.UI(), Now: a.now})
			return d.Run(ctx, func(addr string) {
				fmt.Fprintf(a.out, "Primeur %s à l'écoute sur http://%s\n", daemon.Version, addr)
			})
		},
	}
	addSettingFlags(cmd.Flags(), serveKeys)
	addSettingFlags(cmd.Flags(), jobKeys)
	cmd.Flags().BoolVar(&withDemo, "demo", false, "fill an empty database with the demo world and print its logins")
	cmd.Flags().StringVar(&startAt, "now", "", "start the daemon's clock at this RFC 3339 time (browser tests, demos)")
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
		return nil, fmt.Errorf("--now %q is not an RFC 3339 time (2026-11-10T09:00:00+01:00)", at)
	}
	// Elapsed real time added to start, rather than a fixed offset from the
	// real clock: an offset overflows time.Duration for a start more than
	// 292 years away (FuzzParseAt found --now 0000-01-01 starting in 1734).
	origin := real()
	return func() time.Time { return start.Add(real().Sub(origin)) }, nil
}
