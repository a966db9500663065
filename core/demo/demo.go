// Package demo creates a believable world around Annecy — shops with legal
// profiles and coordinates, producers with delivery days, and everything the
// later steps add (needs, proposals, deliveries…) — so that every screen has
// something to show. Every demo account shares one password.
package demo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/store"
)

// Password is the password of every demo account.
const Password = "primeur2026"

// Login is one demo account as printed for the operator.
type Login struct {
	Role  string
	Name  string
	Email string
}

// Result tells what SeedIfEmpty did and how to log in.
type Result struct {
	Created bool
	Logins  []Login
}

// World is what the steps share while seeding: the accounts created so far
// and the clock.
type World struct {
	Now       time.Time
	Shops     []accounts.User
	Producers []accounts.User
	// passwordHash is the hash of Password every demo account shares,
	// computed before the seeding transaction opens.
	passwordHash string
}

// step adds one part of the world inside the seeding transaction.
type step func(ctx context.Context, tx *sqlx.Tx, db *store.DB, w *World) error

// steps run in order; each issue's concern appends its own.
var steps = []step{seedAccounts, seedNeeds, seedFeeTerms, seedTrade, seedFees, seedDeliveries, seedPayments, seedProducts}

// SeedIfEmpty creates the demo world when the database has no account yet.
// When the demo world is already there it only returns the logins; a
// database holding other accounts is left alone.
func SeedIfEmpty(ctx context.Context, db *store.DB, now time.Time) (Result, error) {
	var n int
	if err := store.Get(ctx, db, &n, `SELECT COUNT(*) FROM users`); err != nil {
		return Result{}, fmt.Errorf("demo: count users: %w", err)
	}
	if n > 0 {
		if _, err := accounts.ByEmail(ctx, db, shops[0].email); err == nil {
			return Result{Logins: logins()}, nil
		} else if !errors.Is(err, core.ErrNotFound) {
			return Result{}, err
		}
		return Result{}, nil
	}
	return Seed(ctx, db, now)
}

// Seed creates the demo world in one transaction.
func Seed(ctx context.Context, db *store.DB, now time.Time) (Result, error) {
	hash, err := accounts.HashPassword(ctx, Password)
	if err != nil {
		return Result{}, fmt.Errorf("demo: %w", err)
	}
	w := &World{Now: now, passwordHash: hash}
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		for _, s := range steps {
			if err := s(ctx, tx, db, w); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Result{}, fmt.Errorf("demo: %w", err)
	}
	return Result{Created: true, Logins: logins()}, nil
}

func logins() []Login {
	var out []Login
	for _, s := range shops {
		out = append(out, Login{Role: "magasin", Name: s.name, Email: s.email})
	}
	for _, p := range append(append([]party{}, producers...), makers...) {
		out = append(out, Login{Role: "producteur", Name: p.name, Email: p.email})
	}
	return out
}
