// Command loadbench measures Primeur at platform scale: it seeds a
// platform — shops, producers, the catalogue with synthetic products, two
// years of needs, a year of commitments, orders, deliveries, invoices and
// events — in bulk on SQLite and on PostgreSQL, starts the real daemon
// (bin/primeur serve) on it, and loads it over loopback with 16 concurrent
// clients: the user load of a shop and of a producer, the map of a
// département and of a wider area (GET /api/map), the supply screen, the
// shop's standing, and a proposal round-trip. It then measures the
// same users on a platform a tenth of the size, whose region 0 is the
// same: the ratio is how their load grows with the platform.
//
//	loadbench run --bin bin/primeur --out docs/bench/load.json [--database-url postgres://…]
//	loadbench report --load docs/bench/load.json --go docs/bench/go.txt --bundle docs/bench/bundle.md --doc docs/BENCHMARKS.md
//	loadbench seed --regions 1 --data-dir /tmp/x   (a platform to explore)
//	loadbench seed --regions 10 --national --data-dir /tmp/x   (and all of France around it)
//
// The seed leaves the daemon's jobs nothing to do at its start: it writes,
// through the core, the credit notes of the settled claims and the
// payment reminders due, and counts every document of the past emailed.
// With --national, `run` measures the largest size and the same regions
// surrounded by accounts-only France (20,000 shops, 100,000 producers)
// side by side, round by round.
//
// `make bench` and `make bench-national` run it; see docs/BENCHMARKS.md.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"primeur/core/config"
	"primeur/core/delivery"
)

// defaultNow pins the platform's clock, so that every run measures the
// same world: a Wednesday morning, before the day's deliveries lock.
const defaultNow = "2026-11-18T09:00:00+01:00"

