package commands

import (
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"primeur/core/calendar"
	"primeur/core/jobs"
)

const jobsLong = `Les tâches planifiées de PRODUCT §17. Le démon les lance de lui-même (chaque
réplique, sans risque) ; ces commandes lancent le même code une fois, pour un
administrateur ou un test. Chaque tâche fait ce qui est dû à son heure et rien
d'autre : la relancer, ou la lancer sur plusieurs processus à la fois, ne change
rien de plus.`

const jobsRunLong = `Lancer une tâche maintenant, ou comme s'il était l'heure donnée par --at.

Une heure --at à venir fait dès maintenant ce qui n'est dû qu'alors — des
factures émises, numérotées et envoyées, qu'on ne reprend pas : elle est
refusée, sauf avec --force. --dry-run montre ce que la tâche ferait, à
l'heure qu'on veut : elle s'exécute pour de bon, mais dans une transaction
annulée à la fin, ses emails retenus au lieu d'être envoyés. Elle affiche ce
qu'elle aurait fait (les chiffres, les documents qu'elle aurait émis, les
emails qu'elle aurait envoyés) et n'écrit ni n'envoie rien. Pendant ce temps,
ce qu'elle verrouille attend la fin (sur SQLite, toute écriture).`

const jobsRunExample = `  primeur jobs run deliveries
  primeur jobs run invoices --at 2026-11-30T21:00:00+01:00 --dry-run
  primeur jobs run invoices --at 2026-11-30T21:00:00+01:00 --force
  primeur jobs run deliveries --retry-failed
  primeur jobs run pa --retry-failed`

// jobNames lists the jobs' names, for the help.
func jobNames() string {
	names := make([]string, len(jobs.All))
	for i, j := range jobs.All {
		names[i] = j.Name
	}
	return strings.Join(names, ", ")
}

func (a *app) jobsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "jobs",
		Short: "Lister ou lancer les tâches planifiées (" + jobNames() + ")",
		Long:  jobsLong + "\n\nLes tâches : " + jobNames() + " ; « primeur jobs list » dit quand et ce que fait chacune.",
	}
	addSettingFlags(cmd.PersistentFlags(), jobKeys)
	cmd.AddCommand(a.jobsListCommand(), a.jobsRunCommand())
	return cmd
}

const jobsListLong = `Lister les tâches et quand le démon les lance : une ligne par tâche, son nom,
son horaire et ce qu'elle fait.

Avec --json, un tableau d'un objet par tâche, dans le même ordre :
  [{"name": "deliveries", "schedule": "toutes les 5 minutes", "cron": "*/5 * * * *", "summary": "verrouille …"}, …]
name est ce que prend « primeur jobs run » ; schedule et summary sont en français ;
cron est le même horaire, en ligne cron du démon, dans le fuseau configuré.`

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
		Short: "Lister les tâches et quand le démon les lance",
		Long:  jobsListLong,
		Args:  noArgs,
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
	cmd.Flags().BoolVar(&asJSON, "json", false, "écrire du JSON au lieu d'un tableau")
	return cmd
}

