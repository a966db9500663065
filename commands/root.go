// Package commands holds the primeur command line: one file per command,
// each a constructor returning a *cobra.Command. They share one
// configuration loader (config.go) and call core/ and daemon/.
package commands

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"

	"primeur/core/calendar"
	"primeur/core/config"
	"primeur/core/schema"
	"primeur/core/store"
)

// commit is the source revision, set at link time by the Makefile
// (-X primeur/commands.commit=…).
var commit = "unknown"

// app is what every command shares: the I/O streams, the configuration once
// loaded, and the clock.
type app struct {
	in     io.Reader
	out    io.Writer
	errOut io.Writer
	v      *viper.Viper
	cfg    *config.Config
	now    func() time.Time
	// dbLogged: the command logs the database it works on (serve), which
	// openDB and createDB then do not print (announceDB).
	dbLogged bool
}

// Execute runs the command line and exits with its status.
func Execute() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Run runs the command line with the given arguments and streams and
// returns the exit status. Tests call it in-process.
func Run(ctx context.Context, args []string, in io.Reader, out, errOut io.Writer) int {
	a := &app{in: in, out: out, errOut: errOut, v: viper.New(), now: time.Now}
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetIn(in)
	root.SetOut(out)
	root.SetErr(errOut)
	if err := root.ExecuteContext(ctx); err != nil {
		var exit exitError
		if errors.As(err, &exit) {
			return exit.code
		}
		fmt.Fprintln(errOut, "primeur :", french(err))
		return 1
	}
	return 0
}

// exitError ends a command with a status after it printed its own report.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "primeur",
		Short: "Primeur relie les producteurs locaux aux magasins",
		Long: "Primeur relie les producteurs locaux aux magasins autour de leurs besoins d'achat mensuels.\n" +
			"« primeur serve » lance le démon et son interface web ; les autres commandes sont les outils\n" +
			"de l'administrateur, sur la même base (même configuration : options, variables PRIMEUR_*,\n" +
			"fichier --config). Celles qui travaillent sur la base l'annoncent d'abord sur la sortie d'erreur.",
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.HasSubCommands() {
				return nil // a group prints its help, or refuses an unknown command
			}
			return a.loadConfig(cmd)
		},
	}
	root.CompletionOptions.DisableDefaultCmd = true
	a.addGlobalFlags(root)
	root.AddCommand(
		a.serveCommand(),
		a.migrateCommand(),
		a.backupCommand(),
		a.restoreCommand(),
		a.demoCommand(),
		a.userCommand(),
		a.orgCommand(),
		a.jobsCommand(),
		a.invoicesCommand(),
		a.deliveriesCommand(),
		a.paymentsCommand(),
		a.paCommand(),
		a.importCommand(),
		a.catalogueCommand(),
		a.simulateCommand(),
		a.supplyCommand(),
		a.openapiCommand(),
		a.versionCommand(),
	)
	frenchCommands(root)
	return root
}

// clock is the process's one clock: a.now read in the business time zone,
// where months and delivery days are counted.
func (a *app) clock() calendar.Clock { return calendar.NewClock(a.now, a.cfg.Location) }

// logger writes logs to stderr at the configured level, in the configured
// format: text (logfmt) or json (one object a line, for a log collector).
func (a *app) logger() *slog.Logger {
	opts := &slog.HandlerOptions{Level: a.cfg.Level}
	if a.cfg.LogFormat == config.LogJSON {
		return slog.New(slog.NewJSONHandler(a.errOut, opts))
	}
	return slog.New(slog.NewTextHandler(a.errOut, opts))
}

// openDB opens the configured database, which must exist and hold
// Primeur's schema (a command pointed at the wrong data directory says so
// instead of creating an empty database), and brings its schema up to date.
func (a *app) openDB(ctx context.Context) (*store.DB, error) {
	db, err := schema.Open(ctx, a.cfg.DatabaseURL, a.cfg.SQLitePath())
	if err != nil {
		return nil, err
	}
	a.announceDB()
	return a.migrated(ctx, db)
}

// createDB opens the configured database, creating it when missing, and
// brings its schema up to date: only migrate, serve and demo set up a
// database.
func (a *app) createDB(ctx context.Context) (*store.DB, error) {
	db, err := store.Open(ctx, a.cfg.DatabaseURL, a.cfg.SQLitePath())
	if err != nil {
		return nil, err
	}
	a.announceDB()
	return a.migrated(ctx, db)
}

// migrated applies the pending migrations to db, closing it on failure.
// A database of a later version of Primeur (schema.ErrNewer) is refused
// before anything is written: a binary never runs on a schema it does not
// know, so going back to an older version means restoring the backup taken
// before the upgrade (README "Running Primeur for real").
func (a *app) migrated(ctx context.Context, db *store.DB) (*store.DB, error) {
	var none *store.NoDatabaseError
	if _, err := schema.Check(ctx, db); err != nil && !errors.As(err, &none) {
		db.Close()
		return nil, err
	}
	if _, err := schema.Migrate(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}