func main() {
	log.SetFlags(log.Ltime)
	if len(os.Args) < 2 {
		usage()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch os.Args[1] {
	case "run":
		err = runCommand(ctx, os.Args[2:])
	case "seed":
		err = seedCommand(ctx, os.Args[2:])
	case "report":
		err = reportCommand(os.Args[2:])
	case "limit-server":
		err = limitServerCommand(ctx, os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		log.Fatalf("loadbench: %v", err)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: loadbench run|seed|report [flags] (loadbench CMD -h for the flags)")
	os.Exit(2)
}

func rulesAt(now string) (time.Time, delivery.Rules, error) {
	rules := delivery.RulesOf(config.Defaults())
	t, err := time.Parse(time.RFC3339, now)
	if err != nil {
		return time.Time{}, rules, fmt.Errorf("--now: %w", err)
	}
	return t.In(rules.Location), rules, nil
}

func seedCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("seed", flag.ExitOnError)
	regions := fs.Int("regions", 1, "regions of 20 shops and 100 producers")
	national := fs.Bool("national", false, "add accounts-only France around the regions, up to 20,000 shops and 100,000 producers")
	dataDir := fs.String("data-dir", "", "SQLite data directory (emptied first)")
	dbURL := fs.String("database-url", "", "PostgreSQL server URL: seeds database primeur_loadbench_<regions> on it instead")
	now := fs.String("now", defaultNow, "the platform's present (RFC 3339)")
	cache := fs.String("cache", "", "a directory where the platform seeded by this loadbench is kept, and taken from when there")
	_ = fs.Parse(args)
	t, rules, err := rulesAt(*now)
	if err != nil {
		return err
	}
	engine := "sqlite"
	if *dbURL != "" {
		engine = "postgres"
	} else if *dataDir == "" {
		return errors.New("seed: --data-dir or --database-url")
	}
	var p *platform
	if *cache != "" {
		p, err = cachedPlatform(ctx, engine, size{*regions, *national}, *dataDir, *dbURL, *cache, t, rules)
	} else {
		p, err = seedPlatform(ctx, engine, size{*regions, *national}, *dataDir, *dbURL, t, rules)
	}
	if err != nil {
		return err
	}
	out, _ := json.MarshalIndent(p, "", "  ")
	fmt.Println(string(out))
	if p.DatabaseURL != "" {
		fmt.Println("database:", redact(p.DatabaseURL))
	}
	return nil
}

// results is what a run writes: the machine, each platform and its
// measurements.
type results struct {
	Started   time.Time     `json:"started"`
	Seconds   float64       `json:"seconds"`
	Machine   machine       `json:"machine"`
	Command   string        `json:"command"`
	Clients   int           `json:"clients"`
	Rounds    int           `json:"rounds"`
	Duration  string        `json:"duration"`
	Platforms []platformRun `json:"platforms"`
}

// platformRun is one platform and what was measured on it.
type platformRun struct {
	Platform     *platform     `json:"platform"`
	Jobs         []jobRun      `json:"jobs"`
	Measurements []measurement `json:"measurements"`
	PeakRSS      int64         `json:"peakRssKB"`
	// IdleRSS is the daemon's resident memory at rest after its start
	// (its jobs done, the users logged in, nothing loaded yet); RestRSS
	// the same once the loads are over and restWait has passed (issue
	// 42's goals: peak ≤ 400 MB, idle ≤ 150 MB).
	IdleRSS int64    `json:"idleRssKB"`
	RestRSS int64    `json:"restRssKB"`
	Errors  []string `json:"errors"`
}

func runCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	bin := fs.String("bin", "bin/primeur", "the daemon's binary")
	hey := fs.String("hey", "", "the hey binary (default: go tool hey)")
	dbURL := fs.String("database-url", os.Getenv("PRIMEUR_TEST_DATABASE_URL"), "PostgreSQL server URL (empty: SQLite only)")
	// Under the checkout's build/ (ignored by Git) rather than the system's
	// temporary directory: the platforms seeded here (about 17 minutes for
	// 10 regions on SQLite) are kept across reboots and a /tmp cleaned
	// between sessions, and taken again while the seeder is unchanged.
	work := fs.String("work", filepath.Join("build", "loadbench"), "directory for the SQLite platforms, the seeded platforms' cache and logs")
	out := fs.String("out", "docs/bench/load.json", "results file")
	sizes := fs.String("regions", "10,1", "platform sizes in regions (20 shops, 100 producers each), largest first")
	national := fs.Bool("national", false, "then the largest size with accounts-only France around it (20,000 shops, 100,000 producers); every request on every size")
	clients := fs.Int("clients", 16, "concurrent clients")
	rounds := fs.Int("rounds", 3, "measurement rounds per request")
	duration := fs.Duration("duration", 5*time.Second, "length of a round")
	warmup := fs.Duration("warmup", 2*time.Second, "load before the rounds, not measured")
	engines := fs.String("engines", "sqlite,postgres", "engines to measure")
	now := fs.String("now", defaultNow, "the platform's present (RFC 3339)")
	reseed := fs.Bool("reseed", false, "seed every platform again instead of the copy this loadbench seeded before (work/cache)")
	_ = fs.Parse(args)
	t, rules, err := rulesAt(*now)
	if err != nil {
		return err
	}
	var platforms []size
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return fmt.Errorf("--regions %q", *sizes)
		}
		platforms = append(platforms, size{regions: n})
	}
	if *national {
		platforms = append(platforms, size{regions: platforms[0].regions, national: true})
	}
	res := results{
		Started: time.Now(), Machine: describeMachine(), Clients: *clients, Rounds: *rounds, Duration: duration.String(),
		Command: "loadbench run " + strings.Join(args, " "),
	}
	if strings.Contains(res.Command, "postgres://") {
		res.Command = "loadbench run " + redactArgs(args)
	}
	m := &measurer{bin: *bin, hey: *hey, clients: *clients, rounds: *rounds, duration: *duration, warmup: *warmup, now: *now, national: *national}
	for _, engine := range strings.Split(*engines, ",") {
		if engine == "postgres" && *dbURL == "" {
			log.Printf("PostgreSQL skipped: set --database-url or PRIMEUR_TEST_DATABASE_URL")
			continue
		}
		// Each size is seeded and measured alone; with --national, all are
		// seeded first, then measured side by side.
		groups := [][]size{}
		if *national {
			groups = append(groups, platforms)
		} else {
			for _, n := range platforms {
				groups = append(groups, []size{n})
			}
		}
		for gi, group := range groups {
			var (
				ps   []*platform
				dirs []string
			)
			for _, n := range group {
				name := fmt.Sprintf("%s-%d", engine, n.regions)
				if n.national {
					name = fmt.Sprintf("%s-national-%d", engine, n.regions)
				}
				dir := filepath.Join(*work, name)
				log.Printf("%s, %s: seeding", engine, n)
				seed := func() (*platform, error) {
					if *reseed {
						return seedPlatform(ctx, engine, n, filepath.Join(dir, "data"), *dbURL, t, rules)
					}
					return cachedPlatform(ctx, engine, n, filepath.Join(dir, "data"), *dbURL, filepath.Join(*work, "cache"), t, rules)
				}
				p, err := seed()
				if err != nil {
					return fmt.Errorf("%s %s: %w", engine, n, err)
				}
				log.Printf("%s, %s: seeded in %.0f s (%d users, %d needs, %d deliveries, %d lines, %.0f MB)", engine, n,
					p.SeedSeconds, p.Rows["users"], p.Rows["needs"], p.Rows["deliveries"], p.Rows["delivery_lines"], float64(p.Bytes)/1e6)
				ps, dirs = append(ps, p), append(dirs, dir)
			}
			runs, err := m.platforms(ctx, ps, dirs, gi == 0 || *national)
			if err != nil {
				return fmt.Errorf("%s %s: %w", engine, group, err)
			}
			res.Platforms = append(res.Platforms, runs...)
			if engine == "postgres" {
				for _, p := range ps {
					if err := dropDatabase(ctx, *dbURL, p.DatabaseURL); err != nil {
						log.Printf("drop %s: %v", redact(p.DatabaseURL), err)
					}
				}
			}
			res.Seconds = time.Since(res.Started).Seconds()
			if err := writeJSON(*out, res); err != nil {
				return err
			}
		}
	}
	res.Seconds = time.Since(res.Started).Seconds()
	return writeJSON(*out, res)
}

func redactArgs(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if strings.Contains(a, "postgres://") {
			out[i] = redact(strings.TrimPrefix(a, "--database-url="))
		}
	}
	return strings.Join(out, " ")
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
