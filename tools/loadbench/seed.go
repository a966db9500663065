package main

import (
	"context"
	"fmt"
	"log"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/delivery"
	"primeur/core/payments"
	"primeur/core/schema"
	"primeur/core/store"
)

// platform is a seeded database and what the measurements need from it.
type platform struct {
	Engine  string `json:"engine"`
	Regions int    `json:"regions"`
	// National: besides its regions, accounts-only France up to
	// nationalShops and nationalProducers (seedFrance).
	National    bool             `json:"national,omitempty"`
	Shops       int              `json:"shops"`
	Producers   int              `json:"producers"`
	Products    int              `json:"products"`
	DataDir     string           `json:"dataDir,omitempty"`
	DatabaseURL string           `json:"-"`
	Now         time.Time        `json:"now"`
	Monday      string           `json:"monday"`
	SeedSeconds float64          `json:"seedSeconds"`
	Rows        map[string]int64 `json:"rows"`
	Bytes       int64            `json:"bytes"`
	Users       []measuredUser   `json:"users"`
	Trips       []trip           `json:"trips"`
	Version     string           `json:"version"` // the database engine's
}

// measuredUser is a user whose load is measured, with the size of its own
// data (what its user load should grow with).
type measuredUser struct {
	Role       string `json:"role"`
	Email      string `json:"email"`
	ID         string `json:"id"`
	Needs      int64  `json:"needs"`
	Orders     int64  `json:"orders"`
	Deliveries int64  `json:"deliveries"`
	Lines      int64  `json:"lines"`
	Events     int64  `json:"events"`
}

// size is a platform's size: its regions, and whether accounts-only
// France surrounds them.
type size struct {
	regions  int
	national bool
}

func (s size) String() string {
	if s.national {
		return fmt.Sprintf("national (%d regions traded)", s.regions)
	}
	return fmt.Sprintf("%d regions", s.regions)
}

// database is the PostgreSQL database of a platform of that size.
func (s size) database() string {
	if s.national {
		return fmt.Sprintf("primeur_loadbench_national_%d", s.regions)
	}
	return fmt.Sprintf("primeur_loadbench_%d", s.regions)
}

// seedPlatform builds a platform of sz.regions regions — and, for a
// national size, accounts-only France around them — on SQLite (in
// dataDir) or, with pgURL, in a new PostgreSQL database named after the
// size, created on that server.
func seedPlatform(ctx context.Context, engine string, sz size, dataDir, pgURL string, now time.Time, rules delivery.Rules) (*platform, error) {
	start := time.Now()
	regions := sz.regions
	p := &platform{Engine: engine, Regions: regions, National: sz.national, Now: now, Shops: regions * shopsPerRegion,
		Producers: regions * producersPerRegion}
	var (
		db  *store.DB
		err error
	)
	if engine == "postgres" {
		if p.DatabaseURL, err = freshDatabase(ctx, pgURL, sz.database()); err != nil {
			return nil, err
		}
		db, err = store.Open(ctx, p.DatabaseURL, "")
	} else {
		p.DataDir = dataDir
		if err := os.RemoveAll(dataDir); err != nil {
			return nil, err
		}
		db, err = store.Open(ctx, "", filepath.Join(dataDir, "primeur.db"))
	}
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if _, err := schema.Migrate(ctx, db); err != nil {
		return nil, err
	}
	base, err := catalog.All(ctx, db)
	if err != nil {
		return nil, err
	}
	synthetic := syntheticCatalogue(base)
	if err := insertProducts(ctx, db, synthetic); err != nil {
		return nil, err
	}
	products, err := catalog.All(ctx, db)
	if err != nil {
		return nil, err
	}
	p.Products = len(products)
	// One argon2 hash for every account: hashing each would take minutes.
	hash, err := accounts.HashPassword(ctx, Password)
	if err != nil {
		return nil, err
	}
	w := newWorld(now, rules, hash, products)
	for r := range regions {
		g := w.region(r)
		if err := insertRegion(ctx, db, w, g); err != nil {
			return nil, fmt.Errorf("region %d: %w", r, err)
		}
		if r == 0 {
			p.Users = []measuredUser{
				{Role: "shop", Email: g.shops[typicalShop].Email, ID: g.shops[typicalShop].ID},
				{Role: "largest shop", Email: g.shops[largestShop].Email, ID: g.shops[largestShop].ID},
				{Role: "producer", Email: g.producers[measuredProducer].Email, ID: g.producers[measuredProducer].ID},
			}
		}
		p.Trips = g.trips // the last region's
		log.Printf("%s: region %d/%d written (%d needs, %d deliveries, %d lines) at %.0f s", engine, r+1, regions,
			len(g.needs), g.deliveries, g.lines, time.Since(start).Seconds())
	}
	// The shops pay their invoices 15 days after they fall due at the
	// latest (a year of trade, issue 42): those due since stay open.
	paid, err := payDue(ctx, db, now, rules.Today(now))
	if err != nil {
		return nil, err
	}
	log.Printf("%s: %d invoices paid at %.0f s", engine, paid, time.Since(start).Seconds())
	// The payment reminders due today, made by the core as the reminders
	// job makes them, and emailed: the job at the daemon's start finds
	// none left (the invoices overdue and unpaid of the last 90 days).
	reminders, err := payments.CreateReminders(ctx, db, now, rules.Today(now))
	if err != nil {
		return nil, err
	}
	// The invoices, credit notes and reminders went out as they were
	// issued: the mark the jobs leave once the emails are handed over.
	if _, err := store.Exec(ctx, db, `INSERT INTO sends (message_key, kind, subject_id, sent_at)
		SELECT CASE WHEN kind = 'invoice' THEN 'invoice-' ELSE 'credit-' END || id,
			CASE WHEN kind = 'invoice' THEN 'invoice' ELSE 'credit' END, id, issued_at FROM documents WHERE 1 = 1
		ON CONFLICT (message_key) DO UPDATE SET sent_at = excluded.sent_at WHERE sends.sent_at IS NULL`); err != nil {
		return nil, err
	}
	if _, err := store.Exec(ctx, db, `INSERT INTO sends (message_key, kind, subject_id, sent_at)
		SELECT 'reminder-' || id, 'reminder', id, created_at FROM reminders WHERE 1 = 1
		ON CONFLICT (message_key) DO UPDATE SET sent_at = excluded.sent_at WHERE sends.sent_at IS NULL`); err != nil {
		return nil, err
	}
	log.Printf("%s: %d reminders issued at %.0f s", engine, len(reminders), time.Since(start).Seconds())
	if sz.national {
		shops, producers, err := seedFrance(ctx, db, w, p.Shops, p.Producers)
		if err != nil {
			return nil, err
		}
		p.Shops += shops
		p.Producers += producers
		log.Printf("%s: France's accounts written (%d shops, %d producers) at %.0f s", engine, shops, producers, time.Since(start).Seconds())
	}
	// The accounts' addresses stay unconfirmed, as the platform was seeded
	// before accounts.InsertAll counted them confirmed (issue 18): documents
	// then wait for a confirmed recipient, so the daemon's jobs at start do
	// not email the seeded history (thousands of credit notes and
	// reminders) while the requests are measured.
	if _, err := db.ExecContext(ctx, "UPDATE users SET email_confirmed = '', accounting_confirmed = ''"); err != nil {
		return nil, err
	}
	// The documents wait for a member's confirmed login (issue 41: the
	// founders are people, notify.ReachableSQL).
	if _, err := db.ExecContext(ctx, "UPDATE people SET email_confirmed = ''"); err != nil {
		return nil, err
	}
	if engine == "postgres" {
		// What autovacuum would do shortly after such a load: statistics for
		// the planner and the visibility map for index-only scans.
		if _, err := db.ExecContext(ctx, "VACUUM ANALYZE"); err != nil {
			return nil, err
		}
		if err := db.GetContext(ctx, &p.Bytes, "SELECT pg_database_size(current_database())"); err != nil {
			return nil, err
		}
		err = db.GetContext(ctx, &p.Version, "SHOW server_version")
	} else {
		// No ANALYZE: the daemon never runs it, so SQLite plans without
		// statistics in production too.
		if _, err := db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
			return nil, err
		}
		if st, err := os.Stat(filepath.Join(dataDir, "primeur.db")); err == nil {
			p.Bytes = st.Size()
		}
		err = db.GetContext(ctx, &p.Version, "SELECT sqlite_version()")
	}
	if err != nil {
		return nil, err
	}
	if err := p.count(ctx, db); err != nil {
		return nil, err
	}
	p.Monday = calendar.DateOf(now).Monday().String()
	p.SeedSeconds = time.Since(start).Seconds()
	return p, nil
}

