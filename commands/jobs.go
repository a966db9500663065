package commands

import (
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"primeur/core/calendar"
	"primeur/core/jobs"
)

const jobsLong = `The scheduled jobs of PRODUCT §17. The daemon runs them by itself (every
replica, safely); these commands run the same code once, for an operator or a
test. Each job does what is due at its time and nothing else, so running it
again, or on several processes at once, changes nothing more.`

const jobsRunExample = `  primeur jobs run deliveries
  primeur jobs run invoices --at 2026-11-30T21:00:00+01:00
  primeur jobs run deliveries --retry-failed`

func (a *app) jobsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "jobs",
		Short: "List or run the scheduled jobs (deliveries, claims, invoices)",
		Long:  jobsLong,
	}
	addSettingFlags(cmd.PersistentFlags(), jobKeys)
	cmd.AddCommand(a.jobsListCommand(), a.jobsRunCommand())
	return cmd
}

const jobsListLong = `List the jobs and when the daemon runs them: one line per job, its name, its
schedule and what it does.

With --json, an array with one object per job, in the same order:
  [{"name": "deliveries", "schedule": "toutes les 5 minutes", "cron": "*/5 * * * *", "summary": "verrouille …"}, …]
name is what 'primeur jobs run' takes; schedule and summary are French texts;
cron is the same schedule as the daemon's cron line, in the configured time zone.`

// jobJSON is a job as 'jobs list --json' prints it.
type jobJSON struct {
	Name     string `json:"name"`
	Schedule string `json:"schedule"`
	Cron     string `json:"cron"`
	Summary  string `json:"summary"`
}

// jobsJSON is what `jobs list --json` prints: each job with its schedule
// in French, as a cron line in the business time zone, and its summary.
func jobsJSON() ([]jobJSON, error) {
	out := make([]jobJSON, len(jobs.All))
	for i, j := range jobs.All {
		cron, err := j.Schedule.Cron()
		if err != nil {
			return nil, err
		}
		out[i] = jobJSON{Name: j.Name, Schedule: j.Schedule.String(), Cron: cron, Summary: j.Summary}
	}
	return out, nil
}

func (a *app) jobsListCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the jobs and when the daemon runs them",
		Long:  jobsListLong,
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if asJSON {
				out, err := jobsJSON()
				if err != nil {
					return err
				}
				return a.writeJSON(out)
			}
			w := tabwriter.NewWriter(a.out, 0, 4, 2, ' ', 0)
			for _, j := range jobs.All {
				fmt.Fprintf(w, "%s\t%s\t%s\n", j.Name, j.Schedule, j.Summary)
			}
			return w.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	return cmd
}

func (a *app) jobsRunCommand() *cobra.Command {
	var at string
	var retryFailed bool
	cmd := &cobra.Command{
		Use:     "run NAME",
		Short:   "Run one job now, or as if it were the time given by --at",
		Example: jobsRunExample,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			job, ok := jobs.Find(args[0])
			if !ok {
				return fmt.Errorf("unknown job %q (see primeur jobs list)", args[0])
			}
			if retryFailed && job.Name == "claims" {
				return fmt.Errorf("--retry-failed: the claims job sends no email (use deliveries or invoices)")
			}
			now := a.clock().Now()
			if at != "" {
				t, err := parseAt(at, a.clock())
				if err != nil {
					return err
				}
				now = t
			}
			db, err := a.openDB(cmd.Context())
			if err != nil {
				return err
			}
			defer db.Close()
			if retryFailed {
				notes, invoices, err := jobs.RetryFailed(cmd.Context(), db)
				if err != nil {
					return err
				}
				fmt.Fprintf(a.out, "envois abandonnés remis en file : %d bon(s) de livraison, %d facture(s)\n", notes, invoices)
			}
			report, err := job.Run(cmd.Context(), jobs.EnvOf(a.cfg, db, a.logger()), now)
			fmt.Fprintf(a.out, "%s (%s) : %s\n", job.Name, a.clock().Stamp(now), report)
			return err
		},
	}
	cmd.Flags().StringVar(&at, "at", "", "the time to run as (RFC 3339, or YYYY-MM-DDTHH:MM in the configured time zone)")
	cmd.Flags().BoolVar(&retryFailed, "retry-failed", false, fmt.Sprintf(
		"first give the emails abandoned after %d failed attempts their attempts back, so this run sends them again", jobs.MaxAttempts))
	return cmd
}

// parseAt reads --at: RFC 3339, or a local date and time (calendar.Clock.Parse).
func parseAt(s string, c calendar.Clock) (time.Time, error) {
	t, err := c.Parse(s)
	if err != nil {
		return time.Time{}, fmt.Errorf("--at %q: %w", s, err)
	}
	return t, nil
}
