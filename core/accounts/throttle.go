package accounts

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"net/netip"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/limit"
	"primeur/core/store"
)

// Throttling (docs/SECURITY.md "Login throttling"). Every attempt is
// counted in the database — so that every replica sees it — before the
// password is hashed, by one upsert that returns the new count: of N
// attempts at once, each gets its own number and at most the limit go on.
// Counts live in fixed windows that start at a key's first attempt.
//
// A login is counted against its client address, then against the pair
// (account, address), then against the account: a stranger's failures
// block the stranger's address and pair, never the owner's pair, and the
// account-wide ceiling is far above what one address may try. Neither the
// pair's limit nor the ceiling applies from an address the account logged
// in from lately (a known address): there the address's limit alone bounds
// the failures, so that colleagues mistyping the shop's password at its
// office do not lock each other out. A success gives its own attempt back
// (it was no failure) and clears its pair.
const (
	// MaxLoginFailuresPerPair bounds the failures for one account from one
	// client address per LoginWindow, except from a known address.
	MaxLoginFailuresPerPair = 5
	// MaxLoginFailuresPerAddress bounds the failures from one client
	// address, whatever the accounts, per LoginWindow.
	MaxLoginFailuresPerAddress = 20
	// MaxLoginFailuresPerAccount bounds the failures for one account from
	// every address together per AccountWindow (ASVS 4.0.3 2.2.1: at most
	// 100 an hour), except from a known address.
	MaxLoginFailuresPerAccount = 100
	// MaxRegistrationsPerAddress bounds the registrations from one client
	// address per RegistrationWindow, unless SignUp is given another bound
	// (the daemon's registrations-per-hour setting, of that default).
	MaxRegistrationsPerAddress = 10

	// LoginWindow is the window of the per-pair and per-address counts.
	LoginWindow = 15 * time.Minute
	// AccountWindow is the window of the per-account ceiling.
	AccountWindow = time.Hour
	// RegistrationWindow is the window of the registration count.
	RegistrationWindow = time.Hour
	// KnownAddressFor is how long an address the account logged in from
	// escapes the per-pair limit and the per-account ceiling.
	KnownAddressFor = 30 * 24 * time.Hour
)

// MsgRegistrationThrottled refuses a registration past the address's limit.
const MsgRegistrationThrottled = "Trop de comptes ont été créés depuis votre adresse réseau. Veuillez réessayer dans une heure."

// rule is one throttling count: at most limit attempts per window on a key.
type rule struct {
	prefix string
	limit  int
	window time.Duration
	// exempt: the rule does not apply from an address the account logged
	// in from within KnownAddressFor (the pair's limit and the account's
	// ceiling).
	exempt bool
}

// The rules, in the order a login or registration is counted. They are
// variables only so that a test can lower a ceiling.
var (
	loginPerAddress = rule{prefix: "login:address:", limit: MaxLoginFailuresPerAddress, window: LoginWindow}
	loginPerPair    = rule{prefix: "login:pair:", limit: MaxLoginFailuresPerPair, window: LoginWindow, exempt: true}
	loginPerAccount = rule{prefix: "login:account:", limit: MaxLoginFailuresPerAccount, window: AccountWindow, exempt: true}
	signupPerClient = rule{prefix: "register:address:", limit: MaxRegistrationsPerAddress, window: RegistrationWindow}
)

// check is a rule applied to one key.
type check struct {
	rule
	key string
}

// hit is an attempt counted on a key: its window, so that it can be given
// back while that window lasts.
type hit struct {
	key         string
	windowStart int64
}

// attempt is one login or registration being counted.
type attempt struct {
	checks []check
	// known is the key of (account, address) logged in lately, and reset
	// the key a success clears; both empty for a registration.
	known, reset string
	// refused is the refusal for a key past its limit.
	refused string
	hits    []hit
}

// clientKey is the part of a key naming the client: its address, or for
// IPv6 its /64, which one host usually holds whole.
func clientKey(client string) string {
	a, err := netip.ParseAddr(client)
	if err != nil {
		return client
	}
	a = a.Unmap()
	if a.Is6() {
		p, err := a.Prefix(64)
		if err == nil {
			return p.String()
		}
	}
	return a.String()
}

// accountKey names an account in keys: a digest of the email's unique
// form, so that keys have a bounded length and the table no emails.
func accountKey(email string) string {
	sum := sha256.Sum256([]byte(EmailKey(email)))
	return hex.EncodeToString(sum[:16])
}

func loginAttempt(email, client string) *attempt {
	acc, cli := accountKey(email), clientKey(client)
	return &attempt{
		checks: []check{
			{loginPerAddress, loginPerAddress.prefix + cli},
			{loginPerPair, loginPerPair.prefix + acc + ":" + cli},
			{loginPerAccount, loginPerAccount.prefix + acc},
		},
		known:   "login:known:" + acc + ":" + cli,
		reset:   loginPerPair.prefix + acc + ":" + cli,
		refused: MsgThrottled,
	}
}

func registrationAttempt(client string, perAddress int) *attempt {
	r := signupPerClient
	if perAddress > 0 {
		r.limit = perAddress
	}
	return &attempt{
		checks:  []check{{r, r.prefix + clientKey(client)}},
		refused: MsgRegistrationThrottled,
	}
}

// throttled is the refusal of an attempt, to be tried again at until.
func (a *attempt) throttled(until int64, now time.Time) error {
	after := time.Duration(math.Ceil(float64(until-now.UnixMilli())/1000)) * time.Second
	return &limit.Later{Err: core.Refuse(core.ErrThrottled, a.refused), After: max(after, time.Second)}
}

