// Command e2eseed writes the scenes of the browser tests (ui/e2e) into the
// daemon's database, through core's own operations. It is used by tests
// only; ui/e2e/fixtures.ts builds it once per run.
//
//	e2eseed orders --data-dir DIR --shop EMAIL --producer EMAIL --month 2026-12-01
//	e2eseed supply --data-dir DIR --shop EMAIL --producer EMAIL --producer EMAIL
//	e2eseed prices --data-dir DIR --password P --product ID --month 2026-12-01 --shop EMAIL ×3 --producer EMAIL ×3
//	e2eseed progression --data-dir DIR --shop EMAIL --producer EMAIL
//	e2eseed shops --data-dir DIR --count 400 --password P [--prefix Magasin --slug magasin --lat 45.9 --lon 6.12 --radius 0.3]
//
// (--database-url URL instead of --data-dir for PostgreSQL.) Each scene is
// described in its own file: orders.go for ui/e2e/deliveries.spec.ts,
// supply.go for ui/e2e/supply.spec.ts, prices.go for ui/e2e/prices.spec.ts,
// progression.go for ui/e2e/onboarding.spec.ts, shops.go for
// ui/e2e/map.spec.ts.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/config"
	"primeur/core/schema"
	"primeur/core/store"
)

// scenes by name: each declares its flags on fs and returns what writes it
// once they are read (it may end the command with its usage).
var scenes = map[string]func(fs *flag.FlagSet) func(*env) error{
	"orders":      ordersScene,
	"supply":      supplyScene,
	"prices":      pricesScene,
	"progression": progressionScene,
	"shops":       shopsScene,
}

// env is what a scene works with: the migrated database, the clock of the
// business time zone, and the accounts by email.
type env struct {
	ctx   context.Context
	db    *store.DB
	clock calendar.Clock
}

// user is the account of email; a missing one ends the command.
func (e *env) user(email string) accounts.User {
	u, err := accounts.ByEmail(e.ctx, e.db, email)
	if err != nil {
		log.Fatalf("%s: %v", email, err)
	}
	return u
}

type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(s string) error { *l = append(*l, s); return nil }

func main() {
	log.SetFlags(0)
	if len(os.Args) < 2 || scenes[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: e2eseed orders|supply|prices|progression|shops --data-dir DIR …")
		os.Exit(2)
	}
	fs := flag.NewFlagSet("e2eseed "+os.Args[1], flag.ExitOnError)
	dataDir := fs.String("data-dir", "", "the daemon's data directory (SQLite)")
	databaseURL := fs.String("database-url", "", "PostgreSQL URL, instead of --data-dir")
	run := scenes[os.Args[1]](fs)
	_ = fs.Parse(os.Args[2:])
	if *dataDir == "" && *databaseURL == "" {
		fs.Usage()
		os.Exit(2)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, *databaseURL, filepath.Join(*dataDir, "primeur.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	if _, err := schema.Migrate(ctx, db); err != nil {
		log.Fatal(err)
	}
	e := &env{ctx: ctx, db: db, clock: calendar.NewClock(time.Now, config.Defaults().Location)}
	if err := run(e); err != nil {
		log.Fatal(err)
	}
}
