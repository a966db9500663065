package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"primeur/core/delivery"
	"primeur/core/store"
)

// A platform is seeded through trade's and the deliveries' operations
// (tradetest.Play), several times slower than the bulk writer it replaced
// (issue 35): cachedPlatform builds each one once and keeps it, keyed by
// the seeder's version — the loadbench executable itself, so that any
// change of the seeder or of the core it calls seeds again — with the
// engine, the size and the platform's present. A SQLite platform is kept
// as a copy of its file, a PostgreSQL one as a database the server copies
// (CREATE DATABASE … TEMPLATE); each run gets a fresh copy, as the daemon
// writes to what it measures.
func cachedPlatform(ctx context.Context, engine string, sz size, dataDir, pgURL, cacheRoot string, now time.Time, rules delivery.Rules) (*platform, error) {
	key, err := seederKey(engine, sz, now)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(cacheRoot, key)
	saved := filepath.Join(dir, "platform.json")
	if b, err := os.ReadFile(saved); err == nil {
		var p platform
		if err := json.Unmarshal(b, &p); err == nil {
			if err := restore(ctx, &p, engine, sz, dir, dataDir, pgURL, key); err == nil {
				log.Printf("%s, %s: the platform seeded by this loadbench, from %s", engine, sz, dir)
				return &p, nil
			} else {
				log.Printf("%s, %s: the cached platform is unusable (%v): seeding", engine, sz, err)
			}
		}
	}
	p, err := seedPlatform(ctx, engine, sz, dataDir, pgURL, now, rules)
	if err != nil {
		return nil, err
	}
	if err := keep(ctx, p, engine, sz, dir, dataDir, pgURL, key); err != nil {
		return nil, fmt.Errorf("cache the platform: %w", err)
	}
	return p, nil
}

// seederKey names a platform by the seeder's version (a hash of the
// running executable), the engine, the size and the present.
func seederKey(engine string, sz size, now time.Time) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	fmt.Fprintf(h, "|%s|%d|%v|%s", engine, sz.regions, sz.national, now.UTC().Format(time.RFC3339))
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// keep saves a platform just seeded: its description, and a copy of its
// database (the SQLite file, or a template database on the server).
func keep(ctx context.Context, p *platform, engine string, sz size, dir, dataDir, pgURL, key string) error {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return err
	}
	if engine == "postgres" {
		if err := serverCopy(ctx, pgURL, sz.database(), cacheDatabase(key)); err != nil {
			return err
		}
	} else if err := copyFile(filepath.Join(dataDir, "primeur.db"), filepath.Join(dir, "primeur.db")); err != nil {
		return err
	}
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "platform.json"), b, 0o640)
}

// restore puts a kept platform back where a run measures it.
func restore(ctx context.Context, p *platform, engine string, sz size, dir, dataDir, pgURL, key string) error {
	if engine == "postgres" {
		if err := serverCopy(ctx, pgURL, cacheDatabase(key), sz.database()); err != nil {
			return err
		}
		u, err := url.Parse(pgURL)
		if err != nil {
			return err
		}
		u.Path = "/" + sz.database()
		q := u.Query()
		q.Del("search_path")
		u.RawQuery = q.Encode()
		p.DatabaseURL = u.String()
		return nil
	}
	if err := os.RemoveAll(dataDir); err != nil {
		return err
	}
	if err := os.MkdirAll(dataDir, 0o750); err != nil {
		return err
	}
	p.DataDir = dataDir
	return copyFile(filepath.Join(dir, "primeur.db"), filepath.Join(dataDir, "primeur.db"))
}

// cacheDatabase is the name of a kept PostgreSQL platform.
func cacheDatabase(key string) string { return "primeur_loadbench_cache_" + key }

// serverCopy makes database to a copy of database from on the server of
// base, replacing it; from must have no session.
func serverCopy(ctx context.Context, base, from, to string) error {
	admin, err := store.Open(ctx, base, "")
	if err != nil {
		return err
	}
	defer admin.Close()
	if _, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+to+" WITH (FORCE)"); err != nil {
		return err
	}
	_, err = admin.ExecContext(ctx, "CREATE DATABASE "+to+" TEMPLATE "+from)
	return err
}

// copyFile copies a closed SQLite database file.
func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
