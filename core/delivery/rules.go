// Package delivery holds what happens to a delivery once it is planned
// (PRODUCT §16): the shop's changes (date, sent quantities) and cancellation
// before the lock, the lock itself at delivery.lock on the delivery date,
// the producer's claim (demande d'avoir) on a done delivery within two
// working days of it (window.go), the shop's reception on its phone
// (reception.go), whose differences are the shop's claim, each claim
// answered by the other party, and the system's auto-validation of the
// claims made in the sole interest of the party that keeps silent.
//
// Every operation takes the caller's id and checks that it is the right
// party of the order (anyone else gets core.ErrNotFound), runs inside the
// caller's transaction with the delivery row locked, and changes nothing
// when it refuses. Times are in the business time zone (Rules.Location).
package delivery

import (
	"fmt"
	"time"

	"primeur/core/calendar"
	"primeur/core/config"
)

// Rules are the time rules of deliveries, from the configuration.
type Rules struct {
	// Location is the business time zone (Europe/Paris).
	Location *time.Location
	// LockAt is the time of day, after midnight, when a planned delivery
	// locks on its date (12:00).
	LockAt time.Duration
	// AutovalidateAfter is how long a claim that lowers the amount may
	// wait for the shop's review before the system accepts it (48 h); a
	// claim that raises it waits for the shop (AcceptedBySilence).
	AutovalidateAfter time.Duration
}

// NoteDelay is how long after the lock the delivery note is emailed.
const NoteDelay = 30 * time.Minute

// RulesOf reads the rules from a validated configuration.
func RulesOf(cfg *config.Config) Rules {
	return Rules{Location: cfg.Location, LockAt: cfg.Delivery.LockAt, AutovalidateAfter: cfg.Claims.AutovalidateDelay}
}

// DefaultRules are the rules of the default configuration.
func DefaultRules() Rules { return RulesOf(config.Defaults()) }

// Today is the calendar date of t in the business time zone.
func (r Rules) Today(t time.Time) string { return calendar.DateOf(t.In(r.Location)).String() }

// LockTime is the moment a delivery dated day locks.
func (r Rules) LockTime(day string) time.Time {
	d, _ := calendar.ParseDate(day)
	return d.At(r.LockAt, r.Location)
}

// Locked reports whether a delivery dated day is past its lock at now.
func (r Rules) Locked(day string, now time.Time) bool {
	return !now.Before(r.LockTime(day))
}

// LockedThrough is the latest date whose deliveries are locked at now:
// today once today's lock time has passed, yesterday before.
func (r Rules) LockedThrough(now time.Time) string {
	today := r.Today(now)
	if r.Locked(today, now) {
		return today
	}
	return calendar.AddDaysTo(today, -1)
}

// LockLabel is the lock time as French users read it: "12h", "7h30".
func (r Rules) LockLabel() string {
	h, m := int(r.LockAt/time.Hour), int(r.LockAt%time.Hour/time.Minute)
	if m == 0 {
		return fmt.Sprintf("%dh", h)
	}
	return fmt.Sprintf("%dh%02d", h, m)
}
