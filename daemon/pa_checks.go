package daemon

import (
	"context"
	"time"

	"primeur/core/limit"
	"primeur/core/pa"
)

// A PA connection check ("Tester la connexion", and "Enregistrer la
// connexion", which checks first) calls addresses the producer typed: a
// token URL, then a healthcheck. So that no producer makes the daemon a
// caller at the rate it sends requests, the checks are limited per
// producer (PRODUCT §16, SECURITY.md "PA client secrets"): paChecksPerWindow
// in paChecksWindow each (a window per process), one at a time each, and
// paChecksAtOnce at once for the whole daemon, a check waiting its turn
// paChecksWait at most. A refusal is 429 (or 503 for the daemon's own
// gate full) with its French message and Retry-After, and stores nothing.
const (
	paChecksPerWindow = 10
	paChecksWindow    = 10 * time.Minute
	paChecksAtOnce    = 4
	paChecksWait      = 10 * time.Second
)

// French refusals of a check.
const (
	MsgPAChecksTooMany = "Trop de tests de connexion à la plateforme agréée : réessayez dans quelques minutes."
	MsgPACheckRunning  = "Un test de connexion à votre plateforme agréée est déjà en cours : attendez sa réponse."
)

// paChecks are the daemon's limits on PA connection checks.
type paChecks struct {
	window *limit.Window
	gate   *limit.Fair
}

func newPAChecks() paChecks {
	return paChecks{
		window: limit.NewWindow(paChecksPerWindow, paChecksWindow, MsgPAChecksTooMany),
		gate:   limit.NewFair("pa connection check", paChecksAtOnce, paChecksWait, limit.MsgBusy, MsgPACheckRunning, 5*time.Second),
	}
}

// checkPAOf checks c for producerID within the limits: refused is the
// limits' refusal (the check was not made), failed the PA's answer (nil
// when the connection works).
func (d *Daemon) checkPAOf(ctx context.Context, producerID string, c pa.Connection) (failed, refused error) {
	if err := d.paChecks.window.Take(producerID, d.now()); err != nil {
		return nil, err
	}
	err := d.paChecks.gate.Do(ctx, producerID, func() error {
		failed = checkPA(ctx, c)
		return nil
	})
	return failed, err
}