// begin counts the attempt on each key in turn, stopping at the first past
// its limit, whose refusal (core.ErrThrottled, a *limit.Later) it returns.
// A key already spent is refused by a read alone, so that a flood of
// refused attempts writes nothing.
func (a *attempt) begin(ctx context.Context, db *store.DB, now time.Time) error {
	if until, spent, err := a.spent(ctx, db, now); err != nil {
		return err
	} else if spent {
		return a.throttled(until, now)
	}
	var until int64
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		a.hits, until = a.hits[:0], 0
		for _, c := range a.checks {
			var row struct {
				Attempts    int   `db:"attempts"`
				WindowStart int64 `db:"window_start"`
				WindowEnd   int64 `db:"window_end"`
			}
			ms := now.UnixMilli()
			err := store.Get(ctx, tx, &row, `INSERT INTO throttle (key, attempts, window_start, window_end)
				VALUES (?, 1, ?, ?)
				ON CONFLICT (key) DO UPDATE SET
					attempts = CASE WHEN throttle.window_end <= excluded.window_start THEN 1 ELSE throttle.attempts + 1 END,
					window_start = CASE WHEN throttle.window_end <= excluded.window_start THEN excluded.window_start ELSE throttle.window_start END,
					window_end = CASE WHEN throttle.window_end <= excluded.window_start THEN excluded.window_end ELSE throttle.window_end END
				RETURNING attempts, window_start, window_end`,
				c.key, ms, now.Add(c.window).UnixMilli())
			if err != nil {
				return fmt.Errorf("accounts: throttle: %w", err)
			}
			a.hits = append(a.hits, hit{key: c.key, windowStart: row.WindowStart})
			if row.Attempts <= c.limit {
				continue
			}
			if c.exempt {
				known, err := a.isKnown(ctx, tx, now)
				if err != nil {
					return err
				}
				if known {
					continue
				}
			}
			until = row.WindowEnd
			return nil
		}
		return nil
	})
	if err != nil {
		return err
	}
	if until != 0 {
		return a.throttled(until, now)
	}
	return nil
}

// spent reads the attempt's keys and reports whether one has used up its
// window already, and until when.
func (a *attempt) spent(ctx context.Context, q store.Q, now time.Time) (int64, bool, error) {
	keys := make([]string, 0, len(a.checks)+1)
	for _, c := range a.checks {
		keys = append(keys, c.key)
	}
	if a.known != "" {
		keys = append(keys, a.known)
	}
	var rows []struct {
		Key       string `db:"key"`
		Attempts  int    `db:"attempts"`
		WindowEnd int64  `db:"window_end"`
	}
	if err := store.SelectIn(ctx, q, &rows, `SELECT key, attempts, window_end FROM throttle WHERE key IN (?)`, keys); err != nil {
		return 0, false, fmt.Errorf("accounts: throttle: %w", err)
	}
	ms := now.UnixMilli()
	byKey := make(map[string]int64, len(rows))
	attempts := make(map[string]int, len(rows))
	for _, r := range rows {
		if r.WindowEnd > ms {
			byKey[r.Key], attempts[r.Key] = r.WindowEnd, r.Attempts
		}
	}
	_, known := byKey[a.known]
	for _, c := range a.checks {
		if end, ok := byKey[c.key]; ok && attempts[c.key] >= c.limit && !(c.exempt && known) {
			return end, true, nil
		}
	}
	return 0, false, nil
}

// isKnown reports whether the account logged in from this address within
// KnownAddressFor.
func (a *attempt) isKnown(ctx context.Context, q store.Q, now time.Time) (bool, error) {
	var end int64
	err := store.Get(ctx, q, &end, `SELECT window_end FROM throttle WHERE key = ?`, a.known)
	if store.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("accounts: throttle: %w", err)
	}
	return end > now.UnixMilli(), nil
}

// giveBack returns the attempt's counts: it never reached a verdict (the
// hashing gate or the request gave up first). It runs even when ctx is
// over.
func (a *attempt) giveBack(ctx context.Context, db *store.DB) error {
	return db.Tx(context.WithoutCancel(ctx), func(tx *sqlx.Tx) error {
		return a.release(ctx, tx)
	})
}

// release takes the attempt's counts back, in the windows they were made.
func (a *attempt) release(ctx context.Context, tx *sqlx.Tx) error {
	for _, h := range a.hits {
		if _, err := store.Exec(ctx, tx, `UPDATE throttle SET attempts = attempts - 1
			WHERE key = ? AND window_start = ? AND attempts > 0`, h.key, h.windowStart); err != nil {
			return fmt.Errorf("accounts: throttle: %w", err)
		}
	}
	return nil
}

// succeeded records a successful login in tx: the attempt was no failure,
// its pair starts over, and its address is known for KnownAddressFor.
func (a *attempt) succeeded(ctx context.Context, tx *sqlx.Tx, now time.Time) error {
	if err := a.release(ctx, tx); err != nil {
		return err
	}
	if _, err := store.Exec(ctx, tx, `DELETE FROM throttle WHERE key = ?`, a.reset); err != nil {
		return fmt.Errorf("accounts: throttle: %w", err)
	}
	if _, err := store.Exec(ctx, tx, `INSERT INTO throttle (key, attempts, window_start, window_end) VALUES (?, 0, ?, ?)
		ON CONFLICT (key) DO UPDATE SET window_start = excluded.window_start, window_end = excluded.window_end`,
		a.known, now.UnixMilli(), now.Add(KnownAddressFor).UnixMilli()); err != nil {
		return fmt.Errorf("accounts: throttle: %w", err)
	}
	return nil
}
