package daemon

import (
	"context"
	"fmt"
	"time"

	"github.com/go-co-op/gocron/v2"

	"primeur/core/jobs"
	"primeur/core/store"
)

// startJobs schedules every job with gocron in the business time zone, on
// the cron line of its Schedule (PRODUCT §17), and returns the function
// stopping the scheduler: it waits for the running jobs, which see ctx
// cancelled, for up to DrainTimeout. Each job also runs once at start, to
// catch up with what fell due while the daemon was stopped.
// Every replica runs them: each job is safe to run on several processes at
// once (core/jobs).
func (d *Daemon) startJobs(ctx context.Context) (func(), error) {
	s, err := gocron.NewScheduler(gocron.WithLocation(d.clock.Zone()), gocron.WithStopTimeout(DrainTimeout))
	if err != nil {
		return nil, fmt.Errorf("daemon: scheduler: %w", err)
	}
	env := jobs.EnvOf(d.cfg, d.db, d.log)
	env.Observe = d.observe
	for _, job := range jobs.All {
		cron, err := job.Schedule.Cron()
		if err != nil {
			return nil, fmt.Errorf("daemon: job %s: %w", job.Name, err)
		}
		_, err = s.NewJob(gocron.CronJob(cron, false), gocron.NewTask(func() { d.runJob(ctx, env, job) }),
			gocron.WithName(job.Name),
			gocron.WithSingletonMode(gocron.LimitModeReschedule),
			gocron.WithStartAt(gocron.WithStartImmediately()))
		if err != nil {
			return nil, fmt.Errorf("daemon: schedule %s: %w", job.Name, err)
		}
	}
	s.Start()
	return func() {
		if err := s.Shutdown(); err != nil {
			d.log.Warn("scheduler shutdown", "err", err)
		}
	}, nil
}

// runJob runs one job at the daemon's current time, logs its report and
// counts the run (and its failure) in the metrics. A panic in the job is
// recovered, logged and counted as a failure: the next run tries again,
// and the daemon keeps serving.
func (d *Daemon) runJob(ctx context.Context, env jobs.Env, job jobs.Job) {
	if ctx.Err() != nil {
		return
	}
	d.metrics.jobRuns.WithLabelValues(job.Name).Inc()
	defer func() {
		if v := recover(); v != nil {
			d.metrics.jobFailures.WithLabelValues(job.Name).Inc()
			d.recovered(ctx, "job "+job.Name, v)
		}
	}()
	start := time.Now()
	d.log.Debug("job started", "job", job.Name)
	report, err := job.Run(ctx, env, d.now())
	if f, cause := store.FirstFault(err); f != store.NoFault {
		// The disk full or the database unreachable: what was done is
		// committed, the rest waits for the next run. One line, with
		// the first failure, not one per document.
		d.metrics.jobFailures.WithLabelValues(job.Name).Inc()
		d.metrics.fault(f)
		d.log.Error("job stopped by a fault; its next run takes it up", "job", job.Name, "fault", string(f),
			"report", report.String(), "err", cause, "duration", time.Since(start))
		return
	}
	if err != nil {
		d.metrics.jobFailures.WithLabelValues(job.Name).Inc()
		d.log.Error("job failed", "job", job.Name, "report", report.String(), "err", err, "duration", time.Since(start))
		return
	}
	d.log.Info("job done", "job", job.Name, "report", report.String(), "duration", time.Since(start))
}