// count reads the table sizes and the measured users' own data.
func (p *platform) count(ctx context.Context, db *store.DB) error {
	p.Rows = map[string]int64{}
	for _, t := range []string{"users", "products", "needs", "proposals", "orders", "deliveries", "delivery_lines",
		"documents", "document_lines", "payments", "events"} {
		var n int64
		if err := db.GetContext(ctx, &n, "SELECT COUNT(*) FROM "+t); err != nil {
			return err
		}
		p.Rows[t] = n
	}
	from := fmt.Sprintf("%d-%02d-01", p.Now.Year()-1, int(p.Now.Month()))
	for i := range p.Users {
		u := &p.Users[i]
		side := "o.distributor_id"
		needs := `SELECT COUNT(*) FROM needs WHERE distributor_id = ? AND month >= ?`
		if u.Role == "producer" {
			side = "o.producer_id"
			needs = `SELECT COUNT(*) FROM needs WHERE id IN (SELECT need_id FROM proposals WHERE producer_id = ?) AND month >= ?`
		}
		for _, c := range []struct {
			dst   *int64
			query string
			args  []any
		}{
			{&u.Needs, needs, []any{u.ID, from}},
			{&u.Orders, `SELECT COUNT(*) FROM orders o WHERE ` + side + ` = ? AND o.month >= ?`, []any{u.ID, from}},
			{&u.Deliveries, `SELECT COUNT(*) FROM deliveries d JOIN orders o ON o.id = d.order_id WHERE ` + side + ` = ? AND o.month >= ?`, []any{u.ID, from}},
			{&u.Lines, `SELECT COUNT(*) FROM delivery_lines l JOIN deliveries d ON d.id = l.delivery_id JOIN orders o ON o.id = d.order_id
				WHERE ` + side + ` = ? AND o.month >= ?`, []any{u.ID, from}},
			{&u.Events, `SELECT COUNT(*) FROM events WHERE origin_id = ? OR target_id = ?`, []any{u.ID, u.ID}},
		} {
			if err := store.Get(ctx, db, c.dst, c.query, c.args...); err != nil {
				return err
			}
		}
	}
	return nil
}

// freshDatabase drops and creates database name on the server of base and
// returns its URL.
func freshDatabase(ctx context.Context, base, name string) (string, error) {
	admin, err := store.Open(ctx, base, "")
	if err != nil {
		return "", err
	}
	defer admin.Close()
	if _, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
		return "", err
	}
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		return "", err
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	u.Path = "/" + name
	q := u.Query()
	q.Del("search_path")
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// redact hides a URL's password for logs.
func redact(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	return strings.Replace(s, u.User.String()+"@", u.User.Username()+":…@", 1)
}