func (a *app) jobsRunCommand() *cobra.Command {
	var at string
	var retryFailed, dryRun, force bool
	cmd := &cobra.Command{
		Use:     "run NOM",
		Short:   "Lancer une tâche maintenant, ou comme s'il était l'heure --at (--dry-run : sans rien écrire)",
		Long:    jobsRunLong,
		Example: jobsRunExample,
		Args:    exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			job, ok := jobs.Find(args[0])
			if !ok {
				names := make([]string, len(jobs.All))
				for i, j := range jobs.All {
					names[i] = j.Name
				}
				return fmt.Errorf("tâche inconnue « %s » ; vouliez-vous dire « %s » ? (primeur jobs list les liste)", args[0], closestKey(args[0], names))
			}
			if retryFailed && job.Name == "claims" {
				return errors.New("--retry-failed : la tâche claims n'envoie aucun email (utilisez deliveries ou invoices)")
			}
			clock := a.clock()
			now := clock.Now()
			if at != "" {
				t, err := parseAt(at, clock)
				if err != nil {
					return err
				}
				if t.After(now) && !force && !dryRun {
					return fmt.Errorf("--at %s est à venir (il est %s) : la tâche %s ferait dès maintenant ce qui n'est dû qu'alors, "+
						"et des factures émises ne se reprennent pas ; --dry-run montre ce qu'elle ferait sans rien écrire, --force la lance quand même",
						clock.Stamp(t), clock.Stamp(now), job.Name)
				}
				now = t
			}
			db, err := a.openDB(ctx)
			if err != nil {
				return err
			}
			defer db.Close()
			env := jobs.EnvOf(a.cfg, db, a.logger())
			var report jobs.Report
			run := func(env jobs.Env) error {
				if retryFailed && job.Name == "pa" {
					n, err := jobs.RetryDeposits(ctx, env.DB)
					if err != nil {
						return err
					}
					verb := "remis"
					if dryRun {
						verb = "seraient remis"
					}
					fmt.Fprintf(a.out, "dépôts abandonnés %s en file : %d\n", verb, n)
				} else if retryFailed {
					notes, invoices, err := jobs.RetryFailed(ctx, env.DB)
					if err != nil {
						return err
					}
					verb := "remis"
					if dryRun {
						verb = "seraient remis"
					}
					fmt.Fprintf(a.out, "envois abandonnés %s en file : %d bon(s) de livraison, %d facture(s)\n", verb, notes, invoices)
				}
				var err error
				report, err = job.Run(ctx, env, now)
				return err
			}
			if !dryRun {
				err := run(env)
				fmt.Fprintf(a.out, "%s (%s) : %s\n", job.Name, clock.Stamp(now), report)
				a.printIssued("documents émis :", report.Issued)
				return err
			}
			emails, err := jobs.Rehearse(ctx, env, run)
			fmt.Fprintf(a.out, "%s (%s), à blanc : %s\n", job.Name, clock.Stamp(now), report)
			a.printIssued("documents qui seraient émis :", report.Issued)
			a.printIssued("documents qui seraient déposés sur la plateforme agréée :", report.Deposits)
			lines := make([]string, len(emails))
			for i, e := range emails {
				lines[i] = e.String()
			}
			a.printIssued("emails qui seraient envoyés :", lines)
			fmt.Fprintln(a.out, "rien n'a été écrit ni envoyé (--dry-run)")
			return err
		},
	}
	cmd.Flags().StringVar(&at, "at", "", "l'heure à laquelle faire comme si on était (RFC 3339, ou AAAA-MM-JJTHH:MM dans le fuseau configuré) ; à venir, seulement avec --dry-run ou --force")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "montrer ce que la tâche ferait (chiffres, documents émis, emails envoyés) sans rien écrire ni envoyer")
	cmd.Flags().BoolVar(&force, "force", false, "lancer la tâche même à une heure --at à venir")
	cmd.Flags().BoolVar(&retryFailed, "retry-failed", false, fmt.Sprintf(
		"rendre d'abord leurs tentatives aux emails abandonnés après %d échecs (avec pa : aux dépôts abandonnés après %d échecs), pour que ce lancement les envoie",
		jobs.MaxAttempts, jobs.MaxDeposits))
	return cmd
}

// printIssued prints a heading and the lines under it, indented; nothing
// without lines.
func (a *app) printIssued(heading string, lines []string) {
	if len(lines) == 0 {
		return
	}
	fmt.Fprintln(a.out, heading)
	for _, l := range lines {
		fmt.Fprintln(a.out, "  "+l)
	}
}

// parseAt reads --at: RFC 3339, or a local date and time (calendar.Clock.Parse).
func parseAt(s string, c calendar.Clock) (time.Time, error) {
	t, err := c.Parse(s)
	if err != nil {
		return time.Time{}, fmt.Errorf("--at « %s » : une date et une heure sont attendues, RFC 3339 (2026-12-01T06:00:00+01:00) "+
			"ou AAAA-MM-JJTHH:MM dans le fuseau configuré (2026-12-01T06:00)", s)
	}
	return t, nil
}
