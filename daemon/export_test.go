package daemon

import (
	"context"

	"primeur/core/jobs"
	"primeur/core/limit"
)

// RunJob runs job once as the scheduler does (runJob), with the daemon's
// job environment, for the tests of the metrics.
func (d *Daemon) RunJob(ctx context.Context, job jobs.Job) {
	env := jobs.EnvOf(d.cfg, d.db, d.log)
	env.Observe = d.observe
	d.runJob(ctx, env, job)
}

// Observe is the observer the daemon hands its jobs.
func (d *Daemon) Observe() jobs.Observer { return d.observe }

// Exporting is the daemon's gate of the personal data exports.
func (d *Daemon) Exporting() *limit.Gate { return d.exporting }
